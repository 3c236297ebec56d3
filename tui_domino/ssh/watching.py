"""Watching a lobby duel: the *frame* a duel's host game sends the lobby after every change,
and the table a watcher's screen shows from the latest one.

A frame is the table as anybody may see it: the board, the moves (a draw without its tile),
both hands' sizes, the bazaar's size, the round's points and the match's totals, whose step
it is and how long he has for it, the players' chat, and the match's result at its end. It
is built from the host's own view of his seat, with what only he may see taken out: his hand
and the tiles he drew. (The other hand is not in the host's game at all: the deal is dealt
by mental poker, and no game holds the other's tiles.) Nothing else of the host's knowledge
is copied: the frame is a list of what goes in, not a copy with things taken out of it.

A watcher's game reads a frame as hostile input (``read_frame``): the lobby relays it from
another visitor's game. ``WatchTable`` is the same kind of table (``ui.table.Table``) as a
local match's and a duel's, so the watcher's board is drawn by the same code.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from tui_domino import rules
from tui_domino.text import one_line
from tui_domino.ui.session import Seat, describe_record, log_lines
from tui_domino.ui.table import match_scores

if TYPE_CHECKING:
    from tui_domino.net.core import DuelCore

FRAME_VERSION = 1
CHAT_LINES = 20  # the players' chat lines a frame carries (the latest)
CHAT_WIDTH = 200  # characters of a chat line
NAME_WIDTH = 20
# What of a seat's view a frame carries (the board's own fields among them, by variant).
# Not "forced" nor "opening_double": the tile that must open a round is in a hand until
# it is played.
SHARED_KEYS = ("format", "variant", "to_move", "points", "winner", "end_reason", "over",
               "options", "hand_sizes", "bazaar_size", "bazaar_reserve", "match", "leader",
               "opener", "draws_this_turn")
BOARD_KEYS = ("line", "ends", "arms", "center", "board")


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """What anybody may see of a seat's ``view``: no hand, no drawn tile."""
    out = {k: view[k] for k in (*SHARED_KEYS, *BOARD_KEYS) if k in view}
    out["history"] = [{"player": r["player"], "move": r["move"], "events": r["events"]}
                      for r in view.get("history", [])]
    return out


def public_frame(core: DuelCore, ratings: Sequence[str | None],
                 chat: Iterable[tuple[int, str]]) -> dict[str, Any]:
    """The frame of ``core``'s duel as it stands (``ratings``: the seats' as they read;
    ``chat``: the players' lines, oldest first)."""
    view = core.view()
    settings = core.settings
    result = core.match.result
    owes = core.owes()
    left = core.turn_left()
    return {
        "v": FRAME_VERSION,
        "variant": settings.variant if settings is not None else None,
        "target": (settings.target or 0) if settings is not None else 0,
        "names": [one_line(n, NAME_WIDTH) for n in core.seat.names],
        "ratings": list(ratings),
        "round": view["net"]["round"] if view is not None else 0,
        "totals": list(core.match.totals),
        "view": public_view(cast(dict[str, Any], view)) if view is not None else None,
        "owes": owes,
        "left": round(left, 1) if left is not None and owes is not None else None,
        "chat": [[p, one_line(t, CHAT_WIDTH)] for p, t in list(chat)[-CHAT_LINES:]],
        "over": bool(core.finished),
        "winner": result.get("winner") if result is not None else None,
    }


@dataclass
class Frame:
    """A frame as a watcher's game read it, checked (``read_frame``)."""

    variant: str
    target: int
    names: list[str]
    ratings: list[str | None]
    round: int
    totals: list[int]
    view: rules.SeatView | None
    owes: int | None
    left: float | None
    chat: list[tuple[int, str]]
    over: bool
    winner: int | None
    at: float = field(default_factory=time.monotonic)  # when it came (the clock runs on)

    def time_left(self, now: float | None = None) -> float | None:
        """Seconds left to the one who owes the next step, as of ``now``."""
        if self.left is None:
            return None
        return max(0.0, self.left - ((now if now is not None else time.monotonic()) - self.at))


def _ints(raw: object, n: int) -> list[int] | None:
    if (isinstance(raw, list) and len(raw) == n
            and all(type(x) is int and -100_000 < x < 100_000 for x in raw)):
        return list(raw)
    return None


def _seat(raw: object) -> int | None:
    return raw if type(raw) is int and raw in (0, 1) else None


