"""A visitor connects at 80x24, sees the menu, plays against the computer, resizes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ssh.conftest import visit
from tui_domino.ssh.server import GameServer


async def test_a_visitor_plays_a_move_against_the_computer(
        make_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # the deals of seed 3: the computer leads its double, and a tile of ann's follows it
    monkeypatch.setenv("TUI_DOMINO_SEED", "3")
    server = await make_server()
    term = await visit(server.port, "ann")
    await term.wait_for("Welcome, ann.", "Nobody else is here")
    await term.to_menu()
    term.press("n")
    await term.wait_for("Start", "ann")  # the new-game form has the ssh name
    term.press("f5")
    # the hint line, drawn in a frame of its own, says what Enter does
    await term.wait_for("Your hand · 7 tiles", "Your turn", "⏎ play")
    term.press("enter")
    # the tile left the hand, and the move is in the list of recent moves (the computer's
    # answer, a run of draws and a tile at most, leaves room for it)
    await term.wait_for("Your hand · 6 tiles", "ann: ")
    await term.close()


def footer_at(cols: int, rows: int):
    """The screen is drawn for cols x rows: the footer (with the palette key at its right
    end) is on the last row, and nothing is drawn past the last column."""

    def test(shown: str) -> bool:
        lines = shown.split("\n")
        last = lines[rows - 1] if len(lines) >= rows else ""
        return ("palette" in last and cols - 3 <= len(last) <= cols
                and all(len(line) <= cols for line in lines))

    return test


async def test_the_game_follows_the_terminal_size(server: GameServer) -> None:
    term = await visit(server.port, "bob", cols=80, rows=24)
    await term.to_menu()
    await term.wait_until(footer_at(80, 24), "the menu at 80x24")
    term.resize(100, 30)
    await term.wait_until(footer_at(100, 30), "the menu at 100x30")
    term.resize(90, 26)
    screen = await term.wait_until(footer_at(90, 26), "the menu at 90x26")
    assert "New game" in screen
    await term.close()
