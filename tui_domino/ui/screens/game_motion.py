"""Which motion the table shows after it is drawn anew: the move just made (a tile laid
slides in, a tile drawn slides into the hand), never a redraw of the same position (a
resize, a change of language, a look through the hand)."""

from __future__ import annotations

from tui_domino.rules.types import SeatView
from tui_domino.ui.table import Table
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView
from tui_domino.ui.widgets.motion import wanted


class Motions:
    """Follows the round's moves from one drawing of the table to the next."""

    def __init__(self) -> None:
        self.seen: int | None = None  # moves of the round when the table was last drawn
        self.from_x: int | None = None  # the screen column of the tile chosen in the hand

    def before_hand(self, hand: HandView) -> None:
        """The hand is about to be drawn anew: where its chosen tile was (a tile laid
        starts its way there)."""
        self.from_x = hand.tile_column(hand.selected)

    def after_draw(self, table: Table, view: SeatView, board: BoardView,
                   hand: HandView) -> None:
        history = view.get("history") or []
        seen, self.seen = self.seen, len(history)
        if seen is None or len(history) != seen + 1 or not wanted(board.app):
            return
        record = history[-1]
        kind = record["move"]["kind"]
        here = record["player"] == table.viewer or table.hot_seat  # a hand of this terminal
        if kind == "place":
            board.launch(self.from_x if here else None, from_below=here)
        elif kind == "draw" and "tile" in record and record["player"] == table.viewer:
            tile = tuple(record["tile"])
            hand_tiles = [tuple(t) for t in view["hand"]]
            if tile in hand_tiles:
                hand.slide_in(hand_tiles.index(tile))