def read_view(variant: str, raw: object) -> rules.SeatView | None:
    """A frame's view, checked as far as the board's drawing needs: None when it is not
    one. (The drawing itself is guarded too: see ``WatchScreen``.)"""
    if not isinstance(raw, dict):
        return None
    sizes = _ints(raw.get("hand_sizes"), 2)
    points = _ints(raw.get("points"), 2)
    history = raw.get("history")
    if (sizes is None or points is None or type(raw.get("bazaar_size")) is not int
            or not isinstance(history, list) or len(history) > 500
            or not all(isinstance(r, dict) and _seat(r.get("player")) is not None
                       and isinstance(r.get("move"), dict) and isinstance(r.get("events"), list)
                       for r in history)):
        return None
    view = dict(raw)
    view["history"] = [{"player": r["player"], "move": r["move"], "events": r["events"]}
                       for r in history]
    view["player"] = 0
    view["hand"] = []
    view["variant"] = variant
    return cast(rules.SeatView, view)


def read_frame(raw: object) -> Frame | None:
    """A frame as the lobby relayed it, checked: None when it is not one."""
    if not isinstance(raw, dict) or raw.get("v") != FRAME_VERSION:
        return None
    variant, target, names = raw.get("variant"), raw.get("target"), raw.get("names")
    totals, ratings, chat = _ints(raw.get("totals"), 2), raw.get("ratings"), raw.get("chat")
    if (variant not in rules.VARIANTS or type(target) is not int or not 0 <= target <= 10_000
            or not isinstance(names, list) or len(names) != 2
            or not all(isinstance(n, str) for n in names) or totals is None
            or not isinstance(ratings, list) or len(ratings) != 2
            or type(raw.get("round")) is not int or not isinstance(chat, list)):
        return None
    left = raw.get("left")
    view = read_view(str(variant), raw.get("view")) if raw.get("view") is not None else None
    if raw.get("view") is not None and view is None:
        return None
    lines = [(p[0], one_line(p[1], CHAT_WIDTH)) for p in chat[-CHAT_LINES:]
             if isinstance(p, list) and len(p) == 2 and _seat(p[0]) is not None
             and isinstance(p[1], str)]
    return Frame(
        variant=str(variant), target=target,
        names=[one_line(n, NAME_WIDTH) or "?" for n in names],
        ratings=[r if isinstance(r, str) and len(r) <= 6 and r.rstrip("?").isdigit() else None
                 for r in ratings],
        round=int(raw["round"]), totals=totals, view=view, owes=_seat(raw.get("owes")),
        left=float(left) if isinstance(left, int | float) and 0 <= left < 100_000 else None,
        chat=lines, over=raw.get("over") is True, winner=_seat(raw.get("winner")))


class _Round:
    """The round in a frame, as the screen reads it (``ui.table.RoundLike``)."""

    def __init__(self, frame: Frame) -> None:
        view = frame.view
        self.is_over = view is None or bool(view.get("over"))
        self.to_move = None if self.is_over else frame.owes
        self.points = list(view["points"]) if view is not None else [0, 0]
        self.history: list[rules.HistoryRecord] = list(view["history"]) if view else []
        self.options: rules.Options = view["options"] if view and "options" in view else (
            rules.Options())

    def legal_moves(self) -> list[rules.Move]:
        return []  # a watcher makes none


class _Match:
    """The match in a frame (``ui.table.MatchLike``)."""

    def __init__(self, frame: Frame) -> None:
        self.round_no = frame.round
        self.target = frame.target
        self.banked = list(frame.totals)
        self.totals = list(frame.totals)
        self.is_over = frame.over


class WatchTable:
    """A lobby duel's table as its watchers see it (``ui.table.Table``), from the latest
    frame: seat 0 (the host) is drawn as the viewer's, no hand is anybody's here."""

    autosave = False
    hot_seat = False
    viewer = 0

    def __init__(self, frame: Frame) -> None:
        self.frame = frame

    @property
    def variant(self) -> str:
        return self.frame.variant

    @property
    def seats(self) -> list[Seat]:
        return [Seat(n) for n in self.frame.names]

    @property
    def state(self) -> _Round:
        return _Round(self.frame)

    @property
    def match(self) -> _Match:
        return _Match(self.frame)

    def is_human_turn(self) -> bool:
        return False

    def has_view(self) -> bool:
        return self.frame.view is not None

    def view(self) -> rules.SeatView:
        if self.frame.view is None:
            raise LookupError("no round is dealt yet")
        return self.frame.view

    def scores(self) -> list[int]:
        return match_scores(self.state, self.match)

    def name(self, player: int, viewer: int | None = None) -> str:
        return self.frame.names[player]

    def describe(self, record: rules.HistoryRecord, viewer: int | None = None,
                 count: int = 1) -> str:
        return describe_record(self.variant, self.name, record, None, count)

    def log_lines(self, records: Iterable[rules.HistoryRecord], viewer: int | None = None,
                  describe: Callable[..., str] | None = None) -> list[str]:
        return log_lines(records, None, describe or self.describe)


__all__ = ["Frame", "WatchTable", "public_frame", "public_view", "read_frame"]
