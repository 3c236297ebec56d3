"""Turning a drawing canvas into Textual strips, styled from the widget's component
classes so that every theme colours the board."""

from __future__ import annotations

import re

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

from tui_domino.ui.drawing.canvas import Canvas


def component_classes(prefix: str, css: str) -> set[str]:
    """The component classes ``css`` styles (``.prefix--key``): Textual works out each one's
    style whenever the widget's own changes (its focus, a screen shown again), so a key that
    no rule styles is left out and drawn in the widget's own style."""
    return set(re.findall(rf"\.({re.escape(prefix)}--[\w-]+)", css))


class StyleBook:
    """Rich styles of a widget's component classes, looked up once per theme."""

    def __init__(self, widget: Widget, prefix: str) -> None:
        self.widget = widget
        self.prefix = prefix
        self._styles: dict[str, Style] = {}

    def clear(self) -> None:
        self._styles.clear()

    def get(self, key: str) -> Style:
        style = self._styles.get(key)
        if style is None:
            if key == "":
                style = Style()
            else:
                name = f"{self.prefix}--{key}"
                try:
                    style = self.widget.get_component_rich_style(name)
                except KeyError:
                    style = Style()
            self._styles[key] = style
        return style


def canvas_strip(canvas: Canvas, y: int, book: StyleBook, ascii_only: bool, base: Style,
                 row: dict[int, tuple[str, str]] | None = None) -> Strip:
    """Row ``y`` of the canvas (``row``: other cells for it, e.g. with a motion drawn over
    them, at any row, inside the canvas or not)."""
    if row is None and (y < 0 or y >= canvas.height):
        return Strip([Segment(" " * canvas.width, base)], canvas.width)
    segs = [
        Segment(text, base + book.get(key) if key else base)
        for text, key in canvas.row_runs(y, ascii_only, row)
    ]
    return Strip(segs, canvas.width)
