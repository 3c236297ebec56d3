"""The channel's handshakes on a ``DuelSession``'s connections (net/channel.py says what is
exchanged; this is the I/O around it): the host's side, which counts wrong invitation codes
(each next try answered a little later, the code replaced after ``code_tries`` of them), and
the joiner's. A refusal is told in words, in plain text or sealed (``refuse``)."""

from __future__ import annotations

import asyncio
import contextlib
from types import ModuleType
from typing import TYPE_CHECKING

from tui_domino.net import events as ev
from tui_domino.net.messages import error

if TYPE_CHECKING:
    from tui_domino.net.channel import Channel
    from tui_domino.net.transport import DuelSession


def channel_module() -> ModuleType:
    """``tui_domino.net.channel``, imported when a channel is first needed."""
    # lazy: start-up (the channel and PyNaCl only for a code: not with the parser)
    from tui_domino.net import channel

    return channel


class Handshakes:
    """The handshakes of one session's connections, and the count of wrong codes tried on
    its invitation code (``session.code``)."""

    def __init__(self, session: DuelSession) -> None:
        self.session = session
        self.wrong = 0  # wrong tries of the current code
        self.next_try = 0.0  # loop time before which a try of the code is not answered

    def code_live(self) -> bool:
        """Whether the invitation code still lets a joiner in: until the match's first
        game frame from him (before it, his welcome may have been lost: he greets again)."""
        s = self.session
        return s.code is not None and (not s.core.started or s.core.received == 0)

    async def host(self, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> Channel | None:
        """The channel of a new connection to the host's port, or None when it was refused
        (in words, in plain text) or broke off. A wrong code costs the match nothing."""
        ch = channel_module()
        s = self.session
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(s.heartbeat):
                line = await reader.readuntil(b"\n")
            first = ch.read_pake(line.rstrip(b"\r\n"))
            code = None
            if first.kind == "code":
                if not self.code_live():
                    raise ch.HandshakeError("busy", "a match is already being played here "
                                                    "(its invitation code was used)")
                wait = self.next_try - loop.time()
                if wait > 0:  # wrong codes were tried: each next try waits longer
                    await asyncio.sleep(wait)
                code = s.code
                if code is None or not self.code_live():
                    raise ch.HandshakeError("busy", "a match is already being played here")
                password = ch.code_password(code)
            else:
                if not (s.core.started and s.core.channel_secret):
                    raise ch.HandshakeError("token", "there is no match to resume here")
                password = ch.resume_password(s.core.channel_secret)
            exchange = ch.Exchange("host", password)
            writer.write(ch.pake_line(first.kind, exchange.message))
            chan: Channel = exchange.finish(bytes.fromhex(first.msg))
            async with asyncio.timeout(s.heartbeat):
                await writer.drain()
                line = await reader.readuntil(b"\n")
            try:
                chan.check_confirm(line)
            except ch.Tampered:
                if code is not None:
                    raise ch.HandshakeError("code", self.wrong_code(code)) from None
                raise ch.HandshakeError("token", "wrong resume secret: this connection "
                                                 "is not the match's joiner") from None
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

    def wrong_code(self, code: str) -> str:
        """Counts a wrong try of ``code``; replaces the code after ``code_tries`` of them.
        Returns what the one who tried it is told."""
        ch = channel_module()
        s = self.session
        if code != s.code:
            return "wrong invitation code"
        loop = asyncio.get_running_loop()
        self.next_try = max(loop.time(), self.next_try) + s.code_penalty
        self.wrong += 1
        if s.code_tries is not None and self.wrong >= s.code_tries:
            s.code, self.wrong = ch.new_code(), 0
            s._emit(ev.ProtocolError("code", (
                f"{s.code_tries} wrong invitation codes were tried: {code} is no longer "
                f"valid. The new code is {s.code}")))
            s._emit(ev.Invitation(s.code, s.join_command()))
            return ("wrong invitation code; the host has replaced it after too many wrong "
                    "tries: ask for the new one")
        left = "" if s.code_tries is None else (
            f" ({s.code_tries - self.wrong} more before it is replaced)")
        s._emit(ev.ProtocolError("code", f"somebody tried a wrong invitation code{left}; "
                                         "still waiting for an opponent"))
        return "wrong invitation code: check it with the host"

    async def join(self, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> Channel:
        """The joiner's side: on the code for a new match, on the resume secret for one
        under way. Raises ``channel.Refused`` when the host refuses in words (or the
        handshake shows tampering), OSError or TimeoutError when the connection fails."""
        ch = channel_module()
        s = self.session
        if s.core.started:
            if not s.core.channel_secret:
                raise ch.Refused("token", "this match began without an invitation code: "
                                          "join it with --open, or start afresh (--fresh)")
            kind, password = "resume", ch.resume_password(s.core.channel_secret)
        else:
            if s.code is None:
                raise ch.Refused("code", "joining needs the host's invitation code")
            kind, password = "code", ch.code_password(s.code)
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
    with contextlib.suppress(Exception):
        data = error(code, message)
        writer.write(chan.seal(data) if chan is not None else data)
        async with asyncio.timeout(1):
            await writer.drain()
        writer.close()
