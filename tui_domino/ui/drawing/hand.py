"""A hand of tiles in a row, the selected one raised, unplayable ones dimmed."""

from __future__ import annotations

from collections.abc import Sequence

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import domino_h, triomino_up


def tile_width(variant: str) -> int:
    return 5


def layout_hand(
    variant: str,
    hand: Sequence[Sequence[int]],
    selected: int | None,
    playable: set[int],
    marked: set[int],
    width: int,
    hidden: bool = False,
) -> Canvas:
    """Four rows: the tiles (3) and a marker row; scrolled so the selection shows."""
    cv = Canvas()
    n = len(hand)
    # a gap between the tiles and a margin while they fit so; else closer, edge to edge
    # (16 triominos at 80 columns), and only then a scrolled window with arrows
    step, margin = 6, 2
    if n * step + 2 * margin > width:
        step, margin = 5, (2 if n * 5 + 4 <= width else 0)
    fit = max(1, (width - 2 * margin) // step)
    if n > fit:
        margin = 2  # room for the arrows
        fit = max(1, (width - 4) // step)
    first = 0
    if n > fit and selected is not None:
        first = min(max(0, selected - fit // 2), n - fit)
    last = min(n, first + fit)
    x = margin
    if first > 0:
        cv.text(0, 1, "‹", "dim")
        cv.hit(0, 0, 2, 4, ("scroll", -1))
    for i in range(first, last):
        tile = hand[i]
        if hidden:
            style = "back"
        elif i == selected:
            style = "sel"
        elif i in marked:
            style = "marked"
        elif i in playable:
            style = ""
        else:
            style = "dim"
        if hidden:
            cv.text(x, 0, "┌───┐", style)
            cv.text(x, 1, "│░░░│", style)
            cv.text(x, 2, "└───┘", style)
        elif variant == "triominos":
            triomino_up(cv, x, 0, list(tile), style)
        else:
            domino_h(cv, x, 0, tile[0], tile[1], style)
        if i == selected and not hidden:
            cv.text(x, 3, "  ▲  ", "sel-mark")
        elif i in marked and not hidden:
            cv.text(x, 3, "  ✓  ", "marked-num")
        cv.hit(x, 0, x + step, 4, i)
        x += step
    if last < n:
        cv.text(x, 1, "›", "dim")
        cv.hit(x, 0, x + 2, 4, ("scroll", 1))
    cv.put(0, 3, " ", "")
    cv.put(max(x - 1, width - 1), 3, " ", "")  # the full width (x: past the last tile)
    cv.freeze(pad=0)
    return cv
