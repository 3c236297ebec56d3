"""A relay on loopback between an ssh client and the server that can stop passing bytes
on, as a client whose process was stopped (SIGSTOP) or that stopped reading."""

from __future__ import annotations

import asyncio
import contextlib
import socket


class Proxy:
    """``await start(port)``; connect to ``self.port``. ``freeze()`` stops reading what
    the server sends (and, with ``both``, what the client sends): the kernel's buffers
    fill and the server sees a client that takes nothing."""

    def __init__(self, rcvbuf: int = 16 * 1024) -> None:
        self.rcvbuf = rcvbuf
        self.port = 0
        self.frozen_down = False
        self.frozen_up = False
        self.server_gone = asyncio.Event()  # the server closed or reset the connection
        self._listener: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._socks: list[socket.socket] = []
        self._thaw = asyncio.Event()
        self._thaw.set()

    async def start(self, target: int, host: str = "127.0.0.1") -> int:
        self.target = (host, target)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.setblocking(False)
        self._socks.append(listener)
        self.port = listener.getsockname()[1]
        self._tasks.add(asyncio.ensure_future(self._accept(listener)))
        return self.port

    def freeze(self, both: bool = False) -> None:
        self.frozen_down = True
        self.frozen_up = both
        self._thaw.clear()

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            client, _ = await loop.sock_accept(listener)
            client.setblocking(False)
            upstream = socket.socket()
            # A small receive buffer: what the relay does not read stays with the server.
            upstream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.rcvbuf)
            upstream.setblocking(False)
            await loop.sock_connect(upstream, self.target)
            self._socks += [client, upstream]
            self._tasks.add(asyncio.ensure_future(self._pump(upstream, client, down=True)))
            self._tasks.add(asyncio.ensure_future(self._pump(client, upstream, down=False)))

    async def _pump(self, src: socket.socket, dst: socket.socket, down: bool) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                while self.frozen_down if down else self.frozen_up:
                    await self._thaw.wait()
                data = await loop.sock_recv(src, 65536)
                if not data:
                    break
                await loop.sock_sendall(dst, data)
        except OSError:
            if not down:  # writing to the server failed: it reset the connection
                self.server_gone.set()
        finally:
            if down:
                self.server_gone.set()
            with contextlib.suppress(OSError):
                dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for sock in self._socks:
            sock.close()
