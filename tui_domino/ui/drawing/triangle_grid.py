"""The Triominos board: triangles on the triangular grid, each number printed once on
its grid point, ``u`` screen rows per triangle row and ``u`` columns per half step (the
unit: 3, larger on a large terminal, ``unit_for``).

Grid point (vr, vx) sits at screen (x, y) = (u vx, u vr). Cell geometry is the
engine's (RULES.md): up (r, c) has apex (r, c+1), right (r+1, c+2), left (r+1, c);
down (r, c) has top-left (r, c), top-right (r, c+2), bottom (r+1, c+1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.rules import places as place_names
from tui_domino.rules import triangle_grid as grid
from tui_domino.rules.types import HistoryRecord, SeatView
from tui_domino.ui.drawing.canvas import Canvas

LABELS = place_names.LETTERS  # the places' letters (rules/places.py names them)


def is_up(r: int, c: int) -> bool:
    return (r + c) % 2 == 0


def corner_points(r: int, c: int) -> list[tuple[int, int]]:
    """The cell's corner grid points, clockwise in the engine's order."""
    if is_up(r, c):
        return [(r, c + 1), (r + 1, c + 2), (r + 1, c)]
    return [(r, c), (r, c + 2), (r + 1, c + 1)]


UNIT = 3  # screen rows per triangle row, and columns per half step, at the usual size

# The board's size (columns, rows) from which its triangles are drawn larger, largest first:
# a round's table at its end fits such a board in 9 rounds of 10 (``scripts/board_styles.py``:
# the boards of terminals of 200x60 and 160x50), and one grown past it scrolls, as every
# table does.
UNIT_ROOM = ((5, (171, 53)), (4, (131, 43)))


def unit_for(width: int, height: int) -> int:
    """The unit of the triangles on a board of ``width`` x ``height`` cells."""
    return next((u for u, (w, h) in UNIT_ROOM if width >= w and height >= h), UNIT)


def interior(r: int, c: int, u: int = UNIT) -> list[tuple[int, int]]:
    """Screen cells inside the triangle."""
    x, y = u * c, u * r
    if is_up(r, c):
        return [(x + u + j, y + i) for i in range(1, u) for j in range(1 - i, i)]
    return [(x + u + j, y + i) for i in range(1, u) for j in range(i - u + 1, u - i)]


def label_spot(r: int, c: int, u: int = UNIT) -> tuple[int, int]:
    return (u * c + u, u * r + (u - 1 if is_up(r, c) else 1))


def edges(r: int, c: int, u: int = UNIT) -> list[tuple[int, int, str]]:
    x, y = u * c, u * r
    out: list[tuple[int, int, str]] = []
    if is_up(r, c):
        out += [(x + u + i, y + i, "╲") for i in range(1, u)]
        out += [(x + u - i, y + i, "╱") for i in range(1, u)]
        out += [(x + i, y + u, "─") for i in range(1, 2 * u)]
    else:
        out += [(x + i, y, "─") for i in range(1, 2 * u)]
        out += [(x + i, y + i, "╲") for i in range(1, u)]
        out += [(x + 2 * u - i, y + i, "╱") for i in range(1, u)]
    return out


def hit_box(r: int, c: int, u: int = UNIT) -> tuple[int, int, int, int]:
    x, y = u * c, u * r
    return (x + 2, y + 1, x + 2 * u - 1, y + u)


def cell_of(move: rules.Move) -> tuple[int, int]:
    """The cell of a Triominos placement."""
    assert move.cell is not None
    return (move.cell[0], move.cell[1])


def last_cells(history: list[HistoryRecord]) -> tuple[int, int] | None:
    for rec in reversed(history):
        if rec["move"]["kind"] == "place":
            r, c = rec["move"]["cell"]
            return (r, c)
    return None


def bonus_cells(board: set[tuple[int, int]], history: list[HistoryRecord]
                ) -> set[tuple[int, int]]:
    """The tiles that made the bonus of the move just played: the six round each hexagon it
    completed, and for a bridge the tile, the one it meets along an edge and those at its
    opposite corner (nothing when the last move made neither, or was not a placement)."""
    if not history or history[-1]["move"]["kind"] != "place":
        return set()
    rec = history[-1]
    reasons = {e["reason"] for e in rec["events"]}
    cell_at = rec["move"].get("cell")
    if not reasons & {"hexagon", "bridge"} or cell_at is None:
        return set()
    cell = (cell_at[0], cell_at[1])
    out: set[tuple[int, int]] = set()
    if "hexagon" in reasons:
        for pt in grid.corners(cell):
            around = set(grid.cells_around(pt))
            if around <= board:
                out |= around
    if "bridge" in reasons:
        for nb in grid.edge_neighbours(cell):
            if nb in board:
                far = grid.corners(cell)[grid.opposite_corner(cell, nb)]
                out |= {cell, nb} | (set(grid.cells_around(far)) & board)
    return out


def layout_triominos(
    view: SeatView,
    places: Sequence[rules.Move],
    selected: int | None,
    viewer: int = 0,
    letters: Mapping[tuple[int, int], str] | None = None,
    u: int = UNIT,
) -> Canvas:
    """``places``: Moves (tile, cell, corners) of the selected tile; every cell gets a
    letter, and the selected one is previewed with its numbers. The letters are the
    table's (``rules.places``: ``places`` are one tile's, in ``tile_places`` order), or
    ``letters`` when given (the review's moves, each lettered among its own tile's)."""
    cv = Canvas()
    board = view.get("board") or []
    last = last_cells(view.get("history") or [])
    numbers: dict[tuple[int, int], int] = {}
    for t in board:
        for pt, n in zip(corner_points(*t["cell"]), t["corners"], strict=True):
            numbers[pt] = n
    # candidate cells: a letter each; the selected placement previewed
    sel_cell = None
    if selected is not None and 0 <= selected < len(places):
        sel_cell = cell_of(places[selected])
    seen: dict[tuple[int, int], int] = {}
    for i, p in enumerate(places):
        cell = cell_of(p)
        if cell in seen:
            continue
        seen[cell] = i
    if letters is None:
        letters = place_names.cell_letters(places)
    for cell, i in seen.items():
        r, c = cell
        key = selected if cell == sel_cell else i
        if cell == sel_cell:
            continue
        for x, y, ch in edges(r, c, u):
            cv.put(x, y, "╌" if ch == "─" else ch, "place")
        x, y = label_spot(r, c, u)
        cv.put(x, y, letters.get(cell, " "), "place-num")
        cv.hit(*hit_box(r, c, u), key)
    if sel_cell is not None:
        assert selected is not None
        p = places[selected]
        assert p.corners is not None
        r, c = sel_cell
        for x, y, ch in edges(r, c, u):
            cv.put(x, y, ch, "sel")
        x, y = label_spot(r, c, u)
        # its letter stays, as the hint line names it (the opening place has none to name)
        letter = letters.get(sel_cell, " ") if board else " "
        cv.put(x, y, letter, "selcell")
        for (vr, vx), n in zip(corner_points(r, c), p.corners, strict=True):
            cv.put(u * vx, u * vr, str(n), "sel-num")
        cv.hit(*hit_box(r, c, u), selected)
        cv.add_focus(u * c, u * r, u * c + 2 * u + 1, u * r + u + 1, selected=True)
    bonus = bonus_cells({(t["cell"][0], t["cell"][1]) for t in board},
                        view.get("history") or [])
    for t in board:
        r, c = t["cell"]
        mine = t.get("player") == viewer
        tint = "lastcell" if (r, c) == last else ("mine" if mine else "theirs")
        x, y = label_spot(r, c, u)
        if (r, c) in bonus:  # a hexagon or a bridge just made: its tiles marked, until
            cv.put(x, y, "*", "bonus")  # the next move
        else:
            cv.put(x, y, " " if mine or (r, c) == last else "·", tint)
        for x, y, ch in edges(r, c, u):
            cv.put(x, y, ch, "edge")
        if (r, c) == last:
            cv.add_focus(u * c, u * r, u * c + 2 * u + 1, u * r + u + 1)
            cv.moved = {(x, y) for x, y, _ in edges(r, c, u)} | {label_spot(r, c, u)} | {
                (u * vx, u * vr) for vr, vx in corner_points(r, c)}
    if last is not None:  # its outline over its neighbours' edges it shares
        for x, y, ch in edges(*last, u):
            cv.put(x, y, ch, "last")
    for (vr, vx), n in numbers.items():
        cv.put(u * vx, u * vr, str(n), "point")
    if not board and not places:
        # TRANSLATORS: drawn in the middle of the table before the first tile
        empty = _("the table is empty")
        cv.text(-(len(empty) // 2), 0, empty, "dim")
    cv.freeze()
    return cv
