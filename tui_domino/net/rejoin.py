"""The joiner's connection loop: serve the connection; when it drops in the middle of a
match, connect again (backing off, at most two seconds apart) until the host takes the
resume, the core's resume window (counted on the session's clock) runs out, or the host
refuses in words."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tui_domino.net import events as ev
from tui_domino.net.handshake_io import channel_module

if TYPE_CHECKING:
    from tui_domino.net.channel import Channel
    from tui_domino.net.transport import DuelSession

HANDSHAKE_TIMEOUT = 10.0  # seconds for a reconnection's handshake


async def join_loop(session: DuelSession, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter, chan: Channel | None = None) -> None:
    """Runs the joiner's connections, the first one (``reader``, ``writer``, ``chan``) and
    every reconnection, until the match is over or cannot be taken up again."""
    s = session
    while True:
        s._conn = asyncio.current_task()
        await s._serve(reader, writer, None, chan)
        if s.core.finished or not s.core.started:
            break
        # Reconnect until the host takes the resume, or the core's resume window (on the
        # clock task) runs out.
        delay = 0.05
        while True:
            await asyncio.sleep(min(delay, s.tick_every * 4))
            if s.core.finished or s._closing:
                s._close_soon()
                return
            delay = min(delay * 2, 2.0)
            try:
                assert s._target is not None
                async with asyncio.timeout(5.0):
                    reader, writer = await asyncio.open_connection(
                        *s._target, limit=s._limit())
            except (OSError, TimeoutError):
                continue
            if not s.secure:
                break
            ch = channel_module()
            try:
                async with asyncio.timeout(HANDSHAKE_TIMEOUT):
                    chan = await s.handshakes.join(reader, writer)
                break
            except ch.Refused as exc:
                writer.close()
                if exc.code in ("tampered", "bad_frame", "too_large"):
                    continue  # somebody on the path: try again
                # The host will not take this match up (it knows another, or none):
                # the log stays, for a later try.
                s.emit(ev.ProtocolError(exc.code, exc.message, from_peer=True))
                s.emit(ev.ConnectionState("closed", exc.message))
                s._close_soon()
                return
            except (OSError, TimeoutError):
                writer.close()
                continue
    s._close_soon()
