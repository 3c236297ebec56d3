"""What every variant's round state shares: the contract's members."""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, Self, cast

from tui_domino.i18n import _
from tui_domino.rules.errors import IllegalMove
from tui_domino.rules.events import ScoreEvent
from tui_domino.rules.moves import Move, move_from_json
from tui_domino.rules.types import HistoryRecord, Options, SeatView, StateJSON, copy_json

Tile = tuple[int, ...]
JSON = dict[str, Any]

FORMAT_VERSION = 1


class RoundState(ABC):
    """One round of one variant. Subclasses hold the board; this class holds the turn,
    the points, the history and the JSON/view machinery."""

    variant: str = ""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.to_move: int | None = 0
        self.points: list[int] = [0, 0]
        self.winner: int | None = None
        # How the round ended: None while playing, "domino" (a player went out) or "blocked".
        self.end_reason: str | None = None
        # Every move so far: {"player", "move", "events"} (+ "tile" for a draw).
        self.history: list[HistoryRecord] = []
        self._legal: list[Move] | None = None
        self._legal_set: frozenset[Move] | None = None

    # -- the contract -------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    @property
    @abstractmethod
    def hands(self) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        """Both hands, each a tuple of sorted tiles in ascending order."""

    @property
    @abstractmethod
    def bazaar(self) -> tuple[Tile, ...]:
        """The bazaar's tiles in draw order (index 0 is drawn next)."""

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = [] if self.to_move is None else self.generate()
            self._legal_set = frozenset(self._legal)
        return list(self._legal)

    def is_legal(self, move: Move) -> bool:
        if self._legal_set is None:
            self.legal_moves()
        assert self._legal_set is not None
        return move in self._legal_set

    def apply(self, move: Move | Mapping[str, object]) -> list[ScoreEvent]:
        """Plays ``move`` in place and returns its score events.

        An illegal or malformed move raises IllegalMove and changes nothing.
        """
        if not isinstance(move, Move):
            move = move_from_json(self.variant, move)
        if self.to_move is None:
            # TRANSLATORS: a move refused (a notice titled "Not allowed"), as are the rules'
            # other sentences in lower case
            raise IllegalMove(_("the round is over"))
        if not self.is_legal(move):
            raise IllegalMove(self._explain(move))
        player = self.to_move
        self._legal = self._legal_set = None
        events, drawn = self._play(move)
        record: HistoryRecord = {
            "player": player,
            "move": move.to_json(),
            "events": [e.to_json() for e in events],
        }
        if drawn is not None:
            record["tile"] = list(drawn)
        self.history.append(record)
        for e in events:
            self.points[e.player] += e.points
        return events

    def clone(self) -> RoundState:
        new = copy.copy(self)
        new.points = list(self.points)
        new.history = list(self.history)  # records are never mutated once written
        new.options = self.options  # never mutated
        new.detach()
        return new

    def to_json(self) -> StateJSON:
        d: JSON = {
            "format": FORMAT_VERSION,
            "variant": self.variant,
            "options": copy_json(self.options),
            "to_move": self.to_move,
            "points": list(self.points),
            "winner": self.winner,
            "over": self.is_over,
            "end_reason": self.end_reason,
            "hands": [[list(t) for t in h] for h in self.hands],
            "bazaar": [list(t) for t in self.bazaar],
            "history": copy_json(self.history),
        }
        d.update(self._board_json())
        return cast(StateJSON, d)

    def view(self, player: int) -> SeatView:
        """All that ``player`` may see: his hand, the board, the opponent's hand size and
        the bazaar's size; the opponent's drawn tiles and the bazaar order are hidden."""
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        d: JSON = dict(self.to_json())
        hands = d.pop("hands")
        d.pop("bazaar")
        d["player"] = player
        d["hand"] = hands[player]
        d["hand_sizes"] = [len(hands[0]), len(hands[1])]
        d["bazaar_size"] = len(self.bazaar)
        for rec in d["history"]:
            if rec["player"] != player:
                rec.pop("tile", None)
        return cast(SeatView, d)

    # -- for subclasses -----------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def new(cls, options: Options, *, seed: int | None, deal: Mapping[str, Any] | None,
            leader: int | None) -> Self:
        """A new round from a seeded shuffle or an explicit deal (``options`` resolved)."""

    @classmethod
    @abstractmethod
    def from_json(cls, d: JSON) -> Self:
        """Reads back ``to_json()``; ValueError (or KeyError, TypeError: the caller says it
        is malformed) on anything inconsistent."""

    @abstractmethod
    def generate(self) -> list[Move]:
        """Every legal move of the player to move (the round is not over), worked out afresh
        (``legal_moves`` keeps them; the benchmarks time this)."""

    @abstractmethod
    def _play(self, move: Move) -> tuple[list[ScoreEvent], Tile | None]:
        """Applies a legal move; returns its events and the drawn tile for a draw. Must set
        ``to_move``, ``winner`` and ``end_reason``; ``points`` are added by ``apply``."""

    @abstractmethod
    def _explain(self, move: Move) -> str:
        """Why ``move`` (known to be illegal) is illegal, in a player's words (in the
        language in use: ``_``)."""

    @abstractmethod
    def _board_json(self) -> JSON:
        """The variant's own fields of ``to_json``."""

    @abstractmethod
    def detach(self) -> None:
        """Called on a shallow copy (``clone``): gives it its own copies of the variant's
        mutable board state, which it shared with the original."""

    def _load_common(self, d: JSON) -> None:
        to_move = d["to_move"]
        if to_move not in (0, 1, None):
            raise ValueError("to_move must be 0, 1 or null")
        self.to_move = to_move
        pts = d["points"]
        if not (isinstance(pts, list) and len(pts) == 2 and all(isinstance(p, int) for p in pts)):
            raise ValueError("points must be two numbers")
        self.points = [int(pts[0]), int(pts[1])]
        if d.get("winner") not in (0, 1, None):
            raise ValueError("winner must be 0, 1 or null")
        self.winner = d.get("winner")
        self.end_reason = d.get("end_reason")
        hist = d.get("history", [])
        if not isinstance(hist, list):
            raise ValueError("history must be a list")
        self.history = copy_json(hist)
