"""Which drawing of the table to show: the variant's layout in the style of tiles (pips,
digits in boxes, or compact) that the terminal's size gives that variant. The style
depends on the size alone, never on what lies on the table, so a round keeps its look from
its first tile to its last (a table grown too big for the board scrolls) and changes only
with the terminal's size."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tui_domino import rules
from tui_domino.rules.types import SeatView
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.snake import layout_classic
from tui_domino.ui.drawing.spinner import ArmTile, layout_spider
from tui_domino.ui.drawing.tiles import COMPACT, DIGITS, PIPS_SHAPE, TileShape
from tui_domino.ui.drawing.triangle_grid import layout_triominos, unit_for

Layout = Callable[[int, int], Canvas]  # (table width, table height) -> the drawing


# The smallest terminal (columns, rows) on which each variant's table is drawn in each style
# (Triominos's triangles grow with the board: ``triangle_grid.UNIT_ROOM``),
# larger first: the size from which a round's table, at its largest (the round's end), fits
# the board whole in 9 rounds of 10 (``scripts/board_styles.py``: 200 seeded rounds of the
# greedy player against itself). Below the last, compact tiles.
STYLE_ROOM: dict[str, tuple[tuple[TileShape, tuple[int, int]], ...]] = {
    "classic": ((PIPS_SHAPE, (140, 45)), (DIGITS, (80, 24))),
    "spider": ((PIPS_SHAPE, (180, 45)), (DIGITS, (90, 27))),
}


def table_shape(variant: str, size: tuple[int, int], pips_wanted: bool = True) -> TileShape:
    """The style of the dominoes on a terminal of ``size`` (Triominos has one drawing)."""
    for shape, (columns, rows) in STYLE_ROOM.get(variant, ()):
        if shape is PIPS_SHAPE and not pips_wanted:
            continue
        if size[0] >= columns and size[1] >= rows:
            return shape
    return COMPACT if variant in STYLE_ROOM else DIGITS


def pips_fit(wanted: bool, variant: str, size: tuple[int, int]) -> bool:
    """Whether dominoes are drawn with pips, on the table and in the hand alike: when the
    setting wants them and the terminal gives the table room for them."""
    return table_shape(variant, size, wanted) is PIPS_SHAPE


Place = rules.Move | ArmTile  # where a tile may go: a move, or a spider tile on an arm


def table_layout(variant: str, view: SeatView, places: Sequence[Place], selected: int | None,
                 pending: Sequence[ArmTile], viewer: int, shape: TileShape = DIGITS) -> Layout:
    """The board's drawing function for ``view`` with the offered ``places``, its dominoes
    drawn in ``shape`` (``table_shape``) whatever the table's size."""
    moves = [p for p in places if isinstance(p, rules.Move)]
    arms = [p for p in places if not isinstance(p, rules.Move)]
    if variant == "triominos":
        def triangles(width: int, height: int) -> Canvas:
            return layout_triominos(view, moves, selected, viewer, u=unit_for(width, height))

        return triangles

    def layout(width: int, height: int) -> Canvas:
        if variant == "classic":
            return layout_classic(view, width, moves, selected, shape)
        return layout_spider(view, arms, selected, pending, shape, width + 2, height)

    return layout
