"""Terminal reality: too small, resizing, ASCII drawing."""

from __future__ import annotations

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import game
from tui_domino.ui.screens.too_small import TooSmallScreen
from tui_domino.ui.session import Seat
from tui_domino.ui.widgets.board import BoardView


async def test_too_small_then_resized_back() -> None:
    app = make_app(seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        screen = game(app)
        board = screen.query_one(BoardView)
        assert board.size.width > 80
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert board.size.width < 80


async def test_ascii_mode_draws_no_box_characters() -> None:
    app = make_app(seed=2)
    app.settings.ascii = True
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        board = game(app).query_one(BoardView)
        text = "".join(
            "".join(seg.text for seg in board.render_line(y)) for y in range(board.size.height)
        )
        assert "+-+" in text
        assert not set(text) & set("┌┐└┘─│┬┴├┤")
