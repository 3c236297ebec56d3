"""The double-six set as bit masks: tile indices, pips, and per-number masks.

Tile ``i`` is ``TILES[i] == (a, b)`` with ``a <= b``; a hand is an int whose bit ``i`` is set
when it holds tile ``i``. Everything here is a precomputed table.
"""

from __future__ import annotations

TILES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
INDEX: dict[tuple[int, int], int] = {t: i for i, t in enumerate(TILES)}
# each tile either way round (what ``index_of`` looks up first)
_EITHER_WAY: dict[tuple[int, int], int] = {**INDEX, **{(b, a): i for (a, b), i in INDEX.items()}}
FULL = (1 << len(TILES)) - 1
A: tuple[int, ...] = tuple(t[0] for t in TILES)
B: tuple[int, ...] = tuple(t[1] for t in TILES)
PIPS: tuple[int, ...] = tuple(a + b for a, b in TILES)
BIT: tuple[int, ...] = tuple(1 << i for i in range(len(TILES)))
# NUM[n]: the tiles showing number n. NUM[7] (no end) is empty.
NUM: tuple[int, ...] = tuple(
    sum(1 << i for i, (a, b) in enumerate(TILES) if n in (a, b)) for n in range(7)
) + (0,)
DOUBLE: tuple[int, ...] = tuple(INDEX[(n, n)] for n in range(7))
DOUBLES_MASK = sum(1 << INDEX[(n, n)] for n in range(7))
# OTHER[i][n]: the other number of tile i when n is one of its numbers.
OTHER: tuple[tuple[int, ...], ...] = tuple(
    tuple((b if n == a else a) if n in (a, b) else -1 for n in range(7)) for a, b in TILES
)

# Fast set-bit listing: the indices of the bits of a 14-bit half.
_HALF = 14
_SEVENTH = 1 << (_HALF // 2)


def _bit_lists(start: int) -> tuple[tuple[int, ...], ...]:
    """For each 14-bit ``m``: the indices of its bits, ascending, each plus ``start``. (Made
    from the tables of its two 7-bit halves, one tuple joined per entry: listed bit by bit,
    the two tables took about 30 ms at each start of a program that plays.)"""
    low = [tuple(start + i for i in range(7) if m >> i & 1) for m in range(_SEVENTH)]
    high = [tuple(i + 7 for i in t) for t in low]
    return tuple(a + b for b in high for a in low)


LOW_BITS: tuple[tuple[int, ...], ...] = _bit_lists(0)
HIGH_BITS: tuple[tuple[int, ...], ...] = _bit_lists(_HALF)
LOW_MASK = (1 << _HALF) - 1


def bits(mask: int) -> tuple[int, ...]:
    """The tile indices in ``mask``, ascending."""
    return LOW_BITS[mask & LOW_MASK] + HIGH_BITS[mask >> _HALF]


def mask_of(tiles: object) -> int:
    """The mask of a list of tiles; ValueError on a bad or repeated tile."""
    m = 0
    if not isinstance(tiles, list | tuple):
        raise ValueError("tiles must be a list")
    for t in tiles:
        i = index_of(t)
        if m >> i & 1:
            raise ValueError(f"tile {list(TILES[i])} appears twice")
        m |= 1 << i
    return m


def index_of(t: object) -> int:
    """The index of tile ``t`` (two numbers, either way round); ValueError if it is none."""
    if (type(t) is list or type(t) is tuple) and len(t) == 2:  # (first, the common case:
        a, b = t  # two plain ints)
        if type(a) is int and type(b) is int:
            found = _EITHER_WAY.get((a, b))
            if found is not None:
                return found
    if (
        not isinstance(t, list | tuple)
        or len(t) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 6 for n in t)
    ):
        raise ValueError(f"not a double-six tile: {t!r}")
    a, b = t
    return INDEX[(min(a, b), max(a, b))]


def tiles_of(mask: int) -> tuple[tuple[int, int], ...]:
    return tuple(TILES[i] for i in bits(mask))


def pips_of(mask: int) -> int:
    return sum(PIPS[i] for i in bits(mask))


def rank(i: int) -> tuple[int, int]:
    """A tile's rank for the classic opening: pips, then the higher end."""
    return (PIPS[i], B[i])
