"""Hand-built positions for known-answer tests: the tiles not named go to the bazaar."""

from __future__ import annotations

from typing import Any

from tui_domino import rules
from tui_domino.rules.state import RoundState

ALL_DOMINOES = [[a, b] for a in range(7) for b in range(a, 7)]


def _rest(used: list[list[int]]) -> list[list[int]]:
    taken = {tuple(sorted(t)) for t in used}
    return [t for t in ALL_DOMINOES if tuple(t) not in taken]


def _position(
    variant: str,
    hands: list[list[list[int]]],
    on_board: list[list[int]],
    board: dict[str, Any],
    to_move: int,
    bazaar: list[list[int]] | None,
    options: dict[str, Any] | None,
) -> RoundState:
    """A position of ``variant`` at the start of a turn; the bazaar (draw order) defaults to
    every tile that is neither in a hand nor ``on_board``."""
    used = hands[0] + hands[1] + on_board
    d = {
        "variant": variant,
        "options": rules.resolve_options(variant, options),
        "to_move": to_move,
        "points": [0, 0],
        "winner": None,
        "end_reason": None,
        "history": [],
        "hands": [sorted(sorted(t) for t in h) for h in hands],
        "bazaar": _rest(used) if bazaar is None else bazaar,
        **board,
    }
    return rules.state_from_json(d)


def classic(
    hands: list[list[list[int]]],
    line: list[list[int]],
    to_move: int = 0,
    bazaar: list[list[int]] | None = None,
    options: dict[str, Any] | None = None,
) -> RoundState:
    """A classic position; ``bazaar`` (draw order) defaults to every other tile."""
    board = {"line": line, "forced": None, "leader": None}
    return _position("classic", hands, line, board, to_move, bazaar, options)


def spider(
    hands: list[list[list[int]]],
    center: int | None,
    arms: dict[str, tuple[list[list[int]], bool]] | None = None,
    to_move: int = 0,
    bazaar: list[list[int]] | None = None,
    options: dict[str, Any] | None = None,
) -> RoundState:
    """A spider position; ``arms`` maps N/E/S/W to (tiles oriented outward, closed)."""
    arms = arms or {}
    board: list[list[int]] = [] if center is None else [[center, center]]
    arm_json = {}
    for name in "NESW":
        tiles, closed = arms.get(name, ([], False))
        board += tiles
        end = center
        for t in tiles:
            end = t[1]
        arm_json[name] = {"tiles": tiles, "end": end, "closed": closed}
    fields = {"center": center, "arms": arm_json, "opener": 0,
              "opening_double": center if center else 1}
    return _position("spider", hands, board, fields, to_move, bazaar, options)


def place_classic(tile: list[int], end: str) -> dict[str, Any]:
    return {"kind": "place", "tile": tile, "end": end}


def place_spider(*placements: tuple[list[int], str, bool]) -> dict[str, Any]:
    return {
        "kind": "place",
        "placements": [{"tile": t, "arm": a, "close": c} for t, a, c in placements],
    }
