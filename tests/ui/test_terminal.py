"""Terminal reality: too small, resizing, ASCII drawing."""

from __future__ import annotations

from typing import Any

import pytest
from textual.command import CommandPalette

from tests.ui.conftest import make_app, settle, until
from tests.ui.helpers import assert_footer_fits, footer_keys, game, screen_lines
from tui_domino.ui.ascii import AsciiFilter, to_ascii
from tui_domino.ui.screens.help import HelpScreen
from tui_domino.ui.screens.new_game import NewGameScreen
from tui_domino.ui.screens.settings import SettingsScreen
from tui_domino.ui.screens.too_small import TooSmallScreen
from tui_domino.ui.session import Seat
from tui_domino.ui.widgets.board import BoardView


async def test_too_small_then_resized_back() -> None:
    app = make_app(seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        await pilot.resize_terminal(59, 19)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        screen = game(app)
        board = screen.query_one(BoardView)
        # (in a full run under load the board once still had its old size after the pause:
        # the test waits for the new one, within its deadline)
        await until(pilot, lambda: board.size.width > 80, "the board wider with the terminal")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await until(pilot, lambda: board.size.width < 80, "the board narrower again")


async def test_started_in_a_small_terminal_the_notice_stays_on_top() -> None:
    # The terminal's first size can arrive before the menu opens, and a game started from the
    # command line opens after both: neither may cover the notice.
    from tui_domino.ui.screens.menu import MenuScreen

    app = make_app(seed=2)
    async with app.run_test(size=(60, 18)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        app.start_match("classic", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert sum(isinstance(s, TooSmallScreen) for s in app.screen_stack) == 1
        # the notice hides the game: nothing of the table shows through around it
        shown = " ".join(" ".join(screen_lines(app)).split())
        assert shown == "Please enlarge the terminal The game needs 60×20; this one is 60×18."
        # code that pops every screen above another pops the notice too: it comes back
        table = app.screen_stack[-2]
        while app.screen is not table:
            app.pop_screen()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.screen is game(app)
        assert not any(isinstance(s, TooSmallScreen) for s in app.screen_stack)
        await pilot.press("escape")  # the game's menu question, then back to the main menu
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, MenuScreen)


async def test_the_command_palette_waits_for_a_terminal_large_enough() -> None:
    """ctrl+p under the too-small notice opened the palette beneath it, where Textual does
    not see it: a second ctrl+p opened another with the same id and the game crashed."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()

        def palettes() -> int:
            return sum(isinstance(s, CommandPalette) for s in app.screen_stack)

        await pilot.resize_terminal(60, 18)
        await pilot.pause()
        await pilot.press("ctrl+p", "ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and palettes() == 0
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.resize_terminal(60, 18)  # the notice over the open palette
        await pilot.pause()
        await pilot.press("ctrl+p", "ctrl+p")
        await pilot.pause()
        assert palettes() == 1
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


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


def not_ascii(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.isascii()]


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
async def test_ascii_mode_sends_only_ascii_to_the_terminal(variant: str) -> None:
    app = make_app(seed=5)
    app.settings.ascii = True
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match(variant, [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        app.notify("Saved.", title="A notice")  # a toast has a border of its own
        await pilot.pause()
        lines = screen_lines(app)
        assert not not_ascii(lines)
        text = "\n".join(lines)
        assert "Enter play" in text  # the hint line names the key
        assert "Your hand | " in text
        assert lines[-1].startswith("<> Tile ^v Place Enter Play d Draw")  # the footer
        assert "Enter" in {k.key_display for k in footer_keys(app.screen)}
        assert_footer_fits(app.screen)


async def test_ascii_mode_turns_on_and_off_while_playing() -> None:
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("spider", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        before = screen_lines(app)
        assert not_ascii(before) and "⏎ play" in "\n".join(before)
        app.toggle_ascii()
        await pilot.pause()
        await pilot.pause()  # the notice of the change is on the screen too
        assert not not_ascii(screen_lines(app))
        assert "Enter play" in "\n".join(screen_lines(app))
        app.toggle_ascii()
        await pilot.pause()
        after = "\n".join(screen_lines(app))
        assert "⏎ play" in after and "─" in after


@pytest.mark.parametrize("make", [SettingsScreen, NewGameScreen, HelpScreen, "palette"])
async def test_ascii_mode_reaches_the_menus_forms_help_and_palette(make: Any) -> None:
    app = make_app(seed=5)
    app.settings.ascii = True
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not not_ascii(screen_lines(app))  # the main menu
        if make == "palette":
            await pilot.press("ctrl+p")
        else:
            app.push_screen(make())
        await pilot.pause()
        await pilot.pause()
        lines = screen_lines(app)
        assert not not_ascii(lines)
        if make == "palette":
            assert any(">  Search for commands" in line for line in lines)


def test_the_ascii_filter_keeps_every_width_and_style() -> None:
    from rich.cells import cell_len
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color

    style = Style(bold=True)
    texts = ["Round 1 · target 100", "╭─ Settings ─╮", "▐X▌ on", "Zoë → 日本", "▊ note ▎"]
    out = AsciiFilter().apply([Segment(t, style) for t in texts], Color(0, 0, 0))
    for before, seg in zip(texts, out, strict=True):
        assert seg.text.isascii() and seg.style == style
        assert cell_len(seg.text) == cell_len(before)
    assert [seg.text for seg in out][:3] == [
        "Round 1 | target 100", "+- Settings -+", "|X| on"]
    assert to_ascii("Zoë → 日本") == "Zoe > ????"
    assert to_ascii("🔎 Search") == ">  Search"  # the palette's prompt keeps its two cells


async def test_check_boxes_show_their_state_by_their_mark() -> None:
    app = make_app(seed=5)
    app.settings.ascii = True
    app.settings.animations = False
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "|X| ASCII characters only" in text
        assert "| | tiles slide into place" in text  # off: no mark, whatever the colours
        await pilot.click("#animations")
        await pilot.pause()
        assert "|X| tiles slide into place" in "\n".join(screen_lines(app))


async def test_the_round_summary_in_ascii_marks_nothing_with_a_dash() -> None:
    from tui_domino.ui.screens.game import GameScreen
    from tui_domino.ui.screens.summary import RoundSummary
    from tui_domino.ui.screenshots import session_round_over

    app = make_app()
    app.settings.ascii = True
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_round_over("classic", 11)))
        await settle(pilot)
        assert isinstance(app.screen, RoundSummary)
        lines = screen_lines(app)
        assert not not_ascii(lines)
        row = next(line for line in lines if "going out" in line).strip()
        # the winner's column scores, the other's is empty: a dash, not a rule
        assert row.startswith("|") and row.endswith("|") and "|" not in row[1:-1]
        assert " - " in row and "+21" in row
