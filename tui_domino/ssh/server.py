"""The SSH server: every visitor gets the game in a process of its own, on a
pseudo-terminal of its own.

The server holds no game state. A connection is an asyncssh session; its shell starts
``python -m tui_domino.ssh.visitor`` on a fresh pseudo-terminal (the client's terminal
type and size, and every later resize, are passed on), and bytes flow between the
terminal and the channel. A crash in one visitor's process ends that visit only.

What the server enforces (see ``Limits``): connections at once (in all and per address),
new connections per address and minute, one game per connection, the time to log in and
then to open the game, idle time, keepalives, a bounded backlog of output (a client that
stops taking output pauses its game, and is disconnected when that lasts), and a delay
after a wrong password. A refused connection is told why (the reason of its ssh
disconnect, which ssh clients print); on close every visitor is told why before the
connection ends.
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

from tui_domino import env
from tui_domino.ssh.home import data_dir
from tui_domino.ssh.hostkey import load_or_create_host_key
from tui_domino.ssh.limits import Limits, RateLimiter, duration_text
from tui_domino.ssh.lobby import Lobby, Member
from tui_domino.ssh.names import player_name

log = logging.getLogger("tui_domino.ssh")

# Cancels any escape sequence cut short, leaves the alternate screen, turns off mouse
# reports, bracketed paste and the kitty keyboard mode, shows the cursor, resets colours.
TERMINAL_RESET = (
    "\x18\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"
    "\x1b[?2004l\x1b[<u\x1b[?25h\x1b[?1049l\r\n"
)

# Variables a client may send (``ssh -o SetEnv=...``) that reach its game.
ACCEPTED_ENV = ("COLORTERM", env.COLORS, env.MOUSE, "LANG", "LC_ALL",
                "LC_CTYPE", "NO_COLOR", "ESCDELAY", "TEXTUAL_FPS")

PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent

# Refused connections are told why, which takes a key exchange: at most this many at once,
# and this many from one address (more are reset at once: a flood from one address leaves
# the words for the others), each given this many seconds to read it.
REFUSING_AT_ONCE = 16
REFUSING_PER_ADDRESS = 2
REFUSE_WITHIN = 5.0
# How often a visitor whose output is paused is looked at again.
BACKLOG_POLL = 0.05

__all__ = ["GameServer", "player_name", "serve_forever"]


def kernel_send_queue(sock: Any) -> int:
    """Bytes in the kernel's send queue of ``sock`` (sent and not yet acknowledged, or not
    yet sent), where the system tells it (Linux); else 0."""
    request = getattr(termios, "TIOCOUTQ", None)  # SIOCOUTQ on a socket
    if sock is None or request is None:
        return 0
    try:
        out = fcntl.ioctl(sock.fileno(), request, b"\0\0\0\0")
    except (OSError, ValueError):
        return 0
    return int(struct.unpack("i", out)[0])


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
        self.connections: set[Connection] = set()  # every connection let in
        self.per_address: dict[str, int] = {}  # connections let in, by address
        self.refusing: set[Connection] = set()  # connections being told why they are refused
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
        self.visitor_root.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.visitor_root.chmod(0o700)  # whatever the umask: visitors' saves are private
        options: dict[str, Any] = {}
        if self.authorized_keys:
            options["authorized_client_keys"] = self.authorized_keys
        self._acceptor = await asyncssh.create_server(
            lambda: Connection(self),
            self.host,
            self.port,
            server_host_keys=[self.host_key],
            login_timeout=self.limits.login_timeout,
            keepalive_interval=self.limits.keepalive_interval,
            keepalive_count_max=max(1, self.limits.keepalive_count_max),
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
        await asyncio.gather(*(v.end(reason, status=0, cause="the server closed")
                               for v in list(self.visits)),
                             return_exceptions=True)
        # Each client closes its channel once it has the message; a client that hangs up
        # on the disconnect alone (OpenSSH does) would never show it.
        waits = [asyncio.ensure_future(v.closed.wait()) for v in list(self.sessions)]
        if waits:
            await asyncio.wait(waits, timeout=5)
            for w in waits:
                w.cancel()
        for conn in list(self.connections | self.refusing):
            conn.close()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
        shutil.rmtree(self.visitor_root, ignore_errors=True)

    # -- what a visit asks of the server -----------------------------------------------------

    def admission(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused, or None to let it in."""
        limits = self.limits
        if self.closing is not None:
            return self.closing
        if len(self.connections) >= limits.max_connections:
            return "tui-domino: the server is full; try again later."
        if self.per_address.get(address, 0) >= limits.max_per_address:
            return (f"tui-domino: too many connections from your address at once (at most "
                    f"{limits.max_per_address}); close one and try again.")
        if not self.rate.allow(address):
            return ("tui-domino: too many new connections from your address; try again in "
                    f"{duration_text(limits.rate_window)}.")
        return None

    def refusal(self) -> str | None:
        """Why a visit cannot start now, or None."""
        if self.closing is not None:
            return self.closing
        if len(self.visits) >= self.limits.max_visitors:
            return (f"The table is full ({self.limits.max_visitors} visitors are playing); "
                    "try again later.")
        return None

    def visitor_env(self, visit: Visit, home: Path, lobby_fd: int) -> dict[str, str]:
        out = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "TERM": visit.term_type or "xterm-256color",
            env.REMOTE: "1",
            env.HOME: str(home),
            env.PLAYER: visit.name,
            env.LOBBY_FD: str(lobby_fd),
        }
        for name in (env.DELAY, env.SEED, "TMPDIR"):
            if name in os.environ:
                out[name] = os.environ[name]
        # The game's own package first, so a source checkout serves the same code.
        paths = [str(PACKAGE_ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(":"))]
        out["PYTHONPATH"] = ":".join(dict.fromkeys(paths))
        for name, value in visit.client_env.items():
            if name in ACCEPTED_ENV and len(value) < 100 and value.isprintable():
                out[name] = value
        out.update(self.env)
        return out


