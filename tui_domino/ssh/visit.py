"""One visitor's session on the SSH server: the game's process on a pseudo-terminal of its
own, wired to the ssh channel; its input, its output (bounded whatever window the client
grants: a client that stops taking output pauses its game, and is disconnected when that
lasts), its idle time, and the words it is told when the visit ends."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import gettext
import logging
import os
import signal
import struct
import termios
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from tui_domino import i18n
from tui_domino.community import accounts
from tui_domino.i18n import N_
from tui_domino.names import player_name
from tui_domino.ssh.limits import ENGLISH, InputGate, duration_text
from tui_domino.ssh.lobby import Member
from tui_domino.ssh.seats import Game, live_game, play_out
from tui_domino.ssh.spawn import (
    GameProcess,
    set_winsize,
    start_on_terminal,
    stop_game,
    stop_group,
)

if TYPE_CHECKING:
    from tui_domino.ssh.server import Connection, GameServer

log = logging.getLogger("tui_domino.ssh")

# Cancels any escape sequence cut short, leaves the alternate screen, turns off mouse
# reports, bracketed paste and the kitty keyboard mode, shows the cursor, resets colours.
TERMINAL_RESET = (
    "\x18\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"
    "\x1b[?2004l\x1b[<u\x1b[?25h\x1b[?1049l\r\n"
)

# The most fresh games a visit starts for a duel whose game stopped (killed, crashed).
RESTARTS = 3

# How often a visitor whose output is paused is looked at again.
BACKLOG_POLL = 0.05

# TRANSLATORS: told to an ssh session without a terminal (ssh -T); ssh -t is a command
# line, kept as it is
NO_TERMINAL = N_("tui-domino needs a terminal: connect with ssh -t.")


@functools.cache
def catalog(language: str) -> gettext.NullTranslations:
    """``language``'s catalog, for the server's own words to a visitor (why his visit was
    refused or ended): the server speaks to each visitor in his language at once, so not
    in ``i18n``'s one language in use."""
    if language == i18n.DEFAULT or language not in i18n.LANGUAGES:
        return ENGLISH
    return gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=[language],
                               fallback=True)


def told(words: gettext.NullTranslations, message: str) -> str:
    """``message`` (English, marked ``N_``; or the operator's own words) in ``words``'s
    language."""
    return words.gettext(message) if message else message  # (gettext("") is the header)


def reason_text(words: gettext.NullTranslations, why: Mapping[str, Any]) -> str:
    """A reason of the lobby's (``ssh/reasons.py``) in ``words``'s language: its sentence
    translated, its values put in as they came; else its English ``why``."""
    said, values = why.get("said"), why.get("values")
    if isinstance(said, str) and said and isinstance(values, dict):
        try:
            return told(words, said).format(**values)
        except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
            pass
    return str(why.get("why") or "")


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


def game_over_words(words: gettext.NullTranslations, status: int) -> tuple[str, str]:
    """What a visitor is told when his game ended by itself with ``status`` (negative: the
    signal that stopped it), in ``words``'s language, and the cause for the log."""
    if status < 0:
        # TRANSLATORS: {signal} is the number of the signal that stopped the game
        return (told(words, N_("The game stopped unexpectedly (signal {signal}).")).format(
            signal=-status), f"the game stopped (signal {-status})")
    if status != 0:
        # TRANSLATORS: {status} is the exit status of the game's process
        return (told(words, N_("The game stopped unexpectedly (status {status}).")).format(
            status=status), f"the game stopped (status {status})")
    return told(words, N_("Thanks for playing.")), "quit"


def duel_waits_words(words: gettext.NullTranslations, seconds: float) -> str:
    """What a visitor whose game stopped in the middle of a duel is told besides: the duel
    waits for him (``seconds``), and how to take it up."""
    # TRANSLATORS: after "The game stopped unexpectedly (…)."; {time}: how long ("1 minute")
    return told(words, N_("Your duel waits for you for {time}: connect again and press b in "
                          "the lobby to take it up.")).format(
        time=duration_text(seconds, words.ngettext))


