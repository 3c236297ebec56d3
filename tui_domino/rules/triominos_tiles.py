"""Triominos tiles in words and from JSON: a tile as "1-2-3", read back strictly, the full set
checked, and the refusals that name a corner or a point of the grid."""

from __future__ import annotations

import itertools

from tui_domino.i18n import _
from tui_domino.rules import triangle_grid as grid

Tile3 = tuple[int, int, int]
# The 56 tiles, each as its numbers in order.
ALL_TILES: tuple[Tile3, ...] = tuple(
    (a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6))
# each tile's numbers in any order, to the tile (what ``parse_tile`` looks up first)
_ANY_ORDER: dict[tuple[int, ...], Tile3] = {
    p: t for t in ALL_TILES for p in itertools.permutations(t)}


def tile_str(tile: tuple[int, ...]) -> str:
    return "-".join(str(n) for n in tile)


def parse_tile(value: object) -> Tile3:
    """A tile from JSON (any order); ValueError when it is not a Triominos tile."""
    if (type(value) is list or type(value) is tuple) and len(value) == 3:  # (first, the
        a, b, c = value  # common case: three plain ints)
        if type(a) is int and type(b) is int and type(c) is int:
            found = _ANY_ORDER.get((a, b, c))
            if found is not None:
                return found
    if (
        not isinstance(value, list | tuple)
        or len(value) != 3
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 5 for n in value)
    ):
        raise ValueError(f"not a Triominos tile: {value!r}")
    a, b, c = sorted(value)
    return (a, b, c)


def _parse_tiles(value: object, what: str) -> list[Tile3]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list of tiles")
    return [parse_tile(t) for t in value]


def _point_str(p: grid.Point) -> str:
    return f"({p[0]}, {p[1]})"


def _corner_mismatch(number: int, name: str, need: int, have: int) -> str:
    """Why corner ``number`` (named ``name``, one of ``grid.CORNER_NAMES``) refuses the
    number ``have``, in a player's words: a whole sentence for each corner's name, so that
    a translation words the name its own way."""
    # TRANSLATORS: a move refused in Triominos (this and the next five): corner {number} of
    # the cell, named in parentheses, must show the number {need}, not {have}
    sentences = {
        "apex": _("corner {number} (apex) must be {need} to match, not {have}"),
        "right": _("corner {number} (right) must be {need} to match, not {have}"),
        "left": _("corner {number} (left) must be {need} to match, not {have}"),
        "top-left": _("corner {number} (top-left) must be {need} to match, not {have}"),
        "top-right": _("corner {number} (top-right) must be {need} to match, not {have}"),
        "bottom": _("corner {number} (bottom) must be {need} to match, not {have}"),
    }
    return sentences[name].format(number=number, need=need, have=have)


def _check_full_set(tiles: list[Tile3]) -> None:
    if len(tiles) != len(ALL_TILES) or set(tiles) != set(ALL_TILES):
        seen: set[Tile3] = set()
        for t in tiles:
            if t in seen:
                raise ValueError(f"tile {tile_str(t)} appears twice")
            seen.add(t)
        missing = sorted(set(ALL_TILES) - seen)
        raise ValueError(f"the tiles are not the full set; missing {tile_str(missing[0])}")
