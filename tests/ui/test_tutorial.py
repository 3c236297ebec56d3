"""The first-game tutorial: from the menu, a guided round of each variant on a fixed deal;
each lesson says what to press, is learned only when the player has done it, and the whole
round, played as the lessons say, teaches every lesson in a few dozen keys."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from tests.ui.conftest import make_app
from tests.ui.test_languages import screen_lines
from tui_domino import i18n
from tui_domino.ui.screens import tutorial
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.screens.tutorial import LESSONS, PLAY_ON, TutorialScreen, obedient_keys
from tui_domino.ui.widgets.board import BoardView

SIZE = (80, 24)


async def _wait(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", list(LESSONS))
async def test_the_guided_round_teaches_every_lesson_in_a_few_dozen_keys(variant: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen(variant)
        await app.push_screen(screen)
        pressed = 0
        for _ in range(200):
            await _wait(pilot)
            if screen.session.state.is_over:
                break
            if not screen.session.is_human_turn() or app.screen is not screen:
                continue
            lesson = screen.tutor.current
            panel = str(screen.query_one("#lesson", Static).visual.plain)  # type: ignore[union-attr]
            if lesson is not None:
                assert i18n._(lesson.text).split()[0] in panel  # the panel says it
            keys = obedient_keys(screen)
            await pilot.press(*keys)
            pressed += len(keys)
        assert screen.session.state.is_over
        assert sorted(screen.tutor.learned) == sorted(lesson.key for lesson in LESSONS[variant])
        assert pressed <= 60  # minutes, not a match
        await _wait(pilot)
        assert isinstance(app.screen, RoundSummary)
        await pilot.press("enter")  # the summary gone, the lesson is over: the menu
        await _wait(pilot)
        assert not any(isinstance(s, TutorialScreen) for s in app.screen_stack)


async def test_a_lesson_is_learned_only_when_the_player_does_what_it_says() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("classic")
        await app.push_screen(screen)
        await _wait(pilot)
        lesson = screen.tutor.current
        assert lesson is not None and lesson.key == "play"  # the opening double: lay it
        panel = screen.query_one("#lesson", Static)
        assert "Lesson 1 of 5" in str(panel.visual)
        await pilot.press("question_mark", "escape", "z")  # other keys: not what it says
        await _wait(pilot)
        assert "play" not in screen.tutor.learned and screen.tutor.current is lesson
        await pilot.press("enter")
        await _wait(pilot)
        assert "play" in screen.tutor.learned


async def test_the_menu_opens_the_tutorial_of_the_game_chosen() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _wait(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert any("Learn to play" in line for line in screen_lines(app))
        await pilot.press("l")
        await _wait(pilot)
        assert any("Domino Spider" in line for line in screen_lines(app))
        await pilot.press("down", "enter")  # the second: Spider
        await _wait(pilot)
        assert isinstance(app.screen, TutorialScreen)
        assert app.screen.session.variant == "spider"
        assert app.screen.session.match.seed == tutorial.DEALS["spider"]
        assert any("Lesson 1 of" in line for line in screen_lines(app))
        app.screen.query_one(BoardView)  # the table, as in a game
        await pilot.press("escape")
        await _wait(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert not app.screen.query_one("#saved", Static).visual.plain.startswith(  # type: ignore[union-attr]
            "Classic")  # a tutorial is not a saved match


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
async def test_every_lesson_fits_its_panel_at_80x24(language: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("classic")
        await app.push_screen(screen)
        await _wait(pilot)
        panel = screen.query_one("#lesson", Static)
        width, height = panel.content_size
        i18n.use(language)
        console = Console(width=width)
        too_long = []
        for variant, lessons in LESSONS.items():
            texts = [lesson.text for lesson in lessons] + [PLAY_ON[variant]]
            for text in texts:
                lines = Text(i18n._(text)).wrap(console, width)
                if len(lines) + 2 > height:  # under the head and a blank line
                    too_long.append(f"{variant}: {i18n._(text)!r} {len(lines)} lines")
        assert not too_long, f"{width}x{height}: {too_long}"
