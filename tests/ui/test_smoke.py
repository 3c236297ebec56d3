from __future__ import annotations

import pytest

from tests.ui.conftest import make_app, settle, until
from tests.ui.helpers import assert_footer_fits
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.session import Seat


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


async def test_start_up_objects_are_kept_out_of_the_collector() -> None:
    # A full collection that scans everything alive since start-up stalls the screen for
    # about 100 ms; the app freezes those objects once it has started and when a game opens.
    # (What is frozen already stays so: unfrozen, the whole test process would be scanned.)
    import gc

    frozen = gc.get_freeze_count()
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: gc.get_freeze_count() > frozen,
                    "the objects of start-up frozen")


async def test_a_game_that_loads_modules_freezes_them_and_an_ended_game_is_let_go() -> None:
    # A game that loads modules (the first game, the first of a kind: its rules, the
    # computer's process pool, the saving) freezes them with everything alive. A game that
    # loads none freezes nothing: its screen and its match go once it has ended. (Frozen at
    # every game's start, each game played stayed in memory for good.)
    import gc
    import sys
    import types
    import weakref

    seats = [Seat("You", "human"), Seat("Computer", "computer", "easy")]
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(2):  # the modules classic games load, loaded
            app.start_match("classic", seats)
            await settle(pilot)
        loaded = "tests_ui_a_module_a_game_loaded"
        sys.modules[loaded] = types.ModuleType(loaded)
        try:
            frozen = gc.get_freeze_count()
            app.start_match("classic", seats)
            await settle(pilot)
            assert isinstance(app.screen, GameScreen)
            await until(pilot, lambda: gc.get_freeze_count() > frozen,
                        "the objects of a game that loaded a module frozen")
            app.start_match("classic", seats)
            await settle(pilot)
            ended = weakref.ref(app.screen)
            app.start_match("classic", seats)
            await settle(pilot)
            assert app.screen is not ended()
            gc.collect()
            assert ended() is None, "an ended game's screen stayed in memory"
        finally:
            del sys.modules[loaded]


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
async def test_every_key_of_the_game_fits_the_footer_at_80_columns(variant: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match(variant, [Seat("You"), Seat("Computer", "computer", "random")])
        await settle(pilot)
        assert {"play", "draw", "pass_turn", "help", "menu"} <= assert_footer_fits(app.screen)
