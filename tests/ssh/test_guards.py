"""What keeps one client from taking the server from everyone else: connections that
open no game, connections at once per address, a full server that says why, one game per
connection, output bounded whatever window a client grants, and keepalives."""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
from typing import Any

import asyncssh
import pytest

from tests.ssh.conftest import Terminal, eventually, visit
from tests.ssh.proxy import Proxy
from tui_domino.ssh.limits import Limits
from tui_domino.ssh.server import GameServer

FREE = dict(max_visitors=8, max_per_address=100, rate_count=100, auth_delay=0.0)


class Client(asyncssh.SSHClient):  # type: ignore[misc]
    def __init__(self) -> None:
        self.lost = asyncio.Event()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost.set()


def received_disconnects(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The reasons of the disconnects the clients received (asyncssh gives a client the
    reason of a disconnect "by application" only in its log, as OpenSSH prints it)."""
    return [r.getMessage() for r in caplog.records
            if "Received disconnect" in r.getMessage()]


async def connect(port: int, name: str = "idle", local: str = "127.0.0.1",
                  **options: Any) -> tuple[Any, Client]:
    """A connection that logs in and opens nothing (``ssh -N``)."""
    return await asyncssh.create_connection(
        Client, "127.0.0.1", port, username=name, known_hosts=None, client_keys=None,
        agent_path=None, local_addr=(local, 0), **options)


async def refused_with(port: int, local: str = "127.0.0.1") -> str:
    """Connects, expecting to be refused; returns the reason the server gave."""
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await connect(port, local=local)
    return refused.value.reason


# -- connections without a game --------------------------------------------------------------

async def test_a_connection_that_opens_no_game_is_closed_with_the_reason(
        make_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="asyncssh")
    server = await make_server(limits=Limits(**FREE, login_grace=0.5))
    conn, client = await connect(server.port)
    await asyncio.wait_for(client.lost.wait(), 10)
    assert any("no game was open on this connection" in r
               for r in received_disconnects(caplog))
    await eventually(lambda: not server.connections, "the server forgets the connection")


async def test_a_connection_whose_session_was_refused_is_closed_too(
        make_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    # `ssh -T`: told it needs a terminal; a client that then keeps the connection open
    # holds no place for good.
    caplog.set_level(logging.DEBUG, logger="asyncssh")
    server = await make_server(limits=Limits(**FREE, login_grace=0.5))
    conn, client = await connect(server.port)
    chan, term = await conn.create_session(Terminal, encoding=None)
    await asyncio.wait_for(term.closed.wait(), 10)
    await asyncio.wait_for(client.lost.wait(), 10)
    assert any("no game" in r for r in received_disconnects(caplog))


async def test_connections_at_once_from_one_address_are_capped_and_told_why(
        make_server: Any) -> None:
    limits = Limits(**{**FREE, "max_per_address": 2}, login_grace=30)
    server = await make_server(limits=limits)
    held = [await connect(server.port) for _ in range(2)]
    reason = await refused_with(server.port)
    assert "too many connections from your address at once" in reason
    # Another address is let in and plays; the one address gets in again once it lets go.
    term = await visit(server.port, "ann", local_addr=("127.0.0.2", 0))
    await term.wait_for("Welcome, ann.")
    held[0][0].close()
    await eventually(lambda: server.per_address.get("127.0.0.1") == 1, "a place is free")
    again, _ = await connect(server.port)
    again.close()
    await term.close()
    held[1][0].close()


async def test_a_full_server_tells_a_refused_connection_why(make_server: Any) -> None:
    server = await make_server(limits=Limits(**{**FREE, "max_visitors": 1}, login_grace=30))
    assert server.limits.max_connections == 10
    held = [await connect(server.port, local=f"127.0.1.{n}") for n in range(1, 11)]
    reason = await refused_with(server.port, local="127.0.2.1")
    assert "the server is full" in reason
    for conn, _ in held:
        conn.close()


async def test_a_rate_limited_connection_is_told_why(make_server: Any) -> None:
    server = await make_server(limits=Limits(**{**FREE, "rate_count": 2}))
    for _ in range(2):
        conn, _ = await connect(server.port)
        conn.close()
    assert "too many new connections" in await refused_with(server.port)


# -- one game per connection ------------------------------------------------------------------

async def test_a_connection_carries_one_game(server: GameServer) -> None:
    term = await visit(server.port, "hog")
    await term.wait_for("Welcome, hog.")
    for _ in range(3):
        with pytest.raises(asyncssh.ChannelOpenError) as refused:
            await term.conn.create_session(Terminal, term_type="xterm", term_size=(80, 24),
                                           encoding=None)
        assert "one game per connection" in refused.value.reason
    assert [v.name for v in server.visits] == ["hog"]
    other = await visit(server.port, "bob")  # the table is not full of hogs
    await other.wait_for("Welcome, bob.", "hog")
    await asyncio.gather(term.close(), other.close())


# -- a client that takes no output, whatever window it grants --------------------------------

# A game that writes 64 MiB as fast as its terminal takes it, then waits.
FLOOD = [sys.executable, "-c",
         "import os, time\nfor _ in range(1024): os.write(1, b'x' * 65536)\ntime.sleep(60)"]


async def test_a_client_granting_a_huge_window_that_stops_reading_is_dropped(
        make_server: Any) -> None:
    limits = Limits(**FREE, write_buffer=64 * 1024, stall_timeout=1.0, keepalive_interval=0)
    server = await make_server(limits=limits, command=FLOOD)
    proxy = Proxy()
    await proxy.start(server.port)
    try:
        conn = await asyncssh.connect("127.0.0.1", proxy.port, username="deaf",
                                      known_hosts=None, client_keys=None, agent_path=None)
        await conn.create_session(Terminal, term_type="xterm", term_size=(80, 24),
                                  encoding=None, window=2**32 - 1)  # 4 GiB
        proxy.freeze()  # from here on nothing the server sends is read
        await eventually(lambda: bool(server.visits), "the visit starts")
        visit_ = next(iter(server.visits))
        peak = 0
        try:
            async with asyncio.timeout(60):  # a guard against hanging, not a measure of speed
                while server.visits:
                    peak = max(peak, visit_.backlog())
                    await asyncio.sleep(0.01)
        except TimeoutError:
            pytest.fail("the stalled client is never dropped")
        # Held for it: the bound, the last read of the game's terminal and framing.
        assert peak < limits.write_buffer + 2 * 65536
        assert visit_.cause == "stopped taking output"
        conn.close()
    finally:
        proxy.close()


# -- a client that goes silent ----------------------------------------------------------------

def test_by_default_a_silent_client_is_noticed_within_half_a_minute() -> None:
    # asyncssh takes a client for gone when a keepalive is due and count_max are unanswered
    limits = Limits()
    assert 0 < limits.silent_limit <= 30
    assert limits.silent_limit == limits.keepalive_interval * (limits.keepalive_count_max + 1)


async def test_a_silent_client_is_noticed_by_keepalives_and_its_game_ends(
        make_server: Any) -> None:
    limits = Limits(**FREE, keepalive_interval=0.3, keepalive_count_max=2,
                    stall_timeout=600)
    server = await make_server(limits=limits)
    proxy = Proxy()
    await proxy.start(server.port)
    try:
        term = await visit(proxy.port, "bob")
        await term.wait_for("Welcome, bob.")
        visit_ = next(iter(server.visits))
        assert visit_.proc is not None
        proxy.freeze(both=True)  # as `kill -STOP` of bob's ssh client
        # (the stall timeout is 10 minutes: only the keepalives end it within the guard)
        await eventually(lambda: not server.visits, "the silent visit ends", timeout=60)
        assert visit_.proc.returncode is not None  # his game is over: a duel would forfeit
        assert visit_.cause is not None and "connection lost" in visit_.cause
    finally:
        proxy.close()


async def test_a_flood_from_one_address_leaves_the_words_for_the_others(
        make_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    # Telling a refused connection why takes a key exchange, so only a few are told at
    # once and the rest are reset; a flood from one address must not take every place.
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")
    limits = Limits(**{**FREE, "max_per_address": 1}, login_grace=30)
    server = await make_server(limits=limits)
    held = [await connect(server.port, local=a) for a in ("127.0.0.1", "127.0.0.2")]
    loop = asyncio.get_running_loop()
    flood = []
    for _ in range(20):  # connections that never begin to log in
        sock = socket.socket()
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", server.port))
        flood.append(sock)
    await eventually(lambda: server.refusals_log.budget.noted("127.0.0.1") == 20,
                     "the flood is seen")
    assert len(server.refusing) <= 2
    # Nor does it fill the log: its first refusals are logged, the rest counted.
    assert sum("refused a connection from 127.0.0.1" in r.getMessage()
               for r in caplog.records) == 3
    # Another address over its cap is still told why.
    assert "too many connections" in await refused_with(server.port, local="127.0.0.2")
    for sock in flood:
        sock.close()
    for conn, _ in held:
        conn.close()


# A game that draws without end, as fast as its terminal takes it.
DRAWING = [sys.executable, "-c", "import os\nwhile True: os.write(1, b'x' * 4096)"]


async def test_the_games_output_after_its_channel_closed_ends_the_visit_quietly(
        make_server: Any) -> None:
    """The visitor closes his session while the game still draws: what it draws then has
    nowhere to go. It was written anyway, and the "channel not open" error went to the
    event loop's log as a traceback."""
    server = await make_server(command=DRAWING)
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    handler = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        for n in range(5):
            term = await visit(server.port, f"ann{n}")
            await term.wait_until(lambda shown: "xxxx" in shown, "the game drawing")
            term.chan.close()
            await eventually(lambda: not server.visits, "the visit ends")
            term.conn.close()
        assert not errors, errors
    finally:
        loop.set_exception_handler(handler)
