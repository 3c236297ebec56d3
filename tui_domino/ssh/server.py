"""The SSH server: every visitor gets the game in a process of its own, on a
pseudo-terminal of its own.

The server holds no game state. A connection is an asyncssh session; its shell starts
``python -m tui_domino.ssh.visitor`` on a fresh pseudo-terminal (the client's terminal
type and size, and every later resize, are passed on), and bytes flow between the
terminal and the channel. A crash in one visitor's process ends that visit only.

What the server enforces (see ``Limits``): connections at once (in all and per address),
new connections per address and minute, one game per connection, the time to log in and
then to open the game, idle time, keepalives, a bounded backlog of output (a client that
stops taking output pauses its game, and is disconnected when that lasts), a delay
after a wrong password, and a lockout of an address after many failed logins. Failed
logins and refusals are logged, a few lines per address and minute at most (the rest
counted: no address can flood the log). A refused connection is told why (the reason of its ssh
disconnect, which ssh clients print); on close every visitor is told why before the
connection ends. A visitor's session (its game's process, input, output and idle time) is
ssh/visit.py's ``Visit``. Moderation (ssh/moderation.py): the operators' keys are handed to
the lobby, a visit an operator ends is ended here (``dismiss``), and a visit under a ban
(``banned``) is refused as it starts, in the visitor's language.

Another door (``Door``: the web door, tui_domino/web/) lets visitors into the same lobby:
its connections and visits count against the same caps (``let_in``, ``visits``), and the
server ends them on closing as its own (``Seat``).
"""

from __future__ import annotations

import asyncio
import errno
import gettext
import hmac
import logging
import os
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import asyncssh

from tui_domino import env
from tui_domino.community import accounts, sanctions
from tui_domino.community.db import Store, db_path, open_store
from tui_domino.env import FORK_SERVER
from tui_domino.env import text as env_text
from tui_domino.i18n import N_
from tui_domino.names import player_name
from tui_domino.net.guessing import plain_address
from tui_domino.ssh import signin
from tui_domino.ssh.fork_server import spawner as fork_spawner
from tui_domino.ssh.home import Homes, data_dir
from tui_domino.ssh.hostkey import fingerprint, host_key_path, load_or_create_host_key
from tui_domino.ssh.limits import (
    ENGLISH,
    FailureLedger,
    Limits,
    LogBudget,
    RateLimiter,
    duration_text,
)
from tui_domino.ssh.lobby import Lobby, Member
from tui_domino.ssh.moderation import ban_words
from tui_domino.ssh.pairing import TURN_DEFAULT
from tui_domino.ssh.seats import Seats
from tui_domino.ssh.spawn import Arrivals, Spawner
from tui_domino.ssh.spawn import set_winsize as set_winsize
from tui_domino.ssh.visit import TERMINAL_RESET as TERMINAL_RESET
from tui_domino.ssh.visit import Visit, reason_text, told
from tui_domino.ssh.visit import kernel_send_queue as kernel_send_queue

log = logging.getLogger("tui_domino.ssh")

# Variables a client may send (``ssh -o SetEnv=...``; OpenSSH sends LANG and LC_* as its
# SendEnv says) that reach its game. LANG, LC_ALL and LC_MESSAGES: the game's language.
ACCEPTED_ENV = ("COLORTERM", env.COLORS, env.MOUSE, "LANG", "LC_ALL", "LC_MESSAGES",
                "LC_CTYPE", "NO_COLOR", "ESCDELAY", "TEXTUAL_FPS")

# The server's words on closing, unless the operator's own are given.
# TRANSLATORS: told to every visitor when the server stops
CLOSING = N_("The server is shutting down.")
# TRANSLATORS: told to every visitor when the operator stops the server (Ctrl-C)
STOPPED = N_("The server is shutting down. Thanks for playing!")

PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent

# Refused connections are told why, which takes a key exchange: at most this many at once,
# and this many from one address (more are reset at once: a flood from one address leaves
# the words for the others), each given this many seconds to read it.
REFUSING_AT_ONCE = 16
REFUSING_PER_ADDRESS = 2
REFUSE_WITHIN = 5.0

__all__ = ["GameServer", "player_name", "serve_forever"]

# The most of a user name a log line shows.
SHOWN_NAME = 40


