"""A hand of tiles in a row, the selected one raised, unplayable ones dimmed."""

from __future__ import annotations

from collections.abc import Sequence

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import domino_h, pips_h, triomino_up


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
    pips: bool = False,
) -> Canvas:
    """Four rows: the tiles (3) and a marker row; scrolled so the selection shows. With
    ``pips`` (dominoes on a large table, as the board draws them then) six: 5 and the marker."""
    cv = Canvas()
    n = len(hand)
    pips = pips and variant != "triominos"
    # a gap between the tiles and a margin while they fit so; else closer, edge to edge
    # (16 triominos at 80 columns), and only then a scrolled window with arrows
    step, margin = (15, 2) if pips else (6, 2)
    if pips and n * step + 2 * margin > width:
        step, margin = 14, (2 if n * 14 + 4 <= width else 0)
    elif not pips and n * step + 2 * margin > width:
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
    arrow_row = 2 if pips else 1
    if first > 0:
        cv.text(0, arrow_row, "‹", "dim")
        cv.hit(0, 0, 2, 6 if pips else 4, ("scroll", -1))
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
        if hidden and pips:
            cv.text(x, 0, "┌───────────┐", style)
            for dy in (1, 2, 3):
                cv.text(x, dy, "│░░░░░░░░░░░│", style)
            cv.text(x, 4, "└───────────┘", style)
        elif hidden:
            cv.text(x, 0, "┌───┐", style)
            cv.text(x, 1, "│░░░│", style)
            cv.text(x, 2, "└───┘", style)
        elif pips:
            pips_h(cv, x, 0, tile[0], tile[1], style)
        elif variant == "triominos":
            triomino_up(cv, x, 0, list(tile), style)
        else:
            domino_h(cv, x, 0, tile[0], tile[1], style)
        mark_row, pad = (5, " " * 6) if pips else (3, "  ")  # under the tile's middle
        if i == selected and not hidden:
            cv.text(x, mark_row, f"{pad}▲{pad}", "sel-mark")
        elif i in marked and not hidden:
            cv.text(x, mark_row, f"{pad}✓{pad}", "marked-num")
        cv.hit(x, 0, x + step, mark_row + 1, i)
        x += step
    if last < n:
        cv.text(x, arrow_row, "›", "dim")
        cv.hit(x, 0, x + 2, 6 if pips else 4, ("scroll", 1))
    bottom = 5 if pips else 3
    cv.put(0, bottom, " ", "")
    cv.put(max(x - 1, width - 1), bottom, " ", "")  # the full width (x: past the last tile)
    cv.freeze(pad=0)
    return cv
