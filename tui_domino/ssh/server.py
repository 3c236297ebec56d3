"""The SSH server: every visitor gets the game in a process of its own, on a
pseudo-terminal of its own.

The server holds no game state. A connection is an asyncssh session; its shell starts
``python -m tui_domino.ssh.visitor`` on a fresh pseudo-terminal (the client's terminal
type and size, and every later resize, are passed on), and bytes flow between the
terminal and the channel. A crash in one visitor's process ends that visit only.

What the server enforces (see ``Limits``): visitors at once, new connections per address
and minute, idle time, a bounded write buffer (a client that stops taking output pauses
its game, and is disconnected when that lasts), the login time, and a delay after a
wrong password. On close every visitor is told why before the connection ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import hmac
import logging
import os
import pty
import shutil
import signal
import socket
import struct
import sys
import termios
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import asyncssh

from tui_domino.ssh.home import data_dir
from tui_domino.ssh.hostkey import load_or_create_host_key
from tui_domino.ssh.limits import Limits, RateLimiter
from tui_domino.ssh.lobby import Lobby

log = logging.getLogger("tui_domino.ssh")

# Cancels any escape sequence cut short, leaves the alternate screen, turns off mouse
# reports, bracketed paste and the kitty keyboard mode, shows the cursor, resets colours.
TERMINAL_RESET = (
    "\x18\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"
    "\x1b[?2004l\x1b[<u\x1b[?25h\x1b[?1049l\r\n"
)

# Variables a client may send (``ssh -o SetEnv=...``) that reach its game.
ACCEPTED_ENV = ("COLORTERM", "TUI_DOMINO_COLORS", "TUI_DOMINO_MOUSE", "LANG", "LC_ALL",
                "LC_CTYPE", "NO_COLOR", "ESCDELAY", "TEXTUAL_FPS")

MAX_NAME = 16
PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent


def player_name(username: str) -> str:
    """The ssh user name made safe to show: printable, trimmed, at most 16 characters."""
    name = "".join(c for c in username if c.isprintable()).strip()[:MAX_NAME].strip()
    return name or "guest"


def set_winsize(fd: int, cols: int, rows: int, xpix: int = 0, ypix: int = 0) -> None:
    cols = max(1, min(cols, 1000))
    rows = max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpix, ypix))


def visitor_command() -> list[str]:
    return [sys.executable, "-m", "tui_domino.ssh.visitor"]


class GameServer:
    """``await start()``, then visitors come and go until ``await close(reason)``."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 2222,
        limits: Limits | None = None,
        password: str | None = None,
        authorized_keys: str | Path | None = None,
        host_key_path: Path | None = None,
        env: Mapping[str, str] | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.password = password
        self.authorized_keys = str(authorized_keys) if authorized_keys else None
        self.host_key_path = host_key_path
        self.env = dict(env or {})
        self.command = command or visitor_command()
        self.rate = RateLimiter(self.limits.rate_count, self.limits.rate_window)
        self.lobby = Lobby()
        self.visits: set[Visit] = set()  # visitors with a game running
        self.sessions: set[Visit] = set()  # every open session
        self.connections: set[Connection] = set()
        self.closing: str | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.host_key_created = False
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.visitor_root = data_dir() / "visitors"

    @property
    def needs_login(self) -> bool:
        return bool(self.password or self.authorized_keys)

    async def start(self) -> int:
        """Listens; returns the port (useful with port 0)."""
        self.host_key, self.host_key_created = load_or_create_host_key(self.host_key_path)
        shutil.rmtree(self.visitor_root, ignore_errors=True)
        self.visitor_root.mkdir(parents=True, exist_ok=True)
        options: dict[str, Any] = {}
        if self.authorized_keys:
            options["authorized_client_keys"] = self.authorized_keys
        self._acceptor = await asyncssh.create_server(
            lambda: Connection(self),
            self.host,
            self.port,
            server_host_keys=[self.host_key],
            login_timeout=self.limits.login_timeout,
            keepalive_interval=60,
            keepalive_count_max=3,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            line_editor=False,
            encoding=None,
            server_version="tui-domino",
            **options,
        )
        sockets = self._acceptor.sockets
        self.port = sockets[0].getsockname()[1] if sockets else self.port
        return self.port

    async def close(self, reason: str = "The server is shutting down.") -> None:
        """Stops listening, tells every visitor ``reason``, ends every visit."""
        if self.closing is not None:
            return
        self.closing = reason
        if self._acceptor is not None:
            self._acceptor.close()
        self.lobby.close(reason)
        await asyncio.gather(*(v.end(reason, status=0) for v in list(self.visits)),
                             return_exceptions=True)
        # Each client closes its channel once it has the message; a client that hangs up
        # on the disconnect alone (OpenSSH does) would never show it.
        waits = [asyncio.ensure_future(v.closed.wait()) for v in list(self.sessions)]
        if waits:
            await asyncio.wait(waits, timeout=5)
            for w in waits:
                w.cancel()
        for conn in list(self.connections):
            conn.close()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        shutil.rmtree(self.visitor_root, ignore_errors=True)

    # -- what a visit asks of the server -----------------------------------------------------

    def refusal(self, conn: Connection) -> str | None:
        """Why this visit cannot start now, or None."""
        if self.closing is not None:
            return self.closing
        if conn.rate_limited:
            return ("Too many connections from your address; "
                    f"try again in {int(self.limits.rate_window)} seconds.")
        if len(self.visits) >= self.limits.max_visitors:
            return (f"The table is full ({self.limits.max_visitors} visitors are playing); "
                    "try again later.")
        return None

    def visitor_env(self, visit: Visit, home: Path, lobby_fd: int) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "TERM": visit.term_type or "xterm-256color",
            "TUI_DOMINO_REMOTE": "1",
            "TUI_DOMINO_HOME": str(home),
            "TUI_DOMINO_PLAYER": visit.name,
            "TUI_DOMINO_LOBBY_FD": str(lobby_fd),
        }
        for name in ("TUI_DOMINO_DELAY", "TUI_DOMINO_SEED", "TMPDIR"):
            if name in os.environ:
                env[name] = os.environ[name]
        # The game's own package first, so a source checkout serves the same code.
        paths = [str(PACKAGE_ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(":"))]
        env["PYTHONPATH"] = ":".join(dict.fromkeys(paths))
        for name, value in visit.client_env.items():
            if name in ACCEPTED_ENV and len(value) < 100 and value.isprintable():
                env[name] = value
        env.update(self.env)
        return env


