"""How `tui-domino serve` holds up with its public defaults, on loopback: prints figures.

    python3 scripts/ssh_load.py [--visitors 32] [--idle 50] [--sessions 7]

Starts `python -m tui_domino.ssh.cli serve --port 0 -v` (every limit at its default) in a
temporary data directory, then, all at once:

- ``--visitors`` visitors (asyncssh clients with a terminal, each from an address of
  its own in 127.0.0.0/8, as many friends on as many machines) connect and wait for the
  lobby;
- ``--idle`` connections from one address log in and open nothing (``ssh -N``);
- once the visitors are seated, one more connection asks for ``--sessions`` sessions.

Then, with the table empty again: the same number of sessions on one connection with
seats free, and a client that grants a 4 GiB window and stops reading (behind a relay
that stops reading what the server sends, while the client goes on resizing its
terminal so that the game keeps drawing): the time until the server drops it, and the
server's memory meanwhile.

Loopback only; every wait is bounded; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
LOBBY = "tui-domino · lobby".encode()
WINDOW_4GIB = 2**32 - 1


class Session(asyncssh.SSHClientSession):  # type: ignore[misc]
    def __init__(self) -> None:
        self.output = bytearray()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.output += data
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    async def wait_for(self, text: bytes, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            left = deadline - time.monotonic()
            if left <= 0 or self.closed.is_set():
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))
        return True


class Client(asyncssh.SSHClient):  # type: ignore[misc]
    def __init__(self) -> None:
        self.lost = asyncio.Event()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost.set()


async def connect(port: int, name: str, local: str, host: str = "127.0.0.1",
                  **kw: Any) -> tuple[Any, Client]:
    return await asyncssh.create_connection(
        Client, host, port, username=name, known_hosts=None, client_keys=None,
        agent_path=None, password="", kbdint_auth=True,  # a guest, as ssh clients come in
        local_addr=(local, 0), connect_timeout=60, **kw)


def address(n: int, block: int = 1) -> str:
    return f"127.{block}.{n // 250}.{n % 250 + 1}"


# -- the server ----------------------------------------------------------------------------

class Server:
    """``tui-domino serve --port 0`` in a process of its own, ``options`` added to its
    command line and ``env`` to its environment; its output kept as a log."""

    def __init__(self, home: str, options: tuple[str, ...] = ("-v",),
                 env: dict[str, str] | None = None) -> None:
        self.home = home
        self.options = options
        self.env = env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0
        self.log: list[tuple[float, str]] = []
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        env = {**os.environ, "TUI_DOMINO_HOME": self.home, "TUI_DOMINO_DELAY": "0",
               "PYTHONPATH": str(ROOT), **self.env}
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui_domino.ssh.cli", "serve", "--port", "0", *self.options,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)
        assert self.proc.stdout is not None
        banner = ""
        while "Ctrl-C" not in banner:
            line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
            if not line:
                raise SystemExit(f"the server did not start:\n{banner}")
            banner += line.decode()
        found = re.search(r"port (\d+)", banner)
        assert found is not None
        self.port = int(found.group(1))
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            self.log.append((time.monotonic(), line.decode(errors="replace").rstrip()))

    def rss_kib(self) -> int:
        assert self.proc is not None
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def logged_after(self, since: float, text: str) -> float | None:
        return next((t for t, line in self.log if t >= since and text in line), None)

    async def stop(self) -> None:
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(self.proc.wait(), 30)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        if self._reader is not None:
            self._reader.cancel()


# -- a relay that stops reading -------------------------------------------------------------

class Relay:
    """Between a client and the server; ``freeze()`` stops reading what the server sends
    (the client's own bytes still go through). ``reset_at``: when the server's side of
    the connection failed."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.frozen = False
        self.reset_at: float | None = None
        self.socks: list[socket.socket] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> int:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        listener.setblocking(False)
        self.socks.append(listener)
        self.tasks.append(asyncio.ensure_future(self._accept(listener)))
        return int(listener.getsockname()[1])

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        client, _ = await loop.sock_accept(listener)
        upstream = socket.socket()
        upstream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
        upstream.setblocking(False)
        client.setblocking(False)
        await loop.sock_connect(upstream, ("127.0.0.1", self.target))
        self.socks += [client, upstream]
        self.tasks.append(asyncio.ensure_future(self._pump(upstream, client, down=True)))
        self.tasks.append(asyncio.ensure_future(self._pump(client, upstream, down=False)))

    async def _pump(self, src: socket.socket, dst: socket.socket, down: bool) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                while down and self.frozen:
                    await asyncio.sleep(0.05)
                data = await loop.sock_recv(src, 65536)
                if not data:
                    break
                await loop.sock_sendall(dst, data)
        except OSError:
            pass
        if self.reset_at is None:  # the server closed or reset its side
            self.reset_at = time.monotonic()

    def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for sock in self.socks:
            sock.close()


# -- the parts -----------------------------------------------------------------------------

async def one_visitor(port: int, n: int, t0: float) -> tuple[str, float, Any]:
    try:
        conn, _ = await connect(port, f"p{n}", address(n))
        _, session = await conn.create_session(Session, term_type="xterm-256color",
                                               term_size=(80, 24), encoding=None)
    except (OSError, asyncssh.Error) as exc:
        return f"refused: {getattr(exc, 'reason', exc)}", time.monotonic() - t0, None
    ok = await session.wait_for(LOBBY, 180)
    return ("lobby" if ok else "no lobby"), time.monotonic() - t0, conn


async def one_idle(port: int, n: int, t0: float) -> tuple[str, float, float]:
    """(what happened, when it was decided, when the connection ended)."""
    try:
        conn, client = await connect(port, f"idle{n}", "127.0.9.1")
    except asyncssh.ConnectionLost as exc:
        now = time.monotonic() - t0
        return f"reset without a word ({exc.reason})", now, now
    except asyncssh.DisconnectError as exc:
        now = time.monotonic() - t0
        return f"refused in words: {exc.reason}", now, now
    except (OSError, asyncssh.Error) as exc:
        now = time.monotonic() - t0
        return f"reset without a word ({type(exc).__name__})", now, now
    admitted = time.monotonic() - t0
    try:
        await asyncio.wait_for(client.lost.wait(), 120)
    except TimeoutError:
        conn.close()
        return "admitted and still open after 120 s", admitted, float("nan")
    return "admitted, closed by the server", admitted, time.monotonic() - t0


async def many_sessions(port: int, count: int, local: str, name: str) -> list[str]:
    try:
        conn, _ = await connect(port, name, local)
    except (OSError, asyncssh.Error) as exc:
        return [f"the connection was refused: {getattr(exc, 'reason', exc)}"] * count
    results = []
    sessions = []
    for _ in range(count):
        try:
            _, session = await conn.create_session(Session, term_type="xterm",
                                                   term_size=(80, 24), encoding=None)
            sessions.append(session)
            results.append("opened")
        except asyncssh.ChannelOpenError as exc:
            results.append(f"refused: {exc.reason}")
    if sessions:
        first = sessions[0]
        if await first.wait_for(LOBBY, 60):
            results[0] = "opened: a game (the lobby)"
        elif b"table is full" in first.output:
            results[0] = "opened: told the table is full"
    conn.close()
    return results


async def stalled_client(server: Server, limit: float) -> dict[str, Any]:
    relay = Relay(server.port)
    relay_port = await relay.start()
    conn = await asyncssh.connect("127.0.0.1", relay_port, username="deaf", known_hosts=None,
                                  client_keys=None, agent_path=None, password="",
                                  kbdint_auth=True)
    chan, session = await conn.create_session(Session, term_type="xterm-256color",
                                              term_size=(80, 24), encoding=None,
                                              window=WINDOW_4GIB)
    await session.wait_for(LOBBY, 60)
    rss_before = server.rss_kib()
    relay.frozen = True
    frozen_at = time.monotonic()
    rss_peak = rss_before
    sizes = [(80, 24), (120, 40), (100, 30), (160, 50)]
    n = 0
    while relay.reset_at is None and time.monotonic() - frozen_at < limit:
        with contextlib.suppress(Exception):
            chan.change_terminal_size(*sizes[n % len(sizes)])  # each makes the game redraw
        n += 1
        rss_peak = max(rss_peak, server.rss_kib())
        await asyncio.sleep(0.1)
    dropped = relay.reset_at
    logged = server.logged_after(frozen_at, "deaf was not taking output")
    conn.abort()
    relay.close()
    return {
        "dropped_after": None if dropped is None else dropped - frozen_at,
        "logged_after": None if logged is None else logged - frozen_at,
        "resizes": n, "rss_before": rss_before, "rss_peak": rss_peak,
    }


# -- the run -------------------------------------------------------------------------------

async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="ssh-load-") as home:
        server = Server(home)
        await server.start()
        print(f"server: tui-domino serve --port 0 -v (every limit at its default), port "
              f"{server.port}; {args.visitors} visitors, {args.idle} idle connections, "
              f"{args.sessions} sessions on one connection")
        try:
            await measure(server, args)
        finally:
            await server.stop()


