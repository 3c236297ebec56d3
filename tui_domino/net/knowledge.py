"""One peer's knowledge of a round: its own hand, the public board, placeholders for the rest.

The rules engine's state holds both hands. A peer knows only its own hand and the public
moves, so it keeps an engine state in which its own hand is real and the unseen tiles (the
opponent's hand and the bazaar) are placeholders, re-arranged through the engine's JSON
round trip before every move so that the move is possible and no false end of the round is
detected. See docs/protocol.md, section 6.
"""

from __future__ import annotations

import copy
from typing import Any, cast

from tui_domino import rules
from tui_domino.rules.types import SeatView

Tile = tuple[int, ...]
JSON = dict[str, Any]


class ClaimRefuted(Exception):
    """A claim of the opponent is impossible on what this peer can see."""


class NotLegal(Exception):
    """The opponent's move breaks the rules on the public board, however the unseen tiles
    lie (a tile that does not fit, a pass while he may still draw, ...)."""


def tiles_of(move: rules.Move) -> list[Tile]:
    if move.placements is not None:
        return [p.tile for p in move.placements]
    return [move.tile] if move.tile is not None else []


def opening_order(variant: str) -> list[Tile]:
    """The opening rule's priority list: the first tile of it found in a hand leads."""
    tiles = rules.full_set(variant)
    if variant == "spider":
        return [(n, n) for n in range(1, 7)]
    if variant == "classic":
        doubles = [(n, n) for n in range(6, -1, -1)]
        others = sorted((t for t in tiles if t[0] != t[1]), key=lambda t: (sum(t), max(t)),
                        reverse=True)
        return doubles + others
    triples = [(n, n, n) for n in range(5, -1, -1)]
    others = sorted((t for t in tiles if not t[0] == t[1] == t[2]),
                    key=lambda t: (sum(t), t[2], t[1], t[0]), reverse=True)
    return triples + others


def block_possible(d: JSON) -> bool:
    """The public half of a blocked round: nobody can draw any more."""
    if d["variant"] == "classic":
        return bool(d["bazaar_size"] <= d["bazaar_reserve"]) if "bazaar_size" in d else (
            len(d["bazaar"]) <= d["bazaar_reserve"])
    size = d["bazaar_size"] if "bazaar_size" in d else len(d["bazaar"])
    return bool(size == 0)