def shown_name(username: str) -> str:
    """A user name as the log shows it: quoted, every control or invisible character
    escaped (``repr``), cut at ``SHOWN_NAME`` characters."""
    cut = username[:SHOWN_NAME]
    return repr(cut) + ("..." if len(username) > len(cut) else "")


class RatedLog:
    """Log lines of one kind about addresses, at most a few per address and minute (a
    ``LogBudget``); the rest are counted and told in one line per address and minute,
    ``summary`` % (count, address), and at ``close()``."""

    def __init__(self, summary: str, budget: LogBudget | None = None,
                 level: int = logging.INFO) -> None:
        self.summary = summary
        self.budget = budget or LogBudget()
        self.level = level
        self._timer: asyncio.TimerHandle | None = None

    def line(self, address: str, message: str, *args: object) -> None:
        """Logs ``message % args`` (an event from ``address``) unless its budget is spent."""
        if self.budget.note(address):
            log.log(self.level, message, *args)
        elif self._timer is None:
            self._arm()

    def _arm(self) -> None:
        due = self.budget.next_due()
        if due is not None:
            delay = max(0.0, due - self.budget.clock())
            self._timer = asyncio.get_running_loop().call_later(delay, self.flush)

    def flush(self) -> None:
        """Logs the counts that are due."""
        self._timer = None
        for address, count in self.budget.due():
            log.log(self.level, self.summary, count, address)
        self._arm()

    def close(self) -> None:
        """Logs every count left."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for address, count in self.budget.due(everything=True):
            log.log(self.level, self.summary, count, address)


# Errors of the system's resources (descriptors, buffers, memory) that asyncio reports at
# each failed accept: told once a period, with how many there were.
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
RESOURCE_PERIOD = 60.0


class ResourceAlarm:
    """The event loop's exception handler while the server runs: an error for want of a
    system resource (the descriptors run out: every accept fails) is logged once a period
    with its count, not at each failed accept; everything else goes to the handler before."""

    def __init__(self, loop: asyncio.AbstractEventLoop, period: float = RESOURCE_PERIOD,
                 clock: Callable[[], float] | None = None) -> None:
        self.loop = loop
        self.period = period
        self.clock = clock or loop.time
        self.before = loop.get_exception_handler()
        self.since: float | None = None  # when the period's first one was logged
        self.count = 0  # more of them within the period, not logged

    def install(self) -> None:
        self.loop.set_exception_handler(self)

    def remove(self) -> None:
        self.flush()
        self.loop.set_exception_handler(self.before)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in OUT_OF_RESOURCES:
            now = self.clock()
            if self.since is not None and now - self.since < self.period:
                self.count += 1
                return
            self.flush()
            self.since = now
            log.error("%s: %s (the next within %s are counted, not logged)",
                      context.get("message", "out of a system resource"), exc,
                      duration_text(self.period))
            return
        if self.before is not None:
            self.before(loop, context)
        else:
            loop.default_exception_handler(context)

    def flush(self) -> None:
        if self.count:
            log.error("%d more errors for want of a system resource", self.count)
        self.count = 0


class Seat(Protocol):
    """A visitor's session, whichever door he came in by (ssh/visit.py's ``Visit``, or the
    web door's): what the server asks of it when it closes."""

    @property
    def words(self) -> gettext.NullTranslations: ...

    @property
    def closed(self) -> asyncio.Event: ...

    @property
    def member(self) -> Member | None: ...

    async def end(self, message: str | None, status: int = 0,
                  cause: str | None = None) -> None: ...

    def dismiss(self, message: str, cause: str) -> None:
        """Ends the visit, telling the visitor ``message`` (an operator's kick or ban)."""


class Visitor(Protocol):
    """What the server needs of a visitor to start his game."""

    @property
    def name(self) -> str: ...

    @property
    def term_type(self) -> str | None: ...

    @property
    def client_env(self) -> Mapping[str, str]: ...


class Admitted(Protocol):
    """A connection let in (by any door): counted against the caps until it ends."""

    def close(self) -> None: ...


class Door(Protocol):
    """Another way in to the same lobby (the web door): started after the SSH server,
    closed after every visit ended."""

    async def start(self) -> list[str]:
        """Listens; returns the lines that tell the operator where."""
        ...

    async def close(self) -> None: ...


def visitor_command() -> list[str]:
    return [sys.executable, "-m", "tui_domino.ssh.visitor"]


