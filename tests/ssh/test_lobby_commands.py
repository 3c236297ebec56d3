"""The lobby's command line and the ignore key on the visitor's screen, at 80x24: the
footer still fits in every language, the line opens on ``/`` and closes on Esc, what is
typed goes to the lobby as a command, an ignored visitor is marked, an operator sees his
mark, and the lobby's words show in the status line."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.ssh.test_lobby import in_language
from tests.ui.conftest import footer_filled, until
from tests.ui.helpers import assert_footer_fits
from tui_domino import i18n

PEOPLE = [{"id": 1, "name": "ann", "state": "lobby", "ratings": {"classic": "1500?"}},
          {"id": 2, "name": "bob", "state": "lobby", "ratings": {"classic": "1612"},
           "ignored": True},
          {"id": 3, "name": "carl", "state": "menu", "guest": True}]


@contextlib.asynccontextmanager
async def in_the_lobby(home: Path, monkeypatch: pytest.MonkeyPatch, language: str,
                       operator: bool = True) -> AsyncIterator[tuple[Any, Any, list[Any]]]:
    """Ann's game in its lobby (an account; an operator unless told), the visitors of PEOPLE
    listed: the app, its pilot, and what it sent the lobby."""
    from tui_domino.ssh.lobby_screen import LobbyScreen
    from tui_domino.ssh.visitor_app import VisitorApp

    in_language(home, monkeypatch, language)
    app = VisitorApp("ann")
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(app, "send", sent.append)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(LobbyScreen())
        await pilot.pause()
        app.on_lobby_message({"t": "welcome", "id": 1, "name": "ann", "account": True,
                              "operator": operator})
        app.on_lobby_message({"t": "people", "people": PEOPLE, "duels": []})
        await until(pilot, lambda: footer_filled(app.screen), "the lobby's footer")
        yield app, pilot, sent


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
async def test_the_command_line_opens_sends_and_closes_and_the_footer_fits(
        home: Path, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    from textual.widgets import Input, OptionList

    async with in_the_lobby(home, monkeypatch, language) as (app, pilot, sent):
        lobby = app.lobby_screen()
        assert lobby is not None
        # the footer says Enter challenges (the list of visitors has the focus, and its key)
        assert {"select", "command_line", "leave"} <= assert_footer_fits(lobby)
        title = str(lobby.query_one("#lobby-title").render())
        assert title.endswith(" · " + i18n._("operator"))
        people = str(lobby.query_one("#people", OptionList).get_option_at_index(0).prompt)
        assert "bob 1612 · " + i18n._("ignored") in people
        line = lobby.query_one("#command", Input)
        assert not line.display
        await pilot.press("slash")
        await pilot.pause()
        assert line.display and line.has_focus
        for key in "mute bob 10m spam":
            await pilot.press("space" if key == " " else key)
        await pilot.press("enter")
        await pilot.pause()
        assert sent[-1] == {"t": "command", "text": "/mute bob 10m spam"}
        assert not line.display and not line.has_focus
        await pilot.press("colon", "x", "escape")  # Esc closes without a word sent
        await pilot.pause()
        assert not line.display and sent[-1]["text"] == "/mute bob 10m spam"
        await pilot.press("i")  # the ignore key, on bob (the first of the list)
        await pilot.pause()
        assert sent[-1] == {"t": "ignore", "to": 2}
        app.on_lobby_message({"t": "notice", "why": "bob's chat is closed until 2027-01-15 "
                              "08:10:00 UTC.", "said": "{name}'s chat is closed until "
                              "{until}.", "values": {"name": "bob",
                                                     "until": "2027-01-15 08:10:00 UTC"}})
        await pilot.pause()
        status = str(lobby.query_one("#status").render())
        assert "bob" in status and "2027-01-15 08:10:00 UTC" in status


@pytest.mark.parametrize("operator", [True, False])
async def test_an_operators_palette_opens_the_command_line_on_the_highlighted_visitor(
        home: Path, monkeypatch: pytest.MonkeyPatch, operator: bool) -> None:
    from textual.widgets import Input

    async with in_the_lobby(home, monkeypatch, "en", operator) as (app, pilot, sent):
        await pilot.press("down")  # carl
        entries = {c.title: c for c in app.get_system_commands(app.screen)}
        if not operator:
            assert not {"Mute", "Unmute", "Kick", "Ban", "Unban"} & set(entries)
            return
        assert {"Mute", "Unmute", "Kick", "Ban", "Unban"} <= set(entries)
        entries["Mute"].callback()
        await pilot.pause()
        line = app.screen.query_one("#command", Input)
        assert line.display and line.has_focus and line.value == "/mute carl "
        for key in "10m spam":
            await pilot.press("space" if key == " " else key)
        await pilot.press("enter")
        await pilot.pause()
        assert sent[-1] == {"t": "command", "text": "/mute carl 10m spam"}
