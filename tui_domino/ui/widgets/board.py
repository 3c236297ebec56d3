"""The board: one ScrollView drawn with the Line API.

A variant's layout function draws the whole table onto a Canvas; each row becomes a
Strip, cached until the board's version, the width or the theme changes, and cropped to
the visible window every frame. The view follows the play (keeps the last move or the
selected place in sight), pans with hjkl, the arrows when focused and the mouse wheel,
and recentres on ``z``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.events import Click
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.table import Layout
from tui_domino.ui.keys import Key
from tui_domino.ui.widgets.canvas_lines import StyleBook, canvas_strip, component_classes
from tui_domino.ui.widgets.motion import Motion, Mover, Point, cells_in, styled


class BoardView(ScrollView, can_focus=True):
    """The table of one variant."""

    BINDINGS = [
        # TRANSLATORS: the keys panel: bring the table's middle back into view
        Key("z", "recentre", "Recentre", show=False),
    ]

    DEFAULT_CSS = """
    BoardView {
        background: $surface;
        scrollbar-size: 1 1;
    }
    BoardView > .board--frame { color: $foreground; }
    BoardView > .board--num { color: $foreground; text-style: bold; }
    /* the marks: colours apart from each other that stand out in every theme (contrast.py) */
    BoardView > .board--last { color: $mark-last; }
    BoardView > .board--last-num { color: $mark-last; text-style: bold; }
    BoardView > .board--sel { color: $mark-sel; }
    BoardView > .board--sel-num { color: $mark-sel; text-style: bold reverse; }
    BoardView > .board--place { color: $mark-place; }
    BoardView > .board--place-num { color: $mark-place; text-style: bold; }
    BoardView > .board--ghost { color: $mark-dim; }
    BoardView > .board--ghost-num { color: $mark-dim; text-style: bold; }
    BoardView > .board--link { color: $mark-dim; }
    BoardView > .board--closed { color: $error; text-style: bold; }
    BoardView > .board--dim { color: $mark-dim; }
    BoardView > .board--label { color: $primary; text-style: bold; }
    BoardView > .board--spinner { color: $primary; }
    BoardView > .board--spinner-num { color: $primary; text-style: bold; }
    BoardView > .board--edge { color: $foreground 70%; }
    BoardView > .board--point { color: $foreground; text-style: bold; }
    BoardView > .board--mine { background: $primary 25%; }
    BoardView > .board--theirs { color: $foreground 60%; }
    BoardView > .board--lastcell { background: $mark-last; color: $surface; }
    BoardView > .board--bonus { background: $mark-place; color: $surface; text-style: bold; }
    BoardView > .board--selcell { background: $success 50%; color: $foreground; }
    """
    COMPONENT_CLASSES = component_classes("board", DEFAULT_CSS)

    @dataclass
    class Panned(Message):
        """The part of the table out of view changed: ``more`` lists the directions."""

        more: str

    @dataclass
    class PlaceClicked(Message):
        """A highlighted place on the board was clicked."""

        key: object

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._layout: Layout | None = None
        self.version = 0
        self._canvas: Canvas | None = None
        self._canvas_key: tuple[int, int, int] | None = None
        self._strips: dict[int, Strip] = {}
        self._strip_key: tuple[object, ...] | None = None
        # finished rows of the current frame (scroll position and width)
        self._frame: dict[int, Strip] = {}
        self._frame_key: tuple[int, int, int] | None = None
        self._base: Style | None = None  # the widget's own rich style, once per style change
        self._book = StyleBook(self, "board")
        self._follow = True
        self._refits = 0  # layouts again for a scrollbar shown or hidden, since the last change
        self.ascii_only = False
        self._more = ""
        self.mover = Mover(self)
        self._start: Point = (0, 0)  # where a motion's tile starts, in view coordinates

    # -- content -------------------------------------------------------------------------------

    def show(self, layout: Layout, follow: bool = True) -> None:
        """New content: a function drawing the table at a given width."""
        self._layout = layout
        self.version += 1
        self._follow = follow
        self._refits = 0
        self._refresh_layout()

    def launch(self, from_x: int | None, from_below: bool) -> None:
        """The last move's tile slides to its place: from ``from_x`` (a column of the
        screen: where it lay in the hand) at the bottom edge of the view, or from the top
        right corner (the other side's move); the tiles of a bonus just made flash."""
        cv = self.canvas()
        if cv.focus is None:
            return
        if cv.moved is not None:
            cells = {p: cell for p in cv.moved if (cell := cv.get(*p)) is not None}
        else:
            cells = cells_in(cv, cv.focus, lambda style: style.startswith("last"))
        if not cells:
            return
        x0, y0, x1, y1 = cv.focus
        view = self.scrollable_content_region
        width, height = x1 - x0, y1 - y0
        if from_below:
            x = view.width // 2 if from_x is None else from_x - view.x
            self._start = (x - width // 2, view.height - height)
        else:
            self._start = (view.width - width, 0)
        self.mover.start(Motion(cells, styled(cv, ("bonus",))))

    def _start_on_canvas(self, cv: Canvas, ox: int, oy: int) -> Point:
        """The motion's start in canvas coordinates, kept on the canvas's columns."""
        sx, sy = self.scroll_offset
        x = self._start[0] + sx - ox + cv.min_x
        motion = self.mover.motion
        if motion is not None and motion.cells:
            span = max(p[0] for p in motion.cells) - motion.corner[0] + 1
            x = max(cv.min_x, min(x, cv.min_x + cv.width - span))
        return (x, self._start[1] + sy - oy + cv.min_y)

    def _table_width(self) -> int:
        return max(16, self.scrollable_content_region.width - 2)

    def canvas(self) -> Canvas:
        key = (self.version, self._table_width(), self.scrollable_content_region.height)
        if self._canvas is None or self._canvas_key != key:
            if self._layout is None:
                cv = Canvas()
                cv.freeze()
            else:
                cv = self._layout(key[1], key[2])
            self._canvas = cv
            self._canvas_key = key
            self._strips.clear()
        return self._canvas

    def _offsets(self) -> tuple[int, int]:
        """Where the canvas sits in the virtual area (centred when smaller than the view)."""
        cv = self.canvas()
        view = self.scrollable_content_region.size
        return (max(0, (view.width - cv.width) // 2), max(0, (view.height - cv.height) // 2))

    def _refresh_layout(self) -> None:
        cv = self.canvas()
        view = self.scrollable_content_region.size
        self.virtual_size = Size(max(cv.width, view.width), max(cv.height, view.height))
        self.refresh()
        self.call_after_refresh(self._report_position)
        if self._follow:
            self.call_after_refresh(self.follow_play)

    def on_resize(self) -> None:
        self._refits = 0
        self._refresh_layout()

    def watch_show_vertical_scrollbar(self) -> None:
        self._scrollbars_changed()

    def watch_show_horizontal_scrollbar(self) -> None:
        self._scrollbars_changed()

    def _scrollbars_changed(self) -> None:
        """A scrollbar shown or hidden narrows or widens the view, and Textual sends the board
        no resize for it: the table, laid out for the view it had (a Triominos table's
        triangles take their size from it), is laid out again for the view it has, the
        area it scrolls over with it, and the view follows the play again (left as it was, the
        scroll area was a size too large or too small, and a selected place could sit out of
        view at its edge). Twice at most after a change: a table that needs a scrollbar only
        when laid out without one would flip for ever."""
        if self._refits < 2 and self.is_mounted:
            self._refits += 1
            self.call_after_refresh(self._refresh_layout)

    def watch_scroll_x(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_x(old_value, new_value)
        self._report_position()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._report_position()

    def _report_position(self) -> None:
        """Tells the screen in which directions some of the table is out of view."""
        more = ""
        if self.scroll_y > 0:
            more += "↑"
        if self.scroll_y < self.max_scroll_y:
            more += "↓"
        if self.scroll_x > 0:
            more += "←"
        if self.scroll_x < self.max_scroll_x:
            more += "→"
        if more != self._more:
            self._more = more
            self.post_message(self.Panned(more))

    def region_of(self, box: tuple[int, int, int, int]) -> Region:
        """Where a canvas box (x0, y0, x1, y1, as the layouts give them) lies in the
        board's virtual area."""
        cv = self.canvas()
        ox, oy = self._offsets()
        x0, y0, x1, y1 = box
        return Region(x0 - cv.min_x + ox, y0 - cv.min_y + oy, x1 - x0, y1 - y0)

    def shows(self, box: tuple[int, int, int, int]) -> bool:
        """Whether the whole of a canvas box is in view now."""
        view = Region(int(self.scroll_x), int(self.scroll_y),
                      *self.scrollable_content_region.size)
        return view.contains_region(self.region_of(box))

    def follow_play(self) -> None:
        """Scrolls so that the last move is in view, and the selected place with it where
        both fit (each with a margin round it where that fits too). The last move comes
        first: it is what changed on the table, and the hint line names the selected place
        (its letter, its end or its arm) while the legend's arrows say where the rest of the
        table is. So where both cannot be in view at once, the view goes as far towards the
        selected place as it can with the whole last move still in it. Each direction on
        its own: a place beside the last move but far below it is still brought level."""
        cv = self.canvas()
        if cv.focus is None and cv.sel_focus is None:
            self.recentre()
            return
        view = self.scrollable_content_region.size
        last = None if cv.focus is None else self.region_of(cv.focus)
        sel = None if cv.sel_focus is None else self.region_of(cv.sel_focus)
        x = _follow(self.scroll_x, view.width, _span(last, 0), _span(sel, 0), 2)
        y = _follow(self.scroll_y, view.height, _span(last, 1), _span(sel, 1), 1)
        self.scroll_to(x, y, animate=False, force=True)

    def recentre(self) -> None:
        view = self.scrollable_content_region.size
        vs = self.virtual_size
        self.scroll_to(
            max(0, (vs.width - view.width) // 2),
            max(0, (vs.height - view.height) // 2),
            animate=False,
            force=True,
        )

    def action_recentre(self) -> None:
        self.recentre()

    def set_ascii(self, value: bool) -> None:
        self.ascii_only = value
        self._strips.clear()
        self._frame.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._book.clear()
        self._strips.clear()
        self._frame.clear()
        self._base = None

    # -- the Line API --------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        # Called once per visible row per frame: everything that does not depend on the row
        # is worked out once per frame (the frame key) and finished rows are kept until the
        # table, the scroll position, the size or the style changes.
        scroll_x, scroll_y = self.scroll_offset
        region = self.scrollable_content_region
        width = region.width
        cv = self.canvas()
        ox = max(0, (width - cv.width) // 2)
        oy = max(0, (region.height - cv.height) // 2)
        theme = self.app.theme
        key = (self._canvas_key, ox, self.ascii_only, theme)
        if key != self._strip_key:
            if self._strip_key is None or key[-1] != self._strip_key[-1]:
                self._book.clear()
                self._base = None
            self._strips.clear()
            self._frame.clear()
            self._strip_key = key
        frame = (scroll_x, width, self.virtual_size.width)
        if frame != self._frame_key:
            self._frame.clear()
            self._frame_key = frame
        row = y + scroll_y - oy
        motion = self.mover.motion
        if motion is not None:  # drawn afresh, and not kept, while a tile moves over it
            now = self.mover.time
            shift = motion.shift(now, self._start_on_canvas(cv, ox, oy))
            if motion.touches(row + cv.min_y, shift):
                cells = motion.draw_row(row + cv.min_y, cv.cells.get(row + cv.min_y, {}),
                                        now, shift)
                moved = canvas_strip(cv, row, self._book, self.ascii_only, Style(), cells)
                if ox:
                    moved = Strip([Segment(" " * ox), *moved], ox + moved.cell_length)
                return moved.crop(scroll_x, scroll_x + width).extend_cell_length(
                    width).apply_style(self.rich_style)
        out = self._frame.get(row)
        if out is not None:
            return out
        strip = self._strips.get(row)
        if strip is None:
            strip = canvas_strip(cv, row, self._book, self.ascii_only, Style())
            if ox:
                strip = Strip([Segment(" " * ox), *strip], ox + strip.cell_length)
            self._strips[row] = strip
        base = self._base
        if base is None:
            base = self._base = self.rich_style
        out = strip.crop(scroll_x, scroll_x + width).extend_cell_length(width).apply_style(base)
        self._frame[row] = out
        return out

    # -- the mouse -----------------------------------------------------------------------------

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cv = self.canvas()
        ox, oy = self._offsets()
        x = offset.x + int(self.scroll_x) - ox
        y = offset.y + int(self.scroll_y) - oy
        key = cv.lookup(x, y)
        if key is not None:
            event.stop()
            self.post_message(self.PlaceClicked(key))


def _span(region: Region | None, axis: int) -> tuple[int, int] | None:
    """A region's extent along x (0) or y (1): start, end (exclusive)."""
    if region is None:
        return None
    return (region.x, region.right) if axis == 0 else (region.y, region.bottom)


def _follow(now: float, view: int, last: tuple[int, int] | None,
            sel: tuple[int, int] | None, margin: int) -> float:
    """The scroll offset along one direction that keeps ``last`` (the last move) in a view of
    ``view`` cells, and ``sel`` (the selected place) too where both fit, with ``margin``
    cells round them where that fits, moving as little as possible from ``now``."""

    def keeps(span: tuple[int, int], m: int) -> tuple[int, int]:
        """The offsets at which the view holds ``span`` with ``m`` cells round it."""
        return (span[1] + m - view, span[0] - m)

    def near(lo: int, hi: int, to: float) -> float:
        return min(max(to, lo), hi)

    ranges = [r for r in (last, sel) if r is not None]
    for m in (margin, 0):
        kept = [keeps(r, m) for r in ranges]
        lo, hi = max(k[0] for k in kept), min(k[1] for k in kept)
        if lo <= hi:
            return near(lo, hi, now)
    if last is None:
        # The selected place alone, larger than the view (a board not laid out yet has
        # none): its middle.
        lo, hi = keeps(sel, 0) if sel is not None else (int(now), int(now))
        return (lo + hi) / 2
    lo, hi = keeps(last, 0)
    if lo > hi:  # the last move alone is larger than the view: its middle
        return (lo + hi) / 2
    # as near the selected place as the last move allows
    target = keeps(sel, 0) if sel is not None else (lo, hi)
    return near(lo, hi, target[0] if target[0] > hi else target[1])
