"""The engine's JSON, typed: what ``RoundState.view(player)`` gives a seat (per variant), its
history's records, their moves and score events. The shapes are those of ``to_json`` in
rules/state.py, rules/moves.py, rules/events.py and each variant's ``_board_json``
(rules/classic.py, rules/spider.py, rules/triominos.py); see docs/engine.md."""

from __future__ import annotations

import marshal
from typing import Any, NotRequired, TypedDict, TypeVar, cast

T = TypeVar("T")


class Options(TypedDict, total=False):
    """A variant's house rules (``rules/options.py`` holds the defaults and checks them);
    each variant has only its own keys."""

    hand_size: int
    bazaar_reserve: int  # classic
    lone_blank_double: int  # spider
    opening_bonus: list[int]  # triominos
    hexagon_bonus: list[int]
    bridge_bonus: int
    draw_penalty: int
    max_draws: int | None
    stuck_penalty: int
    domino_bonus: int
    blocked_penalty: int


class ScoreEventJSON(TypedDict):
    """``ScoreEvent.to_json()``: ``points`` added to (in spider: charged to) ``player``."""

    player: int
    points: int
    reason: str
    detail: NotRequired[str]


class PlacementJSON(TypedDict):
    """One spider tile put on an arm (or the centre), possibly closing it."""

    tile: list[int]
    arm: str
    close: bool


class MoveJSON(TypedDict):
    """``Move.to_json()``: only the fields of its kind ("draw", "pass", "place") are there."""

    kind: str
    placements: NotRequired[list[PlacementJSON]]  # spider
    tile: NotRequired[list[int]]  # classic, triominos
    end: NotRequired[str]  # classic: "left", "right" or "center"
    cell: NotRequired[list[int]]  # triominos
    corners: NotRequired[list[int]]  # triominos


class HistoryRecord(TypedDict):
    """One move of a round's history; ``tile`` (a draw's tile) only in its player's view."""

    player: int
    move: MoveJSON
    events: list[ScoreEventJSON]
    tile: NotRequired[list[int]]


class MatchContext(TypedDict):
    """``view["match"]``, added by a match (``Match.view``): the totals banked before this
    round and the target."""

    totals: list[int]
    target: int


class ArmJSON(TypedDict):
    """A spider arm: its tiles from the centre out, its open end, whether it is closed."""

    tiles: list[list[int]]
    end: int | None
    closed: bool


class BoardCellJSON(TypedDict):
    """A Triominos tile on the board: its cell, its corners there, the tile, who put it."""

    cell: list[int]
    corners: list[int]
    tile: list[int]
    player: int


class DealJSON(TypedDict):
    """An explicit deal for ``new_round``: both hands and the bazaar in its order."""

    hands: list[list[list[int]]]
    bazaar: list[list[int]]


class _RoundJSON(TypedDict):
    """What a round's JSON and a seat's view share. The board's keys depend on the variant:
    classic ``line``, ``ends``, ``forced``, ``leader``, ``bazaar_reserve``; spider
    ``center``, ``arms``, ``opener``, ``opening_double``; triominos ``board``, ``forced``,
    ``draws_this_turn``, ``leader``."""

    format: int
    variant: str
    options: Options
    to_move: int | None
    points: list[int]
    winner: int | None
    over: bool
    end_reason: str | None
    history: list[HistoryRecord]
    # classic
    line: NotRequired[list[list[int]]]
    ends: NotRequired[list[int] | None]
    bazaar_reserve: NotRequired[int]
    # classic, triominos
    forced: NotRequired[list[int] | None]
    leader: NotRequired[int]
    # spider
    center: NotRequired[int | None]
    arms: NotRequired[dict[str, ArmJSON]]
    opener: NotRequired[int]
    opening_double: NotRequired[int]
    # triominos
    board: NotRequired[list[BoardCellJSON]]
    draws_this_turn: NotRequired[int]


class StateJSON(_RoundJSON):
    """``RoundState.to_json()``: the whole round, both hands and the bazaar in its order."""

    hands: list[list[list[int]]]
    bazaar: list[list[int]]


class SeatView(_RoundJSON):
    """``RoundState.view(player)``: all that ``player`` may see (``match``: added by a
    match, ``Match.player_view``)."""

    player: int
    hand: list[list[int]]
    hand_sizes: list[int]
    bazaar_size: int
    match: NotRequired[MatchContext]


class RoundSummary(TypedDict):
    """A round of a match, counted: its number, points, winner and how it ended."""

    round: int
    points: list[int]
    winner: int | None
    end_reason: str | None


class MatchJSON(TypedDict):
    """``Match.to_json()``: the match and its round in play."""

    format: int
    kind: str  # "match"
    variant: str
    target: int
    seed: int
    options: Options
    round_no: int
    banked: list[int]
    past: list[RoundSummary]
    round: StateJSON


__all__ = [
    "ArmJSON",
    "BoardCellJSON",
    "DealJSON",
    "HistoryRecord",
    "MatchContext",
    "MatchJSON",
    "MoveJSON",
    "Options",
    "PlacementJSON",
    "RoundSummary",
    "ScoreEventJSON",
    "SeatView",
    "StateJSON",
]


def copy_json(data: T) -> T:
    """A copy of JSON data (dicts, lists, strings, numbers, None) that shares nothing with
    it: what ``copy.deepcopy`` gives, about nine times faster (a round's history is copied
    each time its view is drawn). ValueError when it is nested too deeply to copy."""
    copied: T = marshal.loads(marshal.dumps(cast(Any, data)))
    return copied
