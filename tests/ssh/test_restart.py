"""The server killed with SIGKILL in the middle of a rated match, and started again on its
data: accounts, ratings and history are intact, and the match cut short is rated at most
once (here: not at all, since nobody could report its end)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import pytest

from tests.ssh.conftest import eventually
from tests.ssh.test_accounts import come, new_key
from tests.ssh.test_community import play_out
from tui_domino.community import accounts, ratings
from tui_domino.community.db import db_path, open_store

ROOT = Path(__file__).resolve().parents[2]


class Served:
    """``tui-domino serve`` in a process of its own, on ``home``."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0

    async def start(self) -> None:
        env = {**os.environ, "TUI_DOMINO_HOME": str(self.home), "TUI_DOMINO_DELAY": "0",
               "TUI_DOMINO_SEED": "1", "PYTHONPATH": str(ROOT)}
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui_domino.ssh.cli", "serve", "--port", "0",
            "--duel-target", "1", stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env=env)
        assert self.proc.stdout is not None
        banner = ""
        while "Ctrl-C" not in banner:
            line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
            assert line, f"the server did not start:\n{banner}"
            banner += line.decode()
        found = re.search(r"port (\d+)", banner)
        assert found is not None
        self.port = int(found.group(1))

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.proc.wait(), 10)


@pytest.fixture
async def served(tmp_path: Path):  # type: ignore[no-untyped-def]
    servers: list[Served] = []

    async def start() -> Served:
        s = Served(tmp_path)
        await s.start()
        servers.append(s)
        return s

    yield start
    for s in servers:
        if s.proc is not None and s.proc.returncode is None:
            s.proc.terminate()
            await asyncio.wait_for(s.proc.wait(), 30)


async def test_a_server_killed_mid_match_comes_back_with_everything_and_no_match_twice(
        served, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    server = await served()
    keys = {"ann": new_key(), "bob": new_key()}
    ann, bob = [await come(server, name, keys[name]) for name in ("ann", "bob")]
    await ann.wait_for("bob 1500?")
    ann.press("enter")
    await bob.wait_for("ann challenges you")
    bob.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await play_out([ann, bob])  # the first match, to its end: rated
    await asyncio.gather(*(p.wait_for("(+") for p in (ann, bob)))
    ann.press("r")
    await bob.wait_for("ann asks for a rematch")
    bob.press("r")  # both asked: the rematch starts at once
    await asyncio.gather(ann.wait_for("The rematch starts"), bob.wait_for("The rematch starts"))
    await asyncio.gather(ann.wait_for("Your hand · 7"), bob.wait_for("Your hand · 7"))
    await eventually(lambda: "Your turn" in ann.text() or "Your turn" in bob.text(),
                     "someone to play")
    first, second = (ann, bob) if "Your turn" in ann.text() else (bob, ann)
    first.press("enter")  # the second match is under way
    await second.wait_for("Your turn")
    with open_store(db_path(tmp_path)) as store:
        before = {name: ratings.standing(store, accounts.account_named(store, name).id,
                                         "classic") for name in ("ann", "bob")}
    await server.kill()
    await asyncio.gather(ann.closed.wait(), bob.closed.wait())

    again = await served()
    ann = await come(again, "ann", keys["ann"])  # his key still owns his name
    await ann.wait_for("Welcome, ann.", "c: a one-time code")
    assert "belongs to another" in await refused_name(again.port, "ann")
    ann.press("p")
    await ann.wait_for("New game")
    ann.press("h")
    await ann.wait_for("1 match (all games)", "bob", " duel ")  # the first match only
    await ann.close()
    with open_store(db_path(tmp_path)) as store:
        assert [tuple(r) for r in store.db.execute("SELECT rated, reason FROM results")] == [
            (1, ratings.RATED)]
        for name in ("ann", "bob"):
            now = ratings.standing(store, accounts.account_named(store, name).id, "classic")
            assert now.games == before[name].games == 1
            assert now.rating.rating == before[name].rating.rating


async def refused_name(port: int, name: str) -> str:
    """Why the server refuses ``name`` to a new key."""
    from tests.ssh.test_accounts import refused

    class Port:
        def __init__(self) -> None:
            self.port = port

    return await refused(Port(), name, new_key())  # type: ignore[arg-type]
