"""The key to the table's marks, for the help: small drawings made with the board's own
drawing functions (so they look as the table does), each with what it means."""

from __future__ import annotations

from typing import cast

from tui_domino.i18n import N_, _
from tui_domino.rules.types import ArmJSON, BoardCellJSON, SeatView
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.snake import END_MARKS, layout_classic
from tui_domino.ui.drawing.spinner import layout_spider
from tui_domino.ui.drawing.table import table_layout
from tui_domino.ui.drawing.tiles import COMPACT, domino_h, domino_v
from tui_domino.ui.drawing.triangle_grid import corner_points, layout_triominos


def _block(cv: Canvas) -> str:
    """A drawing as a Markdown code block."""
    lines = [line.rstrip() for line in cv.plain().splitlines()]
    return "```text\n" + "\n".join(line for line in lines if line) + "\n```\n"


def _classic() -> str:
    cv = Canvas()
    domino_h(cv, 0, 1, 1, 4)
    domino_h(cv, 5, 1, 4, 6)
    domino_v(cv, 10, 0, 6, 6)
    domino_h(cv, 13, 1, 6, 2)
    cv.freeze()
    # TRANSLATORS: the help on the classic table (Markdown: keep the `…`); {left} and
    # {right} are the marks drawn at the line's ends, L and R
    ends = _("On the table `{left}` and `{right}` mark the line's left and right ends, as the "
             "hint line names them, wherever the line turns.").format(
        left=_(END_MARKS["left"]), right=_(END_MARKS["right"]))
    # TRANSLATORS: below a drawing of a classic line of tiles in the help (Markdown: keep
    # the **…**).
    return (_block(cv) + "\n" + _(
        "A double lies crosswise. The line's two end numbers (here 1 and 2) "
        "are its open ends: a tile must match one. A round is **blocked** when no tile "
        "left fits either end and nobody may draw (2 tiles always stay in the bazaar).")
        + " " + ends + "\n\n" + _block(blocked_line()) + "\n" + _(BLOCKED) + "\n")


# A blocked round's line: 5 at both ends, and every tile with a 5 laid; and what it shows.
# TRANSLATORS: below a drawing of a blocked classic round in the help (Markdown: keep the
# **…**): a line of tiles with a 5 at both ends, all seven tiles with a 5 in it.
BLOCKED = N_("A **blocked** round: both ends are 5 and all seven tiles with a 5 are on the "
             "table, so nothing can fit. Once nobody may draw, the lighter hand wins and "
             "scores the difference.")
BLOCKED_LINE = [(5, 0), (0, 1), (1, 5), (5, 5), (5, 2), (2, 3), (3, 5), (5, 4), (4, 6), (6, 5)]


def blocked_line() -> Canvas:
    """A blocked round's line as the table draws it (from its first tile rightwards, on a
    table wide enough for it not to turn)."""
    ends = [BLOCKED_LINE[0][0], BLOCKED_LINE[-1][1]]
    view = cast(SeatView, {"line": [list(t) for t in BLOCKED_LINE], "ends": ends,
                           "history": []})
    return layout_classic(view, 12 * len(BLOCKED_LINE), [], None)


def _spider() -> str:
    empty = ArmJSON(tiles=[], end=1, closed=False)
    # a drawing's board, not a round: only the keys the drawing reads
    view = cast(SeatView, {"center": 1, "history": [], "arms": {
        "N": {"tiles": [[1, 3], [3, 3]], "end": 3, "closed": True},
        "E": {"tiles": [[1, 5]], "end": 5, "closed": False}, "S": empty, "W": empty}})
    # TRANSLATORS: below a drawing of a spider in the help (Markdown: keep the **…** and
    # `…`). N, E, S and W are the arms' letters as the table draws them in English: write
    # the table's own letters in your language (rules/places.arm_letter); `m` is a key.
    return (_block(layout_spider(view, [], None, [])) + "\n" + _(
        "N, E, S and W name the arms where they leave the centre double. `·` marks "
        "an open end; a bar (`━` or `┃`) ends a **closed arm**: nothing more goes on it "
        "(here North, closed with 3-3). A double on an arm lies across it; several "
        "doubles go down at once, one an arm (`m`). A **fish**: nobody can play or draw.")
        + "\n\n" + _block(fish_board()) + "\n" + _(FISH) + "\n")


