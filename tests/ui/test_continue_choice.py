"""Leaving a game for the menu and coming back with Continue keeps the tile chosen."""

from __future__ import annotations

from tests.ui.conftest import make_app, settle
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.menu import MenuScreen


async def test_continue_keeps_the_chosen_tile_and_place() -> None:
    app = make_app(seed=6)  # a deal whose first turn offers two tiles or more
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("f5")  # a classic match against the computer, saved as it goes
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        playable = sorted(game.sel.playable())
        assert len(playable) >= 2
        while game.sel.tile_index != playable[-1]:
            await pilot.press("right")
        await pilot.pause()
        chosen = (game.sel.current_tile(), game.sel.place_index)
        assert chosen[0] != game.sel.hand[playable[0]]  # not what a fresh screen chooses
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("c")
        await settle(pilot)
        again = app.screen
        assert isinstance(again, GameScreen) and again is not game
        assert (again.sel.current_tile(), again.sel.place_index) == chosen
