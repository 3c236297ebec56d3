"""Two people on one terminal, the help screen and the command palette."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.ui.conftest import make_app, settle, until
from tests.ui.helpers import game
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.handover import HandoverScreen
from tui_domino.ui.screens.help import HelpScreen
from tui_domino.ui.session import Seat, two_people
from tui_domino.ui.widgets.hand import HandView


async def test_hot_seat_hides_the_hand_between_turns() -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("Ann"), Seat("Bob")])
        await settle(pilot)
        assert isinstance(app.screen, HandoverScreen)
        screen = app.screen_stack[-2]
        assert screen.query_one(HandView).hidden
        first = screen.session.state.to_move
        await pilot.press("enter")
        await pilot.pause()
        assert not screen.query_one(HandView).hidden
        assert screen.session.viewer == first
        await pilot.press("enter")  # play the opening tile
        await settle(pilot)
        assert isinstance(app.screen, HandoverScreen)
        assert screen.query_one(HandView).hidden
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.viewer == 1 - first


async def test_the_second_player_is_named_only_when_a_person_plays() -> None:
    from textual.widgets import Input, Select

    from tui_domino.ui.screens.new_game import NewGameScreen

    app = make_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        second = screen.query_one("#second", Input)
        screen.query_one("#opponent", Select).value = "computer:hard"
        await pilot.pause()
        assert not second.display and not screen.query_one("#second-label").display
        screen.query_one("#opponent", Select).value = "person"
        await pilot.pause()
        assert second.display and screen.query_one("#second-label").display
        second.value = "Bob"
        screen.query_one("#name", Input).value = "Ann"
        await pilot.press("f5")
        await settle(pilot)
        table = app.screen_stack[-2]  # the hand-over screen covers the table
        assert [s.name for s in table.session.seats] == ["Ann", "Bob"]
        assert all(s.kind == "human" for s in table.session.seats)


async def test_the_form_shows_the_name_two_people_will_play_under() -> None:
    """Hot seat renamed "You" to "Player 1" unseen: the form now shows "Player 1" as soon
    as a person is chosen (and "You" again with the computer), the game plays under the
    name the form showed, and the player's own name in Settings stays unset."""
    from textual.widgets import Input, Select

    from tui_domino.ui.screens.new_game import NewGameScreen

    app = make_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        name = screen.query_one("#name", Input)
        assert name.value == "You"
        screen.query_one("#opponent", Select).value = "person"
        await pilot.pause()
        assert name.value == "Player 1"
        screen.query_one("#opponent", Select).value = "computer:hard"
        await pilot.pause()
        assert name.value == "You"
        screen.query_one("#opponent", Select).value = "person"
        await pilot.pause()
        shown = [name.value, screen.query_one("#second", Input).value]
        await pilot.press("f5")
        await settle(pilot)
        table = app.screen_stack[-2]  # the hand-over screen covers the table
        assert [s.name for s in table.session.seats] == shown == ["Player 1", "Guest"]
        assert app.settings.name == "You"


def test_two_people_at_one_terminal_are_named_apart() -> None:
    def names(first: str, second: str) -> list[str]:
        return [seat.name for seat in two_people(first, second)]

    assert names("You", "Guest") == ["Player 1", "Guest"]  # never "You's hand"
    assert names("Ann", " you ") == ["Ann", "Player 2"]
    assert names("", "") == ["Player 1", "Player 2"]
    assert names("Ann", "Ann") == ["Ann", "Ann 2"]
    assert all(not seat.is_computer for seat in two_people("Ann", "Bob"))


async def test_help_and_palette() -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("triominos", [Seat("You"), Seat("Computer", "computer", "random")])
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        screen = game(app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"recentre")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen


async def against_hard(app, pilot) -> GameScreen:  # type: ignore[no-untyped-def]
    """A Spider match of ours (seat 0) against the hard computer, once it has settled."""
    app.start_match("spider", [Seat("You"), Seat("Computer", "computer", "hard")])
    await settle(pilot, rounds=200)
    return game(app)


