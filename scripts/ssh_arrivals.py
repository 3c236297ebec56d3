"""How fast visitors arriving together reach the lobby, and what each costs in memory, with
the fork server and with every game started afresh: prints figures.

    python3 scripts/ssh_arrivals.py [--spawner both|fork|fresh] [--groups 10,32]
                                    [--moves 60]

For each spawner, starts ``python -m tui_domino.ssh.cli serve --port 0`` (every limit at its
default but ``--max-visitors 64``; ``TUI_DOMINO_FORK_SERVER`` 1 or 0) in a temporary data
directory; once the fork server is ready (its games forked), for each group size: that many
visitors (asyncssh clients with a terminal, each from an address of its own in 127.0.0.0/8)
connect at once. It prints the median and the longest time from connecting to the lobby's
title on the screen; the CPU time of the arrivals (the games', the server's, the clients');
the memory of their games (PSS from /proc/PID/smaps_rollup: each shared page counted in
parts among the processes sharing it; the fork server's own share given beside them); the
CPU the games and the server use over 10 s with the visitors idle in the lobby; and, with
the largest group still in the lobby, the duel protocol's move round trip on loopback
between two duel sessions of this script (scripts/bench_net.py's ``round_trip``).

Loopback only; every wait is bounded; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import ssh_load  # noqa: E402
from bench_net import round_trip  # noqa: E402
from ssh_load import LOBBY, Session, address, connect  # noqa: E402


async def one_visitor(port: int, n: int) -> tuple[float | None, Any]:
    """Seconds from connecting to the lobby (None: never), and the connection."""
    t0 = time.monotonic()
    conn, _ = await connect(port, f"p{n}", address(n, block=3))  # (a guest, from his address)
    _, session = await conn.create_session(Session, term_type="xterm-256color",
                                           term_size=(80, 24), encoding=None)
    ok = await session.wait_for(LOBBY, 120)
    return (time.monotonic() - t0 if ok else None), conn


# -- processes ------------------------------------------------------------------------------

def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return ""


def pss_kib(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


class Server(ssh_load.Server):
    """The server with the fork server (``fork``) or every game started afresh, up to 64
    visitors; ``start`` returns once the fork server, if any, has loaded the game."""

    def __init__(self, home: str, fork: bool) -> None:
        super().__init__(home, ("--max-visitors", "64"),
                         {"TUI_DOMINO_FORK_SERVER": "1" if fork else "0"})
        self.fork = fork

    async def start(self) -> None:
        await super().start()
        if self.fork:  # its fork server ready: its CPU idle again after loading the game
            await asyncio.sleep(1.0)
            while (zygote := self.zygote()) is None:
                await asyncio.sleep(0.2)
            last = -1.0
            while (now := cpu_seconds(zygote)) != last:
                last = now
                await asyncio.sleep(0.5)

    def zygote(self) -> int | None:
        assert self.proc is not None
        return next((p for p in children(self.proc.pid) if "fork_server" in cmdline(p)), None)

    def games(self) -> list[int]:
        assert self.proc is not None
        zygote = self.zygote()
        if zygote is not None:
            return children(zygote)
        return [p for p in children(self.proc.pid) if "tui_domino.ssh.visitor" in cmdline(p)]


async def group(server: Server, size: int, offset: int) -> tuple[list[float | None], list[Any]]:
    results = await asyncio.gather(*(one_visitor(server.port, offset + n) for n in range(size)))
    return [r[0] for r in results], [r[1] for r in results]


async def settle(server: Server, count: int) -> None:
    """Waits (bounded) until ``count`` games run."""
    deadline = time.monotonic() + 60
    while len(server.games()) != count and time.monotonic() < deadline:
        await asyncio.sleep(0.2)


async def measure(fork: bool, sizes: list[int], moves: int) -> None:
    name = "fork server" if fork else "every game afresh"
    with tempfile.TemporaryDirectory(prefix="ssh-arrivals-") as home:
        server = Server(home, fork)
        await server.start()
        assert server.proc is not None
        try:
            print(f"\n{name} (TUI_DOMINO_FORK_SERVER={int(fork)}):")
            offset = 0
            for i, size in enumerate(sizes):
                cpu0 = cpu_seconds(server.proc.pid)
                ours0 = time.process_time()
                load = os.getloadavg()[0]
                times, conns = await group(server, size, offset)
                offset += size
                seated = sorted(t for t in times if t is not None)
                games_cpu = sum(cpu_seconds(p) for p in server.games())
                server_cpu = cpu_seconds(server.proc.pid) - cpu0
                clients_cpu = time.process_time() - ours0
                print(f"  {size} arriving together (load average {load:.1f} before): "
                      f"{len(seated)} in the lobby, median {statistics.median(seated):.2f} s, "
                      f"the last {seated[-1]:.2f} s")
                print(f"    CPU until then: their games {games_cpu:.2f} s "
                      f"({games_cpu / size:.2f} s each), the server {server_cpu:.2f} s, "
                      f"the clients (this script) {clients_cpu:.2f} s; on 2 idle cores at "
                      f"least {(games_cpu + server_cpu + clients_cpu) / 2:.2f} s")
                await asyncio.sleep(2)  # (each game's first frames drawn)
                games = server.games()
                pss = [pss_kib(p) for p in games]
                zygote = server.zygote()
                shared = pss_kib(zygote) if zygote is not None else 0
                print(f"    PSS of their {len(games)} games: median "
                      f"{statistics.median(pss) / 1024:.1f} MiB, in all "
                      f"{sum(pss) / 1024:.0f} MiB"
                      + (f"; the fork server {shared / 1024:.1f} MiB, with its share "
                         f"{(sum(pss) + shared) / len(pss) / 1024:.1f} MiB a game"
                         if zygote is not None else ""))
                before = sum(cpu_seconds(p) for p in games) + cpu_seconds(server.proc.pid)
                await asyncio.sleep(10)
                idle = sum(cpu_seconds(p) for p in games) + cpu_seconds(server.proc.pid)
                print(f"    idle in the lobby: their games and the server use "
                      f"{(idle - before) / 10 * 100:.1f}% of one core "
                      f"({(idle - before) / 10 / len(games) * 1000:.1f} ms a second each)")
                if i == len(sizes) - 1 and moves:
                    rtt, _first = await round_trip(moves)
                    print(f"    with them in the lobby: the duel protocol's move round trip "
                          f"on loopback, median {rtt * 1000:.1f} ms ({moves} moves)")
                for conn in conns:
                    if conn is not None:
                        conn.close()
                await settle(server, 0)
                await asyncio.sleep(1)
        finally:
            await server.stop()


async def run(args: argparse.Namespace) -> None:
    sizes = [int(n) for n in args.groups.split(",")]
    spawners = {"both": [True, False], "fork": [True], "fresh": [False]}[args.spawner]
    print(f"{os.cpu_count()} cores; groups of {sizes} visitors arriving together")
    for fork in spawners:
        await measure(fork, sizes, args.moves)


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spawner", choices=("both", "fork", "fresh"), default="both")
    parser.add_argument("--groups", default="10,32")
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(asyncio.wait_for(run(args), 900))


if __name__ == "__main__":
    main()