# A spider's fish: its four arms closed, each by a double after its first tile; and what it
# shows.
FISH_ARMS = {"N": 3, "E": 5, "S": 2, "W": 4}  # the centre is 1-1
# TRANSLATORS: below a drawing of a spider with its four arms closed, in the help (Markdown:
# keep the **…**).
FISH = N_("A **fish**: all four arms are closed, so nothing more can go down (the same when "
          "nobody can play and the bazaar is empty). The heavier hand is charged its pips.")

# The room a drawing has in the help at 80x24 (within its code block, with a line of its
# caption below): a board too tall for it is drawn as the table draws it in that room.
ROOM = (64, 16)


def fish_board() -> Canvas:
    """A spider whose four arms are closed, each by a double: as the table draws it in the
    help's room (its tiles compact, as on a table too small for boxed digits)."""
    arms = {arm: ArmJSON(tiles=[[1, n], [n, n]], end=n, closed=True)
            for arm, n in FISH_ARMS.items()}
    # a drawing's board, not a round: only the keys the drawing reads
    view = cast(SeatView, {"center": 1, "history": [], "arms": arms})
    return table_layout("spider", view, [], None, [], 0, COMPACT)(*ROOM)


def _triominos() -> str:
    cells = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]  # the six round the point (1, 2)
    numbers: dict[tuple[int, int], int] = {(1, 2): 3}
    others = iter([1, 2, 4, 5, 0, 4])
    board: list[BoardCellJSON] = []
    for i, cell in enumerate(cells):
        for p in corner_points(*cell):
            if p not in numbers:
                numbers[p] = next(others)
        corners = [numbers[p] for p in corner_points(*cell)]
        board.append({"cell": list(cell), "corners": corners, "tile": sorted(corners),
                      "player": i % 2})
    cv = layout_triominos(cast(SeatView, {"board": board, "history": []}), [], None, 0)
    # TRANSLATORS: below a drawing of Triominos in the help (Markdown: keep the **…** and
    # `…`). The letters `a`, `b` are drawn on the table as they are.
    return (_block(cv) + "\n" + _(
        "Each number sits on a point of the grid, shared by every tile "
        "that touches it. Your tiles are tinted, your opponent's carry a dot (`·`), the "
        "last move is lit; letters `a`, `b`, … mark where the chosen tile fits. A "
        "**hexagon** is six tiles round one point (above, round the 3): +50. A **bridge** "
        "is a tile that touches the board along one edge and, at its opposite corner, "
        "another tile: +40.") + " " + _(
        # TRANSLATORS: the help's Triominos legend, after the paragraph above
        "A star (`*`) marks the tiles of a hexagon or a bridge just made, until the next "
        "move.") + "\n\n" + _block(_bridge()) + "\n" + _(
        # TRANSLATORS: below a drawing of a bridge in the help (Markdown: keep the `…`)
        "A bridge just made: the middle tile meets one tile along an edge and, at its "
        "opposite corner, another one; the three carry the star (`*`).") + "\n")


def _bridge() -> Canvas:
    """Three tiles: the last one put down, the one it meets along an edge, and the one at
    its opposite corner (the board as ``layout_triominos`` draws a bridge just made)."""
    numbers = {(0, 1): 4, (0, 3): 5, (0, 5): 3, (1, 0): 1, (1, 2): 2, (1, 4): 0}
    board: list[BoardCellJSON] = []
    for i, cell in enumerate([(0, 0), (0, 3), (0, 1)]):
        corners = [numbers[p] for p in corner_points(*cell)]
        board.append({"cell": list(cell), "corners": corners, "tile": sorted(corners),
                      "player": i % 2})
    last = {"player": 0, "move": {"kind": "place", "cell": [0, 1], "corners": board[2]["corners"],
                                  "tile": board[2]["tile"]},
            "events": [{"player": 0, "points": 40, "reason": "bridge"}]}
    return layout_triominos(cast(SeatView, {"board": board, "history": [last]}), [], None, 0)


MARKS = {"classic": _classic, "spider": _spider, "triominos": _triominos}


def marks(variant: str) -> str:
    """The section of the help on ``variant``'s table."""
    # TRANSLATORS: a heading of the help: what the marks drawn on the table mean.
    return "## " + _("The table's marks") + "\n\n" + MARKS[variant]()
