"""The channel's handshakes on a ``DuelSession``'s connections (net/channel.py says what is
exchanged; this is the I/O around it): the host's side, which has each guess of its
invitation code checked as net/guessing.py's guard allows (one at a time, spaced, never on a
dead code, a source that keeps guessing wrong shut out), and the joiner's
(``join_channel``). A refusal is told in words, in plain text or sealed (``refuse``)."""

from __future__ import annotations

import asyncio
import contextlib
from types import ModuleType
from typing import TYPE_CHECKING

from tui_domino.net import events as ev
from tui_domino.net.guessing import Guard, source_of
from tui_domino.net.messages import error

if TYPE_CHECKING:
    from tui_domino.net.channel import Channel, Kind
    from tui_domino.net.transport import DuelSession


def channel_module() -> ModuleType:
    """``tui_domino.net.channel``, imported when a channel is first needed."""
    # lazy: start-up (the channel and PyNaCl only for a code: not with the parser)
    from tui_domino.net import channel

    return channel


class Handshakes:
    """The handshakes of one session's connections, and the guard of its invitation code
    (``session.code``) against guessing (net/guessing.py)."""

    def __init__(self, session: DuelSession) -> None:
        self.session = session
        self.guard = Guard(code_tries=session.code_tries, spacing=session.code_penalty)
        self.judging = asyncio.Lock()  # guesses are checked one at a time

    def configure(self, code_tries: int | None, spacing: float) -> None:
        """The host's limits (``DuelSession.host``'s ``code_tries`` and ``code_penalty``)."""
        self.guard.code_tries, self.guard.spacing = code_tries, spacing

    def code_live(self) -> bool:
        """Whether the invitation code still lets a joiner in: until the match's first
        game frame from him (before it, his welcome may have been lost: he greets again)."""
        s = self.session
        return s.code is not None and (not s.core.started or s.core.link.received == 0)

    async def host(self, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> Channel | None:
        """The channel of a new connection to the host's port, or None when it was refused
        (in words, in plain text) or broke off. A wrong code costs the match nothing."""
        source = source_of(writer.get_extra_info("peername"))
        refused = self.guard.enter(source)
        if refused is not None:
            await refuse(writer, refused.code, refused.message)
            return None
        try:
            return await self._host(reader, writer, source)
        finally:
            self.guard.leave(source)

    async def _host(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    source: str) -> Channel | None:
        ch = channel_module()
        s = self.session
        try:
            async with asyncio.timeout(s.heartbeat):
                line = await reader.readuntil(b"\n")
            first = ch.read_pake(line.rstrip(b"\r\n"))
            generation: int | None = None
            if first.kind == "code":
                if not self.code_live() or s.code is None:
                    raise ch.HandshakeError("busy", "a match is already being played here "
                                                    "(its invitation code was used)")
                generation = self.guard.generation
                password = ch.code_password(s.code)
            else:
                if not (s.core.started and s.core.tokens.channel_secret):
                    raise ch.HandshakeError("token", "there is no match to resume here")
                password = ch.resume_password(s.core.tokens.channel_secret)
            exchange = ch.Exchange("host", password)
            writer.write(ch.pake_line(first.kind, exchange.message))
            chan: Channel = exchange.finish(bytes.fromhex(first.msg))
            async with asyncio.timeout(s.heartbeat):
                await writer.drain()
                line = await reader.readuntil(b"\n")
            if generation is None:
                try:
                    chan.check_confirm(line)
                except ch.Tampered:
                    raise ch.HandshakeError("token", "wrong resume secret: this connection "
                                                     "is not the match's joiner") from None
            else:
                await self.judge(chan, line, source, generation)
            writer.write(chan.confirm())
        except ch.HandshakeError as exc:
            await refuse(writer, exc.code, exc.message)
            return None
        except (TimeoutError, asyncio.LimitOverrunError, asyncio.IncompleteReadError,
                ConnectionError, OSError):
            writer.close()
            return None
        chan.kind = first.kind
        return chan

    async def judge(self, chan: Channel, line: bytes, source: str, generation: int) -> None:
        """Checks a guess of the code (the joiner's key confirmation, made on the code of
        ``generation``): one at a time, spaced after a wrong one, never against a code that
        died meanwhile. Raises ``HandshakeError`` when it is refused or wrong."""
        ch = channel_module()
        loop = asyncio.get_running_loop()
        async with self.judging:
            wait = self.guard.wait(loop.time())
            if wait > 0:
                await asyncio.sleep(wait)
            refused = self.guard.refusal(source, generation)
            if refused is not None:
                raise ch.HandshakeError(refused.code, refused.message)
            if not self.code_live():
                raise ch.HandshakeError("busy", "a match is already being played here")
            try:
                chan.check_confirm(line)
            except ch.Tampered:
                raise ch.HandshakeError("code", self.wrong_code(source)) from None
            self.guard.right(source, loop.time())

    def wrong_code(self, source: str) -> str:
        """Counts a wrong guess from ``source``; replaces the code when it was the last one
        the code allows. Returns what the one who tried it is told."""
        ch = channel_module()
        s = self.session
        old = s.code
        wrong = self.guard.wrong_guess(source, asyncio.get_running_loop().time())
        shut = (f" {source} tried {self.guard.source_tries} wrong codes and is not answered "
                "any more." if wrong.shut_out else "")
        if wrong.replaced:
            s.code = ch.new_code()
            s.emit(ev.ProtocolError("code", (
                f"{self.guard.code_tries} wrong invitation codes were tried: {old} is no "
                f"longer valid. The new code is {s.code}.{shut}")))
            s.emit(ev.Invitation(s.code, s.join_command()))
        else:
            s.emit(ev.ProtocolError("code", wrong.notice))
        return wrong.told

    async def join(self, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> Channel:
        """The joiner's side: on the code for a new match, on the resume secret for one
        under way. Raises ``channel.Refused`` when the host refuses in words (or the
        handshake shows tampering), OSError or TimeoutError when the connection fails."""
        ch = channel_module()
        s = self.session
        kind: Kind
        if s.core.started:
            if not s.core.tokens.channel_secret:
                raise ch.Refused("token", "this match began without an invitation code: "
                                          "join it with --open, or start afresh (--fresh)")
            kind, password = "resume", ch.resume_password(s.core.tokens.channel_secret)
        else:
            if s.code is None:
                raise ch.Refused("code", "joining needs the host's invitation code")
            kind, password = "code", ch.code_password(s.code)
        return await join_channel(reader, writer, kind, password)


async def join_channel(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                       kind: Kind, password: bytes) -> Channel:
    """The joiner's handshake on one connection (``kind`` code or resume, the password
    made from it): the channel, or ``channel.Refused`` when the host refuses in words (or
    the handshake shows tampering); OSError when the connection fails."""
    ch = channel_module()
    exchange = ch.Exchange("join", password)
    try:
        writer.write(ch.pake_line(kind, exchange.message))
        await writer.drain()
        line = await reader.readuntil(b"\n")
        chan: Channel = exchange.finish(ch.read_reply(line.rstrip(b"\r\n"), kind))
        writer.write(chan.confirm())
        await writer.drain()
        line = await reader.readuntil(b"\n")
        refused = ch.refusal(line.rstrip(b"\r\n"))
        if refused is not None:
            raise refused
        chan.check_confirm(line)
    except ch.HandshakeError as exc:
        raise ch.Refused(exc.code, f"the host's handshake is broken: {exc.message}"
                         ) from None
    except ch.Tampered:
        raise ch.Refused("tampered", "the host's key confirmation did not open: somebody "
                                     "on the path altered the handshake") from None
    except asyncio.IncompleteReadError:
        raise ConnectionResetError("the host closed the connection during the "
                                   "handshake") from None
    except asyncio.LimitOverrunError:
        raise ch.Refused("too_large", "the host's handshake line is too long") from None
    chan.kind = kind
    return chan


async def refuse(writer: asyncio.StreamWriter, code: str, message: str,
                 chan: Channel | None = None) -> None:
    """Refuses a connection in words (sealed when it has a channel) and closes it."""
    with contextlib.suppress(OSError, TimeoutError, RuntimeError):  # (he may be gone)
        data = error(code, message)
        writer.write(chan.seal(data) if chan is not None else data)
        async with asyncio.timeout(1):
            await writer.drain()
        writer.close()
