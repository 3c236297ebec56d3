"""Logins, limits, slow clients and shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from tests.ssh.conftest import TEST_LIMITS, Terminal, eventually, visit
from tui_domino.ssh.hostkey import HOST_KEY_NAME
from tui_domino.ssh.limits import Limits, RateLimiter
from tui_domino.ssh.server import GameServer, player_name


async def test_a_wrong_password_is_refused_and_the_right_one_lets_in(make_server: Any) -> None:
    server = await make_server(password="open sesame")
    with pytest.raises(asyncssh.PermissionDenied):
        await visit(server.port, "eve", password="guess")
    with pytest.raises(asyncssh.PermissionDenied):
        await visit(server.port, "eve")  # no password at all
    term = await visit(server.port, "ann", password="open sesame")
    await term.to_menu()
    await term.close()


async def test_an_authorized_key_lets_in(make_server: Any, tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    server = await make_server(authorized_keys=keys)
    with pytest.raises(asyncssh.PermissionDenied):
        await visit(server.port, "eve", client_keys=[other])
    term = await visit(server.port, "ann", client_keys=[key])
    await term.to_menu()
    await term.close()


class Deaf(Terminal):
    """A client that never reads: it takes nothing off the wire after connecting."""

    def connection_made(self, chan: Any) -> None:
        super().connection_made(chan)
        chan.pause_reading()


async def test_a_client_that_never_reads_is_disconnected(make_server: Any) -> None:
    limits = Limits(max_visitors=8, rate_count=100, auth_delay=0.0, write_buffer=4096,
                    stall_timeout=1.0)
    server = await make_server(limits=limits)
    conn = await asyncssh.connect("127.0.0.1", server.port, username="deaf", known_hosts=None,
                                  client_keys=None, agent_path=None)
    # A small window: the server can send only 1 KiB before the client must read.
    chan, deaf = await conn.create_session(Deaf, term_type="xterm", term_size=(80, 24),
                                           encoding=None, window=1024, max_pktsize=1024)
    await asyncio.wait_for(deaf.closed.wait(), 20)
    conn.close()
    await eventually(lambda: not server.visits, "the deaf visit ends")
    # Everyone else is served as before.
    term = await visit(server.port, "ann")
    await term.to_menu()
    await term.close()


async def test_twenty_visitors_at_once_each_get_a_working_screen(server: GameServer) -> None:
    terms = await asyncio.gather(*(visit(server.port, f"p{n}") for n in range(20)))
    await asyncio.gather(*(t.wait_for(f"Welcome, p{n}.", timeout=60)
                           for n, t in enumerate(terms)))
    assert len(server.visits) == 20
    assert len({v.proc.pid for v in server.visits if v.proc}) == 20  # a process each
    # Each screen answers its own keyboard.
    await asyncio.gather(*(t.to_menu() for t in terms[:3]))
    assert "New game" not in terms[3].text()
    for t in terms[:3]:
        t.press("n")
    await asyncio.gather(*(t.wait_for("Start", timeout=60) for t in terms[:3]))
    await asyncio.gather(*(t.close() for t in terms))


async def test_the_server_says_when_it_is_full(make_server: Any) -> None:
    server = await make_server(limits=Limits(max_visitors=1, rate_count=100, auth_delay=0.0))
    first = await visit(server.port, "ann")
    await first.wait_for("lobby")
    second = await visit(server.port, "bob")
    await second.wait_for("full", where=Terminal.output)
    await asyncio.wait_for(second.closed.wait(), 10)
    assert second.exit_status == 1
    await first.close()


def test_the_rate_limiter_forgets_after_its_window() -> None:
    now = [0.0]
    rate = RateLimiter(2, 10.0, clock=lambda: now[0])
    assert rate.allow("a") and rate.allow("a") and not rate.allow("a")
    assert rate.allow("b")
    now[0] = 10.5
    assert rate.allow("a")


async def test_an_idle_visitor_is_told_and_disconnected(make_server: Any) -> None:
    server = await make_server(limits=Limits(rate_count=100, auth_delay=0.0, idle_timeout=2.0))
    term = await visit(server.port, "ann")
    await term.to_menu()
    await term.wait_for("idle for 2 seconds", where=Terminal.output, timeout=20)
    await asyncio.wait_for(term.closed.wait(), 10)


async def test_closing_the_server_tells_every_visitor(make_server: Any) -> None:
    server = await make_server()
    terms = [await visit(server.port, name) for name in ("ann", "bob")]
    await asyncio.gather(*(t.to_menu() for t in terms))
    pids = [v.proc.pid for v in server.visits if v.proc]
    await asyncio.wait_for(server.close("The server is shutting down."), 20)
    for t in terms:
        await t.wait_for("shutting down", where=Terminal.output)
        await asyncio.wait_for(t.closed.wait(), 10)
        assert "\x1b[?1049l" in t.output()  # the terminal is given back
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_a_crash_ends_only_that_visit(server: GameServer) -> None:
    ann, bob = await visit(server.port, "ann"), await visit(server.port, "bob")
    await asyncio.gather(ann.to_menu(), bob.to_menu())
    victim = next(v for v in server.visits if v.name == "ann")
    assert victim.proc is not None
    os.kill(victim.proc.pid, 9)
    await ann.wait_for("stopped unexpectedly", where=Terminal.output)
    await asyncio.wait_for(ann.closed.wait(), 10)
    bob.press("n")
    await bob.wait_for("Start")
    await bob.close()


async def test_the_host_key_is_kept_private_and_reused(home: Path) -> None:
    first = GameServer(port=0, limits=TEST_LIMITS)
    await first.start()
    await first.close()
    path = home / HOST_KEY_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    second = GameServer(port=0, limits=TEST_LIMITS)
    await second.start()
    await second.close()
    assert first.host_key and second.host_key
    assert first.host_key_created and not second.host_key_created
    assert first.host_key.public_data == second.host_key.public_data


def test_a_user_name_becomes_a_safe_player_name() -> None:
    assert player_name("ann") == "ann"
    assert player_name("\x1b[31mred\x07") == "[31mred"
    assert player_name("a" * 40) == "a" * 16
    assert player_name("  ") == "guest"


async def test_a_visitor_who_leaves_while_the_game_starts_leaves_no_game_behind(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The game's process is held back until the visitor has gone: on a busy machine starting
    # it takes seconds, and a visitor may hang up meanwhile. (Started afresh; a game forked
    # by the fork server: tests/ssh/test_fork_server.py.)
    server = await make_server(fork_server=False)
    hold = asyncio.Event()
    started: list[asyncio.subprocess.Process] = []
    spawn = asyncio.create_subprocess_exec

    async def slow_spawn(*args: Any, **kw: Any) -> asyncio.subprocess.Process:
        await hold.wait()
        proc = await spawn(*args, **kw)
        started.append(proc)
        return proc

    monkeypatch.setattr(asyncio, "create_subprocess_exec", slow_spawn)
    term = await visit(server.port, "ann")
    await eventually(lambda: bool(server.visits), "the visit starts its game")
    v = next(iter(server.visits))
    await term.close()
    await eventually(lambda: v.ended, "the server sees the visitor go")
    hold.set()
    await eventually(lambda: bool(started), "the game's process starts")
    await asyncio.wait_for(started[0].wait(), 10)  # and is stopped, not left to run
    await eventually(lambda: not server.visits, "the visit ends")
    assert v.master is None


def test_errors_for_want_of_descriptors_are_logged_once_a_period(
        caplog: pytest.LogCaptureFixture) -> None:
    """Out of descriptors, asyncio reports every failed accept: the log grew 220 MB in a
    minute. The server's handler logs the first of a period and counts the rest."""
    import asyncio
    import errno
    import logging

    from tui_domino.ssh.server import ResourceAlarm

    loop = asyncio.new_event_loop()
    now = [0.0]
    alarm = ResourceAlarm(loop, period=60.0, clock=lambda: now[0])
    alarm.install()
    try:
        context = {"message": "socket.accept() out of system resource",
                   "exception": OSError(errno.EMFILE, "Too many open files")}
        with caplog.at_level(logging.ERROR, logger="tui_domino.ssh"):
            for i in range(8000):
                now[0] = i / 8000 * 59  # 8,000 in 59 seconds
                loop.call_exception_handler(context)
            now[0] = 61.0
            loop.call_exception_handler(context)  # a new period: logged, the count said
        lines = [r.getMessage() for r in caplog.records if r.name == "tui_domino.ssh"]
        assert len(lines) == 3, lines
        assert "out of system resource" in lines[0] and "7999 more errors" in lines[1]
        other: list[dict[str, object]] = []
        loop.set_exception_handler(None)
        alarm = ResourceAlarm(loop)
        alarm.before = lambda _loop, ctx: other.append(ctx)
        alarm.install()
        loop.call_exception_handler({"message": "something else"})  # passed on
        assert other == [{"message": "something else"}]
    finally:
        alarm.remove()
        loop.close()


