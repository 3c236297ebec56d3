"""One browser visitor's session: his game's process on a pseudo-terminal of its own (started
by the same ``Spawner`` as an SSH visitor's, with the same environment, private home and
lobby socket), wired to his websocket.

Keys, mouse reports and pastes come as binary frames and reach the game through an
``InputGate`` (as an SSH visitor's); a resize comes as a JSON text frame and becomes the
terminal's new size (TIOCSWINSZ: the game gets SIGWINCH). The game's output goes out as
binary frames; while the browser does not take it, the websocket's writer waits, the game's
output is not read and the game waits in turn: what is held for a visitor stays bounded.
A browser that takes nothing for ``stall_timeout`` seconds is disconnected, as is one idle
for ``idle_timeout``. The visit's end is told in a JSON text frame ``{"t": "bye"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gettext
import json
import logging
import os
import signal
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from tui_domino.i18n import N_
from tui_domino.ssh.limits import InputGate
from tui_domino.ssh.lobby import Member
from tui_domino.ssh.seats import Game, live_game, play_out
from tui_domino.ssh.spawn import (
    GameProcess,
    set_winsize,
    start_on_terminal,
    stop_game,
    stop_group,
)
from tui_domino.ssh.visit import (
    catalog,
    duel_waits_words,
    game_over_words,
    idle_words,
    reason_text,
    told,
    write_pending,
)

if TYPE_CHECKING:
    from aiohttp import web

    from tui_domino.ssh.server import GameServer

log = logging.getLogger("tui_domino.web")

# The most of the game's output read (and sent as one frame) at a time.
CHUNK = 65536


class WebVisit:
    """One browser tab's game. ``run()`` plays it to the end; ``received()`` takes what the
    browser sends meanwhile; ``end()`` stops it (the server closing, the browser gone)."""

    term_type = "xterm-256color"

    def __init__(self, server: GameServer, ws: web.WebSocketResponse, address: str,
                 name: str, account: int | None, language: str,
                 size: tuple[int, int]) -> None:
        self.server = server
        self.ws = ws
        self.address = address
        self.name = name
        self.account = account
        self.language = language
        self.size = size
        # As an SSH client's variables would: his language, and a terminal of many colours.
        self.client_env: Mapping[str, str] = {"LANG": f"{language}.UTF-8",
                                              "COLORTERM": "truecolor"}
        self.proc: GameProcess | None = None
        self.master: int | None = None
        self.home: Path | None = None
        self.member: Member | None = None
        self.cause: str | None = None  # why the visit ended, for the log
        self.last_input = time.monotonic()
        self.ended = False
        self.ending = False  # end() has it: it says its words, then closes the socket
        self.closed = asyncio.Event()
        limits = server.limits
        self.input_gate = InputGate(limits.input_rate, limits.input_burst)
        self._pending = bytearray()
        self._idle: asyncio.TimerHandle | None = None
        self._pump: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None
        self.handed = asyncio.Event()  # its game went on without it (ssh/seats.py)

    @property
    def words(self) -> gettext.NullTranslations:
        return catalog(self.language)

    # -- what the browser sends ---------------------------------------------------------------

    def received(self, data: bytes | str) -> None:
        """A frame from the browser: keys (binary) or a resize (text)."""
        self.last_input = time.monotonic()
        size = len(data)
        if not self.input_gate.admit(size):
            return  # faster than any hand: dropped (counted, logged at the end)
        if isinstance(data, str):
            self._control(data)
            return
        if self.master is None:
            return
        self._pending += data
        if len(self._pending) > self.server.limits.input_burst:
            self._pending.clear()  # the game is not reading: drop, never hoard
        self._flush_input()

    def _control(self, text: str) -> None:
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):  # (not JSON, or nested past the parser's depth)
            return
        if not isinstance(message, dict) or message.get("t") != "resize":
            return
        cols, rows = message.get("cols"), message.get("rows")
        if not (type(cols) is int and type(rows) is int and 0 < cols <= 1000
                and 0 < rows <= 1000):
            return
        self.size = (cols, rows)
        if self.master is not None:
            with contextlib.suppress(OSError):
                set_winsize(self.master, cols, rows)

    def _flush_input(self) -> None:
        if self.master is not None and self._pending:
            write_pending(self.master, self._pending, self._flush_input)

    # -- the visit ---------------------------------------------------------------------------

    def take_seat(self) -> None:
        """Counts this visit against the server's caps (before its game starts)."""
        self.server.visits.add(self)
        self.server.sessions.add(self)

    async def run(self) -> None:
        """Plays the visit to its end (the game over, or ended by ``end()``); its seat is
        taken (``take_seat``)."""
        self.take_seat()
        try:
            await self._play()
        except Exception:
            log.exception("web visit of %s failed", self.name)
            self._set_cause("the game could not start")
            await self._say(told(self.words, N_("The game could not start; sorry.")))
        finally:
            self.server.visits.discard(self)
            self._cleanup()
            name = self.member.name if self.member is not None else self.name
            log.info("%s (%s, web) left: %s", name, self.address, self.cause or "hung up")
            gate = self.input_gate
            if gate.dropped:
                log.info("%s (%s, web) sent keys faster than the game takes them: %d bytes "
                         "in %d frames dropped", name, self.address, gate.dropped, gate.drops)
            if not self.ending and not self.ws.closed:
                await self.ws.close()
            self.server.sessions.discard(self)
            self.closed.set()

    async def _play(self) -> None:
        # a ban on his account or his address (no key comes by this door): refused before
        # his game starts, in his language, as at the SSH door
        banned = self.server.banned(self.address, self.account)
        if banned is not None:
            log.info("refused a web visit of %s (%s): %s", self.name, self.address,
                     banned.get("why"))
            self.ended = True
            self._set_cause("banned")
            await self._say(reason_text(self.words, banned))
            return
        game = self.server.seats.take(self.account)
        if game is not None:  # his duel's game kept his seat: back at his table
            self.proc, self.master, self.home, self.member = (game.proc, game.master,
                                                              game.home, game.member)
            with contextlib.suppress(OSError):
                set_winsize(self.master, *self.size)
            self._pump = asyncio.get_running_loop().create_task(
                self._pump_output(self.master))
            self._arm_idle()
            log.info("%s (%s, web) came back to his table", game.member.name, self.address)
            await self._until_over(game)
            return
        async with self.server.arrivals.turn() as turn:  # (a crowd's games start in turn)
            if self.ended:  # the browser left while he waited for his turn
                return
            self.home = home = self.server.homes.take(self.account)
            started = await start_on_terminal(
                self.server.spawner, lambda fd: self.server.visitor_env(self, home, fd), home,
                (*self.size, 0, 0))
            self.proc, self.master = started.proc, started.master
            if self.ended:  # the browser left while the game was starting: _cleanup stops it
                started.lobby.close()
                return
            os.set_blocking(self.master, False)
            self._pump = asyncio.get_running_loop().create_task(
                self._pump_output(self.master))
            self._arm_idle()
            self.member = member = await self.server.lobby.join(self.name, started.lobby,
                                                                self.account)
            turn.until(member.up)
        log.info("%s (%s, web) arrived", member.name, self.address)
        await self._until_over(Game(self.proc, self.master, home, member))

    async def _until_over(self, game: Game) -> None:
        """Plays ``game`` to its end, or until another connection takes it over; then the
        visit ends (its words said)."""
        status = await play_out(self.server.seats, self.account, self, game, self.handed)
        if status is None:
            return  # handed over: the game plays on without this connection
        if self._pump is not None:
            with contextlib.suppress(TimeoutError):  # its last words, within a second
                await asyncio.wait_for(asyncio.shield(self._pump), 1.0)
        if self.ended:
            return
        self.ended = True
        said, cause = game_over_words(self.words, status)
        waiting = self.server.lobby.returns.get(self.account or 0)
        if status != 0 and waiting is not None:
            said += " " + duel_waits_words(self.words, waiting.until - self.server.lobby.clock())
        self._set_cause(cause)
        await self._say(said)

    async def _pump_output(self, master: int) -> None:
        """Sends the game's output as it comes; waits (the game's output unread) while the
        browser is behind, and ends the visit when that lasts ``stall_timeout``."""
        loop = asyncio.get_running_loop()
        while True:
            readable: asyncio.Future[None] = loop.create_future()
            loop.add_reader(master, _ready, readable)
            try:
                await readable
            finally:
                loop.remove_reader(master)
            try:
                data = os.read(master, CHUNK)
            except BlockingIOError:
                continue
            except OSError:  # EIO: every copy of the terminal's other end is closed
                return
            if not data:
                return
            if self.ws.closed:
                continue  # (read and dropped: the game must not block on a gone browser)
            try:
                await asyncio.wait_for(self.ws.send_bytes(data),
                                       self.server.limits.stall_timeout)
            except TimeoutError:
                log.info("%s (web) was not taking output; disconnected", self.name)
                self._end_soon(None, "stopped taking output")
                return
            except (ConnectionError, RuntimeError):
                return  # the browser is gone: its visit ends as its socket closes

    def _arm_idle(self) -> None:
        limit = self.server.limits.idle_timeout
        if limit <= 0 or self.ended:
            return
        left = self.last_input + limit - time.monotonic()
        if left <= 0:
            said, cause = idle_words(self.words, limit)
            self._end_soon(said, cause)
            return
        self._idle = asyncio.get_running_loop().call_later(left, self._arm_idle)

    def _set_cause(self, cause: str | None) -> None:
        if self.cause is None and cause is not None:
            self.cause = cause

    def _end_soon(self, message: str | None, cause: str) -> None:
        self._set_cause(cause)
        if not self.ended:
            asyncio.get_running_loop().create_task(self.end(message))

    def dismiss(self, message: str, cause: str) -> None:
        """Ends the visit, telling the visitor ``message`` (an operator's kick or ban)."""
        self._end_soon(message, cause)

    def hung_up(self) -> None:
        """The browser closed its socket (the tab closed, the network gone)."""
        self._end_soon(None, "hung up")

    async def end(self, message: str | None, status: int = 0, cause: str | None = None) -> None:
        """Stops the game; tells the browser ``message`` (unless None) and closes."""
        self._set_cause(cause)
        if self.ended:
            return
        self.ended = self.ending = True
        if message is None and self.server.seats.keep(self.account, self.member,
                                                       self._let_go):
            # (the connection dropped: an account's game in a duel keeps his seat a while)
            self._set_cause("connection lost; his seat is kept")
            if not self.ws.closed:
                await self.ws.close()
            return
        await stop_game(self.proc)
        if message is not None:
            await self._say(message)
        if not self.ws.closed:
            await self.ws.close()

    def _let_go(self) -> Game | None:
        """This tab's game, no longer this tab's (its output no longer read here), for
        another connection to play; None when it has none that plays on."""
        game = live_game(self.proc, self.master, self.home, self.member)
        if game is None:
            return None
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None
        asyncio.get_running_loop().remove_writer(game.master)
        self.proc = self.master = self.home = None
        self.handed.set()
        return game

    def detach(self) -> Game | None:
        """Another connection of this account takes the game over: this tab is told and
        closed."""
        if self.ended:
            return None
        game = self._let_go()
        if game is None:
            return None
        self.ended = self.ending = True
        self._set_cause("his seat moved to a new connection")
        task = asyncio.get_running_loop().create_task(self._said_and_closed(
            told(self.words, N_("Your game continues on your new connection."))))
        self._closing = task
        return game

    async def _said_and_closed(self, text: str) -> None:
        await self._say(text)
        if not self.ws.closed:
            await self.ws.close()

    async def _say(self, text: str) -> None:
        """The server's words to the browser (the page shows them over the terminal)."""
        if self.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
            await asyncio.wait_for(self.ws.send_str(json.dumps({"t": "bye", "text": text})),
                                   5.0)

    def _cleanup(self) -> None:
        proc = self.proc
        if proc is not None and proc.returncode is None:
            stop_group(proc, signal.SIGKILL)  # (ended without stopping it: it must not stay)
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._pump is not None:
            self._pump.cancel()
        if self.master is not None:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = None
        if self.home is not None:
            self.server.homes.give_back(self.home)
            self.home = None


def _ready(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