class Knowledge:
    """The engine state as one peer sees it (``me`` is 0 or 1)."""

    def __init__(self, variant: str, options: rules.Options, me: int, hand: list[Tile]
                 ) -> None:
        """A round just dealt; the opening is set later with ``start``."""
        self.variant = variant
        self.me = me
        self.opp = 1 - me
        self.started = False
        full = rules.full_set(variant)
        size = len(hand)
        mine = {tuple(t) for t in hand}
        unseen = [t for t in full if t not in mine]
        must: list[Tile] = []
        if variant == "spider" and not any(t[0] == t[1] != 0 for t in mine):
            must = [next(t for t in unseen if t[0] == t[1] != 0)]
        rest = [t for t in unseen if t not in must]
        hands: list[list[Tile]] = [[], []]
        hands[me] = sorted(mine)
        hands[self.opp] = must + rest[: size - len(must)]
        bazaar = rest[size - len(must):]
        self.state: rules.RoundState = rules.new_round(
            variant,
            deal={"hands": [[list(t) for t in h] for h in hands],
                  "bazaar": [list(t) for t in bazaar]},
            leader=None,
            options=options,
        )

    def start(self, leader: int | None = None, opening: tuple[int, Tile] | None = None) -> None:
        """Sets who opens: a free ``leader`` (the last round's winner) or the call-down's
        ``opening`` (player, tile he must lead)."""
        d = self._json()
        if opening is not None:
            p, t = opening
            if p == self.opp:
                unseen = self.unseen(d)
                if t not in unseen:
                    raise ClaimRefuted("opened with a tile this side holds")
                hand = self._fill([t], unseen, set(), len(d["hands"][self.opp]))
                held = set(hand)
                d["hands"] = [list(h) for h in d["hands"]]
                d["hands"][self.opp] = sorted(list(x) for x in hand)
                d["bazaar"] = [list(x) for x in unseen if x not in held]
            d["to_move"] = p
            if self.variant == "classic":
                d["forced"] = list(t)
                d["leader"] = None
            elif self.variant == "triominos":
                d["forced"] = list(t)
            else:
                d["opener"] = p
                d["opening_double"] = t[0]
        else:
            assert leader in (0, 1)
            d["to_move"] = leader
            if self.variant == "classic":
                d["forced"] = None
                d["leader"] = leader
            elif self.variant == "triominos":
                d["forced"] = None
        self._load(d)
        self.started = True

    def copy(self) -> Knowledge:
        """A working copy that shares nothing that a move changes (a move is checked on it,
        and it replaces this one only when the move is taken)."""
        work = copy.copy(self)
        work.state = self.state.clone()
        return work

    # The engine copies the history on every JSON round trip; the placeholders never touch
    # it, so it is set aside while they are re-arranged.
    def _json(self) -> JSON:
        history = self.state.history
        self.state.history = []
        try:
            return cast(JSON, self.state.to_json())
        finally:
            self.state.history = history

    def _load(self, d: JSON) -> None:
        history = self.state.history
        d = dict(d)
        d["history"] = []
        self.state = rules.state_from_json(d)
        self.state.history = history

    # -- what this peer sees --------------------------------------------------------------------

    def view(self) -> SeatView:
        return self.state.view(self.me)

    @property
    def hand(self) -> list[Tile]:
        return [tuple(t) for t in self.state.hands[self.me]]

    def unseen(self, d: JSON | None = None) -> list[Tile]:
        d = d if d is not None else self._json()
        seen = {tuple(t) for t in d["hands"][self.me]} | set(rules.board_tiles(d))
        return [t for t in rules.full_set(self.variant) if t not in seen]

    def legal_moves(self) -> list[rules.Move]:
        """My legal moves (only meaningful on my turn); a truly blocked round: pass."""
        if self.state.is_over:
            return [rules.PASS]
        if self.state.to_move != self.me:
            return []
        return self.state.legal_moves()

    def can_place(self, player: int) -> bool:
        """Whether ``player`` (this peer) holds a tile placeable now."""
        d = self._json()
        return bool(self._playable(d, player, [tuple(t) for t in d["hands"][player]]))

    def block_possible(self) -> bool:
        return block_possible(self._json())

    def public_end(self) -> bool:
        """The round is over for a reason both sides see (a player went out, every arm
        closed), not a block that must be claimed."""
        s = self.state
        if not s.is_over:
            return False
        if s.end_reason == "domino":
            return True
        d = self._json()
        return self.variant == "spider" and all(a["closed"] for a in d["arms"].values())

    # -- applying moves -------------------------------------------------------------------------

    def apply_mine(self, move: rules.Move, drawn: Tile | None = None,
                   their_next: rules.Move | None = None) -> None:
        """Applies my own move; ``drawn`` is the tile a draw revealed to me; for a pass,
        ``their_next`` is the opponent's answer to it."""
        d = self._json()
        unseen = self.unseen(d)
        h = len(d["hands"][self.opp])
        if move.kind == "draw":
            assert drawn is not None and drawn in unseen
            rest = [t for t in unseen if t != drawn]
            good = self._playable(d, self.opp, rest)
            self._arrange(d, self._fill([], rest, good, h), first=drawn)
        elif move.kind == "place":
            good = self._after(d, move, self.me, unseen)
            self._arrange(d, self._fill([], unseen, good, h))
        elif their_next is not None and their_next.kind == "place":
            must = tiles_of(their_next)
            if any(t not in unseen for t in must):
                raise ClaimRefuted("placed a tile this side holds or saw played")
            self._arrange(d, self._fill(must, [t for t in unseen if t not in must], set(), h))
        self.state.apply(move)

    def apply_theirs(self, move: rules.Move) -> None:
        """Applies the opponent's move (placed tiles are proven by the caller); raises
        ClaimRefuted when his draw or pass is impossible on what this peer sees, and NotLegal
        when the move breaks the rules; either way before anything has changed."""
        d = self._json()
        unseen = self.unseen(d)
        h = len(d["hands"][self.opp])
        if move.kind == "place":
            must = tiles_of(move)
            if any(t not in unseen for t in must):
                raise ClaimRefuted("placed a tile this side holds or saw played")
            rest = [t for t in unseen if t not in must]
            arranged = self._arranged(d, self._fill(must, rest, set(), h))
            self._check_legal(arranged, move)
            # Keep a tile playable after the move in his hand whenever one exists.
            self._load(arranged)
            d2 = self._json()
            good = self._after(d2, move, self.opp, rest)
            self._arrange(d2, self._fill(must, rest, good, h))
        else:
            playable = self._playable(d, self.opp, unseen)
            dull = [t for t in unseen if t not in playable]
            if len(dull) < h:
                raise ClaimRefuted(
                    f"claimed to have no playable tile, but {len(unseen) - len(dull)} of the "
                    f"{len(unseen)} unseen tiles are playable and only {len(dull)} are not")
            hand = dull[:h]
            rest = [t for t in unseen if t not in hand]
            top = next((t for t in rest if t in playable), None)
            arranged = self._arranged(d, hand, first=top)
            self._check_legal(arranged, move)
            self._load(arranged)
        self.state.apply(move)

    @staticmethod
    def _check_legal(d: JSON, move: rules.Move) -> None:
        if move not in rules.state_from_json({**d, "history": []}).legal_moves():
            raise NotLegal(f"{move} is not a legal move now")

    # -- placeholders ---------------------------------------------------------------------------

    @staticmethod
    def _fill(must: list[Tile], pool: list[Tile], good: set[Tile], size: int) -> list[Tile]:
        hand = list(must)
        pick = next((t for t in pool if t in good and t not in hand), None)
        if pick is not None and len(hand) < size:
            hand.append(pick)
        for t in pool:
            if len(hand) >= size:
                break
            if t not in hand:
                hand.append(t)
        return hand

    def _arrange(self, d: JSON, opp_hand: list[Tile], first: Tile | None = None) -> None:
        self._load(self._arranged(d, opp_hand, first))

    def _arranged(self, d: JSON, opp_hand: list[Tile], first: Tile | None = None) -> JSON:
        """``d`` with the opponent holding ``opp_hand`` and the other unseen tiles in the
        bazaar (``first`` on top)."""
        unseen = self.unseen(d)
        held = set(opp_hand)
        bazaar = [t for t in unseen if t not in held]
        if first is not None:
            bazaar.remove(first)
            bazaar.insert(0, first)
        d = dict(d)
        hands = [list(h) for h in d["hands"]]
        hands[self.opp] = sorted(list(t) for t in opp_hand)
        d["hands"] = hands
        d["bazaar"] = [list(t) for t in bazaar]
        return d

    def _after(self, d: JSON, move: rules.Move, player: int, pool: list[Tile]) -> set[Tile]:
        """The tiles of ``pool`` the opponent could play after ``player`` makes ``move``."""
        trial = rules.state_from_json({**d, "history": []})
        if trial.to_move != player:
            return set()
        trial.apply(move)
        d2 = cast(JSON, trial.to_json())
        if not trial.is_over and trial.to_move != self.opp:
            return set()
        unseen_after = set(self.unseen(d2))
        return self._playable(d2, self.opp, [t for t in pool if t in unseen_after])

    def _playable(self, d: JSON, player: int, candidates: list[Tile]) -> set[Tile]:
        """Which of ``candidates`` ``player`` could place on the board of ``d`` (for the
        opponent: as if he held all of them)."""
        if not candidates:
            return set()
        p = dict(d)
        hands = [list(h) for h in d["hands"]]
        if player == self.opp:
            hands[self.opp] = sorted(list(t) for t in candidates)
            held = set(candidates)
            p["bazaar"] = [list(t) for t in self.unseen(d) if t not in held]
        p["hands"] = hands
        p.update(to_move=player, over=False, winner=None, end_reason=None, history=[])
        if self.variant in ("classic", "triominos"):
            p["forced"] = None
        if self.variant == "triominos":
            p["draws_this_turn"] = 0
        if not hands[0] or not hands[1]:
            return set()
        try:
            moves = rules.state_from_json(p).legal_moves()
        except ValueError:
            return set()
        wanted = set(candidates)
        return {t for m in moves if m.kind == "place" for t in tiles_of(m) if t in wanted}
