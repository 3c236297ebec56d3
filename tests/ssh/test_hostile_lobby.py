"""The lobby shows what visitors chose (their names, the answers about them) as plain
text, and a visitor's game opens no port and reaches no address: duels go through the
lobby. The screens on their own, then visitors with hostile names on a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.hostile import CHAT, screen_text, toasts
from tests.ssh.conftest import visit
from tui_domino.ssh.lobby_screen import ChallengeScreen, LobbyScreen
from tui_domino.ssh.server import GameServer
from tui_domino.ssh.visitor_app import VisitorApp
from tui_domino.text import one_line, visible
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.screens.net_setup import DuelSetupScreen
from tui_domino.ui.storage import Settings

NAMES = ["[/x]", "x\\", "[b]Bo[/b]", "[link='h']L", "ok [/]"]


def flat(text: str) -> str:
    return " ".join(text.split())


async def test_the_lobby_shows_hostile_names_and_answers_literally(home: Path) -> None:
    app = VisitorApp("x\\", settings=Settings(computer_delay=0.0))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.push_screen(LobbyScreen())
        await pilot.pause()
        app.on_lobby_message({"t": "welcome", "id": 1, "name": "x\\"})
        people = [{"id": 1, "name": "x\\", "state": "lobby"}]
        people += [{"id": i, "name": n, "state": "lobby"} for i, n in enumerate(NAMES, 2)]
        people.append({"id": 9, "name": "\x1b[2J", "state": "duel", "with": "[/x] \x07"})
        app.on_lobby_message({"t": "people", "people": people})
        await pilot.pause()
        text = screen_text(app)
        assert "Welcome, x\\. 6 other visitors here." in text
        for name in NAMES:
            assert name in text
        assert "\\x1b[2J" in text and "in a duel with [/x] \\x07" in text
        for why in CHAT:  # refusals, cancellations and the closing word the lobby sends
            app.on_lobby_message({"t": "answered", "accept": False, "why": why})
            await pilot.pause()
            screen_text(app)
            assert flat(visible(why, lines=True))[:20] in toasts(app) or len(why) > 400
            app.on_lobby_message({"t": "closing", "why": why})
            await pilot.pause()
            screen_text(app)
            app.clear_notifications()
            status = str(app.lobby_screen().query_one("#status").render())  # type: ignore
            assert flat(status).startswith(one_line(why)[:20])
        for name in NAMES:
            app.on_lobby_message({"t": "challenged", "by": 2, "name": name,
                                  "variant": "spider"})
            await pilot.pause()
            assert isinstance(app.screen, ChallengeScreen)
            screen_text(app)
            said = str(app.screen.query_one("#challenge-text").render())
            assert flat(said) == f"{name} challenges you to a duel of Domino Spider."
            app.on_lobby_message({"t": "withdrawn"})
            await pilot.pause()
        app.lobby_screen().action_challenge()  # type: ignore[union-attr]
        await pilot.pause()
        assert "Waiting for [/x] to answer" in screen_text(app)
        assert app.is_running


async def test_a_visitors_game_cannot_open_a_network_duel(home: Path) -> None:
    app = VisitorApp("ann", settings=Settings(computer_delay=0.0))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        text = screen_text(app)
        assert "Network duel" not in text and "d Duel" not in text
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        app.screen.action_choose("duel")  # reached anyway: refused in words
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert "played through the lobby" in toasts(app)
        app.push_screen(DuelSetupScreen())  # the form itself will not open either
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert "played through the lobby" in toasts(app)


async def test_visitors_with_hostile_names_decline_and_hang_up(server: GameServer) -> None:
    ann, bob = await visit(server.port, "[/x]"), await visit(server.port, "x\\")
    await asyncio.gather(ann.wait_for("Welcome, [/x]."), bob.wait_for("Welcome, x\\."))
    await asyncio.gather(ann.wait_for("x\\"), bob.wait_for("[/x]"))
    bob.press("enter")
    await ann.wait_for("x\\ challenges you", "Decline")
    ann.press("d")
    await bob.wait_for("[/x] declined.")
    bob.press("enter")  # again: this time ann hangs up before answering
    await ann.wait_for("x\\ challenges you")
    await ann.close()
    await bob.wait_for("Nobody else is here")
    bob.press("p")  # bob's game goes on
    await bob.wait_for("New game")
    await bob.close()
