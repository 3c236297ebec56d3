"""Movement on the table: a tile laid slides to its place from the hand (or from the other
side of the table), a tile drawn slides into the hand from the bazaar's side, and the tiles
of a hexagon or a bridge just made flash.

A motion is drawn over the widget's still drawing, row by row, for ``DURATION`` seconds and
ends at once on any key or click (``land_all``, called by the app for every key and mouse
press before the key does its work): the move is made before the motion starts, so nothing
waits for it. While the tile travels its place shows it faintly, so the table never looks
broken. Off with the animations setting, in ASCII mode and in a terminal without colours
(``wanted``).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from textual.app import App
from textual.timer import Timer
from textual.widget import Widget

from tui_domino.ui.drawing.canvas import Canvas

DURATION = 0.22  # seconds: the bound is 250 ms
FLASH_STEP = 0.055  # seconds between a flash's on and off
FPS = 60

Cell = tuple[str, str]  # a character and its style key
Point = tuple[int, int]  # canvas coordinates (before the canvas's freeze)

clock: Callable[[], float] = time.monotonic  # replaced by tests to step a motion by hand

FADED = {"num": "ghost-num", "last-num": "ghost-num", "sel-num": "ghost-num",
         "spinner-num": "ghost-num", "point": "ghost-num", "marked-num": "ghost-num"}


def wanted(app: App[object]) -> bool:
    """Whether motions are drawn: the animations setting on, box drawing (not ASCII) and a
    terminal with colours."""
    settings = getattr(app, "settings", None)  # optional: any Textual app may host the board
    if app.animation_level == "none" or (settings is not None and settings.ascii):
        return False
    return app.console.color_system is not None


@dataclass
class Motion:
    """One tile's way to its place (``cells``, drawn there when it lands), starting with its
    top-left corner at ``start`` (canvas coordinates, worked out each frame by the widget
    as the view may scroll), and the cells that flash meanwhile."""

    cells: dict[Point, Cell]
    flash: frozenset[Point] = frozenset()
    began: float | None = None  # the first frame drawn
    duration: float = DURATION
    rows: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        self.rows = frozenset(y for _, y in self.cells) | frozenset(y for _, y in self.flash)

    @property
    def corner(self) -> Point:
        return (min(x for x, _ in self.cells), min(y for _, y in self.cells)) \
            if self.cells else (0, 0)

    def progress(self, now: float) -> float:
        if self.began is None:
            self.began = now
        return min(1.0, max(0.0, (now - self.began) / self.duration))

    def done(self, now: float) -> bool:
        return self.progress(now) >= 1.0

    def shift(self, now: float, start: Point) -> Point:
        """How far the tile still is from its place: (dx, dy), easing out (fast, then
        settling)."""
        left = (1.0 - self.progress(now)) ** 3
        x0, y0 = self.corner
        return (round((start[0] - x0) * left), round((start[1] - y0) * left))

    def touches(self, y: int, shift: Point) -> bool:
        return y in self.rows or (y - shift[1]) in self.rows

    def draw_row(self, y: int, row: dict[int, Cell], now: float, shift: Point) -> dict[int, Cell]:
        """Row ``y`` with the motion drawn over ``row`` (the still drawing's cells)."""
        self.progress(now)  # the first frame starts the clock
        out = dict(row)
        moving = shift != (0, 0)
        if moving:
            for (x, cy), (ch, style) in self.cells.items():
                if cy == y:  # its place, faint until it lands
                    out[x] = (ch, FADED.get(style, "ghost"))
        if self.flash and int((now - (self.began or now)) / FLASH_STEP) % 2 == 0:  # lit
            for x, cy in self.flash:
                if cy == y and x in out:
                    out[x] = (out[x][0], "sel-num")
        if moving:
            dx, dy = shift
            for (x, cy), cell in self.cells.items():
                if cy + dy == y:
                    out[x + dx] = cell
        return out


def cells_in(cv: Canvas, box: tuple[int, int, int, int],
             keep: Callable[[str], bool] = lambda style: True) -> dict[Point, Cell]:
    """The drawn cells of ``cv`` inside ``box`` (x0, y0, x1, y1, before the freeze) whose
    style ``keep`` accepts."""
    x0, y0, x1, y1 = box
    out: dict[Point, Cell] = {}
    for y in range(y0, y1):
        for x, cell in cv.cells.get(y, {}).items():
            if x0 <= x < x1 and cell[0] != " " and keep(cell[1]):
                out[(x, y)] = cell
    return out


def styled(cv: Canvas, styles: Iterable[str]) -> frozenset[Point]:
    """Every cell of ``cv`` drawn in one of ``styles``."""
    wanted_styles = set(styles)
    return frozenset((x, y) for y, row in cv.cells.items() for x, cell in row.items()
                     if cell[1] in wanted_styles)


_flying: weakref.WeakSet[Mover] = weakref.WeakSet()


def land_all() -> None:
    """Every motion under way lands at once (a key or a click)."""
    for mover in list(_flying):
        mover.land()


def flying() -> bool:
    return any(m.motion is not None for m in _flying)


class Mover:
    """A widget's motion and the timer that draws its frames."""

    def __init__(self, widget: Widget) -> None:
        self.widget = widget
        self.motion: Motion | None = None
        self._timer: Timer | None = None
        self.time = 0.0  # the time of the frame being drawn: one for all its rows

    def start(self, motion: Motion) -> None:
        if not motion.cells and not motion.flash:
            return
        self.land()
        self.motion = motion
        self.time = clock()
        _flying.add(self)
        self._timer = self.widget.set_interval(1 / FPS, self._tick)
        self.widget.refresh()

    def _tick(self) -> None:
        motion = self.motion
        self.time = clock()
        if motion is None or motion.done(self.time):
            self.land()
            return
        self.widget.refresh()

    def land(self) -> None:
        """The motion ends: the tile is in its place."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        _flying.discard(self)
        if self.motion is not None:
            self.motion = None
            self.widget.refresh()
