"""Two visitors meet in the lobby; one challenges, the other answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tui_domino.ui.screens.duel  # noqa: F401  (the duel's screen: a broken import fails here)
from tests.ssh.conftest import visit
from tests.ui.conftest import footer_filled, until
from tui_domino import i18n
from tui_domino.i18n import _
from tui_domino.ssh.server import GameServer
from tui_domino.ui.screens.menu import MenuScreen


async def test_visitors_see_each_other_and_where_they_are(server: GameServer) -> None:
    ann = await visit(server.port, "ann")
    await ann.wait_for("Welcome, ann.", "Nobody else is here")
    bob = await visit(server.port, "bob")
    await bob.wait_for("Welcome, bob.", "ann", "in the lobby")
    await ann.wait_for("1 other visitor here", "bob", "in the lobby")
    bob.press("p")  # bob goes to the game's menu
    await ann.wait_for("at the menu")
    bob.press("f2")  # and comes back
    await bob.wait_for("Welcome, bob.")
    await ann.wait_for("in the lobby")
    await bob.close()
    await ann.wait_for("Nobody else is here")
    await ann.close()


async def test_a_challenge_can_be_declined(server: GameServer) -> None:
    ann, bob = await visit(server.port, "ann"), await visit(server.port, "bob")
    await asyncio.gather(ann.wait_for("bob"), bob.wait_for("ann"))
    bob.press("v")  # the game of the challenge: Domino Spider
    await bob.wait_for("Domino Spider")
    bob.press("enter")
    await bob.wait_for("Waiting for ann")
    await ann.wait_for("bob challenges you", "Domino Spider", "Decline")
    ann.press("d")
    await bob.wait_for("ann declined.")
    await asyncio.gather(ann.close(), bob.close())


async def test_two_names_alike_are_told_apart(server: GameServer) -> None:
    first, second = await visit(server.port, "ann"), await visit(server.port, "ann")
    await second.wait_for("Welcome, ann-2.")
    await first.wait_for("ann-2")
    await asyncio.gather(first.close(), second.close())


async def test_an_accepted_challenge_starts_a_duel(server: GameServer) -> None:
    ann, bob = await visit(server.port, "ann"), await visit(server.port, "bob")
    await asyncio.gather(ann.wait_for("bob"), bob.wait_for("ann"))
    bob.press("enter")
    await ann.wait_for("bob challenges you")
    ann.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await asyncio.gather(ann.close(), bob.close())


def takes_screenshot(callback: Callable[[], Any]) -> bool:
    """Whether a palette command's callback takes a screenshot: it is a screenshot method,
    or a function that calls one."""
    code = getattr(callback, "__code__", None)
    names = {getattr(callback, "__name__", ""), *getattr(code, "co_names", ())}
    return any("screenshot" in name for name in names)


def in_language(home: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """The environment of a visitor speaking ``language``; the working directory and the
    Downloads folder (where Textual's own screenshot would go) in ``home``."""
    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", f"{language}.UTF-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.chdir(home)


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
async def test_a_visitors_palette_has_no_screenshot_in_any_language(
        home: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    from tui_domino.ssh.visitor_app import VisitorApp
    from tui_domino.ui.app import DominoApp

    in_language(home, monkeypatch, language)
    # the game's own palette has a screenshot (so the test can tell one)
    assert any(takes_screenshot(c.callback)
               for c in DominoApp().get_system_commands(MenuScreen()))
    app = VisitorApp("ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert i18n.current() == language
        for chosen in [language, *(code for code in i18n.LANGUAGES if code != language)]:
            app.choose_language(chosen)  # as the palette's "Language: ..." does
            commands = list(app.get_system_commands(app.screen))
            assert not [c.title for c in commands if takes_screenshot(c.callback)]
            assert _("Screenshot") not in {c.title for c in commands}
            assert _("Quit") in {c.title for c in commands}


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
async def test_a_visitor_cannot_write_a_screenshot_on_the_server(
        home: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    from tui_domino.ssh.visitor_app import VisitorApp

    in_language(home, monkeypatch, language)
    app = VisitorApp("ann")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        app.action_screenshot()
        await app.run_action("screenshot")
        await app.run_action("app.screenshot('shot.svg', '.')")
        app.deliver_screenshot("shot.svg", ".")
        app.take_screenshot()
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.pause()
        told = list(app._notifications)
        assert told and all(n.severity == "warning" and "svg" not in n.message for n in told)
    assert sorted(home.rglob("*.svg")) == []


async def test_a_challenge_stays_on_top_of_the_screens_that_come_after_it(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A visitor challenged as she arrives: the lobby's screen comes after the box, and
    goes under it (the box used to lie hidden under her lobby, the challenger waiting)."""
    from textual.screen import Screen

    from tui_domino.ssh.lobby_screen import ChallengeScreen, LobbyScreen
    from tui_domino.ssh.visitor_app import VisitorApp

    in_language(home, monkeypatch, "en")
    app = VisitorApp("ann")
    sent: list[dict[str, object]] = []
    monkeypatch.setattr(app, "send", sent.append)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.on_lobby_message({"t": "challenged", "by": 7, "name": "bob", "variant": "spider"})
        app.push_screen(LobbyScreen())  # as her game opens the lobby on arrival
        await pilot.pause()
        assert isinstance(app.screen, ChallengeScreen)
        assert app.screen.challenger == "bob" and app.screen.variant == "spider"
        assert isinstance(app.screen_stack[-2], LobbyScreen)
        other: Screen[None] = Screen()
        app.push_screen(other)  # any screen at all
        await pilot.pause()
        assert isinstance(app.screen, ChallengeScreen)
        await pilot.press("a")
        await pilot.pause()
        assert sent == [{"t": "answer", "to": 7, "accept": True}]
        assert app.screen is other
        assert len([s for s in app.screen_stack if isinstance(s, ChallengeScreen)]) == 0


@pytest.mark.parametrize(("bell", "rings"), [(None, 0), (False, 0), (True, 1)])
async def test_a_challenge_rings_the_bell_only_as_the_visitor_set_it(
        home: Path, monkeypatch: pytest.MonkeyPatch, bell: bool | None, rings: int) -> None:
    from tui_domino.ssh.visitor_app import VisitorApp
    from tui_domino.ui.storage import Settings

    in_language(home, monkeypatch, "en")
    monkeypatch.setenv("SSH_CONNECTION", "127.0.0.1 50000 127.0.0.1 2222")  # over ssh
    app = VisitorApp("ann", settings=Settings(bell=bell))
    rung: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: rung.append(None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.on_lobby_message({"t": "challenged", "by": 7, "name": "bob", "variant": "classic"})
        await pilot.pause()
    assert len(rung) == rings


async def test_a_list_of_people_redraws_only_what_changed(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby sends its list for everyone's sake: a game redraws only what changed for
    it (a crowd arriving used to cost every game a whole new list each time)."""
    from textual.widgets import OptionList

    from tui_domino.ssh.lobby_screen import LobbyScreen
    from tui_domino.ssh.visitor_app import VisitorApp

    in_language(home, monkeypatch, "en")
    app = VisitorApp("ann")
    monkeypatch.setattr(app, "send", lambda message: None)
    people: list[dict[str, Any]] = [{"id": n, "name": name, "state": "lobby"}
                                    for n, name in enumerate(("ann", "bob", "carl"), 1)]

    def listed(menu: OptionList) -> list[Any]:
        return [menu.get_option_at_index(i) for i in range(menu.option_count)]

    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(LobbyScreen())
        await pilot.pause()
        app.on_lobby_message({"t": "welcome", "id": 1, "name": "ann"})
        app.on_lobby_message({"t": "people", "people": people, "duels": []})
        await pilot.pause()
        menu = app.screen.query_one("#people", OptionList)
        await pilot.press("down")
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "3"
        before = listed(menu)
        # the same list again: nothing is made anew
        app.on_lobby_message({"t": "people", "people": [dict(p) for p in people], "duels": []})
        await pilot.pause()
        assert all(a is b for a, b in zip(listed(menu), before, strict=True))
        # a newcomer at the end: the lines before kept as they were, his added
        dan = {"id": 4, "name": "dan", "state": "lobby"}
        app.on_lobby_message({"t": "people", "people": [*people, dan], "duels": []})
        await pilot.pause()
        now = listed(menu)
        assert [o.id for o in now] == ["2", "3", "4"]
        assert now[0] is before[0] and now[1] is before[1]
        assert "dan" in str(now[2].prompt)
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "3"
        # bob leaves and carl starts a game: made anew, carl still highlighted
        carl = {**people[2], "state": "game"}
        app.on_lobby_message({"t": "people", "people": [people[0], carl, dan], "duels": []})
        await pilot.pause()
        assert [o.id for o in listed(menu)] == ["3", "4"]
        assert "playing" in str(listed(menu)[0].prompt)
        assert menu.highlighted_option is not None and menu.highlighted_option.id == "3"
        assert "2 other visitors here" in str(app.screen.query_one("#welcome").render())


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_lobby_fits_the_smallest_terminal_the_game_takes(
        home: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    from tests.ui.test_languages import cut_labels
    from tui_domino.ssh.lobby_screen import LobbyScreen
    from tui_domino.ssh.visitor_app import VisitorApp
    from tui_domino.ui.app import MIN_SIZE

    in_language(home, monkeypatch, language)
    app = VisitorApp("ann")
    monkeypatch.setattr(app, "send", lambda message: None)
    people = [{"id": 1, "name": "ann", "state": "lobby"},
              {"id": 2, "name": "bob", "state": "lobby", "ratings": {"classic": "1512?"}}]
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        app.push_screen(LobbyScreen())
        await pilot.pause()
        app.on_lobby_message({"t": "welcome", "id": 1, "name": "ann", "account": True})
        app.on_lobby_message({"t": "people", "people": people, "duels": []})
        await until(pilot, lambda: footer_filled(app.screen), "the lobby's footer")
        assert await cut_labels(app, pilot) == []


async def test_the_leaderboards_key_shows_once_someone_with_a_rating_arrives(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.ui.helpers import footer_actions
    from tui_domino.ssh.lobby_screen import LobbyScreen
    from tui_domino.ssh.visitor_app import VisitorApp

    in_language(home, monkeypatch, "en")
    app = VisitorApp("ann")
    monkeypatch.setattr(app, "send", lambda message: None)
    ann = {"id": 1, "name": "ann", "state": "lobby"}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(LobbyScreen())
        await pilot.pause()
        app.on_lobby_message({"t": "welcome", "id": 1, "name": "ann"})
        app.on_lobby_message({"t": "people", "people": [ann], "duels": []})
        await until(pilot, lambda: footer_filled(app.screen), "the lobby's footer")
        assert "leaderboard" not in footer_actions(app.screen)  # (alone, on no server's ratings)
        bob = {"id": 2, "name": "bob", "state": "lobby", "ratings": {"classic": "1512?"}}
        app.on_lobby_message({"t": "people", "people": [ann, bob], "duels": []})
        await until(pilot, lambda: "leaderboard" in footer_actions(app.screen),
                    "the leaderboard's key")
