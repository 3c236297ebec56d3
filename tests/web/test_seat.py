"""A seat that survives its connection, through the browser door (chromium, headless): a
browser reload in the middle of a duel comes back as the same visitor (the tab's pass) to
the same table, and the match goes on to its end, rated once; a player who dropped his ssh
connection comes back by the browser to his table."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.ssh.conftest import Terminal, eventually
from tests.ssh.playing import SshPlayer, key_for, play_out
from tests.ssh.test_accounts import come, new_key
from tests.ssh.test_rated_duel import results
from tests.ssh.test_seat import hand, still
from tests.web.browser import Tab, chromium
from tests.web.conftest import Served
from tui_domino.community import accounts, ratings


def code_for(web: Served, name: str, key: Any) -> str:
    """A one-time code that signs ``name`` (an account owned by ``key``) in at the web
    door, as his lobby's ``c`` gives him."""
    store = web.server.store
    assert store is not None
    signed = accounts.sign_in(store, name, key.get_fingerprint())
    assert isinstance(signed, accounts.Member)
    return accounts.new_code(store, signed.account.id)


async def one_move_each(players: list[Any], timeout: float = 60) -> None:
    """The first to play makes his move (a play, or draws until he plays or passes), then
    the other; returns once the turn has passed twice, the table settled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    moved: set[int] = set()
    while len(moved) < 2:
        assert loop.time() < deadline, [await p.text() for p in players]
        for i, p in enumerate(players):
            shown = await p.text()
            key = key_for(shown)
            if key is None or " is over ─" in shown:
                continue
            await p.press(key)
            while await p.text() == shown and loop.time() < deadline:
                await asyncio.sleep(0.05)
            if key != "d":  # (a draw keeps the turn: the move is still to come)
                moved.add(i)
        await asyncio.sleep(0.05)
    for p in players:  # settled: the next to play knows it
        while "Your turn" not in await p.text() and "to play" not in await p.text():
            assert loop.time() < deadline
            await asyncio.sleep(0.05)


async def test_a_browser_reload_mid_duel_comes_back_to_the_same_table(
        make_web: Any, tmp_path: Path) -> None:
    web = await make_web(duel_target=1)
    ann = await come(web.server, "ann", new_key())
    code = code_for(web, "bob", new_key())
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("bob", code=code)
        await tab.wait_for("Welcome, bob.", "ann")
        await tab.press("Enter")  # bob challenges ann
        await ann.wait_for("bob challenges you")
        ann.press("a")
        await asyncio.gather(ann.wait_for("Your hand"), tab.wait_for("Your hand", "◷"))
        await one_move_each([SshPlayer(ann), tab])
        before = hand(await tab.wait_still("Your hand", "◷"))
        await tab.page.reload()  # the tab reloads: its pass brings bob back
        await tab.page.wait_for_selector("body[data-ready='1']")
        await tab.wait_until(lambda s: "Your hand" in s and "◷" in s and hand(s) == before,
                             f"the same hand as\n{before}")
        await ann.wait_for("bob is back")
        assert "forfeit" not in ann.text()
        await play_out([SshPlayer(ann), tab])
        await eventually(lambda: results(web.server) == [(1, ratings.RATED)], "rated once")
    await ann.close()


async def test_a_player_who_dropped_his_ssh_connection_comes_back_by_the_browser(
        make_web: Any, tmp_path: Path) -> None:
    web = await make_web(duel_target=1)
    ann_key = new_key()
    ann: Terminal = await come(web.server, "ann", ann_key)
    bob = await come(web.server, "bob", new_key())
    await ann.wait_for("bob 1500?")
    ann.press("enter")
    await bob.wait_for("ann challenges you")
    bob.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await one_move_each([SshPlayer(ann), SshPlayer(bob)])
    before = hand(await still(ann, "Your hand", "◷"))
    ann.conn.abort()  # her ssh client is gone
    await bob.wait_for("away, seat kept")
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("ann", code=code_for(web, "ann", ann_key))
        await tab.wait_until(lambda s: "Your hand" in s and "◷" in s and hand(s) == before,
                             f"the same hand as\n{before}")
        await bob.wait_for("ann is back")
        await play_out([tab, SshPlayer(bob)])
        await eventually(lambda: results(web.server) == [(1, ratings.RATED)], "rated once")
    await bob.close()


async def test_the_page_connects_again_by_itself_and_says_when_the_server_is_down(
        make_web: Any, tmp_path: Path) -> None:
    """A signed-in tab whose connection is lost connects again by itself (with its pass,
    after a second); Play with the server down says so (it showed nothing)."""
    web = await make_web()
    code = code_for(web, "bob", new_key())
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("bob", code=code)
        await tab.wait_for("Welcome, bob.")
        [visit] = list(web.server.visits)
        await visit.ws.close()  # the connection is lost (not a word from the server)
        await tab.wait_until(lambda s: "Welcome, bob." in s
                             and any(v is not visit for v in web.server.visits),
                             "back by itself")
        assert await tab.message() == ""
        assert not await tab.page.is_visible("#signin")
        other = Tab(await context.new_page())  # a page loaded; then the server goes
        await other.open(web.url)
        await web.door.close()
        await other.sign_in("dora")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 15
        while "does not answer" not in await other.message():
            assert loop.time() < deadline, await other.message()
            await asyncio.sleep(0.05)
        assert await other.page.is_visible("#signin")


async def test_ctrl_c_copies_a_selection_and_else_goes_to_the_game(
        make_web: Any, tmp_path: Path) -> None:
    web = await make_web()
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("dora")
        await tab.wait_for("Welcome, dora.")
        await tab.page.evaluate("() => window.terminal.selectAll()")
        await tab.press("Control+c")  # copied: the game hears nothing of it
        await asyncio.sleep(1.0)
        assert "to quit the game" not in await tab.text()
        await tab.page.evaluate("() => window.terminal.clearSelection()")
        await tab.press("Control+c")  # nothing selected: the game's
        await tab.wait_for("Press ctrl+q to quit the game.")
