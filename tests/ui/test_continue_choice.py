"""Leaving a game for the menu and coming back with Continue keeps the tile chosen."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import played, session_with
from tui_domino.ui import storage
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.session import Seat, Session


async def to_the_menu_and_back(app: Any, pilot: Any, game: GameScreen) -> GameScreen:
    """Esc to the menu, then Continue: the game screen made anew."""
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, MenuScreen)
    await pilot.press("c")
    await settle(pilot)
    again = app.screen
    assert isinstance(again, GameScreen) and again is not game
    return again


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
        again = await to_the_menu_and_back(app, pilot, game)
        assert (again.sel.current_tile(), again.sel.place_index) == chosen


async def test_continue_after_the_game_was_closed_keeps_the_chosen_tile() -> None:
    app = make_app(seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("f5")
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        playable = sorted(game.sel.playable())
        while game.sel.tile_index != playable[-1]:
            await pilot.press("right")
        await pilot.pause()
        chosen = (game.sel.current_tile(), game.sel.place_index)
        await pilot.press("escape")
        await pilot.pause()
    assert json.loads(storage.save_path().read_text())["choice"]["tile"] == list(chosen[0])
    again_app = make_app(seed=6)  # the game started anew: only the save remembers
    async with again_app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await settle(pilot)
        again = again_app.screen
        assert isinstance(again, GameScreen)
        assert (again.sel.current_tile(), again.sel.place_index) == chosen


@pytest.mark.parametrize("choice", [
    "6-6", [], {"round": 1, "moves": "0", "tile": [6, 6], "place": 0},
    {"round": 1, "moves": 0, "tile": [6, 66], "place": 0},
    {"round": 1, "moves": 0, "tile": [6, 6], "place": -1},
    {"round": True, "moves": 0, "tile": None, "place": None},
    {"round": 1, "moves": 0, "tile": ["[b]x"], "place": 10**9},
])
def test_a_saved_choice_that_is_not_one_is_left_out_and_the_match_read(choice: object) -> None:
    session = Session.new("classic", [Seat("You"), Seat("Computer", "computer", "easy")],
                          seed=3, autosave=False)
    raw = session.to_json()
    raw["choice"] = choice  # type: ignore[typeddict-item]
    back = Session.from_json(raw)
    assert back.choice is None and back.left_choice() is None
    assert back.match.to_json() == session.match.to_json()


def test_a_choice_belongs_to_the_position_it_was_made_at() -> None:
    session = Session.new("classic", [Seat("You"), Seat("Computer", "computer", "easy")],
                          seed=3, autosave=False)
    tile = tuple(session.state.view(0)["hand"][0])
    session.leave(tile, 0)
    assert Session.from_json(session.to_json()).left_choice() == (tile, 0)
    session.play(session.state.legal_moves()[0])
    assert session.left_choice() is None and "choice" not in session.to_json()


async def test_continue_keeps_a_place_that_is_not_the_first() -> None:
    # a round where the tile chosen first fits both ends: the second end chosen comes back
    session = session_with(played("classic", 5, 6), "classic")
    session.save()  # (a match saved, as one started from the menu is)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session))
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        tile = game.sel.current_tile()
        assert len(game.sel.places()) == 2
        await pilot.press("down")
        await pilot.pause()
        assert game.sel.place_index == 1
        again = await to_the_menu_and_back(app, pilot, game)
        assert (again.sel.current_tile(), again.sel.place_index) == (tile, 1)
