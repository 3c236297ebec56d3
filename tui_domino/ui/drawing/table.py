"""Which drawing of the table to show at a given size: the variant's layout, with pips
when the whole table fits with them, else digits in boxes, else compact tiles; the board
scrolls only when even those do not fit (then the drawing with the fewest cells out of
view)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tui_domino import rules
from tui_domino.rules.types import SeatView
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.snake import layout_classic
from tui_domino.ui.drawing.spinner import ArmTile, layout_spider
from tui_domino.ui.drawing.tiles import COMPACT, DIGITS, PIPS_SHAPE, TileShape
from tui_domino.ui.drawing.triangle_grid import layout_triominos

Layout = Callable[[int, int], Canvas]  # (table width, table height) -> the drawing


# The terminal's size from which dominoes are drawn with pips (the table and the hand).
PIPS_SIZE = (120, 40)


def pips_fit(wanted: bool, variant: str, size: tuple[int, int]) -> bool:
    """Whether dominoes are drawn with pips, on the table and in the hand alike: when the
    setting wants them and the terminal has room for both."""
    return wanted and variant != "triominos" and size[0] >= PIPS_SIZE[0] \
        and size[1] >= PIPS_SIZE[1]


Place = rules.Move | ArmTile  # where a tile may go: a move, or a spider tile on an arm


def table_layout(variant: str, view: SeatView, places: Sequence[Place], selected: int | None,
                 pending: Sequence[ArmTile], viewer: int, pips_ok: bool = True) -> Layout:
    """The board's drawing function for ``view`` with the offered ``places``."""
    moves = [p for p in places if isinstance(p, rules.Move)]
    arms = [p for p in places if not isinstance(p, rules.Move)]
    if variant == "triominos":
        def triangles(width: int, height: int) -> Canvas:
            return layout_triominos(view, moves, selected, viewer)

        return triangles

    def draw(width: int, height: int, shape: TileShape) -> Canvas:
        if variant == "classic":
            return layout_classic(view, width, moves, selected, shape)
        return layout_spider(view, arms, selected, pending, shape, width + 2, height)

    def layout(width: int, height: int) -> Canvas:
        shapes = [PIPS_SHAPE] if pips_ok and width >= 60 else []
        drawn = []
        for shape in (*shapes, DIGITS, COMPACT):
            cv = draw(width, height, shape)
            if cv.width <= width + 2 and cv.height <= height:
                return cv
            drawn.append(cv)

        def beyond(cv: Canvas) -> int:  # the cells out of view
            w, h = max(cv.width, width + 2), max(cv.height, height)
            return w * h - (width + 2) * height

        return min(drawn[-2:], key=beyond)

    return layout