def game_env() -> dict[str, str]:
    """What every visitor's game has in its environment (the fork server's own)."""
    out = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        env.REMOTE: "1",
    }
    for name in (env.DELAY, env.SEED, "TMPDIR", "TEXTUAL_ANIMATIONS"):
        if name in os.environ:
            out[name] = os.environ[name]
    # The game's own package first, so a source checkout serves the same code.
    paths = [str(PACKAGE_ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(":"))]
    out["PYTHONPATH"] = ":".join(dict.fromkeys(paths))
    return out


def default_spawner(command: list[str] | None = None, fork: bool | None = None) -> Spawner:
    """The spawner of a server's games: games forked from one process that loaded the game
    (ssh/fork_server.py), unless asked not to (``fork=False``, or TUI_DOMINO_FORK_SERVER=0
    when not said)."""
    if fork is None:
        fork = env_text(FORK_SERVER) != "0"
    return fork_spawner(command or visitor_command(), game_env(), fork=fork)


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
        accounts: bool = False,
        duel_target: int | None = None,
        turn_seconds: int = TURN_DEFAULT,
        operators: frozenset[str] = frozenset(),
        fork_server: bool | None = None,
        spawner: Spawner | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.password = password
        self.authorized_keys = str(authorized_keys) if authorized_keys else None
        self.host_key_path = host_key_path
        self.env = dict(env or {})
        # Its games' spawner (``default_spawner``), unless one is given: that one is shared
        # with other servers, and whoever made it starts and closes it.
        self.own_spawner = spawner is None
        self.spawner: Spawner = (default_spawner(command, fork_server) if spawner is None
                                 else spawner)
        self.arrivals = Arrivals()  # games starting at once: one a core (ssh/spawn.py)
        # Accounts by key (ssh/signin.py): on a server that lets anyone in, when asked for.
        self.accounts = accounts and not password and not authorized_keys
        self.store: Store | None = None  # the community's database, open while serving
        self.rate = RateLimiter(self.limits.rate_count, self.limits.rate_window)
        self.failed = FailureLedger(self.limits.fail_count, self.limits.fail_window,
                                    self.limits.lockout)
        # The log: every failed login and refused connection, a few a minute per address.
        self.failures_log = RatedLog("%d more failed logins from %s")
        self.refusals_log = RatedLog("%d more refused connections from %s")
        self.lobby = Lobby()
        self.lobby.duel_target = duel_target  # (the host's game uses it, the joiner's learns it)
        self.lobby.turn_seconds = turn_seconds  # a move's time, when a challenge names none
        # Moderation (ssh/moderation.py): the operators' keys, and the visits they end.
        self.lobby.moderation.operators = operators
        self.lobby.moderation.dismiss = self.dismiss
        self.visits: set[Seat] = set()  # visitors with a game running (by any door)
        self.sessions: set[Seat] = set()  # every open session
        self.connections: set[Admitted] = set()  # every connection let in (by any door)
        self.per_address: dict[str, int] = {}  # connections let in, by address
        self.refusing: set[Connection] = set()  # connections being told why they are refused
        self.closing: str | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.host_key_created = False
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.homes = Homes(data_dir())  # each visitor's game's folder
        self.crashes = data_dir() / "crashes"  # the reports of the games' own errors
        self.alarm: ResourceAlarm | None = None  # (the loop's, while serving)
        # Games kept for a while for accounts whose connection dropped in a duel.
        self.seats = Seats(self.lobby, self.limits.seat_window, self.homes.give_back)
        self.lobby.seat_window = self.limits.seat_window  # (a stopped game's duel waits too)

    @property
    def needs_login(self) -> bool:
        return bool(self.password or self.authorized_keys or self.accounts)

    async def start(self) -> int:
        """Listens; returns the port (useful with port 0)."""
        self.alarm = ResourceAlarm(asyncio.get_running_loop())
        self.alarm.install()
        self.host_key, self.host_key_created = load_or_create_host_key(self.host_key_path)
        self.homes.start()
        if self.own_spawner:
            await self.spawner.start()
        if self.accounts and self.store is None:
            self.store = open_store(db_path(data_dir()))
            self.lobby.store = self.store
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

    async def close(self, reason: str = CLOSING) -> None:
        """Stops listening, tells every visitor ``reason`` (in his language when it is one
        of the game's messages), ends every visit."""
        if self.closing is not None:
            return
        self.closing = reason
        self.seats.closing = True  # (a connection that drops now keeps no seat)
        if self._acceptor is not None:
            self._acceptor.close()
        self.lobby.close(reason)  # (each game says it in its language)
        await asyncio.gather(*(v.end(told(v.words, reason), status=0,
                                     cause="the server closed")
                               for v in list(self.visits)),
                             return_exceptions=True)
        await self.seats.close()
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
        if self.own_spawner:
            await self.spawner.close()
        self.homes.close()
        self.failures_log.close()
        self.refusals_log.close()
        if self.alarm is not None:
            self.alarm.remove()
            self.alarm = None
        if self.store is not None:
            self.store.close()
            self.store = None
            self.lobby.store = None

    # -- what a visit asks of the server -----------------------------------------------------

    def let_in(self, conn: Admitted, address: str) -> None:
        """Counts ``conn`` from ``address`` (let in by ``admission``) against the caps."""
        self.connections.add(conn)
        self.per_address[address] = self.per_address.get(address, 0) + 1

    def let_out(self, conn: Admitted, address: str) -> None:
        """``conn`` (let in) has ended: it counts no more."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        left = self.per_address.pop(address, 1) - 1
        if left > 0:
            self.per_address[address] = left

    def admission(self, address: str) -> tuple[str, int] | None:
        """Why a new connection from ``address`` is refused, with the code of its ssh
        disconnect, or None to let it in. (In English: nothing of the visitor is known
        yet, his language neither.)"""
        limits = self.limits
        if self.closing is not None:
            return self.closing, asyncssh.DISC_BY_APPLICATION
        locked_out = self.locked_out(address)
        if locked_out is not None:
            return locked_out, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE
        full = asyncssh.DISC_TOO_MANY_CONNECTIONS
        if len(self.connections) >= limits.max_connections:
            return "tui-domino: the server is full; try again later.", full
        if self.per_address.get(address, 0) >= limits.max_per_address:
            return (f"tui-domino: too many connections from your address at once (at most "
                    f"{limits.max_per_address}); close one and try again.", full)
        if not self.rate.allow(address):
            return ("tui-domino: too many new connections from your address; try again in "
                    f"{duration_text(limits.rate_window)}.", full)
        return None

    def locked_out(self, address: str) -> str | None:
        """Why ``address`` may not log in now (too many failed logins), or None."""
        left = self.failed.locked(address)
        if not left:
            return None
        return ("tui-domino: too many failed logins from your address; try again in "
                f"{duration_text(left)}.")

    def login_failed(self, address: str) -> None:
        """Counts a failed login from ``address``; the one that locks it out is logged."""
        if self.failed.fail(address):
            log.warning("locked out %s for %s after %d failed logins", address,
                        duration_text(self.limits.lockout), self.limits.fail_count)

    def refusal(self, words: gettext.NullTranslations = ENGLISH,
                account: int | None = None) -> str | None:
        """Why a visit (of ``account``: None, a guest) cannot start now, or None; in the
        language of ``words`` (the visitor's catalog). A seat kept for an account that
        dropped counts as taken, but not against that account's own return."""
        if self.closing is not None:
            return told(words, self.closing)
        kept = sum(1 for a in self.seats.held if a != account)
        if len(self.visits) + kept >= self.limits.max_visitors:
            n = self.limits.max_visitors
            # TRANSLATORS: {n} is the most visitors the server seats at once
            return words.ngettext("The table is full ({n} visitor is playing); try again "
                                  "later.",
                                  "The table is full ({n} visitors are playing); try again "
                                  "later.", n).format(n=n)
        return None

    def banned(self, address: str, account: int | None = None,
               key: str | None = None) -> dict[str, Any] | None:
        """The words of a ban running on a visitor from ``address`` (his account, the key
        he signed in with, or his address: ``community.sanctions``), or None."""
        if self.store is None:
            return None
        targets = [(sanctions.ADDRESS, address)]
        if account is not None:
            targets.append((sanctions.ACCOUNT, str(account)))
        if key is not None:
            targets.append((sanctions.KEY, key))
        ban = sanctions.running(self.store, sanctions.BAN, targets)
        if ban is None or ban.until is None:
            return None
        return ban_words(ban.until, ban.reason)

    def dismiss(self, member: Member, why: dict[str, Any]) -> None:
        """Ends ``member``'s visit (by any door), an operator's ``why`` told in his
        language."""
        visit = next((v for v in self.visits if v.member is member), None)
        if visit is None:
            self.lobby.leave(member)
            return
        visit.dismiss(reason_text(visit.words, why), f"sent away: {why.get('why')}")

    def passed_env(self, visit: Visitor) -> dict[str, str]:
        """What of the visitor's environment reaches his game (the variables his client
        sent that the game takes), with the server's own ``env`` over it."""
        out = {name: value for name, value in visit.client_env.items()
               if name in ACCEPTED_ENV and len(value) < 100 and value.isprintable()}
        out.update(self.env)
        return out

    def visitor_env(self, visit: Visitor, home: Path, lobby_fd: int) -> dict[str, str]:
        out = game_env()
        out.update({
            "TERM": visit.term_type or "xterm-256color",
            env.HOME: str(home),
            # (a report of the game's own error: the operator's to read, kept whatever
            # becomes of the visitor's folder; never shown to the visitor)
            env.CRASHES: str(self.crashes),
            env.PLAYER: visit.name,
            env.LOBBY_FD: str(lobby_fd),
        })
        # His LANG (LC_ALL, LC_MESSAGES) among them: the game speaks it (ssh/visitor.py).
        out.update(self.passed_env(visit))
        return out


class Connection(asyncssh.SSHServer):
    """One ssh connection: whether it is let in, authentication, its one game, and the
    time it has to open that game."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.refused: str | None = None  # why this connection is not let in
        self.refused_code = asyncssh.DISC_BY_APPLICATION  # (its ssh disconnect's code)
        self.admitted = False
        self.lost = False
        self.failures = 0  # wrong passwords
        self.keys_refused: set[str] = set()  # the fingerprints of keys not authorized
        self.authenticated = False
        self.visit: Visit | None = None
        self._timer: asyncio.TimerHandle | None = None
        # On a server with accounts: the last key let in (its proof comes last), why a key
        # was not, and who the visitor is once signed in.
        self.key: str | None = None
        self.key_refused: accounts.Refused | None = None
        self.signed: accounts.SignIn | None = None
        self.username = ""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = plain_address(str(peer[0])) if peer else "?"
        server = self.server
        refusal = server.admission(self.address)
        if refusal is None:
            self.admitted = True
            server.let_in(self, self.address)
            return
        self.refused, self.refused_code = refusal
        server.refusals_log.line(self.address, "refused a connection from %s: %s",
                                 self.address, self.refused)
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
        if self.keys_refused and not self.authenticated and not self.failures:
            # Keys alone, none of them let in: one failed login (a client offers each of
            # its keys in turn, and one that logs in at last has not failed).
            self.server.login_failed(self.address)
        if self.admitted:
            self.admitted = False
            self.server.let_out(self, self.address)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()

    def disconnect(self, reason: str, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """Ends the connection with ``reason``, which ssh clients print."""
        if self.conn is not None and not self.lost:
            self.conn.disconnect(code, reason)

    def begin_auth(self, username: str) -> bool:
        self.username = username
        if self.refused is not None:
            self.disconnect(self.refused, self.refused_code)
            return True
        return self.server.needs_login

    def auth_completed(self) -> None:
        self.authenticated = True
        store = self.server.store
        if store is not None and self.signed is None:
            # By a key, now proven: the name is claimed, or the key added by its code.
            signed = signin.sign_in(store, self.username, self.key)
            if isinstance(signed, accounts.Refused):
                self.refuse_sign_in(signed)
                return
            self.signed = signed
        # By a key, on a connection open since before its address was locked out (its
        # passwords are refused then): it goes, told why.
        locked_out = self.server.locked_out(self.address)
        if locked_out is not None:
            self.disconnect(locked_out, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
            return
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
        # In the visitor's language when his game came and went (else not known: English).
        words = self.visit.words if self.visit is not None else ENGLISH
        # TRANSLATORS: an ssh disconnect's reason (the client prints it); {grace} is a
        # length of time ("20 seconds"); ssh -t is a command line, kept as it is
        self.disconnect(told(words, N_("tui-domino: no game was open on this connection for "
                                       "{grace}; connect with a terminal to play (ssh -t).")
                             ).format(grace=duration_text(self.server.limits.login_grace,
                                                          words.ngettext)))

    def refuse_sign_in(self, refused: accounts.Refused) -> None:
        """Ends the connection, told why the name is not his and what to do (in English:
        his language is not known yet). A wrong code is a failed login of the address (its
        lockout bounds the guessing; the owner's code stays good)."""
        if refused.reason == accounts.BAD_CODE:
            self.server.login_failed(self.address)
        text = accounts.refusal_text(refused)
        self.server.refusals_log.line(self.address, "refused %s from %s: %s",
                                      shown_name(self.username), self.address, refused.reason)
        self.disconnect(f"tui-domino: {text}", asyncssh.DISC_ILLEGAL_USER_NAME)

    def public_key_auth_supported(self) -> bool:
        return self.server.store is not None

    def kbdint_auth_supported(self) -> bool:
        # On a server with accounts, a visitor without a key is a guest: he comes in by
        # keyboard-interactive with nothing asked (ssh clients go on to it without a word).
        return self.server.store is not None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        store = self.server.store
        if store is None:
            return False
        if self.key_refused is not None:  # his keys were refused: he is told why
            self.refuse_sign_in(self.key_refused)
            return False
        signed = signin.sign_in(store, username, None)
        if isinstance(signed, accounts.Refused):
            self.refuse_sign_in(signed)
            return False
        self.signed = signed
        return True

    def password_auth_supported(self) -> bool:
        return self.server.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        server = self.server
        # An address locked out while this connection was open: not even the right one.
        locked_out = server.locked_out(self.address)
        if locked_out is not None:
            self.disconnect(locked_out, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
            return False
        expected = server.password or ""
        if expected and hmac.compare_digest(password.encode(), expected.encode()):
            return True
        self.failures += 1
        server.failures_log.line(self.address, "failed login from %s: a wrong password for %s",
                                 self.address, shown_name(username))
        server.login_failed(self.address)
        await asyncio.sleep(server.limits.auth_delay)
        locked_out = server.locked_out(self.address)
        if locked_out is not None:
            self.disconnect(locked_out, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
        elif self.failures >= 3:
            self.disconnect("Too many wrong passwords.",
                            asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE)
        return False

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        store = self.server.store
        if store is not None:
            # Asked of a key, then of its proof: the last key let in is the one proven.
            fingerprint = key.get_fingerprint()
            refused = signin.key_refusal(store, username, fingerprint)
            if refused is not None:
                self.key_refused = refused
                return False
            self.key = fingerprint
            return True
        # Asked only of a key the authorized keys do not hold: it is refused, and logged
        # once per connection (a client may offer it, then sign with it).
        fingerprint = key.get_fingerprint()
        if fingerprint not in self.keys_refused:
            self.keys_refused.add(fingerprint)
            self.server.failures_log.line(
                self.address, "failed login from %s: a key not authorized (%s) for %s",
                self.address, fingerprint, shown_name(username))
        return False

    def session_requested(self) -> Visit:
        if self.visit is not None:
            # One connection, one visitor: more sessions would seat more players. (In the
            # language of the first session's visitor, once known.)
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                told(self.visit.words, N_("tui-domino: one game per connection; open another "
                                          "ssh connection to play.")))
        self.visit = Visit(self.server, self)
        return self.visit


async def serve_forever(server: GameServer, announce: Callable[[str], None] = print,
                        doors: Sequence[Door] = ()) -> None:
    """Runs ``server`` (and its other ``doors``) until Ctrl-C or SIGTERM, then closes it
    telling every visitor."""
    port = await server.start()
    lines: list[str] = []
    try:
        for door in doors:
            lines += await door.start()
    except BaseException:
        await server.close()
        for door in doors:
            await door.close()
        raise
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    assert server.host_key is not None
    kept = "made and kept" if server.host_key_created else "kept"
    announce(f"tui-domino is serving on {server.host} port {port}.")
    announce(f"Host key ({kept} in {server.host_key_path or host_key_path()}): "
             f"{fingerprint(server.host_key)}")
    who = "a password" if server.password else "no login"
    if server.authorized_keys:
        who = "a key from " + server.authorized_keys + (" or a password" if server.password else "")
    announce(f"Visitors need {who}. Connect with: ssh -p {port} NAME@{server.host}")
    if server.store is not None:
        announce(f"Accounts ({db_path(data_dir())}): a visitor's SSH key owns his name; "
                 "one without a key is a guest.")
    if server.lobby.moderation.operators:
        n = len(server.lobby.moderation.operators)
        announce(f"Operators: {n} key{'s' * (n != 1)}; /help in the lobby lists their "
                 "commands.")
    for line in lines:
        announce(line)
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
        await server.close(STOPPED)
        for door in doors:
            await door.close()
