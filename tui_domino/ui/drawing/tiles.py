"""Domino and triomino tiles in box-drawing art, with digits."""

from __future__ import annotations

from tui_domino.ui.drawing.canvas import Canvas


def num_style(style: str) -> str:
    return f"{style}-num" if style else "num"


def frame_style(style: str) -> str:
    return style or "frame"


# Pip positions in a 3 by 3 grid (row, column) for each number.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}


class TileShape:
    """The sizes of a domino drawn lengthwise (h_w by h_h) and upright (v_w by v_h): with
    pips (large terminals), with digits in boxes (the usual), or compact (one row
    lengthwise, three upright) for a table that would not fit otherwise."""

    def __init__(self, pips: bool, compact: bool = False) -> None:
        self.pips = pips
        self.compact = compact and not pips
        if pips:
            self.h_w, self.h_h, self.v_w, self.v_h = 13, 5, 7, 9
        elif self.compact:
            self.h_w, self.h_h, self.v_w, self.v_h = 5, 1, 3, 3
        else:
            self.h_w, self.h_h, self.v_w, self.v_h = 5, 3, 3, 5

    def lengthwise(self, cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> None:
        if self.pips:
            pips_h(cv, x, y, a, b, style)
        elif self.compact:
            compact_h(cv, x, y, a, b, style)
        else:
            domino_h(cv, x, y, a, b, style)

    def upright(self, cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> None:
        if self.pips:
            pips_v(cv, x, y, a, b, style)
        elif self.compact:
            compact_v(cv, x, y, a, b, style)
        else:
            domino_v(cv, x, y, a, b, style)


DIGITS = TileShape(pips=False)
PIPS_SHAPE = TileShape(pips=True)
COMPACT = TileShape(pips=False, compact=True)


def compact_h(cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> None:
    """A tile lengthwise in one row, 5 wide: [a│b]."""
    f, n = frame_style(style), num_style(style)
    cv.text(x, y, "[", f)
    cv.text(x + 1, y, str(a), n)
    cv.text(x + 2, y, "│", f)
    cv.text(x + 3, y, str(b), n)
    cv.text(x + 4, y, "]", f)


def compact_v(cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> None:
    """A tile upright in three rows, 3 wide, its numbers in the box's top and bottom."""
    f, n = frame_style(style), num_style(style)
    cv.text(x, y, "┌", f)
    cv.text(x + 1, y, str(a), n)
    cv.text(x + 2, y, "┐", f)
    cv.text(x, y + 1, "├─┤", f)
    cv.text(x, y + 2, "└", f)
    cv.text(x + 1, y + 2, str(b), n)
    cv.text(x + 2, y + 2, "┘", f)


def _pip_half(cv: Canvas, x: int, y: int, n: int, style: str) -> None:
    """A 5 by 3 half at (x, y) with ``n`` pips."""
    for r, c in PIPS[n]:
        cv.put(x + 2 * c, y + r, "•", num_style(style))


def pips_h(cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> None:
    """A tile lengthwise with pips, 13 wide and 5 tall."""
    f = frame_style(style)
    cv.text(x, y, "┌─────┬─────┐", f)
    for dy in (1, 2, 3):
        cv.text(x, y + dy, "│     │     │", f)
    cv.text(x, y + 4, "└─────┴─────┘", f)
    _pip_half(cv, x + 1, y + 1, a, style)
    _pip_half(cv, x + 7, y + 1, b, style)


def pips_v(cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> None:
    """A tile upright with pips, 7 wide and 9 tall."""
    f = frame_style(style)
    cv.text(x, y, "┌─────┐", f)
    for dy in (1, 2, 3, 5, 6, 7):
        cv.text(x, y + dy, "│     │", f)
    cv.text(x, y + 4, "├─────┤", f)
    cv.text(x, y + 8, "└─────┘", f)
    _pip_half(cv, x + 1, y + 1, a, style)
    _pip_half(cv, x + 1, y + 5, b, style)


def domino_h(cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> tuple[int, int]:
    """A tile lying lengthwise, 5 wide and 3 tall, ``a`` on the left. Returns (w, h)."""
    f, n = frame_style(style), num_style(style)
    cv.text(x, y, "┌─┬─┐", f)
    cv.text(x, y + 1, "│", f)
    cv.text(x + 1, y + 1, str(a), n)
    cv.text(x + 2, y + 1, "│", f)
    cv.text(x + 3, y + 1, str(b), n)
    cv.text(x + 4, y + 1, "│", f)
    cv.text(x, y + 2, "└─┴─┘", f)
    return (5, 3)


def domino_v(cv: Canvas, x: int, y: int, a: int, b: int, style: str = "") -> tuple[int, int]:
    """A tile standing upright, 3 wide and 5 tall, ``a`` on top. Returns (w, h)."""
    f, n = frame_style(style), num_style(style)
    cv.text(x, y, "┌─┐", f)
    cv.text(x, y + 1, "│", f)
    cv.text(x + 1, y + 1, str(a), n)
    cv.text(x + 2, y + 1, "│", f)
    cv.text(x, y + 2, "├─┤", f)
    cv.text(x, y + 3, "│", f)
    cv.text(x + 1, y + 3, str(b), n)
    cv.text(x + 2, y + 3, "│", f)
    cv.text(x, y + 4, "└─┘", f)
    return (3, 5)


def ghost_h(cv: Canvas, x: int, y: int, label: str, style: str) -> None:
    """An empty place lengthwise, 5 by 3, with a label in the middle."""
    cv.text(x, y, "┌╌╌╌┐", style)
    cv.text(x, y + 1, "╎", style)
    cv.text(x + 1, y + 1, label.center(3)[:3], f"{style}-num")
    cv.text(x + 4, y + 1, "╎", style)
    cv.text(x, y + 2, "└╌╌╌┘", style)


def ghost_v(cv: Canvas, x: int, y: int, label: str, style: str) -> None:
    """An empty place upright, 3 by 5, with a label in the middle."""
    cv.text(x, y, "┌╌┐", style)
    for dy in (1, 3):
        cv.text(x, y + dy, "╎ ╎", style)
    cv.text(x, y + 2, "╎", style)
    cv.text(x + 1, y + 2, label[:1], f"{style}-num")
    cv.text(x + 2, y + 2, "╎", style)
    cv.text(x, y + 4, "└╌┘", style)


def triomino_up(
    cv: Canvas, x: int, y: int, corners: tuple[int, int, int] | list[int], style: str = "",
    width: int = 5,
) -> None:
    """A triomino in a hand, ``width`` wide (5, or 3 in a narrow hand) and 3 tall: apex,
    right, left (clockwise)."""
    a, r, left = corners
    f, n = frame_style(style), num_style(style)
    mid = width // 2
    cv.text(x + mid, y, str(a), n)
    cv.text(x + mid - 1, y + 1, "╱", f)
    cv.text(x + mid + 1, y + 1, "╲", f)
    cv.text(x, y + 2, str(left), n)
    cv.text(x + 1, y + 2, "─" * (width - 2), f)
    cv.text(x + width - 1, y + 2, str(r), n)
    if style:
        cv.put(x + mid, y + 1, " ", f)
