"""The smaller things a visitor or the host sees: private data directories, a session
without a terminal, the idle message and the log of departures."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import stat
from typing import Any

import asyncssh
import pytest

from tests.ssh.conftest import Terminal, eventually, visit
from tui_domino.ssh.limits import Limits, duration_text
from tui_domino.ssh.server import GameServer

# -- data directories ------------------------------------------------------------------------

async def test_a_visitors_data_is_private(server: GameServer) -> None:
    term = await visit(server.port, "ann")
    await term.to_menu()  # the game has saved its settings by now
    visit_ = next(iter(server.visits))
    assert visit_.home is not None
    await eventually(lambda: any(p.is_file() for p in visit_.home.rglob("*")),
                     "the game writes a file")
    assert stat.S_IMODE(server.homes.visitors.stat().st_mode) == 0o700
    for path in [visit_.home, *visit_.home.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))
    await term.close()


# -- a session without a terminal ------------------------------------------------------------

class Plain(Terminal):
    def __init__(self) -> None:
        super().__init__()
        self.errors = b""

    def data_received(self, data: bytes, datatype: Any) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.errors += data
        super().data_received(data, datatype)


async def test_a_session_without_a_terminal_is_told_to_use_one(server: GameServer) -> None:
    # `ssh -T host </dev/null`: the shell request and the end of input come together.
    conn = await asyncssh.connect("127.0.0.1", server.port, username="ann", known_hosts=None,
                                  client_keys=None, agent_path=None)
    chan, plain = await conn.create_session(Plain, encoding=None)
    chan.write_eof()
    await asyncio.wait_for(plain.closed.wait(), 10)
    assert b"tui-domino needs a terminal: connect with ssh -t" in plain.errors
    assert plain.exit_status == 1
    assert not server.visits
    conn.close()


# -- the idle message ------------------------------------------------------------------------

def test_a_duration_is_said_as_it_is() -> None:
    assert duration_text(15) == "15 seconds"
    assert duration_text(1) == "1 second"
    assert duration_text(60) == "1 minute"
    assert duration_text(90) == "1 minute 30 seconds"
    assert duration_text(15 * 60) == "15 minutes"
    assert duration_text(2 * 3600) == "2 hours"
    assert duration_text(5400) == "90 minutes"


async def test_the_idle_message_says_the_real_time(make_server: Any) -> None:
    server = await make_server(limits=Limits(max_per_address=100, rate_count=100,
                                             auth_delay=0.0, idle_timeout=1.5))
    term = await visit(server.port, "ann")
    await term.wait_for("You were idle for 2 seconds", where=Terminal.output, timeout=20)
    await asyncio.wait_for(term.closed.wait(), 10)


# -- departures in the log -------------------------------------------------------------------

async def test_every_departure_is_logged(server: GameServer,
                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")

    def said(text: str) -> bool:
        return any(text in r.getMessage() for r in caplog.records
                   if r.name == "tui_domino.ssh")

    # ann hangs up; bob's connection drops without a word; carl's game is killed.
    ann, bob, carl = [await visit(server.port, n) for n in ("ann", "bob", "carl")]
    for term, name in ((ann, "ann"), (bob, "bob"), (carl, "carl")):
        await term.wait_for(f"Welcome, {name}.")
    await ann.close()
    await eventually(lambda: said("ann (127.0.0.1) left: hung up"), "ann's departure")
    sock = bob.conn.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    bob.conn.abort()  # a reset
    await eventually(lambda: said("bob (127.0.0.1) left:"), "bob's departure")
    victim = next(v for v in server.visits if v.name == "carl")
    assert victim.proc is not None
    os.kill(victim.proc.pid, 9)
    await eventually(lambda: said("carl (127.0.0.1) left: the game stopped (signal 9)"),
                     "carl's departure")
    await carl.close()


# -- a game that dies ------------------------------------------------------------------------

async def test_a_killed_game_leaves_the_terminal_as_it_found_it(server: GameServer) -> None:
    """A game killed by a signal cannot restore the visitor's terminal (the alternate screen,
    mouse reports, the hidden cursor): the server does, before it says what happened."""
    term = await visit(server.port, "dora")
    await term.wait_for("Welcome, dora.")
    assert "\x1b[?1049h" in term.output()  # the game took the alternate screen
    victim = next(v for v in server.visits if v.name == "dora")
    assert victim.proc is not None
    os.kill(victim.proc.pid, 9)
    await term.wait_for("The game stopped unexpectedly (signal 9).")
    after = term.output().rsplit("\x1b[?1049h", 1)[1]
    for restored in ("\x1b[?1049l", "\x1b[?1000l", "\x1b[?1003l", "\x1b[?1006l", "\x1b[?25h",
                     "\x1b[?2004l"):
        assert restored in after, repr(restored)
    assert after.index("\x1b[?1049l") < after.index("The game stopped unexpectedly")
    await term.close()
