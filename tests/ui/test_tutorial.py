"""The first-game tutorial: from the menu, a guided round of each variant on a fixed deal.
Each lesson says what to press; while it is given, any other key is refused with a word of
why and the lesson stays; it is learned only when the player has done what it teaches. The
round, played as the lessons say, teaches every lesson in a few dozen keys: Triominos's r, a
bridge and a hexagon, Classic's blocked round, Spider's arms and closing among them."""

from __future__ import annotations

import pytest
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Button, Static

from tests.ui.conftest import make_app, settle, workers_done
from tests.ui.test_languages import screen_lines
from tui_domino import i18n
from tui_domino.ui.app import DominoApp
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.screens.tutorial import TutorialScreen
from tui_domino.ui.session import fold
from tui_domino.ui.tutor import LESSONS, PLAY_ON, Lesson, obedient_keys
from tui_domino.ui.tutorial_deals import DEALS
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView
from tui_domino.ui.widgets.scoreboard import LOG_WIDTH

SIZE = (80, 24)


def _quick_app() -> DominoApp:
    """An app whose moves land at once (no tile sliding to its place): a round of forty
    moves is played in the tests below."""
    app = make_app()
    app.animation_level = "none"
    return app


async def _wait(pilot: object) -> None:
    """The computer's moves made and the screen settled: its footer shows its keys, two frames
    after it opened, by when the focus given as it opened has told the tutor what it sees
    (a lesson read after one pause was at times not given yet)."""
    await settle(pilot)


def _box(screen: TutorialScreen) -> tuple[str, str, str]:
    """The lesson box: its title, its text, and the word on a refused key ("" if none)."""
    box = screen.query_one("#lesson")
    text = str(screen.query_one("#lesson-text", Static).visual.plain)  # type: ignore[union-attr]
    nudge = screen.query_one("#nudge", Static)
    said = str(nudge.visual.plain) if nudge.display else ""  # type: ignore[union-attr]
    return str(box.border_title), text, said


def _wrong_key(screen: TutorialScreen, lesson: Lesson) -> str:
    """The key a player who does not do as the lesson says is likely to press: ⏎ before its
    key (or on another move than the one it teaches), or another move."""
    if lesson.aim:
        return "p" if lesson.aim in screen.tutor.look.chosen else "enter"
    return {"tile": "enter", "play": "right", "where": "enter", "rotate": "enter",
            "close": "enter", "doubles": "enter", "draw": "p", "rules": "enter"}[lesson.key]


async def _guided_round(pilot: object, screen: TutorialScreen, wrong_first: bool
                        ) -> tuple[int, list[tuple[str, str]]]:
    """Plays the round as the lessons say (after a wrong key at each lesson's start, when
    ``wrong_first``); returns the keys pressed and, for each lesson, (its key, what the box
    said to the wrong key)."""
    app = pilot.app  # type: ignore[attr-defined]
    pressed = 0
    told: list[tuple[str, str]] = []
    tried: set[str] = set()
    for _ in range(200):
        await workers_done(app)  # the computer's move, then the screen
        await pilot.pause()  # type: ignore[attr-defined]
        if screen.session.state.is_over:
            break
        if not screen.session.is_human_turn() or app.screen is not screen:
            continue
        lesson = screen.tutor.current
        if lesson is not None:  # the box says it
            words = i18n._(lesson.text_for(screen.tutor.look))
            assert _box(screen)[1] == words.format(**screen.tutor.fields(lesson))
        if wrong_first and lesson is not None and lesson.key not in tried:
            tried.add(lesson.key)
            moves = len(screen.session.state.history)
            await pilot.press(_wrong_key(screen, lesson))  # type: ignore[attr-defined]
            await _wait(pilot)
            _, _, said = _box(screen)
            assert screen.tutor.current is lesson, lesson.key  # the lesson stays
            assert lesson.key not in screen.tutor.learned
            assert len(screen.session.state.history) == moves  # and nothing was played
            fields = screen.tutor.fields(lesson)  # in the lesson's own words
            assert said in {i18n._(lesson.nudge).format(**fields),
                            i18n._(lesson.early).format(**fields) if lesson.early else ""
                            } - {""}, f"{lesson.key}: {said!r}"
            told.append((lesson.key, said))
        keys = obedient_keys(screen.tutor, screen.sel)
        await pilot.press(*keys)  # type: ignore[attr-defined]
        pressed += len(keys)
    return pressed, told


