"""Moves: small immutable values with a stable JSON form.

Two moves are equal exactly when their JSON is equal, and moves are hashable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui_domino.rules.errors import IllegalMove
from tui_domino.rules.types import MoveJSON, PlacementJSON

VARIANTS: tuple[str, ...] = ("classic", "spider", "triominos")
ARMS: tuple[str, ...] = ("N", "E", "S", "W")
ARM_ORDER = {"N": 0, "E": 1, "S": 2, "W": 3}
ENDS: tuple[str, ...] = ("left", "right", "center")


@dataclass(frozen=True, slots=True)
class Placement:
    """One spider tile put on an arm (or the centre), possibly closing it."""

    tile: tuple[int, int]
    arm: str
    close: bool = False

    def to_json(self) -> PlacementJSON:
        return {"tile": list(self.tile), "arm": self.arm, "close": self.close}


@dataclass(frozen=True, slots=True)
class Move:
    """A move of any variant; only the fields of its kind are set."""

    kind: str
    tile: tuple[int, ...] | None = None
    end: str | None = None
    placements: tuple[Placement, ...] | None = None
    cell: tuple[int, int] | None = None
    corners: tuple[int, int, int] | None = None

    def to_json(self) -> MoveJSON:
        d: MoveJSON = {"kind": self.kind}
        if self.placements is not None:
            d["placements"] = [p.to_json() for p in self.placements]
        if self.tile is not None:
            d["tile"] = list(self.tile)
        if self.end is not None:
            d["end"] = self.end
        if self.cell is not None:
            d["cell"] = list(self.cell)
        if self.corners is not None:
            d["corners"] = list(self.corners)
        return d

    def __str__(self) -> str:
        if self.kind != "place":
            return self.kind
        if self.placements is not None:
            return ", ".join(
                f"{p.tile[0]}-{p.tile[1]} {p.arm}{' closed' if p.close else ''}"
                for p in self.placements
            )
        tile = "-".join(str(n) for n in self.tile or ())
        if self.end is not None:
            return f"{tile} {self.end}"
        return f"{tile} at {self.cell} as {'-'.join(str(n) for n in self.corners or ())}"


DRAW = Move("draw")
PASS = Move("pass")


def classic_place(tile: tuple[int, int] | list[int], end: str) -> Move:
    a, b = tile
    return Move("place", tile=(min(a, b), max(a, b)), end=end)


def spider_place(placements: list[Placement] | tuple[Placement, ...]) -> Move:
    ordered = sorted(placements, key=lambda p: ARM_ORDER.get(p.arm, 9))
    return Move("place", placements=tuple(ordered))


def triomino_place(
    tile: tuple[int, ...] | list[int], cell: tuple[int, int], corners: tuple[int, int, int]
) -> Move:
    return Move("place", tile=tuple(sorted(tile)), cell=cell, corners=corners)


def _int(value: object, what: str, lo: int | None = None, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalMove(f"{what} must be a whole number, not {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise IllegalMove(f"{what} {value} is out of range")
    return value


def _numbers(value: object, count: int, hi: int, what: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) != count:
        raise IllegalMove(f"{what} must be a list of {count} numbers, not {value!r}")
    return tuple(_int(v, what, 0, hi) for v in value)


def _keys(d: dict[str, Any], allowed: set[str]) -> None:
    extra = set(d) - allowed
    if extra:
        raise IllegalMove(f"unknown field(s) in move: {', '.join(sorted(map(str, extra)))}")


def _rotations(corners: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    x, y, z = corners
    return [(x, y, z), (y, z, x), (z, x, y)]


def clockwise_reading(tile: tuple[int, ...]) -> tuple[int, int, int]:
    """The clockwise reading of a triomino from its lowest number: ascending."""
    a, b, c = sorted(tile)
    return (a, b, c)


def is_tile_rotation(tile: tuple[int, ...], corners: tuple[int, int, int]) -> bool:
    """Whether ``corners`` (clockwise) is a rotation of ``tile``'s clockwise reading."""
    return corners in _rotations(clockwise_reading(tile))


def move_from_json(variant: str, d: object) -> Move:
    """Reads a move's JSON form for ``variant``; raises IllegalMove if malformed."""
    if variant not in VARIANTS:
        raise IllegalMove(f"unknown variant {variant!r}")
    if not isinstance(d, dict):
        raise IllegalMove(f"a move must be a JSON object, not {type(d).__name__}")
    kind = d.get("kind")
    if kind in ("draw", "pass"):
        _keys(d, {"kind"})
        return DRAW if kind == "draw" else PASS
    if kind != "place":
        raise IllegalMove(f"unknown move kind {kind!r}")
    if variant == "classic":
        _keys(d, {"kind", "tile", "end"})
        a, b = _numbers(d.get("tile"), 2, 6, "tile")
        end = d.get("end")
        if end not in ENDS:
            raise IllegalMove(f"end must be left, right or center, not {end!r}")
        return classic_place((a, b), str(end))
    if variant == "spider":
        _keys(d, {"kind", "placements"})
        raw = d.get("placements")
        if not isinstance(raw, list) or not raw or len(raw) > 4:
            raise IllegalMove("placements must be a list of 1 to 4 placements")
        out: list[Placement] = []
        for p in raw:
            if not isinstance(p, dict):
                raise IllegalMove("a placement must be a JSON object")
            _keys(p, {"tile", "arm", "close"})
            a, b = _numbers(p.get("tile"), 2, 6, "tile")
            arm = p.get("arm")
            if arm not in ARMS and arm != "center":
                raise IllegalMove(f"arm must be N, E, S, W or center, not {arm!r}")
            close = p.get("close", False)
            if not isinstance(close, bool):
                raise IllegalMove(f"close must be true or false, not {close!r}")
            out.append(Placement((min(a, b), max(a, b)), str(arm), close))
        return spider_place(out)
    _keys(d, {"kind", "tile", "cell", "corners"})
    tile = _numbers(d.get("tile"), 3, 5, "tile")
    cell_raw = d.get("cell")
    if not isinstance(cell_raw, list | tuple) or len(cell_raw) != 2:
        raise IllegalMove(f"cell must be [row, column], not {cell_raw!r}")
    cell = (
        _int(cell_raw[0], "cell row", -1000, 1000),
        _int(cell_raw[1], "cell column", -1000, 1000),
    )
    c3 = _numbers(d.get("corners"), 3, 5, "corners")
    corners = (c3[0], c3[1], c3[2])
    if not is_tile_rotation(tile, corners):
        raise IllegalMove(
            f"corners {list(corners)} are not a rotation of tile {'-'.join(map(str, sorted(tile)))}"
            " read clockwise (tiles turn, they never flip)"
        )
    return triomino_place(tile, cell, corners)