class Connection(asyncssh.SSHServer):
    """One ssh connection: whether it is let in, authentication, its one game, and the
    time it has to open that game."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.refused: str | None = None  # why this connection is not let in
        self.admitted = False
        self.lost = False
        self.failures = 0
        self.visit: Visit | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        server = self.server
        self.refused = server.admission(self.address)
        if self.refused is None:
            self.admitted = True
            server.connections.add(self)
            server.per_address[self.address] = server.per_address.get(self.address, 0) + 1
            return
        log.info("refused a connection from %s: %s", self.address, self.refused)
        if (len(server.refusing) >= REFUSING_AT_ONCE
                or sum(c.address == self.address for c in server.refusing)
                >= REFUSING_PER_ADDRESS):
            conn.abort()  # a flood: no words for it
            return
        # Told why as it begins to log in (begin_auth); one that never gets there goes.
        server.refusing.add(self)
        self._timer = asyncio.get_running_loop().call_later(REFUSE_WITHIN, conn.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._cancel_timer()
        self.server.refusing.discard(self)
        if self.admitted:
            self.admitted = False
            self.server.connections.discard(self)
            left = self.server.per_address.pop(self.address, 1) - 1
            if left > 0:
                self.server.per_address[self.address] = left

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

    def disconnect(self, reason: str, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """Ends the connection with ``reason``, which ssh clients print."""
        if self.conn is not None and not self.lost:
            self.conn.disconnect(code, reason)

    def begin_auth(self, username: str) -> bool:
        if self.refused is not None:
            full = self.server.closing is None
            self.disconnect(self.refused,
                            asyncssh.DISC_TOO_MANY_CONNECTIONS if full
                            else asyncssh.DISC_BY_APPLICATION)
            return True
        return self.server.needs_login

    def auth_completed(self) -> None:
        self._arm_grace()

    def _arm_grace(self) -> None:
        """From now on the connection has ``login_grace`` seconds to open a game."""
        self._cancel_timer()
        if not self.lost:
            self._timer = asyncio.get_running_loop().call_later(
                self.server.limits.login_grace, self._no_game)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def game_started(self) -> None:
        self._cancel_timer()

    def game_over(self) -> None:
        # No second game comes on this connection: a client that keeps it open after its
        # game is over is closed like one that never opened one.
        self._arm_grace()

    def _no_game(self) -> None:
        self._timer = None
        grace = duration_text(self.server.limits.login_grace)
        log.info("a connection from %s had no game for %s; closed", self.address, grace)
        self.disconnect(f"tui-domino: no game was open on this connection for {grace}; "
                        "connect with a terminal to play (ssh -t).")

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
        if self.visit is not None:
            # One connection, one visitor: more sessions would seat more players.
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                "tui-domino: one game per connection; open another ssh connection to play.")
        self.visit = Visit(self.server, self)
        return self.visit


def _why_lost(exc: Exception | None) -> str:
    if exc is None:
        return "hung up"
    reason = getattr(exc, "reason", None)
    return f"connection lost ({reason or exc})"


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
        self.member: Member | None = None
        self.cause: str | None = None  # why the visit ended, for the log
        self.last_input = time.monotonic()
        self.paused = False  # the game's output is not read: the client is behind
        self.ended = False
        self.task: asyncio.Task[None] | None = None
        self._chan_paused = False
        self._sock: Any = None
        self._stall: asyncio.TimerHandle | None = None
        self._poll: asyncio.TimerHandle | None = None
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
        # Decided here and now, before a later packet (the end of the client's input, as
        # from `ssh -T host </dev/null`) can close the channel unanswered.
        refusal = self.server.refusal()
        if refusal is None and self.term_type is None:
            refusal = "tui-domino needs a terminal: connect with ssh -t."
        if refusal is not None:
            log.info("refused a visit of %s (%s): %s", self.name, self.connection.address,
                     refusal)
            self.ended = True
            self._say_and_exit(refusal, 1)
            return
        self.connection.game_started()
        self.server.visits.add(self)  # the seat is taken now, not when the game is up
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
        self._end_soon(None, 0, "hung up")
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def pause_writing(self) -> None:
        # The channel holds more than write_buffer bytes beyond the client's window.
        self._chan_paused = True
        self._hold()

    def resume_writing(self) -> None:
        self._chan_paused = False
        if self.paused:
            self._check_backlog()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.sessions.discard(self)
        self.closed.set()
        self._end_soon(None, 0, _why_lost(exc))
        self.connection.game_over()

    # -- output: bounded whatever window the client grants ------------------------------------

    def backlog(self) -> int:
        """Bytes of output sent to this visitor and not yet taken by the client: held by
        the channel beyond the window the client granted, waiting in the connection's
        transport, and in the kernel's send queue. A client may grant any window (up to
        4 GiB), so the channel's own count does not bound the output held for it; what
        the client does not read piles up in the transport."""
        held = self.chan.get_write_buffer_size() if self.chan is not None else 0
        # asyncssh gives no public way to its transport, whose buffer grows without bound
        # behind a window that large.
        transport = getattr(self.connection.conn, "_transport", None)
        if transport is not None:
            held += transport.get_write_buffer_size()
        return held + kernel_send_queue(self._sock)

    def _write(self, data: bytes) -> None:
        self.chan.write(data)
        if self.backlog() > self.server.limits.write_buffer:
            self._hold()

    def _hold(self) -> None:
        # The client is not taking output: stop reading the game (it waits, and what is
        # held for the client stays bounded) and give the client stall_timeout seconds to
        # catch up.
        loop = asyncio.get_running_loop()
        if not self.paused:
            self.paused = True
            if self.master is not None:
                loop.remove_reader(self.master)
        if self._stall is None:
            self._stall = loop.call_later(self.server.limits.stall_timeout, self._stalled)
        if self._poll is None:
            self._poll = loop.call_later(BACKLOG_POLL, self._check_backlog)

    def _check_backlog(self) -> None:
        """Resumes the game's output once the client has taken most of what it was sent."""
        loop = asyncio.get_running_loop()
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if not self.paused or self.ended:
            return
        if self._chan_paused or self.backlog() > self.server.limits.write_buffer // 4:
            self._poll = loop.call_later(BACKLOG_POLL, self._check_backlog)
            return
        self.paused = False
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        if self.master is not None:
            loop.add_reader(self.master, self._on_output)

    def _stalled(self) -> None:
        self._stall = None
        log.info("%s was not taking output; disconnected", self.name)
        self._end_soon(None, 1, "stopped taking output")
        # Nothing more can reach this client: drop what is held for it and the connection.
        if self.chan is not None:
            self.chan.abort()
        if self.connection.conn is not None:
            self.connection.conn.abort()

    # -- the visit ---------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            await self._play()
        except Exception:
            log.exception("visit of %s failed", self.name)
            self._set_cause("the game could not start")
            self._say_and_exit("The game could not start; sorry.", 1)
        finally:
            self.server.visits.discard(self)
            self._cleanup()
            name = self.member.name if self.member is not None else self.name
            when = "" if self.member is not None else " before the game started"
            log.info("%s (%s) left%s: %s", name, self.connection.address, when,
                     self.cause or "hung up")

    async def _play(self) -> None:
        loop = asyncio.get_running_loop()
        self.home = self.server.visitor_root / uuid.uuid4().hex
        self.home.mkdir(mode=0o700)
        self.home.chmod(0o700)  # whatever the server's umask
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
                umask=0o077,  # the game's saves and settings: the server's user only
            )
        finally:
            os.close(slave)
            theirs.close()
        self.master = master
        if self.ended:  # the visitor left while the game was starting: _cleanup stops it
            ours.close()
            return
        if self.connection.conn is not None:
            self._sock = self.connection.conn.get_extra_info("socket")
        os.set_blocking(master, False)
        loop.add_reader(master, self._on_output)
        self._arm_idle()
        self.member = member = await self.server.lobby.join(self.name, ours)
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
            self._set_cause(f"the game stopped (signal {-status})")
            self._say_and_exit(f"The game stopped unexpectedly (signal {-status}).", 1)
        elif status != 0:
            self._set_cause(f"the game stopped (status {status})")
            self._say_and_exit(f"The game stopped unexpectedly (status {status}).", status)
        else:
            self._set_cause("quit")
            self._say_and_exit("Thanks for playing.", 0)

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
            self._write(data)

    def _drain_output(self) -> None:
        if self.master is None or self.paused or self.chan is None:
            return
        for _ in range(64):
            if self.backlog() > self.server.limits.write_buffer:
                return
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
            idle = duration_text(limit)
            self._end_soon(f"You were idle for {idle}; come back any time.", 0,
                           f"idle for {idle}")
            return
        self._idle = asyncio.get_running_loop().call_later(left, self._arm_idle)

    def _set_cause(self, cause: str | None) -> None:
        if self.cause is None and cause is not None:
            self.cause = cause

    def _end_soon(self, message: str | None, status: int, cause: str) -> None:
        self._set_cause(cause)
        if self._ending is None and not self.ended:
            self._ending = asyncio.get_running_loop().create_task(self.end(message, status))

    async def end(self, message: str | None, status: int = 0, cause: str | None = None) -> None:
        """Stops the game; then, unless ``message`` is None, restores the visitor's
        terminal, shows ``message`` and ends the session with ``status``."""
        self._set_cause(cause)
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
        """Shows ``message`` and ends the session with ``status``: on the terminal, or on
        the error output of a session without one (``ssh -T``)."""
        if self.chan is None:
            return
        try:
            if self.term_type is None:
                prefix = "" if message.startswith("tui-domino") else "tui-domino: "
                self.chan.write_stderr(f"{prefix}{message}\n".encode())
            else:
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
        for timer in (self._stall, self._idle, self._poll):
            if timer is not None:
                timer.cancel()
        self._stall = self._idle = self._poll = None
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
