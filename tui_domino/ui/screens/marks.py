"""The key to the table's marks, for the help: small drawings made with the board's own
drawing functions (so they look as the table does), each with what it means."""

from __future__ import annotations

from typing import cast

from tui_domino.i18n import _
from tui_domino.rules.types import ArmJSON, BoardCellJSON, SeatView
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.spinner import layout_spider
from tui_domino.ui.drawing.tiles import domino_h, domino_v
from tui_domino.ui.drawing.triangle_grid import corner_points, layout_triominos


def _block(cv: Canvas) -> str:
    """A drawing as a Markdown code block."""
    lines = [line.rstrip() for line in cv.plain().splitlines()]
    return "```\n" + "\n".join(line for line in lines if line) + "\n```\n"


def _classic() -> str:
    cv = Canvas()
    domino_h(cv, 0, 1, 1, 4)
    domino_h(cv, 5, 1, 4, 6)
    domino_v(cv, 10, 0, 6, 6)
    domino_h(cv, 13, 1, 6, 2)
    cv.freeze()
    # TRANSLATORS: below a drawing of a classic line of tiles in the help (Markdown: keep
    # the **…**).
    return (_block(cv) + "\n" + _(
        "A double lies crosswise. The line's two end numbers (here 1 and 2) "
        "are its open ends: a tile must match one. A round is **blocked** when no tile "
        "left fits either end and nobody may draw (2 tiles always stay in the bazaar).")
        + "\n")


def _spider() -> str:
    empty = ArmJSON(tiles=[], end=1, closed=False)
    # a drawing's board, not a round: only the keys the drawing reads
    view = cast(SeatView, {"center": 1, "history": [], "arms": {
        "N": {"tiles": [[1, 3], [3, 3]], "end": 3, "closed": True},
        "E": {"tiles": [[1, 5]], "end": 5, "closed": False}, "S": empty, "W": empty}})
    # TRANSLATORS: below a drawing of a spider in the help (Markdown: keep the **…** and
    # `…`). N, E, S and W are the letters drawn on the table, and `m` a key: keep them.
    return (_block(layout_spider(view, [], None, [])) + "\n" + _(
        "N, E, S and W name the arms where they leave the centre double. `·` marks "
        "an open end; a bar (`━` or `┃`) ends a **closed arm**: nothing more goes on it "
        "(here North, closed with 3-3). A double on an arm lies across it; several "
        "doubles go down at once, one an arm (`m`). A **fish**: nobody can play or draw.")
        + "\n")


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
