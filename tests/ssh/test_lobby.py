"""Two visitors meet in the lobby; one challenges, the other answers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import tui_domino.ui.screens.duel  # noqa: F401  (the duel's screen: a broken import fails here)
from tests.ssh.conftest import visit
from tui_domino.ssh.server import GameServer


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


async def test_a_visitor_cannot_write_files_on_the_server(home: Path) -> None:
    from tui_domino.ssh.visitor_app import VisitorApp

    app = VisitorApp("ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        titles = {c.title for c in app.get_system_commands(app.screen)}
    assert "Screenshot" not in titles and "Quit" in titles
