"""A hand of tiles in a row, the selected one raised, unplayable ones dimmed."""

from __future__ import annotations

from collections.abc import Sequence

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import domino_h, pips_h, triomino_up

# A Triominos hand of two players starts with 16 tiles (``rules.options``): its tiles are
# drawn 5 columns wide when the hand has room for 16 of them with a gap between, else 3.
FULL_TRIOMINOS_HAND = 16


def tile_size(variant: str, width: int, pips: bool = False) -> tuple[int, int]:
    """How wide a tile of the hand is drawn, and the blank columns after it, in a hand
    ``width`` columns wide. Both depend on the variant and the width alone, never on how
    many tiles there are, so a hand keeps its look through a round."""
    if pips and variant != "triominos":
        return 13, 1
    if variant == "triominos" and width < 2 + FULL_TRIOMINOS_HAND * 6 - 1:
        return 3, 2  # narrow triangles, two columns apart: a zigzag of one column reads as one
    return 5, 1


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
    ``pips`` (dominoes on a large table, as the board draws them then) six: 5 and the marker.
    Every tile stands apart from the next by a blank column at least, however many there
    are: a hand too long for the width shows a window of it, with an arrow at each side
    that has more."""
    cv = Canvas()
    n = len(hand)
    pips = pips and variant != "triominos"
    w, gap = tile_size(variant, width, pips)
    step = w + gap
    span = n * step - gap  # the tiles, from the first one's left edge to the last one's right
    margin = next((m for m in (2, 1, 0) if span + 2 * m <= width), 0)
    fit = n
    if span > width:
        margin = 2  # room for the arrows
        fit = max(1, (width - 2 * margin + gap) // step)
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
            inner = w - 2
            cv.text(x, 0, "┌" + "─" * inner + "┐", style)
            cv.text(x, 1, "│" + "░" * inner + "│", style)
            cv.text(x, 2, "└" + "─" * inner + "┘", style)
        elif pips:
            pips_h(cv, x, 0, tile[0], tile[1], style)
        elif variant == "triominos":
            triomino_up(cv, x, 0, list(tile), style, width=w)
        else:
            domino_h(cv, x, 0, tile[0], tile[1], style)
        mark_row, pad = (5 if pips else 3), " " * (w // 2)  # under the tile's middle
        if i == selected and not hidden:
            cv.text(x, mark_row, f"{pad}▲{pad}", "sel-mark")
        elif i in marked and not hidden:
            cv.text(x, mark_row, f"{pad}✓{pad}", "marked-num")
        cv.hit(x, 0, x + step, mark_row + 1, i)
        x += step
    x -= gap  # past the last tile's right edge
    if last < n:
        cv.text(x + 1, arrow_row, "›", "dim")
        cv.hit(x, 0, x + 3, 6 if pips else 4, ("scroll", 1))
    bottom = 5 if pips else 3
    cv.put(0, bottom, " ", "")
    cv.put(max(x - 1, width - 1), bottom, " ", "")  # the full width
    cv.freeze(pad=0)
    return cv
