"""Save after every move, Continue resumes exactly, unreadable saves are kept aside."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from textual.widgets import Static

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import game
from tui_domino.ui import storage
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.session import Seat, Session


async def test_saved_after_every_move_and_continue_resumes(home: Path) -> None:
    app = make_app(seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("spider", [Seat("Ann"), Seat("Computer", "computer", "greedy")], 70)
        await settle(pilot)
        screen = game(app)
        await pilot.press("enter")
        await settle(pilot)
        moves = len(screen.session.state.history)
        assert moves >= 1
        saved = json.loads(storage.save_path().read_text())
        assert saved["match"]["round"]["history"] == screen.session.state.to_json()["history"]
        await pilot.press("escape")
        expected = screen.session.to_json()  # with the tile chosen when it was left
        assert "choice" in expected
        assert isinstance(app.screen, MenuScreen)
        line = str(app.screen.query_one("#saved", Static).render())
        assert line == "Continue: Domino Spider, round 1: Ann 0 · Computer 0"
    assert not list(home.glob("*.tmp"))
    app2 = make_app()
    async with app2.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app2.screen, GameScreen)
        assert app2.screen.session.to_json() == expected
        assert app2.screen.session.seats[0].name == "Ann"


async def test_corrupt_save_is_kept_aside_with_a_message(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    storage.save_path().write_text("{ this is not json")
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()  # told at once, on the menu, not when Continue is chosen
        assert isinstance(app.screen, MenuScreen)
        messages = [n.message for n in app._notifications]
        assert any("could not be read" in m for m in messages)
        assert str(app.screen.query_one("#saved", Static).render()) == "No saved match."
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert any("no saved match" in n.message for n in app._notifications)
    assert not storage.save_path().exists()
    kept = list(home.glob("current-match.unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{ this is not json"


async def test_foreign_save_is_refused(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    storage.save_path().write_text(json.dumps({"kind": "something-else", "format": 1}))
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert list(home.glob("current-match.unreadable-*.json"))


async def test_inconsistent_match_in_save_is_refused(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    storage.write_save({"seats": [{"name": "A"}, {"name": "B"}], "match": {"kind": "match"}})
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert any("could not be read" in n.message for n in app._notifications)
    assert list(home.glob("current-match.unreadable-*.json"))


def saved_mid_round(seed: int) -> dict:
    """The JSON a game saves, a few moves into a classic round against the computer."""
    import random

    session = Session.new("classic", [Seat("Ann"), Seat("Computer", "computer", "easy")],
                          seed=seed, autosave=False)
    rng = random.Random(seed)
    while len(session.state.history) < 8:
        session.play(rng.choice(session.state.legal_moves()))
    return session.to_json()


async def test_a_save_whose_history_was_tampered_with_is_refused(home: Path) -> None:
    """A round's history that does not tell the round (a record without its points, a tile
    its player never held) would have opened and broken the game's log or the computer's
    reading of it; it is refused like any unreadable save, and kept aside."""
    home.mkdir(parents=True, exist_ok=True)
    good = saved_mid_round(4)
    bad = copy.deepcopy(good)
    del bad["match"]["round"]["history"][2]["events"]
    renamed = copy.deepcopy(good)
    renamed["seats"][0]["name"] = 7
    for payload in (bad, renamed):
        storage.write_save(payload)
        app = make_app()
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await pilot.press("c")
            await settle(pilot)
            assert isinstance(app.screen, MenuScreen)
            assert any("could not be read" in n.message for n in app._notifications)
    assert len(list(home.glob("current-match.unreadable-*.json"))) == 2
    storage.write_save(good)  # as the game wrote it, it opens
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await settle(pilot)
        assert game(app).session.to_json() == good


async def test_settings_are_kept(home: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await pilot.click("#ascii")
        await pilot.pause()
        assert app.settings.ascii
        await pilot.press("escape")
    assert storage.Settings.load().ascii is True


async def test_the_menu_line_counts_the_points_of_the_round_in_play(home: Path) -> None:
    from tui_domino.ui.screenshots import session_after

    session = session_after("triominos", seed=5, moves=6)
    session.autosave = True
    points = session.state.points
    assert any(points) and session.match.totals == [0, 0]  # scored in this round only
    session.save()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = str(app.screen.query_one("#saved", Static).render())
        assert line == (f"Continue: Triominos, round 1: You {points[0]} · "
                        f"Computer {points[1]}")


def _write_settings(home: Path, text: str) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / storage.SETTINGS_NAME
    path.write_text(text, encoding="utf-8")
    return path


async def test_the_menu_says_what_changed_when_it_shows_again(home: Path) -> None:
    """Back at the menu: Continue is offered (and chosen) once a match is saved, and no
    longer once it is over and gone; back from a screen that changed nothing, the menu is
    as it was (not made anew), its choice back on New game."""
    from textual.widgets import OptionList

    from tui_domino.ui.screens.help import HelpScreen

    app = make_app(seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        options = menu.query_one(OptionList)
        assert options.get_option("continue").disabled and options.highlighted == 0
        first = options.get_option("new")
        options.highlighted = 3
        await app.push_screen(HelpScreen())
        await settle(pilot)
        app.pop_screen()
        await settle(pilot)
        assert options.get_option("new") is first and options.highlighted == 0
        app.start_match("classic", [Seat("Ann"), Seat("Computer", "computer", "greedy")], 50)
        await settle(pilot)
        await pilot.press("enter")  # a move: the match is saved
        await settle(pilot)
        app.pop_screen()
        await settle(pilot)
        assert not options.get_option("continue").disabled and options.highlighted == 1
        assert "No saved match." not in str(menu.query_one("#saved", Static).render())
        storage.save_path().unlink()  # (gone, as when the match is over)
        await app.push_screen(HelpScreen())
        await settle(pilot)
        app.pop_screen()
        await settle(pilot)
        assert options.get_option("continue").disabled and options.highlighted == 0
        assert str(menu.query_one("#saved", Static).render()) == "No saved match."


def test_a_whole_number_in_a_decimal_setting_is_taken(home: Path) -> None:
    _write_settings(home, json.dumps({"computer_delay": 1, "ascii": True}))
    settings, problem = storage.load_settings()
    assert problem is None
    assert settings.computer_delay == 1.0 and isinstance(settings.computer_delay, float)
    assert settings.ascii is True


def test_settings_of_a_wrong_type_or_value_are_told_and_kept_aside(home: Path) -> None:
    bad = {
        '{"name": 7}': "Expected `str`, got `int` - at `$.name`",
        '{"pips": [true]}': "at `$.pips`",
        '{"computer_delay": -1}': "at `$.computer_delay`",
        '{"last_variant": "chess"}': "last_variant 'chess' is not one of",
        '{"last_level": "genius"}': "last_level 'genius' is not one of",
        "{ not json": "JSON is malformed",
        "[1, 2]": "Expected `object`, got `array`",
    }
    for n, (text, why) in enumerate(bad.items(), 1):
        path = _write_settings(home, text)
        settings, problem = storage.load_settings()
        assert settings == storage.Settings()  # the defaults
        assert problem is not None and why in problem, problem
        kept = sorted(home.glob("settings.unreadable-*.json"))
        assert len(kept) == n and not path.exists()
        assert f"kept as {home}" in problem and "the defaults are used" in problem
        assert text in {k.read_text(encoding="utf-8") for k in kept}  # moved, not deleted
    assert storage.Settings.load() == storage.Settings()  # none left: the defaults, quietly


async def test_unreadable_settings_are_told_on_the_menu(home: Path) -> None:
    from tui_domino.ui.app import DominoApp

    _write_settings(home, '{"ascii": "sometimes"}')
    app = DominoApp(seed=1)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        messages = [n.message for n in app._notifications]
        assert any("settings could not be read" in m and "$.ascii" in m for m in messages)
    assert app.settings == storage.Settings()


def test_unknown_settings_keys_are_ignored(home: Path) -> None:
    """Keys this version does not know (a later version's) are ignored, not refused, and
    dropped at the next save; ``extra`` is where the game keeps what it adds."""
    path = _write_settings(home, json.dumps({"ascii": True, "sound": "loud"}))
    settings, problem = storage.load_settings()
    assert problem is None and settings.ascii is True
    settings.save()
    assert "sound" not in json.loads(path.read_text(encoding="utf-8"))
    assert not list(home.glob("settings.unreadable-*"))


def test_settings_round_trip(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    settings = storage.Settings(theme="nord", ascii=True, pips=False, animations=False,
                                name="Zoë", second_name="日本", computer_delay=1.2,
                                last_variant="triominos", last_level="hard",
                                extra=storage.Remembered(
                                    duel=storage.DuelForm(variant="spider", port=7777)))
    settings.save()
    assert storage.Settings.read() == settings
    saved = json.loads((home / storage.SETTINGS_NAME).read_text(encoding="utf-8"))
    assert saved["computer_delay"] == 1.2 and saved["extra"]["duel"]["port"] == 7777
    assert storage.Settings.read() == storage.Settings.load()


async def test_a_new_game_asks_before_it_replaces_the_saved_match(home: Path) -> None:
    """Menu → n → Spider, hot seat → F5 with a classic match saved: the game asks first.
    n keeps the saved match (and the player on the new game's screen); y starts anew."""
    from tui_domino.ui.screens.new_game import NewGameScreen, ReplaceSavedScreen

    app = make_app(seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("Ann"), Seat("Computer", "computer", "easy")], 100)
        await settle(pilot)
        saved = storage.save_path().read_text()
        app.pop_screen()  # to the menu, the classic match saved
        await pilot.pause()
        app.push_screen(NewGameScreen(variant="spider"))
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, ReplaceSavedScreen)
        said = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert "Classic dominoes" in said and "round 1" in said
        assert "Continue" not in said  # the match asked about, not the menu's offer of it
        await pilot.press("n")  # keep it
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert storage.save_path().read_text() == saved
        await pilot.press("f5")
        await pilot.pause()
        await pilot.press("y")  # start anew
        await settle(pilot)
        assert isinstance(game(app), GameScreen) and game(app).session.variant == "spider"
        assert json.loads(storage.save_path().read_text())["match"]["variant"] == "spider"


async def test_a_new_game_starts_at_once_when_nothing_is_saved(home: Path) -> None:
    from tui_domino.ui.screens.new_game import NewGameScreen

    app = make_app(seed=6)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(NewGameScreen(variant="spider"))
        await pilot.pause()
        await pilot.press("f5")
        await settle(pilot)
        assert isinstance(game(app), GameScreen)
