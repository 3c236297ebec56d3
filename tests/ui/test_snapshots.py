"""SVG snapshots of every screen at 80x24 (update with --snapshot-update)."""

from __future__ import annotations

import pytest

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import session_with
from tests.ui.test_bonus_marks import _first_round_with
from tui_domino.ui.app import DominoApp
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.help import HelpScreen
from tui_domino.ui.screens.match_over import MatchOverScreen
from tui_domino.ui.screens.tutorial import TutorialScreen
from tui_domino.ui.screenshots import session_after, session_round_over
from tui_domino.ui.session import Session, two_people
from tui_domino.ui.storage import Settings

SIZE = (80, 24)


def test_menu(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_new_game(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), press=["n"], terminal_size=SIZE)


def test_settings(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), press=["s"], terminal_size=SIZE)


def _game(variant: str, seed: int, moves: int, keys: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.push_screen(GameScreen(session_after(variant, seed, moves)))
        await settle(pilot)
        for k in keys:
            await pilot.press(k)
        await pilot.pause()

    return run_before


def test_classic(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), run_before=_game("classic", 4, 9), terminal_size=SIZE)


def test_spider(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), run_before=_game("spider", 5, 10), terminal_size=SIZE)


def test_triominos(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(make_app(), run_before=_game("triominos", 3, 26), terminal_size=SIZE)


def test_triominos_in_ascii(snap_compare) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    app.settings.ascii = True
    assert snap_compare(app, run_before=_game("triominos", 3, 26), terminal_size=SIZE)


def test_round_summary(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.push_screen(GameScreen(session_round_over("classic", 11)))
        await settle(pilot)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=SIZE)


def test_help(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.push_screen(GameScreen(session_after("spider", 5, 4)))
        await settle(pilot)
        await pilot.app.push_screen(HelpScreen("spider"))
        await pilot.pause()

    assert snap_compare(make_app(), run_before=run_before, terminal_size=SIZE)


def test_match_over(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        session = session_round_over("classic", 11)
        session.match.target = 10
        await pilot.app.push_screen(MatchOverScreen(session))
        await pilot.pause()

    assert snap_compare(make_app(), run_before=run_before, terminal_size=SIZE)


# -- in Russian ---------------------------------------------------------------------------------


def _russian() -> DominoApp:
    return DominoApp(settings=Settings(computer_delay=0.0, language="ru"), seed=1)


def test_menu_in_russian(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_russian(), terminal_size=SIZE)


def test_classic_in_russian(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_russian(), run_before=_game("classic", 4, 9), terminal_size=SIZE)


def test_spider_in_russian(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_russian(), run_before=_game("spider", 5, 10), terminal_size=SIZE)


def test_triominos_in_russian(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_russian(), run_before=_game("triominos", 3, 26), terminal_size=SIZE)


def test_round_summary_in_russian(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.push_screen(GameScreen(session_round_over("classic", 11)))
        await settle(pilot)

    assert snap_compare(_russian(), run_before=run_before, terminal_size=SIZE)


# -- what the table explains, in a dark and a light theme ---------------------------------------

THEMES = ["textual-dark", "solarized-light"]


def _themed(theme: str) -> DominoApp:
    return DominoApp(settings=Settings(computer_delay=0.0, theme=theme), seed=1)


def _push(make):  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.push_screen(make())
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("theme", THEMES)
def test_hand_over_between_two_people(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    # the hand-over covers the table whole, with its own footer
    def make() -> GameScreen:
        return GameScreen(Session.new("classic", two_people("Anna", "Boris"), seed=3,
                                      autosave=False))

    assert snap_compare(_themed(theme), run_before=_push(make), terminal_size=SIZE)


@pytest.mark.parametrize("theme", THEMES)
def test_a_spider_of_nineteen_tiles_in_view(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_themed(theme), run_before=_game("spider", 3, 19), terminal_size=SIZE)


@pytest.mark.parametrize("theme", THEMES)
def test_a_hexagon_just_made(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    # the moves list gives the hexagon's points, its six tiles are starred
    def make() -> GameScreen:
        for seed in range(400):  # the computer's hexagon, the player's turn next
            state, seed = _first_round_with("hexagon", seed)
            if state.history[-1]["player"] == 1 and not state.is_over:
                return GameScreen(session_with(state, "triominos"))
        raise AssertionError("no hexagon of the computer's")

    assert snap_compare(_themed(theme), run_before=_push(make), terminal_size=SIZE)


@pytest.mark.parametrize("theme", THEMES)
def test_the_help_keys_and_marks(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.app.push_screen(HelpScreen("triominos"))
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(_themed(theme), run_before=run_before, terminal_size=SIZE)


@pytest.mark.parametrize("theme", THEMES)
def test_a_lesson_of_the_tutorial(snap_compare, theme: str) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_themed(theme), run_before=_push(lambda: TutorialScreen("spider")),
                        terminal_size=SIZE)
