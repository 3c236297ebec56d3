"""A sparse character canvas with a style key per cell, and clickable regions.

Layouts draw at any integer coordinates (negative ones too); ``freeze`` shifts
everything so the top-left corner is (0, 0) and returns rows of (text, style) runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ASCII_MAP = str.maketrans(
    {
        "─": "-", "━": "=", "│": "|", "┃": "#", "┌": "+", "┐": "+", "└": "+", "┘": "+",
        "┬": "+", "┴": "+", "├": "+", "┤": "+", "┼": "+", "╱": "/", "╲": "\\", "╌": "-",
        "╎": ":", "┆": ":", "╶": "-", "╴": "-", "╵": "|", "╷": "|", "·": ".", "•": "o",
        "▲": "^", "▼": "v", "◀": "<", "▶": ">", "‹": "<", "›": ">", "…": "~",
        "╳": "X", "═": "=", "║": "|", "╔": "+", "╗": "+", "╚": "+", "╝": "+",
        "░": "#", "✓": "*",
    }
)

Run = tuple[str, str]


@dataclass
class Hit:
    x0: int
    y0: int
    x1: int  # exclusive
    y1: int  # exclusive
    key: object


@dataclass
class Canvas:
    cells: dict[int, dict[int, tuple[str, str]]] = field(default_factory=dict)
    hits: list[Hit] = field(default_factory=list)
    focus: tuple[int, int, int, int] | None = None  # the last move: x0, y0, x1, y1
    sel_focus: tuple[int, int, int, int] | None = None  # the selected place
    moved: set[tuple[int, int]] | None = None  # the cells of the last move's tile, when
    # its box holds more (a triangle's box holds parts of its neighbours)
    # each tile laid against another (a Spider's arms): the boxes (x0, y0, x1, y1, inclusive)
    # of the tile it joins and of its own, which touch
    joins: list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]] = field(
        default_factory=list)
    min_x: int = 0
    min_y: int = 0
    width: int = 0
    height: int = 0

    def put(self, x: int, y: int, ch: str, style: str = "") -> None:
        self.cells.setdefault(y, {})[x] = (ch, style)

    def text(self, x: int, y: int, text: str, style: str = "") -> None:
        row = self.cells.setdefault(y, {})
        for i, ch in enumerate(text):
            row[x + i] = (ch, style)

    def get(self, x: int, y: int) -> tuple[str, str] | None:
        return self.cells.get(y, {}).get(x)

    def restyle(self, x: int, y: int, style: str) -> None:
        row = self.cells.setdefault(y, {})
        ch = row.get(x, (" ", ""))[0]
        row[x] = (ch, style)

    def hit(self, x0: int, y0: int, x1: int, y1: int, key: object) -> None:
        self.hits.append(Hit(x0, y0, x1, y1, key))

    def add_focus(self, x0: int, y0: int, x1: int, y1: int, selected: bool = False) -> None:
        old = self.sel_focus if selected else self.focus
        if old is not None:
            a, b, c, d = old
            x0, y0, x1, y1 = min(a, x0), min(b, y0), max(c, x1), max(d, y1)
        if selected:
            self.sel_focus = (x0, y0, x1, y1)
        else:
            self.focus = (x0, y0, x1, y1)

    def bounds(self) -> tuple[int, int, int, int]:
        xs = [x for row in self.cells.values() for x in row]
        ys = [y for y, row in self.cells.items() if row]
        if not xs:
            return (0, 0, 0, 0)
        return (min(xs), min(ys), max(xs) + 1, max(ys) + 1)

    def freeze(self, pad: int = 1) -> None:
        """Computes the bounds (with ``pad`` blank cells around)."""
        x0, y0, x1, y1 = self.bounds()
        self.min_x, self.min_y = x0 - pad, y0 - pad
        self.width = x1 - x0 + 2 * pad
        self.height = y1 - y0 + 2 * pad

    def row_runs(self, y: int, ascii_only: bool = False,
                 row: dict[int, tuple[str, str]] | None = None) -> list[Run]:
        """Row ``y`` (0-based after freeze) as runs of equal style, full width; ``row``
        instead of the canvas's own cells of that row (a motion drawn over them)."""
        if row is None:
            row = self.cells.get(y + self.min_y, {})
        runs: list[Run] = []
        cur_style = ""
        buf: list[str] = []
        for x in range(self.min_x, self.min_x + self.width):
            ch, st = row.get(x, (" ", ""))
            if st != cur_style and buf:
                runs.append(("".join(buf), cur_style))
                buf = []
            cur_style = st
            buf.append(ch)
        if buf:
            runs.append(("".join(buf), cur_style))
        if ascii_only:
            runs = [(t.translate(ASCII_MAP), s) for t, s in runs]
        return runs

    def lookup(self, x: int, y: int) -> object | None:
        """The key of the clickable region at frozen coordinates (x, y)."""
        x += self.min_x
        y += self.min_y
        for h in reversed(self.hits):
            if h.x0 <= x < h.x1 and h.y0 <= y < h.y1:
                return h.key
        return None

    def plain(self) -> str:
        return "\n".join("".join(t for t, _ in self.row_runs(y)) for y in range(self.height))