async def _to_lesson(pilot: Pilot[None], screen: TutorialScreen, key: str) -> None:
    """Plays the tutorial as told until the lesson ``key`` is the one to do, on the
    player's turn (60 steps at most)."""
    for _ in range(60):
        await _wait(pilot)
        lesson = screen.tutor.current
        if lesson is not None and lesson.key == key and screen.session.is_human_turn():
            return
        await pilot.press(*obedient_keys(screen.tutor, screen.sel))


@pytest.mark.parametrize("variant", list(LESSONS))
async def test_every_lesson_refuses_another_key_with_a_word_and_passes_on_its_own(
        variant: str) -> None:
    app = _quick_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen(variant)
        await app.push_screen(screen)
        pressed, told = await _guided_round(pilot, screen, wrong_first=True)
        assert screen.session.state.is_over
        every = [lesson.key for lesson in LESSONS[variant]]
        assert sorted(screen.tutor.learned) == sorted(every)
        assert sorted(key for key, _ in told) == sorted(every)  # each refused a wrong key
        assert pressed <= 60  # minutes, not a match
        await _wait(pilot)
        assert isinstance(app.screen, RoundSummary)
        button = app.screen.query_one("#next", Button)
        assert str(button.label) == "Back to the menu"  # where it goes, said
        await pilot.press("enter")
        await _wait(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert not any(isinstance(s, TutorialScreen) for s in app.screen_stack)


async def test_the_triominos_tutorial_teaches_r_a_bridge_and_a_hexagon_by_doing_them() -> None:
    app = _quick_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("triominos")
        await app.push_screen(screen)
        await _guided_round(pilot, screen, wrong_first=False)
        state = screen.session.state
        me = screen.session.viewer
        mine = [r for r in state.history if r["player"] == me]
        first = mine[0]["move"]
        assert state.history[0] is mine[0]  # you open the round ...
        assert first["corners"] != sorted(first["corners"])  # ... with the tile turned by r
        reasons = [{e["reason"] for e in r["events"]} for r in mine]
        assert any("bridge" in r for r in reasons)
        assert any("hexagon" in r for r in reasons)
        for key in ("rotate", "bridge", "hexagon"):
            assert key in screen.tutor.learned


async def test_closing_an_arm_is_learned_only_by_closing_one() -> None:
    """Spider's lesson says "press c … then ⏎": ⏎ alone lays the double open, so it is
    refused, and the lesson stays until an arm is closed."""
    app = _quick_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("spider")
        await app.push_screen(screen)
        await _to_lesson(pilot, screen, "close")
        moves = len(screen.session.state.history)
        await pilot.press("enter")
        await _wait(pilot)
        assert len(screen.session.state.history) == moves
        assert "close" not in screen.tutor.learned
        assert "press c first" in _box(screen)[2]
        await pilot.press("c", "enter")
        await _wait(pilot)
        assert "close" in screen.tutor.learned
        arms = screen.session.state.to_json()["arms"]
        assert any(arm["closed"] for arm in arms.values())


async def test_the_tutorial_shows_the_recent_moves_that_change_the_score() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("triominos")
        await app.push_screen(screen)
        for _ in range(20):  # the computer has moved, and scored
            await _wait(pilot)
            computer = [r for r in screen.session.state.history if r["player"] == 1]
            if computer and screen.session.is_human_turn():
                break
            await pilot.press(*obedient_keys(screen.tutor, screen.sel))
        log = screen.query_one("#log", Static)
        assert log.display and screen.query_one("#log-title", Static).display
        said = screen.session.describe(computer[-1], screen.session.viewer)
        shown = str(log.visual.plain)  # type: ignore[union-attr]
        assert said.startswith("Computer") and fold(said, LOG_WIDTH)[0] in shown
        assert any("Recent moves" in line for line in screen_lines(app))


async def test_a_lesson_is_learned_only_when_the_player_does_what_it_says() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("classic")
        await app.push_screen(screen)
        await _wait(pilot)
        lesson = screen.tutor.current
        assert lesson is not None and lesson.key == "play"  # the opening double: lay it
        assert _box(screen)[0] == f"Lesson 1 of {len(LESSONS['classic'])}"
        await pilot.press("question_mark", "escape", "z")  # the help and the view: let be
        await _wait(pilot)
        assert _box(screen)[2] == ""
        await pilot.press("d")  # a move the lesson does not teach
        await _wait(pilot)
        assert "play" not in screen.tutor.learned and screen.tutor.current is lesson
        assert _box(screen)[2] == i18n._(lesson.nudge)
        await pilot.press("enter")
        await _wait(pilot)
        assert "play" in screen.tutor.learned
        assert _box(screen)[2] == ""  # the word is gone with the lesson


async def test_a_click_asks_the_lesson_too() -> None:
    """A click on another tile is a choice of tile: refused while the lesson says ⏎; a click
    on the chosen tile plays it, as ⏎ does."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("classic")
        await app.push_screen(screen)
        await _wait(pilot)
        lesson = screen.tutor.current
        assert lesson is not None and lesson.key == "play"
        chosen = screen.sel.tile_index
        assert chosen is not None
        hand = screen.query_one(HandView)
        hand.post_message(HandView.TileClicked(0 if chosen else 1))
        await _wait(pilot)
        assert screen.sel.tile_index == chosen and screen.tutor.current is lesson
        assert _box(screen)[2] == i18n._(lesson.nudge)
        hand.post_message(HandView.TileClicked(chosen))
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
        assert app.screen.session.match.seed == DEALS["spider"].seed
        assert any("Lesson 1 of" in line for line in screen_lines(app))
        app.screen.query_one(BoardView)  # the table, as in a game
        await pilot.press("escape")
        await _wait(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert not app.screen.query_one("#saved", Static).visual.plain.startswith(  # type: ignore[union-attr]
            "Classic")  # a tutorial is not a saved match


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
async def test_every_lesson_fits_its_box_at_80x24(language: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("classic")
        await app.push_screen(screen)
        await _wait(pilot)
        width = screen.query_one("#lesson-text", Static).content_size.width
        assert screen.query_one("#lesson").content_size.height == 6  # 4 lines and 2
        i18n.use(language)
        console = Console(width=width)
        fields = {"tile": "0-4-5", "cell": "a", "points": 50}

        def lines(text: str) -> int:
            return len(Text(i18n._(text).format(**fields)).wrap(console, width)) if text else 0

        too_long = []
        for variant, lessons in LESSONS.items():
            for lesson in lessons:  # 4 lines, and 2 for the word on a refused key
                for text, most in ((lesson.text, 4), (lesson.text_right, 4),
                                   (lesson.nudge, 2), (lesson.early, 2)):
                    if lines(text) > most:
                        too_long.append(f"{variant}/{lesson.key}: {i18n._(text)!r}: "
                                        f"{lines(text)} lines")
            if lines(PLAY_ON[variant]) > 4:
                too_long.append(f"{variant}: {i18n._(PLAY_ON[variant])!r}")
        i18n.use("en")
        assert not too_long, f"{width} columns: {too_long}"



@pytest.mark.parametrize("language", ["en", "ru", "bg"])
async def test_the_hint_line_keeps_the_keys_a_lesson_teaches(language: str) -> None:
    """At Spider's lesson on doubles for two arms, the hint line names ``m``: the
    lesson says what to play, so the line does not spend its room saying the move shown is
    the first that fits (those words pushed ``m`` off it)."""
    from tui_domino import i18n

    app = _quick_app()
    i18n.use(language)
    app.settings.language = language
    async with app.run_test(size=SIZE) as pilot:
        screen = TutorialScreen("spider")
        await app.push_screen(screen)
        await _to_lesson(pilot, screen, "doubles")
        hint = str(screen.query_one("#hint").render())
        assert screen.tutor.current is not None and screen.tutor.current.key == "doubles"
        assert " · m " in hint, hint
        assert i18n._("{play} (first that fits)").format(play="").strip() not in hint