async def measure(server: Server, args: argparse.Namespace) -> None:
    port = server.port
    t0 = time.monotonic()
    idle = [asyncio.ensure_future(one_idle(port, n, t0)) for n in range(args.idle)]
    visitors = await asyncio.gather(*(one_visitor(port, n, t0)
                                      for n in range(args.visitors)))
    seated = [v for v in visitors if v[0] == "lobby"]
    print(f"\nvisitors in the lobby: {len(seated)} of {args.visitors}, the last after "
          f"{max((v[1] for v in seated), default=0):.1f} s")
    for what in sorted({v[0] for v in visitors} - {"lobby"}):
        print(f"  {sum(v[0] == what for v in visitors)}: {what}")
    hog = await many_sessions(port, args.sessions, "127.0.10.1", "hog")
    print(f"\n{args.sessions} sessions on one connection, with the table full:")
    for what in dict.fromkeys(hog):
        print(f"  {hog.count(what)}: {what}")

    results = await asyncio.gather(*idle)
    print(f"\n{args.idle} idle connections from 127.0.9.1 (seconds from the start):")
    for what in dict.fromkeys(r[0] for r in results):
        group = [r for r in results if r[0] == what]
        decided = [r[1] for r in group]
        ended = [r[2] for r in group if r[2] == r[2]]
        line = (f"  {len(group)}: {what}; decided at {min(decided):.1f}-{max(decided):.1f} s")
        if ended and what.startswith("admitted"):
            line += (f", closed at {min(ended):.1f}-{max(ended):.1f} s "
                     f"({min(e - d for _w, d, e in group):.1f}-"
                     f"{max(e - d for _w, d, e in group):.1f} s after logging in)")
        print(line)
    for _what, _t, conn in visitors:
        if conn is not None:
            conn.close()
    deadline = time.monotonic() + 60
    departures = 0
    while time.monotonic() < deadline and departures < len(seated):
        departures = sum(" left" in line and line.split()[1].startswith("p")
                         for t, line in server.log if t >= t0)
        await asyncio.sleep(0.2)
    print(f"\ndepartures logged: {departures} for {len(seated)} visitors who hung up")

    await asyncio.sleep(2)
    hog = await many_sessions(port, args.sessions, "127.0.10.2", "hog2")
    print(f"\n{args.sessions} sessions on one connection, with seats free:")
    for what in dict.fromkeys(hog):
        print(f"  {hog.count(what)}: {what}")

    stall = await stalled_client(server, limit=120)
    print("\na client granting a 4 GiB window that stops reading (stall limit 30 s):")
    if stall["dropped_after"] is None:
        print("  not dropped within 120 s")
    else:
        print(f"  dropped {stall['dropped_after']:.1f} s after it stopped reading "
              f"(the server logged it at {stall['logged_after'] or float('nan'):.1f} s); "
              f"{stall['resizes']} resizes meanwhile")
    print(f"  server memory (RSS): {stall['rss_before'] / 1024:.1f} MiB before, "
          f"{stall['rss_peak'] / 1024:.1f} MiB at most while it was stalled")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--visitors", type=int, default=32)
    parser.add_argument("--idle", type=int, default=50)
    parser.add_argument("--sessions", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(asyncio.wait_for(run(args), 600))


if __name__ == "__main__":
    main()
