"""A stranger guessing a host's invitation code: one connection from a chosen loopback
address (127.0.0.2, 127.0.0.3, ...: each is a source of its own to the host's guard), the
joiner's handshake on the guess, and what came of it."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from tui_domino.net import channel as ch
from tui_domino.net.handshake_io import join_channel

WAIT = 30.0  # seconds: a bound on one guess, never reached when all is well


@dataclass
class Hold:
    """Guesses that hold their key exchanges open until ``release``: ``exchanged`` counts
    those whose host answered the exchange."""

    exchanged: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)

    async def until_exchanged(self, n: int) -> None:
        async with asyncio.timeout(WAIT):
            while self.exchanged < n:
                await asyncio.sleep(0.01)

    def release(self) -> None:
        self.go.set()


async def guess(port: int, code: str, source: str = "127.0.0.1",
                hold: Hold | None = None) -> ch.Refused | ch.Channel:
    """Tries ``code`` on the host at 127.0.0.1:``port`` from ``source``: the channel when
    the host let it in, else its refusal in words. With ``hold`` the guess waits between
    the key exchange and the confirmation until it is released, so that many guesses hold
    their exchanges open together and confirm at once."""
    async with asyncio.timeout(WAIT):
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
        try:
            if hold is None:
                return await join_channel(reader, writer, "code", ch.code_password(code))
            return await _held(reader, writer, code, hold)
        except ch.Refused as exc:
            return exc
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


async def _held(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, code: str,
                hold: Hold) -> ch.Refused | ch.Channel:
    exchange = ch.Exchange("join", ch.code_password(code))
    writer.write(ch.pake_line("code", exchange.message))
    await writer.drain()
    line = await reader.readuntil(b"\n")
    try:
        chan = exchange.finish(ch.read_reply(line.rstrip(b"\r\n"), "code"))
    except ch.Refused as exc:
        return exc
    hold.exchanged += 1
    await hold.go.wait()
    writer.write(chan.confirm())
    await writer.drain()
    line = await reader.readuntil(b"\n")
    refused = ch.refusal(line.rstrip(b"\r\n"))
    if refused is not None:
        return refused
    chan.check_confirm(line)
    return chan
