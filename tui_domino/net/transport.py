"""The asyncio transport around one ``DuelCore``: host or join, reconnect, resume.

With an invitation code (``code=``) every connection first runs the channel's handshake
(net/channel.py: SPAKE2 on the code, or on the match's resume secret when a dropped
connection is taken up again) and every line is then sealed and opened here: the core never
sees the channel. The host checks guesses of its code one at a time, spaced after a wrong
one, replaces the code after ``code_tries`` wrong ones and shuts out a source that keeps
guessing wrong (net/guessing.py). Without a code (``--open``) the lines
travel in plain text, as before version 3.

Every read is bounded by ``asyncio.timeout``; one writer task owns the socket's write side
through a bounded queue; a silent peer is dropped after three heartbeats. A clock task gives
the core the time, which counts the deadlines: a dropped peer has ``resume_window`` seconds
to come back (only his resume with the right token stops that clock), a connected one
``reveal_timeout`` seconds to reveal his keys. The host accepts connections itself, backing
off (and saying so once) when the process runs out of file descriptors. See
docs/protocol.md. The channel's handshakes are net/handshake_io.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING

from tui_domino import rules
from tui_domino.logs import logged
from tui_domino.net import events as ev
from tui_domino.net import guessing
from tui_domino.net import journal as jr
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as msgs
from tui_domino.net.core import (
    LEFT,
    RESUME_WINDOW,
    REVEAL_TIMEOUT,
    TURN_TIMEOUT,
    DuelCore,
    MatchSettings,
)
from tui_domino.net.handshake_io import Handshakes
from tui_domino.net.handshake_io import channel_module as _channel
from tui_domino.net.handshake_io import refuse as _refuse
from tui_domino.net.listening import Listening, _listen, listening_addresses
from tui_domino.net.messages import MAX_FRAME, MAX_LINE, error
from tui_domino.net.records import DuelView
from tui_domino.rules.types import MoveJSON

if TYPE_CHECKING:
    from tui_domino.net.channel import Channel

log = logging.getLogger(__name__)

WRITE_QUEUE = 256
# accept() failing for want of resources (file descriptors, buffers): wait, longer each time.
OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ACCEPT_BACKOFF = (0.05, 2.0)
HANDSHAKE_TIMEOUT = 10.0  # seconds for a reconnection's handshake
CODE_TRIES = guessing.CODE_TRIES  # wrong invitation codes before the host replaces its code
CODE_PENALTY = guessing.SPACING  # seconds after a wrong code before the next is checked


class DuelSession:
    """One side of a duel over TCP. Build it with ``host`` or ``join``."""

    def __init__(
        self,
        core: DuelCore,
        *,
        heartbeat: float = 5.0,
        resume_window: float = RESUME_WINDOW,
        reveal_timeout: float = REVEAL_TIMEOUT,
        turn_timeout: float = TURN_TIMEOUT,
        write_timeout: float = 10.0,
    ) -> None:
        self.heartbeat = heartbeat
        self.resume_window = resume_window
        self.reveal_timeout = reveal_timeout
        self.turn_timeout = turn_timeout
        self.write_timeout = write_timeout
        self.core = core
        self._configure(core)
        # The clock's period: a small part of the shortest deadline, at most a second.
        self.tick_every = max(0.01, min(1.0, heartbeat / 4, resume_window / 20,
                                        reveal_timeout / 20, turn_timeout / 20))
        self._events: asyncio.Queue[ev.Event | None] = asyncio.Queue()
        self._wq: asyncio.Queue[bytes | None] | None = None
        self._conn: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: Listening | None = None
        self._accept_warned = False
        self._closed = asyncio.Event()
        self._closing = False
        self._closers: set[asyncio.Task[None]] = set()
        self.state = "waiting"
        self.addresses: list[str] = []
        self.port = 0
        self._target: tuple[str, int] | None = None
        self._writer_obj: asyncio.StreamWriter | None = None
        self.journal_path: Path | None = None
        self.resumed = False  # the match was taken up again from its log
        self.notice = ""  # what the player should know before the duel: a log kept aside
        # The channel (net/channel.py): the invitation code (None: --open, plain text).
        self.code: str | None = None
        self.secure = False
        self.code_tries: int | None = CODE_TRIES
        self.code_penalty = CODE_PENALTY
        self.handshakes = Handshakes(self)  # the channel's handshakes (net/handshake_io.py)

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    async def host(
        cls,
        port: int,
        addr: str = "0.0.0.0",
        name: str = "host",
        settings: MatchSettings | None = None,
        journal_path: str | os.PathLike[str] | None = None,
        seed: bytes | None = None,
        code: str | None = None,
        code_tries: int | None = CODE_TRIES,
        code_penalty: float = CODE_PENALTY,
        fsync: bool = True,
        **kw: float,  # the timings of __init__
    ) -> DuelSession:
        """Listens on ``addr:port`` (port 0: any free port, see ``.port``). With ``code``
        (``channel.new_code()``) only a joiner who has it gets in, over a sealed channel;
        after ``code_tries`` wrong tries (None: no limit) a new code replaces it
        (``Invitation`` event, ``.code``). Without, the duel is open and in plain text.
        ``fsync``: each entry of the match log is on the disk before the match goes on (a
        log that need outlive only this process, not the machine, may do without)."""
        core, notice = _resume(journal_path, fsync)
        resumed = core is not None
        if core is None:
            if journal_path and Path(journal_path).exists():
                Path(journal_path).unlink()
            journal = jr.Journal(journal_path, fsync=fsync) if journal_path else None
            core = DuelCore("host", name, seed or os.urandom(32),
                            settings=settings or MatchSettings(), journal=journal)
        self = cls(core, **kw)
        self.resumed = resumed
        self.notice = notice
        self.journal_path = Path(journal_path) if journal_path else None
        self.code, self.secure = code, code is not None
        self.code_tries, self.code_penalty = code_tries, code_penalty
        self.handshakes.configure(code_tries, code_penalty)
        self._server = Listening(await _listen(addr, port))
        self.port = int(self._server.sockets[0].getsockname()[1])
        for sock in self._server.sockets:
            self._spawn(self._accept_loop(sock))
        self.addresses = listening_addresses(addr, self.port)
        self.emit(ev.ConnectionState("waiting", ", ".join(self.addresses)))
        if code is not None:
            self.emit(ev.Invitation(code, self.join_command()))
        self._spawn(self._clock())
        return self

    @classmethod
    async def join(
        cls,
        host: str,
        port: int,
        name: str = "guest",
        want: MatchSettings | None = None,
        journal_path: str | os.PathLike[str] | None = None,
        seed: bytes | None = None,
        connect_timeout: float = 10.0,
        code: str | None = None,
        fsync: bool = True,
        **kw: float,  # the timings of __init__
    ) -> DuelSession:
        """Connects to a host; raises OSError (refused, unreachable, timed out) when the
        first connection cannot be made, ``channel.Refused`` (a ConnectionError) when the
        host refuses it in words (a wrong code, say). With ``code`` the connection runs the
        channel's handshake first; so does a match logged in a channel, on its resume
        secret. ``fsync`` as ``host``'s."""
        core, notice = _resume(journal_path, fsync)
        resumed = core is not None
        if core is None:
            if journal_path and Path(journal_path).exists():
                Path(journal_path).unlink()
            journal = jr.Journal(journal_path, fsync=fsync) if journal_path else None
            core = DuelCore("join", name, seed or os.urandom(32), want=want, journal=journal)
        self = cls(core, **kw)
        self.resumed = resumed
        self.notice = notice
        self.journal_path = Path(journal_path) if journal_path else None
        self._target = (host, port)
        self.code = code
        self.secure = code is not None or bool(core.tokens.channel_secret)
        chan: Channel | None = None
        try:
            async with asyncio.timeout(connect_timeout):
                reader, writer = await asyncio.open_connection(host, port,
                                                               limit=self._limit())
                try:
                    if self.secure:
                        chan = await self.handshakes.join(reader, writer)
                except BaseException:
                    writer.close()
                    raise
        except BaseException:
            if core.seat.journal is not None and hasattr(core.seat.journal, "close"):
                core.seat.journal.close()
            raise
        self._spawn(self._join_loop(reader, writer, chan))
        self._spawn(self._clock())
        return self

    # -- the API for the screen -----------------------------------------------------------------

    async def events(self) -> AsyncIterator[ev.Event]:
        while True:
            e = await self._events.get()
            if e is None:
                return
            yield e

    async def next_event(self, timeout: float | None = None) -> ev.Event | None:
        async with asyncio.timeout(timeout):
            return await self._events.get()

    def view(self) -> DuelView | None:
        return self.core.view()

    @property
    def phrase(self) -> str:
        """The verification phrase of the match's channel ("" while there is none: before
        the match, or an open duel): both players' screens show the same one."""
        secret = self.core.tokens.channel_secret
        return str(_channel().phrase(secret)) if secret and self.secure else ""

    def join_command(self) -> str:
        """The host's command for the friend: ``tui-domino join ADDR:PORT CODE``."""
        where = self.addresses[0] if self.addresses else f"127.0.0.1:{self.port}"
        return f"tui-domino join {where} " + (self.code if self.code else "--open")

    def legal_moves(self) -> list[rules.Move]:
        return self.core.legal_moves()

    def my_turn(self) -> bool:
        return self.core.my_turn()

    @property
    def finished(self) -> bool:
        return self.core.finished

    async def play(self, move: rules.Move | MoveJSON) -> None:
        self.core.play(move)
        self._pump()

    async def chat(self, text: str) -> None:
        self.core.chat(text)
        self._pump()

    async def leave(self, reason: str = LEFT) -> None:
        self.core.leave(reason)
        self._pump()
        await self.close()

    def peer_gone(self, reason: str) -> None:
        """The peer is known to be gone for good (a lobby saw his game stop and no new one
        take the match up): he forfeits now, not when the resume window ends."""
        self.core.peer_gone(reason)
        self._pump()

    async def dispute(self) -> None:
        """Asks for the keys before the round is over (see ``DuelCore.dispute``)."""
        self.core.dispute()
        self._pump()

    async def close(self) -> None:
        """Flushes what is queued, closes the connection and the server."""
        if self._closing:
            await self._closed.wait()
            return
        self._closing = True
        if self._wq is not None:
            with contextlib.suppress(asyncio.QueueFull):
                self._wq.put_nowait(None)
        me = asyncio.current_task()
        if self._conn is not None and self._conn is not me:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError), \
                    logged("the duel's connection, closing"):
                async with asyncio.timeout(2):
                    await asyncio.shield(self._conn)
        others = [t for t in self._tasks if t is not me]
        for t in others:
            t.cancel()
        for t in others:
            with contextlib.suppress(asyncio.CancelledError), logged("a duel's task, closing"):
                await t
        if self._server is not None:
            self._server.close()
        if self.core.seat.journal is not None and hasattr(self.core.seat.journal, "close"):
            self.core.seat.journal.close()
            self.core.seat.journal = None
        self._set_state("closed")
        self._events.put_nowait(None)
        self._closed.set()

    def drop_connection(self) -> None:
        """Cuts the current connection as a pulled cable would (for tests and the UI's
        "reconnect" command); the match resumes when the peers find each other again."""
        if self._writer_obj is not None:
            self._writer_obj.transport.abort()

    async def wait_closed(self) -> None:
        await self._closed.wait()

    # -- connections ----------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[object, object, None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _configure(self, core: DuelCore) -> None:
        core.deadlines.resume_window = self.resume_window
        core.deadlines.reveal_timeout = self.reveal_timeout
        core.deadlines.turn_timeout = self.turn_timeout

    async def _clock(self) -> None:
        """Gives the core the time until the match is over; closes the session when a
        deadline ended it while no connection is being served."""
        loop = asyncio.get_running_loop()
        while not self._closing:
            self.core.tick(loop.time())
            self._pump()
            if self.core.finished:
                if self._conn is None or self._conn.done():
                    self._close_soon()
                return
            await asyncio.sleep(self.tick_every)

    async def _accept_loop(self, sock: socket.socket) -> None:
        """Accepts connections on a listening socket. When accept() fails (the process is out
        of file descriptors, say) it waits, longer each time, instead of trying again at once
        (asyncio's own loop reports every failed attempt), and it says so once."""
        loop = asyncio.get_running_loop()
        delay = 0.0
        while True:
            try:
                conn, _ = await loop.sock_accept(sock)
            except OSError as exc:
                if not self._accept_warned:
                    self._accept_warned = True
                    log.warning("cannot accept connections on port %d (%s): %s", self.port,
                                exc.strerror or exc, "waiting for resources to be freed"
                                if exc.errno in OUT_OF_RESOURCES else "retrying")
                else:
                    log.debug("accept() failed again: %s", exc)
                delay = min(max(delay * 2, ACCEPT_BACKOFF[0]), ACCEPT_BACKOFF[1])
                await asyncio.sleep(delay)
                continue
            delay /= 2  # the back-off wears off as connections come through again
            self._spawn(self._accepted(conn))

    def _limit(self) -> int:
        """The longest line a connection reads: a frame, or a record of a sealed one."""
        return int(_channel().MAX_RECORD) - 1 if self.secure else MAX_LINE

    async def _accepted(self, conn: socket.socket) -> None:
        try:
            conn.setblocking(False)
            reader, writer = await asyncio.open_connection(sock=conn, limit=self._limit())
        except OSError:
            conn.close()
            return
        await self._on_client(reader, writer)

    async def _on_client(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> None:
        """A connection to the host's port. Cancelled (the event loop shutting down while
        it is served, a newcomer superseding it), it ends quietly: Python 3.11's streams
        print a cancelled connection's task as an error on the terminal."""
        try:
            await self._client(reader, writer)
        except asyncio.CancelledError:
            writer.close()

    async def _client(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter) -> None:
        first: bytes | None = None
        chan: Channel | None = None
        if self.secure:
            chan = await self.handshakes.host(reader, writer)
            if chan is None:
                return
        old = self._conn
        if self.core.finished:
            await _refuse(writer, "busy", "this match is over", chan)
            return
        if old is not None and not old.done():
            # A newcomer supersedes a connection that never greeted, or one that went
            # silent when it shows the resume token.
            if self.core.started:
                try:
                    async with asyncio.timeout(self.heartbeat):
                        first = await reader.readuntil(b"\n")
                    if chan is not None:
                        first = chan.open(first)
                except (TimeoutError, asyncio.LimitOverrunError, asyncio.IncompleteReadError,
                        ConnectionError, OSError, _channel().Tampered):
                    first = None
                if first is None or not self._is_resume(first):
                    await _refuse(writer, "busy", "a match is already being played here", chan)
                    return
            old.cancel()
            with contextlib.suppress(asyncio.CancelledError), \
                    logged("the duel's connection, superseded"):
                await old
        # Serving a connection does not stop the resume window: only the joiner's resume
        # (the core checks the token) does.
        self._conn = asyncio.current_task()
        await self._serve(reader, writer, first, chan)
        if self._conn is not asyncio.current_task():
            return  # superseded
        if self.core.match.refused:
            self._start_over()
            return
        if self.core.finished:
            self._close_soon()

    async def _join_loop(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                         chan: Channel | None = None) -> None:
        """The joiner's connections, the first one (``reader``, ``writer``, ``chan``) and
        every reconnection: when one drops in the middle of a match, connect again
        (backing off, at most two seconds apart) until the host takes the resume, the
        core's resume window (counted on the clock task) runs out, or the host refuses in
        words."""
        while True:
            self._conn = asyncio.current_task()
            await self._serve(reader, writer, None, chan)
            if self.core.finished or not self.core.started:
                break
            delay = 0.05
            while True:
                await asyncio.sleep(min(delay, self.tick_every * 4))
                if self.core.finished or self._closing:
                    self._close_soon()
                    return
                delay = min(delay * 2, 2.0)
                try:
                    assert self._target is not None
                    async with asyncio.timeout(5.0):
                        reader, writer = await asyncio.open_connection(
                            *self._target, limit=self._limit())
                except (OSError, TimeoutError):
                    continue
                if not self.secure:
                    break
                ch = _channel()
                try:
                    async with asyncio.timeout(HANDSHAKE_TIMEOUT):
                        chan = await self.handshakes.join(reader, writer)
                    break
                except ch.Refused as exc:
                    writer.close()
                    if exc.code in ("tampered", "bad_frame", "too_large"):
                        continue  # somebody on the path: try again
                    # The host will not take this match up (it knows another, or none):
                    # the log stays, for a later try.
                    self.emit(ev.ProtocolError(exc.code, exc.message, from_peer=True))
                    self.emit(ev.ConnectionState("closed", exc.message))
                    self._close_soon()
                    return
                except (OSError, TimeoutError):
                    writer.close()
                    continue
        self._close_soon()

    def _commit(self, chan: Channel | None) -> None:
        """The match began (or was greeted again) on this connection's channel: its resume
        secret becomes the match's, in the log, and the phrase is shown."""
        if (chan is not None and chan.kind == "code" and self.core.link.authed
                and self.core.tokens.channel_secret != chan.resume_secret):
            self.core.keep_channel(chan.resume_secret)
            self.emit(ev.Secured(chan.phrase))

    def _start_over(self) -> None:
        """The joiner refused the match (another version, other settings) before any of
        it was played: a fresh match with the same settings waits for another opponent."""
        old = self.core
        if old.seat.journal is not None and hasattr(old.seat.journal, "close"):
            old.seat.journal.close()
        path = self.journal_path
        if path is not None and path.exists():
            path.unlink()
        self.core = DuelCore("host", old.seat.name, os.urandom(32), settings=old.settings,
                             journal=jr.Journal(path) if path is not None else None)
        self._configure(self.core)
        self._conn = None
        self.emit(ev.ConnectionState("waiting", ", ".join(self.addresses)))

    def _is_resume(self, line: bytes) -> bool:
        try:
            f = msgs.decode(line.rstrip(b"\r\n"))
        except msgs.FrameError:
            return False
        return (isinstance(f, msgs.Resume) and f.match == self.core.tokens.match_id
                and mp.same_bytes(f.token.encode(), self.core.tokens.token.encode()))

    def _close_soon(self) -> None:
        """Closes from inside a connection's own task, without waiting for itself."""
        if not self._closing:
            task = asyncio.ensure_future(self.close())
            self._closers.add(task)
            task.add_done_callback(self._closers.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     first: bytes | None = None, chan: Channel | None = None) -> None:
        """One connection: a writer task, reads with a timeout, heartbeats. With a channel,
        each line read is opened (``first`` is already) and each written is sealed."""
        wq: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=WRITE_QUEUE)
        self._wq = wq
        self._writer_obj = writer
        wtask = asyncio.ensure_future(self._writer(writer, wq, chan))
        self.core.connection_made()
        if self.core.started:
            self._set_state("connected")
        self._pump()
        idle = 0
        if first is not None:
            self.core.receive(first.rstrip(b"\r\n"))
            self._commit(chan)
            self._pump()
        try:
            while not wtask.done():
                try:
                    async with asyncio.timeout(self.heartbeat):
                        line = await reader.readuntil(b"\n")
                except TimeoutError:
                    idle += 1
                    if idle >= 3:
                        break
                    self.core.heartbeat()
                    self._pump()
                    continue
                except asyncio.LimitOverrunError:
                    self.core.receive(b"x" * (MAX_FRAME + 1))
                    self._pump()
                    break
                except (asyncio.IncompleteReadError, ConnectionError, OSError):
                    break
                idle = 0
                if chan is not None:
                    try:
                        line = chan.open(line)
                    except _channel().Tampered as exc:
                        self.core.tampered(f"{exc}: somebody on the path altered, replayed or "
                                           "reordered the stream; the connection is closed")
                        self._pump()
                        break
                elif not self.core.link.authed and msgs.frame_type(line) == "pake":
                    with contextlib.suppress(asyncio.QueueFull):
                        wq.put_nowait(error("code", "this host plays without an invitation "
                                                    "code (it runs with --open): join it "
                                                    "with --open"))
                    break
                self.core.receive(line.rstrip(b"\r\n"))
                self._commit(chan)
                self._pump()
                if self.core.link.closing:
                    break
        finally:
            self.core.connection_lost()
            self._wq = None
            with contextlib.suppress(asyncio.QueueFull):
                wq.put_nowait(None)
            with contextlib.suppress(TimeoutError, OSError), logged("the duel's writer"):
                async with asyncio.timeout(self.write_timeout):
                    await wtask
            wtask.cancel()
            with contextlib.suppress(OSError, TimeoutError, RuntimeError):  # (it is gone)
                writer.close()
                async with asyncio.timeout(1):
                    await writer.wait_closed()
            if not self.core.finished and self.core.started and not self.core.match.refused:
                self._set_state("reconnecting")
            self._pump()

    async def _writer(self, writer: asyncio.StreamWriter, wq: asyncio.Queue[bytes | None],
                      chan: Channel | None = None) -> None:
        while True:
            data = await wq.get()
            if data is None:
                break
            writer.write(chan.seal(data) if chan is not None else data)
            async with asyncio.timeout(self.write_timeout):
                await writer.drain()
        with contextlib.suppress(OSError, RuntimeError):  # (the connection is gone)
            if writer.can_write_eof():
                writer.write_eof()

    def _pump(self) -> None:
        """Gives the core the time (so that a drop or a resume is counted from the moment it
        happened, not from the clock's next tick), then moves its frames to the writer and
        its events to the screen."""
        self.core.tick(asyncio.get_running_loop().time())
        out = self.core.outgoing()
        wq = self._wq
        if wq is not None:
            for data in out:
                try:
                    wq.put_nowait(data)
                except asyncio.QueueFull:  # the peer does not read: drop the connection
                    self._wq = None
                    break
        for e in self.core.events():
            self.emit(e)
        if self.core.link.closing and wq is not None and self._wq is wq:
            with contextlib.suppress(asyncio.QueueFull):
                wq.put_nowait(None)
            self._wq = None

    def emit(self, e: ev.Event) -> None:
        """Tells the screen (``events()``) what happened."""
        if isinstance(e, ev.ConnectionState):
            if e.state == self.state and not e.detail:
                return
            self.state = e.state
        self._events.put_nowait(e)

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.emit(ev.ConnectionState(state))


def _resume(journal_path: str | os.PathLike[str] | None,
            fsync: bool = True) -> tuple[DuelCore | None, str]:
    """The unfinished match logged at ``journal_path`` (None when there is none), and a
    notice for the player when its log could not be read (it was moved aside)."""
    if not journal_path:
        return None, ""
    try:
        return jr.resume(journal_path, fsync=fsync), ""
    except jr.UnreadableLog as exc:
        return None, str(exc)

