"""The player's hand: tiles in a row; the selected one raised, unplayable ones dimmed."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from textual.events import Click
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.hand import layout_hand
from tui_domino.ui.widgets.canvas_lines import StyleBook, canvas_strip, component_classes
from tui_domino.ui.widgets.motion import Motion, Mover, cells_in


class HandView(Widget, can_focus=True):
    """Your tiles. The game screen binds ←/→ (a tile) and ↑/↓ (where it goes) while this has
    the focus; a click on a tile, or on the arrow at either edge of a long hand, posts a
    message."""

    DEFAULT_CSS = """
    HandView { height: 4; }
    HandView.-pips { height: 6; }
    HandView > .hand--frame { color: $foreground; }
    HandView > .hand--num { color: $foreground; text-style: bold; }
    HandView > .hand--sel { color: $accent; text-style: bold; }
    HandView > .hand--sel-num { color: $accent; text-style: bold reverse; }
    HandView > .hand--sel-mark { color: $accent; text-style: bold; }
    HandView > .hand--dim { color: $mark-dim; }
    HandView > .hand--dim-num { color: $mark-dim; }
    HandView > .hand--marked { color: $success; }
    HandView > .hand--marked-num { color: $success; text-style: bold; }
    HandView > .hand--back { color: $foreground 50%; }
    HandView > .hand--back-num { color: $foreground 50%; }
    HandView > .hand--ghost { color: $mark-dim; }
    HandView > .hand--ghost-num { color: $mark-dim; }
    """
    COMPONENT_CLASSES = component_classes("hand", DEFAULT_CSS)

    @dataclass
    class TileClicked(Message):
        index: int

    @dataclass
    class Step(Message):
        """A key asked for another tile (``what`` = "tile") or place ("place")."""

        what: str
        delta: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.variant = "classic"
        self.tiles: list[tuple[int, ...]] = []
        self.selected: int | None = None
        self.playable: set[int] = set()
        self.marked: set[int] = set()
        self.hidden = False
        self.pips = False
        self.ascii_only = False
        self._book = StyleBook(self, "hand")
        self._canvas: Canvas | None = None
        self._theme = ""
        self.mover = Mover(self)
        self._from = 0  # where a tile drawn starts its way in (a canvas column)

    def show(
        self,
        variant: str,
        tiles: list[tuple[int, ...]],
        selected: int | None,
        playable: set[int],
        marked: set[int],
        hidden: bool = False,
        pips: bool = False,
    ) -> None:
        self.variant = variant
        self.pips = pips
        self.set_class(pips, "-pips")
        self.tiles = tiles
        self.selected = selected
        self.playable = playable
        self.marked = marked
        self.hidden = hidden
        self._canvas = None
        self.refresh()

    def canvas(self) -> Canvas:
        if self._canvas is None or self._canvas.width != max(self.size.width, 1):
            self._canvas = layout_hand(
                self.variant, self.tiles, self.selected, self.playable, self.marked,
                max(self.size.width, 1), self.hidden, self.pips,
            )
        return self._canvas

    def tile_box(self, index: int | None) -> tuple[int, int, int, int] | None:
        """Where tile ``index`` is drawn: x0, y0, x1, y1 on the canvas (before its freeze)."""
        if index is None or self._canvas is None:
            return None
        for hit in self._canvas.hits:
            if hit.key == index:
                return (hit.x0, hit.y0, hit.x1, hit.y1)
        return None

    def tile_column(self, index: int | None) -> int | None:
        """The screen column of the middle of tile ``index``, as last drawn."""
        box = self.tile_box(index)
        if box is None or self._canvas is None:
            return None
        return self.content_region.x + (box[0] + box[2]) // 2 - self._canvas.min_x

    def slide_in(self, index: int) -> None:
        """Tile ``index``, just drawn, slides into its place from the right (the bazaar's
        side of the table)."""
        self.canvas()
        box = self.tile_box(index)
        if box is None or self._canvas is None:
            return
        cells = cells_in(self._canvas, box)
        x_end = self._canvas.min_x + self._canvas.width
        self._from = x_end - (box[2] - box[0])
        self.mover.start(Motion(cells))

    def on_resize(self) -> None:
        self._canvas = None

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._book.clear()

    def render_line(self, y: int) -> Strip:
        if self.app.theme != self._theme:
            self._theme = self.app.theme
            self._book.clear()
        cv = self.canvas()
        motion = self.mover.motion
        row = None
        if motion is not None:  # the tile drawn, on its way in
            shift = motion.shift(self.mover.time, (self._from, motion.corner[1]))
            if motion.touches(y + cv.min_y, shift):
                row = motion.draw_row(y + cv.min_y, cv.cells.get(y + cv.min_y, {}),
                                      self.mover.time, shift)
        strip = canvas_strip(cv, y, self._book, self.ascii_only, Style(), row)
        return strip.crop(0, self.size.width).extend_cell_length(self.size.width).apply_style(
            self.rich_style
        )

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        key = self.canvas().lookup(offset.x, offset.y)
        if isinstance(key, int):
            event.stop()
            self.post_message(self.TileClicked(key))
        elif isinstance(key, tuple):
            event.stop()
            self.post_message(self.Step("tile", key[1]))
