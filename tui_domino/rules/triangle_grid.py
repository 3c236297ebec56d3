"""The triangular grid of Triominos: cells, their corners, edges and grid points.

Cells are ``(r, c)``, any integers; a cell points up when ``r + c`` is even, down otherwise.
Grid points are ``(vr, vx)`` with ``vr + vx`` odd (row ``vr``, half-step column ``vx``).
Rows grow downwards on screen, columns to the right.

==========  ====================================================================
cell        its corners, clockwise on screen
==========  ====================================================================
up (r, c)   apex ``(r, c+1)``, right ``(r+1, c+2)``, left ``(r+1, c)``
down (r, c) top-left ``(r, c)``, top-right ``(r, c+2)``, bottom ``(r+1, c+1)``
==========  ====================================================================

Besides the tuple functions there is an integer encoding of cells and points for the fast
paths: ``key(r, c) = (r + OFFSET) * WIDTH + (c + OFFSET)``. ``WIDTH`` is odd, so a key is even
exactly when its cell points up, and every neighbour, corner and surrounding cell is the key
plus a fixed offset (the ``*_OFFSETS`` tables, indexed by ``key & 1``: 0 up, 1 down).
"""

from __future__ import annotations

Cell = tuple[int, int]
Point = tuple[int, int]

ORIGIN: Cell = (0, 0)

CORNER_NAMES: dict[bool, tuple[str, str, str]] = {
    True: ("apex", "right", "left"),
    False: ("top-left", "top-right", "bottom"),
}


def is_up(cell: Cell) -> bool:
    """Whether ``cell`` points up."""
    return (cell[0] + cell[1]) % 2 == 0


def corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The cell's three corner points, clockwise (up: apex, right, left; down: top-left,
    top-right, bottom)."""
    r, c = cell
    if (r + c) % 2 == 0:
        return ((r, c + 1), (r + 1, c + 2), (r + 1, c))
    return ((r, c), (r, c + 2), (r + 1, c + 1))


def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The three cells sharing an edge with ``cell``: left, right, then the one below an up
    cell or above a down cell."""
    r, c = cell
    if (r + c) % 2 == 0:
        return ((r, c - 1), (r, c + 1), (r + 1, c))
    return ((r, c - 1), (r, c + 1), (r - 1, c))


# For the i-th edge neighbour (in ``edge_neighbours`` order), the index of the cell's corner
# that is not on the shared edge; and the indices of the two corners that are.
_OPPOSITE: dict[bool, tuple[int, int, int]] = {True: (1, 2, 0), False: (1, 0, 2)}


def opposite_corner(cell: Cell, neighbour: Cell) -> int:
    """The index (0-2, clockwise order) of ``cell``'s corner opposite the edge it shares with
    ``neighbour``; ValueError when the two cells share no edge."""
    try:
        i = edge_neighbours(cell).index(neighbour)
    except ValueError:
        raise ValueError(f"cells {cell} and {neighbour} share no edge") from None
    return _OPPOSITE[is_up(cell)][i]


def shared_edge(cell: Cell, neighbour: Cell) -> tuple[Point, Point]:
    """The two points of the edge ``cell`` shares with ``neighbour`` (in ``cell``'s clockwise
    order); ValueError when they share no edge."""
    opp = opposite_corner(cell, neighbour)
    pts = corners(cell)
    a, b = (pts[i] for i in range(3) if i != opp)
    return (a, b)


def cells_around(point: Point) -> tuple[Cell, Cell, Cell, Cell, Cell, Cell]:
    """The six cells that have ``point`` as a corner."""
    vr, vx = point
    return (
        (vr - 1, vx - 2), (vr - 1, vx - 1), (vr - 1, vx),
        (vr, vx - 2), (vr, vx - 1), (vr, vx),
    )


# -- integer keys -------------------------------------------------------------------------------

OFFSET = 64
WIDTH = 2 * OFFSET + 1  # odd: a key's parity is the parity of r + c
LIMIT = 60  # keys are valid for cells and points with |r|, |c| <= LIMIT (a round needs <= 57)

ORIGIN_KEY = OFFSET * WIDTH + OFFSET

# Indexed by key & 1 (0: up, 1: down), in the same orders as the tuple functions.
CORNER_OFFSETS: tuple[tuple[int, int, int], tuple[int, int, int]] = (
    (1, WIDTH + 2, WIDTH),
    (0, 2, WIDTH + 1),
)
NEIGHBOUR_OFFSETS: tuple[tuple[int, int, int], tuple[int, int, int]] = (
    (-1, 1, WIDTH),
    (-1, 1, -WIDTH),
)
OPPOSITE: tuple[tuple[int, int, int], tuple[int, int, int]] = (_OPPOSITE[True], _OPPOSITE[False])
# From a point's key to the keys of the six cells around it.
AROUND_OFFSETS: tuple[int, ...] = (-WIDTH - 2, -WIDTH - 1, -WIDTH, -2, -1, 0)


def in_range(r: int, c: int) -> bool:
    """Whether ``(r, c)`` has an integer key."""
    return -LIMIT <= r <= LIMIT and -LIMIT <= c <= LIMIT


def key(r: int, c: int) -> int:
    """The integer key of cell or point ``(r, c)``; ValueError when out of range."""
    if not in_range(r, c):
        raise ValueError(f"({r}, {c}) is too far from the origin")
    return (r + OFFSET) * WIDTH + c + OFFSET


def unkey(k: int) -> tuple[int, int]:
    """The cell or point of key ``k``."""
    r, c = divmod(k, WIDTH)
    return (r - OFFSET, c - OFFSET)
