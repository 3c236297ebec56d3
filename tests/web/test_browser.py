"""The web door in a real browser (chromium, headless): the page, the lobby, a game against
the computer by key and by click; and nothing asked of any host but the server."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.ssh.playing import SshPlayer, play_out
from tests.ssh.test_accounts import come, new_key
from tests.ssh.test_play import footer_at
from tests.web.browser import Tab, chromium
from tests.web.conftest import Served


async def test_the_page_signs_in_and_shows_the_lobby_asking_only_its_server(
        web: Served, tmp_path: Path) -> None:
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("dora")
        await tab.wait_for("Welcome, dora.", "Nobody else is here")
        await tab.page.screenshot(path=str(tmp_path / "lobby.png"))
        hosts = {urlsplit(url).netloc for url in tab.requests}
        assert hosts == {f"127.0.0.1:{web.door.port}"}, tab.requests


def marked_tile(shown: str) -> tuple[int, int]:
    """The cell in the middle of the hand's selected tile (the ▲ under it marks it)."""
    lines = shown.split("\n")
    row = max(i for i, line in enumerate(lines) if "▲" in line)
    return lines[row].index("▲"), row - 2


async def test_a_game_against_the_computer_takes_a_key_and_a_click(
        make_web: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the deals of seed 3: the computer leads its double, and a tile of ann's follows it
    monkeypatch.setenv("TUI_DOMINO_SEED", "3")
    web = await make_web()
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("ann")
        await tab.wait_for("Welcome, ann.")
        await tab.press("p")
        await tab.wait_for("New game", "Quit")
        await tab.press("n")
        await tab.wait_for("Start", "ann")
        await tab.press("F5")
        await tab.wait_for("Your hand · 7 tiles", "Your turn", "⏎ play")
        await tab.press("Enter")  # a move by key
        # The computer's answer made (its tiles down to 5: "Your turn" alone may still be the
        # old frame's), and the screen still: a frame can reach the page in more than one
        # piece, and the ▲ moves to a tile that can be played after the computer's move.
        shown = await tab.wait_still("Your hand · 6 tiles", "Computer: 5 tiles", "Your turn",
                                     "⏎ play", "▲")
        col, row = marked_tile(shown)
        await tab.click_cell(col, row)  # a move by click: the tile chosen, clicked again
        await tab.wait_for("Your hand · 5 tiles")


async def test_a_browser_visitor_duels_an_ssh_visitor_to_the_end(
        make_web: Any, tmp_path: Path) -> None:
    web = await make_web(duel_target=1)  # a match of one round
    ann = await come(web.server, "ann", new_key())  # over SSH, with an account
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("bob")
        await tab.wait_for("Welcome, bob.", "ann")
        await ann.wait_for("bob · guest")
        await tab.press("Enter")  # bob challenges ann
        await ann.wait_for("bob challenges you")
        ann.press("a")
        await asyncio.gather(ann.wait_for("Your hand"), tab.wait_for("Your hand"))
        await play_out([SshPlayer(ann), tab])
        await tab.wait_for("Match over")
        hosts = {urlsplit(url).netloc for url in tab.requests}
        assert hosts == {f"127.0.0.1:{web.door.port}"}, tab.requests
    await ann.close()


async def test_the_game_follows_the_browser_windows_size(web: Served, tmp_path: Path) -> None:
    async with chromium(tmp_path / "profile", width=800, height=480) as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("dora")
        await tab.wait_for("Welcome, dora.")
        await tab.press("p")
        await tab.wait_for("New game")
        for width, height in ((1000, 600), (800, 480)):
            await tab.page.set_viewport_size({"width": width, "height": height})
            # the page fits its terminal to the window in steps (the font, then the grid):
            # the game's screen follows the terminal's size once it has settled
            deadline = time.monotonic() + 30
            while True:
                cols, rows = await tab.page.evaluate(
                    "() => [window.terminal.cols, window.terminal.rows]")
                if footer_at(cols, rows)(await tab.text()):
                    break
                assert time.monotonic() < deadline, f"never the menu at {cols}x{rows}"
                await asyncio.sleep(0.05)
            assert cols >= 80 and rows >= 24
