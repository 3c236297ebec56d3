"""Which drawing of the table to show at a given size: the variant's layout, with pips
when the whole table fits with them, else digits in boxes, else compact tiles; the board
scrolls only when even those do not fit (then the drawing with the fewest cells out of
view)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.snake import layout_classic
from tui_domino.ui.drawing.spinner import layout_spider
from tui_domino.ui.drawing.tiles import COMPACT, DIGITS, PIPS_SHAPE, TileShape
from tui_domino.ui.drawing.triangle_grid import layout_triominos

Layout = Callable[[int, int], Canvas]  # (table width, table height) -> the drawing


def table_layout(variant: str, view: dict[str, Any], places: list[Any], selected: int | None,
                 pending: list[Any], viewer: int, pips_ok: bool = True) -> Layout:
    """The board's drawing function for ``view`` with the offered ``places``."""
    if variant == "triominos":
        def triangles(width: int, height: int) -> Canvas:
            return layout_triominos(view, places, selected, viewer)

        return triangles

    def draw(width: int, height: int, shape: TileShape) -> Canvas:
        if variant == "classic":
            return layout_classic(view, width, places, selected, shape)
        return layout_spider(view, places, selected, pending, shape, width + 2, height)

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