def idle_words(words: gettext.NullTranslations, limit: float) -> tuple[str, str]:
    """What a visitor idle for ``limit`` seconds is told as his visit ends, and the cause
    for the log (English)."""
    # TRANSLATORS: {idle} is a length of time ("15 minutes")
    said = told(words, N_("You were idle for {idle}; come back any time.")).format(
        idle=duration_text(limit, words.ngettext))
    return said, f"idle for {duration_text(limit)}"


def write_pending(master: int, pending: bytearray, again: Callable[[], None]) -> None:
    """Writes what it can of ``pending`` (the visitor's keys) to the game's terminal
    ``master``; the rest when the terminal takes more (``again`` is called then). A
    terminal gone drops them."""
    try:
        n = os.write(master, pending)
    except BlockingIOError:
        n = 0
    except OSError:
        pending.clear()
        return
    del pending[:n]
    loop = asyncio.get_running_loop()
    if pending:
        loop.add_writer(master, again)
    else:
        loop.remove_writer(master)


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
        self.account: int | None = None  # on a server with accounts: his (None: a guest)
        self.term_type: str | None = None
        self.term_size = (80, 24, 0, 0)
        self.client_env: dict[str, str] = {}
        self.language = i18n.DEFAULT  # the visitor's, from his LANG once his session starts
        self.master: int | None = None
        self.proc: GameProcess | None = None
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
        limits = server.limits
        self.input_gate = InputGate(limits.input_rate, limits.input_burst)
        self._ending: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.handed = asyncio.Event()  # its game went on without it (ssh/seats.py)
        self.restarts = 0  # fresh games started for a duel whose game stopped

    # -- asyncssh callbacks ------------------------------------------------------------------

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        self.server.sessions.add(self)
        limit = self.server.limits.write_buffer
        chan.set_write_buffer_limits(high=limit, low=limit // 4)
        signed = self.connection.signed
        if isinstance(signed, accounts.Member):  # his account's own spelling
            self.name = signed.account.name
            self.account = signed.account.id
        elif isinstance(signed, accounts.Guest):
            self.name = signed.name
        else:
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

    @property
    def key(self) -> str | None:
        """The fingerprint of the key the visitor proved he holds as he signed in to his
        account (None: a guest, or a server without accounts)."""
        if isinstance(self.connection.signed, accounts.Member):
            return self.connection.key
        return None

    def dismiss(self, message: str, cause: str) -> None:
        """Ends the visit, telling the visitor ``message`` (an operator's kick or ban)."""
        self._end_soon(message, 1, cause)

    @property
    def words(self) -> gettext.NullTranslations:
        """The visitor's language's catalog (English until his session starts)."""
        return catalog(self.language)

    def session_started(self) -> None:
        env = self.chan.get_environment()
        self.client_env = {k: v for k, v in env.items() if isinstance(v, str)}
        # The language his game will speak (the variables his client sent, as they reach
        # it): the server's own words to him speak it too.
        self.language = i18n.from_environment(self.server.passed_env(self))
        # Decided here and now, before a later packet (the end of the client's input, as
        # from `ssh -T host </dev/null`) can close the channel unanswered.
        refusal = self.server.refusal(account=self.account)  # (English, for the log)
        banned = (self.server.banned(self.connection.address, self.account, self.key)
                  if refusal is None else None)
        if banned is not None:
            # (here, not as he logs in: his language is known now, and he reads it in his)
            log.info("refused a visit of %s (%s): %s", self.name, self.connection.address,
                     banned["why"])
            self.ended = True
            self._say_and_exit(reason_text(self.words, banned), 1)
            return
        if refusal is None and self.term_type is None:
            refusal = NO_TERMINAL
        if refusal is not None:
            log.info("refused a visit of %s (%s): %s", self.name, self.connection.address,
                     refusal)
            self.ended = True
            self._say_and_exit(self.server.refusal(self.words, self.account)
                               or told(self.words, refusal), 1)
            return
        self.connection.game_started()
        self.server.visits.add(self)  # the seat is taken now, not when the game is up
        self.task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.master is None:
            return
        if not self.input_gate.admit(len(data)):
            return  # faster than any hand: the game never sees it (counted, logged at the end)
        self._pending_input += data
        if len(self._pending_input) > self.server.limits.input_burst:
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
        try:
            self.chan.write(data)
        except BrokenPipeError:
            # The channel closed as the game drew (the visitor went): nowhere for its
            # output to go. The visit ends; its game's output is no longer read.
            if self.master is not None:
                asyncio.get_running_loop().remove_reader(self.master)
            self._end_soon(None, 0, "hung up")
            return
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
            self._say_and_exit(told(self.words, N_("The game could not start; sorry.")), 1,
                               reset=True)
        finally:
            self.server.visits.discard(self)
            self._cleanup()
            name = self.member.name if self.member is not None else self.name
            when = "" if self.member is not None else " before the game started"
            log.info("%s (%s) left%s: %s", name, self.connection.address, when,
                     self.cause or "hung up")
            gate = self.input_gate
            if gate.dropped:
                log.info("%s (%s) sent keys faster than the game takes them: %d bytes in %d "
                         "packets dropped", name, self.connection.address, gate.dropped,
                         gate.drops)

    async def _play(self) -> None:
        game = self.server.seats.take(self.account)
        if game is not None:  # his duel's game kept his seat: back at his table
            self._adopt(game)
        elif not await self._start():
            return
        while await self._until_over():  # (his game stopped mid-duel: a fresh one)
            if not await self._start():
                return

    async def _start(self) -> bool:
        """Starts the visitor's game and brings it to the lobby; False when the visit
        ended meanwhile."""
        loop = asyncio.get_running_loop()
        async with self.server.arrivals.turn() as turn:  # (a crowd's games start in turn)
            if self.ended:  # the visitor left while he waited for his turn
                return False
            self.home = home = self.server.homes.take(self.account)
            started = await start_on_terminal(
                self.server.spawner, lambda fd: self.server.visitor_env(self, home, fd), home,
                self.term_size)
            self.proc, self.master = started.proc, started.master
            if self.ended:  # the visitor left while the game was starting: _cleanup stops it
                started.lobby.close()
                return False
            if self.connection.conn is not None:
                self._sock = self.connection.conn.get_extra_info("socket")
            os.set_blocking(self.master, False)
            loop.add_reader(self.master, self._on_output)
            self._arm_idle()
            self.member = member = await self.server.lobby.join(
                self.name, started.lobby, self.account, address=self.connection.address,
                key=self.key)
            turn.until(member.up)
        log.info("%s (%s) arrived", member.name, self.connection.address)
        return True

    def _adopt(self, game: Game) -> None:
        """Plays ``game``, kept for this visitor's account (ssh/seats.py), on this
        connection: its terminal takes this one's size, it draws itself anew."""
        self.proc, self.master, self.home, self.member = (game.proc, game.master, game.home,
                                                          game.member)
        if self.connection.conn is not None:
            self._sock = self.connection.conn.get_extra_info("socket")
        with contextlib.suppress(OSError):
            set_winsize(self.master, *self.term_size)
        asyncio.get_running_loop().add_reader(self.master, self._on_output)
        self._arm_idle()
        log.info("%s (%s) came back to his table", game.member.name, self.connection.address)

    async def _until_over(self) -> bool:
        """Plays the game to its end, or until another connection takes it over; then the
        visit ends (its words said). True instead when the game stopped in the middle of a
        duel that waits for him (killed, crashed): a fresh game is to start on this
        connection, whose lobby offers the duel back (at most ``RESTARTS`` times a visit)."""
        assert self.proc is not None and self.master is not None and self.home is not None
        assert self.member is not None
        status = await play_out(self.server.seats, self.account, self,
                                Game(self.proc, self.master, self.home, self.member),
                                self.handed)
        if status is None:
            return False  # handed over: the game plays on without this connection
        self._drain_output()
        if self.ended:
            return False
        said, cause = game_over_words(self.words, status)
        waiting = self.server.lobby.returns.get(self.account or 0)
        if status != 0 and waiting is not None and self.restarts < RESTARTS:
            self.restarts += 1
            log.info("%s's game stopped in a duel (%s); a fresh one starts", self.name, cause)
            # TRANSLATORS: after "The game stopped unexpectedly (…)."
            self._show(said + " " + told(self.words, N_("A new one starts: your duel waits "
                                                        "for you in its lobby.")))
            self._let_go_of_stopped()
            return True
        self.ended = True
        if status != 0:
            log.warning("%s's game stopped (%s); the report of its own error, if it wrote one, "
                        "is in %s", self.name, cause, self.server.crashes)
        if status != 0 and waiting is not None:
            said += " " + duel_waits_words(self.words, waiting.until - self.server.lobby.clock())
        self._set_cause(cause)
        # A game that stopped on its own leaves the terminal as it had set it (the alternate
        # screen, mouse reports, the cursor hidden): the server puts it back.
        self._say_and_exit(said, 1 if status < 0 else status, reset=status != 0)
        return False

    def _show(self, message: str) -> None:
        """Puts the terminal back as it was (a game that stopped leaves it as it had set
        it) and shows ``message``; the visit goes on."""
        with contextlib.suppress(OSError, asyncssh.Error, BrokenPipeError):
            if self.chan is not None:
                self.chan.write((TERMINAL_RESET + f"tui-domino: {message}\r\n").encode())

    def _let_go_of_stopped(self) -> None:
        """A stopped game's terminal and home are given up (a fresh game takes others)."""
        loop = asyncio.get_running_loop()
        if self.master is not None:
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
        if self.home is not None:
            self.server.homes.give_back(self.home)
        self.proc = self.master = self.home = self.member = None

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
                try:
                    self.chan.write(data)
                except BrokenPipeError:  # (the visitor went meanwhile: nowhere to go)
                    return

    def _flush_input(self) -> None:
        if self.master is not None and self._pending_input:
            write_pending(self.master, self._pending_input, self._flush_input)

    def _arm_idle(self) -> None:
        limit = self.server.limits.idle_timeout
        if limit <= 0 or self.ended:
            return
        left = self.last_input + limit - time.monotonic()
        if left <= 0:
            said, cause = idle_words(self.words, limit)
            self._end_soon(said, 0, cause)
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
        if message is None and self.server.seats.keep(self.account, self.member,
                                                       self._let_go):
            # (the connection dropped: an account's game in a duel keeps his seat a while)
            self._set_cause("connection lost; his seat is kept")
            if self.chan is not None:
                self.chan.close()
            return
        await stop_game(self.proc)
        if message is not None and not self.paused:
            self._say_and_exit(message, status, reset=True)
        elif self.chan is not None:
            self.chan.close()

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

    def _let_go(self) -> Game | None:
        """This connection's game, no longer this connection's (its output and input
        unhooked), for another to play; None when it has none that plays on."""
        game = live_game(self.proc, self.master, self.home, self.member)
        if game is None:
            return None
        loop = asyncio.get_running_loop()
        loop.remove_reader(game.master)
        loop.remove_writer(game.master)
        self.proc = self.master = self.home = None
        self.handed.set()
        return game

    def detach(self) -> Game | None:
        """Another connection of this account takes the game over: this one is told and
        closed."""
        if self.ended:
            return None
        game = self._let_go()
        if game is None:
            return None
        self.ended = True
        self._set_cause("his seat moved to a new connection")
        # TRANSLATORS: told to a connection whose game another connection of the same
        # account took over
        self._say_and_exit(told(self.words, N_("Your game continues on your new "
                                               "connection.")), 0, reset=True)
        return game

    def _cleanup(self) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            # The visit ended without stopping its game (cancelled, or left while the game
            # was starting): stop it now, or it would outlive the visit.
            stop_group(proc, signal.SIGKILL)
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
            self.server.homes.give_back(self.home)
            self.home = None