class Connection(asyncssh.SSHServer):
    """One ssh connection: authentication and the per-address rate."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.rate_limited = False
        self.failures = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.rate_limited = not self.server.rate.allow(self.address)
        self.server.connections.add(self)
        if len(self.server.connections) > 2 * self.server.limits.max_visitors + 8:
            # Far more connections than visitors: refuse before any work is done.
            conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

    def begin_auth(self, username: str) -> bool:
        # A refused visitor is let in only to read why.
        return self.server.needs_login and not self.rate_limited

    def password_auth_supported(self) -> bool:
        return self.server.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        expected = self.server.password or ""
        if expected and hmac.compare_digest(password.encode(), expected.encode()):
            return True
        self.failures += 1
        await asyncio.sleep(self.server.limits.auth_delay)
        if self.failures >= 3 and self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                 "Too many wrong passwords.")
        return False

    def session_requested(self) -> Visit:
        assert self.conn is not None
        return Visit(self.server, self)


class Visit(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One visitor's shell: a game process on a pseudo-terminal, wired to the channel."""

    def __init__(self, server: GameServer, connection: Connection) -> None:
        self.server = server
        self.connection = connection
        self.chan: Any = None
        self.name = "guest"
        self.term_type: str | None = None
        self.term_size = (80, 24, 0, 0)
        self.client_env: dict[str, str] = {}
        self.master: int | None = None
        self.proc: asyncio.subprocess.Process | None = None
        self.home: Path | None = None
        self.last_input = time.monotonic()
        self.paused = False
        self.ended = False
        self.task: asyncio.Task[None] | None = None
        self._stall: asyncio.TimerHandle | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._pending_input = bytearray()
        self._ending: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()

    # -- asyncssh callbacks ------------------------------------------------------------------

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        self.server.sessions.add(self)
        limit = self.server.limits.write_buffer
        chan.set_write_buffer_limits(high=limit, low=limit // 4)
        self.name = player_name(chan.get_extra_info("username") or "")

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self.term_type = term_type if term_type.isprintable() and len(term_type) < 64 else None
        self.term_size = term_size
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        env = self.chan.get_environment()
        self.client_env = {k: v for k, v in env.items() if isinstance(v, str)}
        self.task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.master is None:
            return
        self._pending_input += data
        if len(self._pending_input) > 1 << 20:
            self._pending_input.clear()  # the game is not reading: drop, never hoard
        self._flush_input()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.term_size = (width, height, pixwidth, pixheight)
        if self.master is not None:
            with contextlib.suppress(OSError):
                set_winsize(self.master, width, height, pixwidth, pixheight)

    def eof_received(self) -> bool:
        self._end_soon(None, 0)
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def pause_writing(self) -> None:
        # The client is not taking output: stop reading the game (it waits, the buffer
        # stays bounded) and give the client stall_timeout seconds to catch up.
        self.paused = True
        if self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)
        if self._stall is None:
            self._stall = asyncio.get_running_loop().call_later(
                self.server.limits.stall_timeout, self._stalled)

    def resume_writing(self) -> None:
        self.paused = False
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.master is not None and not self.ended:
            asyncio.get_running_loop().add_reader(self.master, self._on_output)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.sessions.discard(self)
        self.closed.set()
        self._end_soon(None, 0)

    # -- the visit ---------------------------------------------------------------------------

    async def _run(self) -> None:
        refusal = self.server.refusal(self.connection)
        if refusal is not None:
            self._say_and_exit(refusal, 1)
            return
        if self.term_type is None:
            self._say_and_exit("tui-domino needs a terminal: connect with ssh -t.", 1)
            return
        self.server.visits.add(self)
        try:
            await self._play()
        except Exception:
            log.exception("visit of %s failed", self.name)
            self._say_and_exit("The game could not start; sorry.", 1)
        finally:
            self.server.visits.discard(self)
            self._cleanup()

    async def _play(self) -> None:
        loop = asyncio.get_running_loop()
        self.home = self.server.visitor_root / uuid.uuid4().hex
        self.home.mkdir(parents=True)
        master, slave = pty.openpty()
        ours, theirs = socket.socketpair()
        try:
            cols, rows, xpix, ypix = self.term_size
            set_winsize(slave, cols, rows, xpix, ypix)
            self.proc = await asyncio.create_subprocess_exec(
                *self.server.command,
                stdin=slave, stdout=slave, stderr=slave,
                start_new_session=True,
                pass_fds=(theirs.fileno(),),
                env=self.server.visitor_env(self, self.home, theirs.fileno()),
                cwd=str(self.home),
            )
        finally:
            os.close(slave)
            theirs.close()
        self.master = master
        if self.ended:  # the visitor left while the game was starting: _cleanup stops it
            ours.close()
            return
        os.set_blocking(master, False)
        loop.add_reader(master, self._on_output)
        self._arm_idle()
        member = await self.server.lobby.join(self.name, ours)
        log.info("%s (%s) arrived", member.name, self.connection.address)
        try:
            status = await self.proc.wait()
        finally:
            self.server.lobby.leave(member)
        self._drain_output()
        if self.ended:
            return
        self.ended = True
        if status < 0:
            self._say_and_exit(f"The game stopped unexpectedly (signal {-status}).", 1)
        elif status != 0:
            self._say_and_exit(f"The game stopped unexpectedly (status {status}).", status)
        else:
            self._say_and_exit("Thanks for playing.", 0)
        log.info("%s left", member.name)

    def _on_output(self) -> None:
        assert self.master is not None
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno == errno.EIO:  # every copy of the terminal's other end is closed
                asyncio.get_running_loop().remove_reader(self.master)
                return
            raise
        if data and self.chan is not None and not self.ended:
            self.chan.write(data)

    def _drain_output(self) -> None:
        if self.master is None or self.paused:
            return
        for _ in range(64):
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            if not self.ended:
                self.chan.write(data)

    def _flush_input(self) -> None:
        if self.master is None or not self._pending_input:
            return
        try:
            n = os.write(self.master, self._pending_input)
        except BlockingIOError:
            n = 0
        except OSError:
            self._pending_input.clear()
            return
        del self._pending_input[:n]
        loop = asyncio.get_running_loop()
        if self._pending_input:
            loop.add_writer(self.master, self._flush_input)
        else:
            loop.remove_writer(self.master)

    def _arm_idle(self) -> None:
        limit = self.server.limits.idle_timeout
        if limit <= 0 or self.ended:
            return
        left = self.last_input + limit - time.monotonic()
        if left <= 0:
            minutes = max(1, round(limit / 60))
            self._end_soon(f"You were idle for {minutes} minute{'s' * (minutes != 1)}; "
                           "come back any time.", 0)
            return
        self._idle = asyncio.get_running_loop().call_later(left, self._arm_idle)

    def _stalled(self) -> None:
        self._stall = None
        log.info("%s was not taking output; disconnected", self.name)
        self._end_soon(None, 1)
        # Nothing more can reach this client: drop what is held for it and the connection.
        if self.chan is not None:
            self.chan.abort()
        if self.connection.conn is not None:
            self.connection.conn.abort()

    def _end_soon(self, message: str | None, status: int) -> None:
        if self._ending is None and not self.ended:
            self._ending = asyncio.get_running_loop().create_task(self.end(message, status))

    async def end(self, message: str | None, status: int = 0) -> None:
        """Stops the game; then, unless ``message`` is None, restores the visitor's
        terminal, shows ``message`` and ends the session with ``status``."""
        if self.ended:
            return
        self.ended = True
        await self._stop_game()
        if message is not None and not self.paused:
            self._say_and_exit(message, status, reset=True)
        elif self.chan is not None:
            self.chan.close()

    async def _stop_game(self) -> None:
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        for sig, wait in ((signal.SIGHUP, 1.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                await asyncio.wait_for(proc.wait(), wait)
                return
            except TimeoutError:
                continue

    def _say_and_exit(self, message: str, status: int, reset: bool = False) -> None:
        if self.chan is None:
            return
        try:
            text = (TERMINAL_RESET if reset else "") + f"tui-domino: {message}\r\n"
            self.chan.write(text.encode())
            self.chan.exit(status)
        except (OSError, asyncssh.Error, BrokenPipeError):
            pass

    def _cleanup(self) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            # The visit ended without stopping its game (cancelled, or left while the game
            # was starting): stop it now, or it would outlive the visit.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        loop = asyncio.get_running_loop()
        for timer in (self._stall, self._idle):
            if timer is not None:
                timer.cancel()
        if self.master is not None:
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)


async def serve_forever(server: GameServer, announce: Callable[[str], None] = print) -> None:
    """Runs ``server`` until Ctrl-C or SIGTERM, then closes it telling every visitor."""
    port = await server.start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    assert server.host_key is not None
    from tui_domino.ssh.hostkey import fingerprint, host_key_path

    kept = "made and kept" if server.host_key_created else "kept"
    announce(f"tui-domino is serving on {server.host} port {port}.")
    announce(f"Host key ({kept} in {server.host_key_path or host_key_path()}): "
             f"{fingerprint(server.host_key)}")
    who = "a password" if server.password else "no login"
    if server.authorized_keys:
        who = "a key from " + server.authorized_keys + (" or a password" if server.password else "")
    announce(f"Visitors need {who}. Connect with: ssh -p {port} NAME@{server.host}")
    if server.host in ("127.0.0.1", "localhost", "::1"):
        announce("Only this machine can connect; --host 0.0.0.0 lets others in.")
    announce("Press Ctrl-C to stop.")
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        n = len(server.visits)
        announce(f"Stopping; telling {n} visitor{'s' * (n != 1)}.")
        await server.close("The server is shutting down. Thanks for playing!")