async def test_searching_computer_moves_from_its_own_process() -> None:
    from tui_domino.ai import worker

    app = make_app(seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        state = (await against_hard(app, pilot)).session.state
        if state.to_move == 0:
            await pilot.press("enter")
            await settle(pilot, rounds=200)
        assert any(r["player"] == 1 for r in state.history)
        assert worker.is_running()
    assert not worker.is_running()


FIRST_SEARCH = """
import asyncio, sys
from tests.ui.conftest import make_app, settle
from tests.ui.helpers import game
from tui_domino.ui.session import Seat

async def main():
    app = make_app(seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        assert sys.stderr is not sys.__stderr__  # (the running app's stand-in)
        app.start_match("spider", [Seat("You"), Seat("Computer", "computer", "hard")])
        await settle(pilot, rounds=200)
        table = game(app).local_table
        if table.session.state.to_move == 0:
            await pilot.press("enter")
            await settle(pilot, rounds=200)
        assert any(r["player"] == 1 for r in table.session.state.history)
        assert table.searcher.failure is None, table.searcher.failure
        print("moved from its process")

asyncio.run(main())
"""


def test_the_first_search_of_a_process_starts_its_helpers_while_the_app_runs(
        tmp_path: Path) -> None:
    """In a process where nothing started multiprocessing's helper process before (it now
    starts with the worker process, not with the app), the worker starts while the app
    runs, with Textual's stand-in for standard error in place, and the computer moves from
    it (not from the thread kept for a worker that failed)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "TUI_DOMINO_HOME": str(tmp_path), "TUI_DOMINO_DELAY": "0",
           "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", FIRST_SEARCH], capture_output=True,
                          text=True, timeout=120, env=env, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "moved from its process" in done.stdout


async def test_a_failed_worker_process_leaves_the_computer_thinking_in_the_game(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """When the search's process cannot run (it keeps dying, or cannot be started), the game
    goes on: the computer moves from a thread of the game and says so once."""
    from concurrent.futures.process import BrokenProcessPool

    from tui_domino.ai import worker

    calls = []

    async def broken(*args: object, **kwargs: object) -> None:
        calls.append(args)
        raise BrokenProcessPool("a worker died")

    monkeypatch.setattr(worker, "choose_in_process", broken)
    app = make_app(seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await against_hard(app, pilot)
        state = screen.session.state
        for _ in range(3):  # our move, then the computer's, until it has moved twice
            if state.to_move == 0:
                screen.apply_move(state.legal_moves()[0])
                await settle(pilot, rounds=200)
        assert state.to_move == 0 and sum(r["player"] == 1 for r in state.history) >= 2
        assert len(calls) == 1  # tried once, then the thread
        notes = [n.message for n in app._notifications]
        assert sum("thinking process failed (BrokenProcessPool)" in m for m in notes) == 1


async def test_the_hand_over_screen_goes_to_the_menu_and_hides_the_table() -> None:
    from tests.ui.helpers import footer_actions, screen_lines
    from tui_domino.ui.screens.menu import MenuScreen

    app = make_app(seed=4)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("Ann"), Seat("Bob")])
        await settle(pilot)
        assert isinstance(app.screen, HandoverScreen)
        assert "menu" in footer_actions(app.screen)
        text = "\n".join(screen_lines(app))
        # nothing of the table shows around the box: no scraps of the panel or the footer
        assert "Recent moves" not in text and "Bazaar" not in text and "Draw" not in text
        assert "esc Menu" in text
        for key in ("escape", "q"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, MenuScreen)
            await pilot.press("c")  # Continue: the hand is still hidden, handed over again
            await settle(pilot)
            assert isinstance(app.screen, HandoverScreen)
            assert app.screen_stack[-2].query_one(HandView).hidden
        await pilot.press("enter")
        await pilot.pause()
        assert not app.screen.query_one(HandView).hidden


async def test_the_palettes_screenshot_saves_an_svg_and_says_where() -> None:
    from tui_domino.ui.app import screenshot_dir

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        (command,) = [c for c in app.get_system_commands(app.screen)
                      if c.title == "Screenshot"]
        assert str(screenshot_dir()) in command.help
        command.callback()
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.pause()
        saved = list(screenshot_dir().glob("tui-domino-*.svg"))
        assert len(saved) == 1 and saved[0].read_text().startswith("<svg")
        assert "tui-domino" in saved[0].read_text()
        said = [n.message for n in app._notifications]
        assert said == [f"Saved the screen as {saved[0]}"]


def test_the_help_lists_only_the_keys_of_its_game() -> None:
    from tui_domino.ui.screens.help import key_rows, menu_key_rows

    classic, spider, triominos = ({key: does for key, does in key_rows(v)}
                                  for v in ("classic", "spider", "triominos"))
    assert not any("triomino" in does for does in classic.values())
    assert "c" not in classic and "m" not in classic
    assert "c" in spider and "m" in spider and "r" not in spider
    assert "r" in triominos and "c" not in triominos
    for keys in (classic, spider, triominos):  # the keys as the game binds them
        assert keys["h"].startswith("the coach's") and "H j k l" in keys
    menu = dict(menu_key_rows())
    assert menu["d"].startswith("a network duel") and menu["h"].startswith("the history")


async def test_new_game_remembers_the_target_of_each_game() -> None:
    from textual.widgets import Select

    from tui_domino.ui.screens.new_game import NewGameScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#target", Select).value = 50
        await pilot.pause()
        screen.action_start()  # a classic match to 50
        await settle(pilot)
        app.pop_screen()  # back to the menu
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.query_one("#target", Select).value == 50  # remembered
        app.screen.query_one("#variant", Select).value = "spider"  # another game: its own
        await pilot.pause()
        assert app.screen.query_one("#target", Select).value == 100
        app.screen.query_one("#variant", Select).value = "classic"
        await pilot.pause()
        assert app.screen.query_one("#target", Select).value == 50


async def test_the_new_game_form_shows_the_house_rules_of_the_game_chosen() -> None:
    """Opened on the game last played, the form shows that game's house rules from the
    start (made with the form); another game chosen shows its own, and the form's options
    are the rules chosen."""
    from textual.widgets import Select

    from tui_domino import rules
    from tui_domino.ui.screens.new_game import HOUSE_RULES, NewGameScreen

    def shown(screen: NewGameScreen) -> list[str]:
        return sorted(str(w.id).removeprefix("opt-") for w in screen.query(Select)
                      if str(w.id).startswith("opt-"))

    app = make_app()
    app.settings.last_variant = "triominos"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert shown(screen) == sorted(HOUSE_RULES["triominos"])
        screen.query_one("#variant", Select).value = "spider"
        await until(pilot, lambda: shown(screen) == sorted(HOUSE_RULES["spider"]),
                    "Spider's house rules")
        screen.query_one("#opt-hand_size", Select).value = 0
        await pilot.pause()
        options = screen.options()
        assert options == rules.resolve_options(
            "spider", {"hand_size": HOUSE_RULES["spider"]["hand_size"][1][0][1]})


async def test_the_help_draws_the_tables_marks() -> None:
    from tui_domino.ui.screens.marks import marks

    assert "━" in marks("spider") and "·" in marks("spider") and " N" in marks("spider")
    hexagon = marks("triominos").split("```")[1]
    assert hexagon.count("3") == 1 and hexagon.count("╱") == hexagon.count("╲") == 8
    bridge = marks("triominos").split("```")[3]  # its three tiles starred, as on the table
    assert bridge.count("*") == 3 and "bridge" in marks("triominos").split("```")[4]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for variant in ("classic", "spider", "triominos"):
            app.push_screen(HelpScreen(variant))
            await pilot.pause()
            shown = " ".join(str(m._markdown) for m in app.screen.query("Markdown"))
            assert "The table's marks" in shown and "```" in shown
            app.pop_screen()
            await pilot.pause()


async def test_take_back_between_two_people_says_why_it_is_not_offered() -> None:
    """Two people at one terminal: u after a player's moves does not claim he has none to
    take back; it says that between two people a move stands."""
    app = make_app(seed=4)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.start_match("classic", [Seat("Ann"), Seat("Bob")])
        await settle(pilot)
        screen = app.screen_stack[-2]
        assert isinstance(screen, GameScreen)
        for _ in range(4):  # two moves each
            await pilot.press("enter")  # take the keyboard
            await pilot.pause()
            state = screen.session.state
            screen.apply_move(state.legal_moves()[0])
            await settle(pilot)
        await pilot.press("enter")
        await pilot.pause()
        before = screen.session.state.to_json()
        await pilot.press("u")
        await pilot.pause()
        notes = [n.message for n in app._notifications]
        assert not any("no move of yours" in m for m in notes), notes
        assert any("Between two people a move once made stands" in m for m in notes), notes
        assert screen.session.state.to_json() == before
