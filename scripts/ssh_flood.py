"""A visitor who floods `tui-domino serve` with keys, on loopback: prints figures.

    python3 scripts/ssh_flood.py [--rate 100000] [--seconds 10] [--keys v]

Starts `python -m tui_domino.ssh.cli serve --port 0` (every limit at its default) in a
temporary data directory. Two visitors come in, each from an address of its own: eve, the
flooder, and bob, who plays on. Then eve sends ``--rate`` bytes a second of keys (``--keys``,
repeated, in packets of about ``--packet`` bytes; ``v`` changes the lobby's game, the
costliest key the lobby has) for ``--seconds``, while

- her game's memory (the resident size of its process) is read every 0.1 s;
- bob presses ``v`` every 0.25 s and the time until his screen shows the next game is
  taken (his echo latency).

When the flood ends, eve presses ``p`` (her game's menu) and the time until her screen
shows it is taken: how soon the flooder's own game answers again.

Loopback only; every wait is bounded; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import ssh_load
from ssh_load import LOBBY, Server, address, connect  # the same harness


class Session(ssh_load.Session):
    async def wait_for_after(self, text: bytes, start: int, timeout: float) -> bool:
        """Waits until ``text`` is in what was received from ``start`` on."""
        deadline = time.monotonic() + timeout
        while text not in self.output[start:]:
            left = deadline - time.monotonic()
            if left <= 0 or self.closed.is_set():
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True

GAMES = [title.encode() for title in ("Classic dominoes", "Domino Spider", "Triominos")]
MENU = b"Learn to play"


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("PPid:") and int(line.split()[1]) == pid:
                found.add(int(status.parent.name))
    return found


def rss_kib(pid: int) -> int:
    """The resident size of ``pid`` and its children, in KiB (0 once it is gone)."""
    total = 0
    for p in {pid} | children(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


async def arrive(server: Server, name: str, n: int) -> tuple[Session, int]:
    """A visitor in the lobby, with the pid of his game."""
    assert server.proc is not None
    before = children(server.proc.pid)
    conn, _ = await connect(server.port, name, address(n))
    chan, session = await conn.create_session(Session, term_type="xterm-256color",
                                              term_size=(80, 24), encoding=None)
    session.chan = chan  # type: ignore[attr-defined]
    if not await session.wait_for(LOBBY, 60):
        raise SystemExit(f"{name} did not reach the lobby: {bytes(session.output[-600:])!r}")
    (pid,) = children(server.proc.pid) - before
    return session, pid


async def echo(session: Session, expected: int, timeout: float = 10.0) -> float:
    """Presses v and waits until the lobby names game ``expected`` (an index in GAMES): the
    seconds it took."""
    start = len(session.output)
    t0 = time.monotonic()
    session.chan.write(b"v")  # type: ignore[attr-defined]
    if await session.wait_for_after(GAMES[expected], start, timeout):
        return time.monotonic() - t0
    return float("inf")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=int, default=100_000, help="bytes a second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--keys", default="v")
    parser.add_argument("--packet", type=int, default=1000, help="bytes a packet")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        server = Server(home)
        await server.start()
        try:
            eve, eve_pid = await arrive(server, "eve", 1)
            bob, _ = await arrive(server, "bob", 2)
            await asyncio.sleep(1.0)
            start_rss = rss_kib(eve_pid)
            peak = [start_rss]
            latencies: list[float] = []
            done = asyncio.Event()

            async def watch() -> None:
                while not done.is_set():
                    peak.append(rss_kib(eve_pid))
                    await asyncio.sleep(0.1)

            async def play_on() -> None:
                shown = 0
                while not done.is_set():
                    shown = (shown + 1) % len(GAMES)
                    latencies.append(await echo(bob, shown))
                    await asyncio.sleep(0.25)

            tasks = [asyncio.ensure_future(watch()), asyncio.ensure_future(play_on())]
            keys = args.keys.encode()
            packet = keys * max(1, args.packet // len(keys))  # whole keys, as a terminal sends
            t0 = time.monotonic()
            sent = 0
            while time.monotonic() - t0 < args.seconds:
                for _ in range(max(1, args.rate // 10 // len(packet))):
                    eve.chan.write(packet)  # type: ignore[attr-defined]
                    sent += len(packet)
                    await asyncio.sleep(0)  # a packet each
                await asyncio.sleep(max(0.0, t0 + sent / args.rate - time.monotonic()))
            flood_end = time.monotonic()
            start = len(eve.output)
            eve.chan.write(b"p")  # type: ignore[attr-defined]
            while not await eve.wait_for_after(MENU, start, 1.0) and \
                    time.monotonic() - flood_end < 300:
                peak.append(rss_kib(eve_pid))
            answered = time.monotonic() - flood_end
            done.set()
            await asyncio.gather(*tasks)
            finite = sorted(x for x in latencies if x != float("inf"))
            print(f"flood: {sent:,} bytes of {args.keys!r} in {flood_end - t0:.1f} s "
                  f"({sent / (flood_end - t0):,.0f} bytes/s) from eve")
            print(f"eve's game: {start_rss / 1024:.0f} MB before, peak "
                  f"{max(peak) / 1024:.0f} MB; answered {answered:.2f} s after the flood "
                  f"ended")
            if finite:
                p95 = finite[min(len(finite) - 1, int(0.95 * len(finite)))]
                print(f"bob's echo during the flood: {len(latencies)} presses, median "
                      f"{statistics.median(finite) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
                      f"max {finite[-1] * 1000:.0f} ms, unanswered "
                      f"{len(latencies) - len(finite)}")
            eve.chan.close()  # type: ignore[attr-defined]
            for _ in range(50):
                if any("dropped" in line for _, line in server.log):
                    break
                await asyncio.sleep(0.1)
            dropped = [line for _, line in server.log if "dropped" in line]
            print("\n".join(dropped[-2:]) or "(nothing dropped by the server)")
        finally:
            await server.stop()
    sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main())