@pytest.mark.parametrize(("size", "given"), [((1, 1), (20, 8)), ((2, 1), (20, 8)),
                                             ((1, 24), (20, 24)), ((1000, 1000), (300, 120))])
async def test_a_tiny_or_huge_terminal_gets_a_game_that_lives_within_bounds(
        server: GameServer, size: tuple[int, int], given: tuple[int, int]) -> None:
    """A 1x1, 2x1 or 1x24 terminal killed the visitor's game (rich divides by the width
    left); 1000x1000 cost 3 MB a redraw. The game's terminal is kept within bounds."""
    import fcntl
    import struct
    import termios

    term = await visit(server.port, "tiny", cols=size[0], rows=size[1])
    await eventually(lambda: any(v.member is not None for v in server.visits), "his game")
    visit_ = next(iter(server.visits))
    rows, cols, _x, _y = struct.unpack("HHHH", fcntl.ioctl(
        visit_.master, termios.TIOCGWINSZ, b"\0" * 8))
    assert (cols, rows) == given
    term.resize(1, 1)  # a resize below the bounds is clamped too
    await eventually(lambda: struct.unpack("HHHH", fcntl.ioctl(
        visit_.master, termios.TIOCGWINSZ, b"\0" * 8))[:2] == (8, 20), "clamped")
    await asyncio.sleep(1.0)  # (it draws: a crash would end the visit now)
    assert server.visits and visit_.proc is not None and visit_.proc.returncode is None
    assert "stopped unexpectedly" not in term.output()
    await term.close()


async def test_an_error_of_a_visitors_game_is_reported_to_the_operator_not_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> None:
    """A visitor's game that stopped on an error of its own showed its traceback and the
    report's path (the server's files) on his terminal, and the report went with a guest's
    folder. Now the report is in the server's folder (TUI_DOMINO_CRASHES), and nothing of it
    reaches the terminal."""
    import logging

    from tui_domino.ssh.visitor_app import VisitorApp, quiet_log

    crashes = tmp_path / "server-crashes"
    monkeypatch.setenv("TUI_DOMINO_CRASHES", str(crashes))
    monkeypatch.setattr(logging.getLogger("tui_domino"), "handlers", [])
    quiet_log()  # (as run_visitor does, first thing)
    app = VisitorApp("bob", -1)
    with contextlib.suppress(ZeroDivisionError):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.call_later(lambda: 1 / 0)
            await pilot.pause()
            await pilot.pause()
    [report] = list(crashes.iterdir())
    assert "ZeroDivisionError" in report.read_text() and app.crash_path == report
    shown = capfd.readouterr()
    assert str(crashes) not in shown.out + shown.err
    assert "Traceback" not in shown.out + shown.err
