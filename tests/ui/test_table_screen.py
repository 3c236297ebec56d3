"""The table screen follows its table: a change of the table drawn through the screen's
``TableChanged`` message, its flags (``thinking``, ``looking_back``) drawn by their watchers,
with nobody asking the screen to draw."""

from __future__ import annotations

from textual import events

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import classic_state, game, screen_lines, session_with
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.widgets.hand import HandView


def shown(app: object) -> str:
    return "\n".join(screen_lines(app))


async def test_thinking_set_alone_redraws_the_score_panel() -> None:
    state = classic_state([[6, 1], [0, 5]], [[6, 4]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_with(state, "classic")))
        await settle(pilot)
        screen = game(app)
        assert "is thinking" not in shown(app)
        screen.thinking = True
        await pilot.pause()
        assert "You is thinking…" in shown(app)  # the panel names the seat to move
        screen.thinking = False
        await pilot.pause()
        assert "is thinking" not in shown(app)


async def test_a_move_played_on_the_table_from_outside_the_screen_is_drawn() -> None:
    """The local table tells its screen of a move it did not make: the hand, its title and
    the hint line show the table as it now stands."""
    state = classic_state([[6, 1], [0, 5], [3, 3]], [[6, 4]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_with(state, "classic")))
        await settle(pilot)
        screen = game(app)
        hand = screen.query_one(HandView)
        assert len(hand.tiles) == 3 and "Your hand · 3 tiles" in shown(app)
        move = next(m for m in state.legal_moves() if m.kind == "place")
        screen.local_table.play(move)  # not through the screen: nothing tells it to draw
        await pilot.pause()
        assert len(hand.tiles) == 2
        assert "Your hand · 2 tiles" in shown(app)
        assert "Computer is thinking…" in shown(app)  # the hint line: the other's turn


async def test_looking_back_set_alone_shows_the_hands_kept() -> None:
    state = classic_state([[6, 1]], [[6, 4]], bazaar_size=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_with(state, "classic")))
        await settle(pilot)
        screen = game(app)
        move = next(m for m in state.legal_moves() if m.kind == "place")
        screen.local_table.play(move)  # his last tile: the round is over
        await pilot.pause()
        assert state.is_over and "The round is over." in shown(app)
        screen.looking_back = True
        await pilot.pause()
        assert "The final table · Computer kept" in shown(app)


async def test_a_key_typed_with_the_draw_acts_on_the_tile_drawn() -> None:
    """The choice follows the table at once, its drawing with the screen's message: Enter
    typed in the same terminal read as d plays the tile just drawn, as it fits."""
    state = classic_state([[5, 5]], [[0, 6]], bazaar_size=5)  # the bazaar: 0-0 … 0-4
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_with(state, "classic")))
        await settle(pilot)
        driver = app._driver
        assert driver is not None
        for key in ("d", "enter"):  # no pause between them
            driver.send_message(events.Key(key, None))
        await settle(pilot)
        mine = [r["move"]["kind"] for r in state.history if r["player"] == 0]
        assert mine[:2] == ["draw", "place"]


async def test_a_table_opened_is_drawn_once_and_again_after_a_screen_over_it() -> None:
    """Drawn on mount, the table was drawn a second time as it first showed (the resume
    that follows the mount); a screen closed over it (the help, where the settings may have
    changed on the way) still has it drawn anew."""
    from tui_domino.ui.screens.help import HelpScreen
    from tui_domino.ui.screenshots import session_after

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = GameScreen(session_after("spider", 5, 10))
        draws = []
        draw = screen.refresh_all
        screen.refresh_all = lambda follow=True: (draws.append(follow), draw(follow))[1]  # type: ignore[method-assign]
        await app.push_screen(screen)
        await settle(pilot)
        assert len(draws) == 1
        await app.push_screen(HelpScreen("spider"))
        await settle(pilot)
        app.pop_screen()
        await settle(pilot)
        assert len(draws) == 2
