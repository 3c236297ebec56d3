from __future__ import annotations

from tests.ui.conftest import make_app, settle
from tui_domino.ui.screens.game import GameScreen


async def test_new_classic_game_from_menu() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        screen = app.screen
        assert screen.session.is_human_turn()
        before = len(screen.session.state.history)
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.session.state.history) > before
