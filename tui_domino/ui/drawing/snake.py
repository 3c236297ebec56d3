"""The classic line of play as a snake: it starts in the middle of the table and turns
at the table's edges, the right end winding down and the left end winding up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tui_domino import rules
from tui_domino.i18n import N_, _
from tui_domino.rules.types import HistoryRecord, SeatView
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import DIGITS, TileShape

# The marks drawn at the line's two open ends, as the hint line names them ("on the left
# end"): the line keeps its left and right ends wherever it turns, so that the right end
# may lie at the lower left of the table.
END_MARKS = {
    # TRANSLATORS: the mark drawn on the table at the classic line's left end: the first
    # letter of "left" as the hint line says it ("⏎ play 6-3 on the left end"), one letter
    "left": N_("L"),
    # TRANSLATORS: the mark drawn on the table at the classic line's right end: the first
    # letter of "right" as the hint line says it ("⏎ play 6-3 on the right end"), one letter
    "right": N_("R"),
}

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)


@dataclass
class Link:
    inward: int
    outward: int
    style: str = ""
    key: object = None  # clickable key (a place index) for a ghost tile

    @property
    def double(self) -> bool:
        return self.inward == self.outward

    def width(self, shape: TileShape) -> int:
        return shape.v_w if self.double else shape.h_w


def _draw(cv: Canvas, shape: TileShape, link: Link, x: int, row: int, direction: int) -> Box:
    # a row of the snake is as tall as a crosswise double; lengthwise tiles sit in its middle
    y = row * shape.v_h
    if link.double:
        shape.upright(cv, x, y, link.inward, link.outward, link.style)
        box = (x, y, x + shape.v_w, y + shape.v_h)
    else:
        a, b = (link.inward, link.outward) if direction > 0 else (link.outward, link.inward)
        off = (shape.v_h - shape.h_h) // 2
        shape.lengthwise(cv, x, y + off, a, b, link.style)
        box = (x, y + off, x + shape.h_w, y + off + shape.h_h)
    if link.key is not None:
        cv.hit(*box, link.key)
    if link.style in ("last", "sel"):
        cv.add_focus(*box, selected=link.style == "sel")
    return box


def _connect(cv: Canvas, shape: TileShape, col: int, row: int, step: int) -> None:
    y = row * shape.v_h
    off = (shape.v_h - shape.h_h) // 2
    if step > 0:
        lines = range(y + off + shape.h_h, y + shape.v_h + off)
    else:
        lines = range(y - shape.v_h + off + shape.h_h, y + off)
    for ly in lines:
        if cv.get(col, ly) is None:
            cv.put(col, ly, "│", "link")


def _lay_part(
    cv: Canvas, shape: TileShape, links: list[Link], x: int, width: int, direction: int, step: int
) -> Box | None:
    """Lays links outward from the opener. ``x`` is the cursor: the next tile's left edge
    when going right, its right edge when going left. Returns the outermost tile's box."""
    row = 0
    box = None
    half = shape.v_w // 2  # from a tile's outer edge to the middle of its outer number
    for link in links:
        w = link.width(shape)
        if direction > 0:
            if x + w > width:
                _connect(cv, shape, x - half - 1, row, step)
                row += step
                direction = -1
                box = _draw(cv, shape, link, x - w, row, direction)
                x -= w
            else:
                box = _draw(cv, shape, link, x, row, direction)
                x += w
        else:
            if x - w < 0:
                _connect(cv, shape, x + half, row, step)
                row += step
                direction = 1
                box = _draw(cv, shape, link, x, row, direction)
                x += w
            else:
                box = _draw(cv, shape, link, x - w, row, direction)
                x -= w
    return box


def opener_index(history: list[HistoryRecord]) -> int:
    """Where the round's first tile sits in the line: one step right per left placement."""
    return sum(
        1 for rec in history if rec["move"]["kind"] == "place" and rec["move"].get("end") == "left"
    )


def last_end(history: list[HistoryRecord]) -> str | None:
    for rec in reversed(history):
        if rec["move"]["kind"] == "place":
            return str(rec["move"]["end"])
    return None


def layout_classic(
    view: SeatView,
    width: int,
    places: Sequence[rules.Move],
    selected: int | None,
    shape: TileShape = DIGITS,
) -> Canvas:
    """The snake for ``view`` at table ``width``; each place (a Move with tile and end)
    is shown as a ghost of the tile at its end, the selected one brighter."""
    cv = Canvas()
    width = max(width, 16)
    line = [tuple(t) for t in view.get("line") or []]
    history = view.get("history") or []
    ends = view.get("ends")
    last = last_end(history)
    ghosts: dict[str, Link] = {}
    for i, place in enumerate(places):
        style = "sel" if i == selected else "ghost"
        assert place.tile is not None and place.end is not None  # a classic placement
        a, b = place.tile
        if place.end == "center":
            ghosts["center"] = Link(a, b, style, i)
        elif ends is not None:
            e = ends[0] if place.end == "left" else ends[1]
            other = b if a == e else a
            ghosts[place.end] = Link(e, other, style, i)
    if not line:
        g = ghosts.get("center")
        if g is not None:
            x = width // 2 - g.width(shape) // 2
            _draw(cv, shape, g, x, 0, 1)
        else:
            # TRANSLATORS: drawn in the middle of the table before the first tile
            empty = _("the table is empty")
            cv.text(width // 2 - len(empty) // 2, 2, empty, "dim")
        cv.freeze()
        return cv
    k = opener_index(history)
    k = min(max(k, 0), len(line) - 1)
    a, b = line[k]
    opener = Link(a, b, "last" if last == "center" else "")
    right = [Link(x, y) for x, y in line[k + 1 :]]
    left = [Link(y, x) for x, y in reversed(line[:k])]
    if last == "right" and right:
        right[-1].style = "last"
    if last == "left" and left:
        left[-1].style = "last"
    if "right" in ghosts:
        right.append(ghosts["right"])
    if "left" in ghosts:
        left.append(ghosts["left"])
    x0 = width // 2 - opener.width(shape) // 2
    first = _draw(cv, shape, opener, x0, 0, 1)
    right_end = _lay_part(cv, shape, right, x0 + opener.width(shape), width, 1, 1) or first
    left_end = _lay_part(cv, shape, left, x0, width, -1, -1) or first
    end_marks(cv, left_end, right_end)
    cv.freeze()
    return cv


def end_marks(cv: Canvas, left_end: Box, right_end: Box) -> None:
    """The marks of the line's ends (``END_MARKS``): under the right end's outermost tile
    and over the left end's, in the blank row that the snake's row keeps there (the right
    end winds down, so nothing lies below it; the left end winds up)."""
    cv.put((right_end[0] + right_end[2] - 1) // 2, right_end[3],
           _(END_MARKS["right"])[:1], "label")
    cv.put((left_end[0] + left_end[2] - 1) // 2, left_end[1] - 1,
           _(END_MARKS["left"])[:1], "label")
