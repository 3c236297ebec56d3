"""A lobby duel's move round trip through the visitors' terminals, with a crowd in the lobby
and watchers: prints figures.

    python3 scripts/ssh_duel_watch.py [--spawner both|fork|fresh] [--idle 32] [--watchers 20]
                                      [--moves 40]

Starts ``tui-domino serve`` as scripts/ssh_arrivals.py does; two visitors (ann, bob) meet in
the lobby and ann challenges bob; once their duel is under way, ``--idle`` visitors come and
stay in the lobby and ``--watchers`` come and watch the duel (Tab, Enter in the lobby). Then
the two play: whoever is to move plays the tile his game suggests (Enter), draws or passes;
the round trip is the time from a player's Enter to his own screen saying it is his turn
again, the other having answered as soon as his screen said it was his (as
scripts/bench_net.py measures the duel protocol's own). Prints the median and the 90th
percentile over ``--moves`` round trips that crossed no end of a round, no draw and no pass
(each a round trip of the duel protocol's own). (The crowd's
output is taken and not read, so that this process's own work is the players' two screens.)

Loopback only; every wait is bounded; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ssh_arrivals import Server  # noqa: E402

from tests.ssh.conftest import Terminal  # noqa: E402
from tests.ssh.playing import SshPlayer, key_for  # noqa: E402


async def come(port: int, name: str, n: int) -> Terminal:
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=None, agent_path=None, password="",
                                  kbdint_auth=True, connect_timeout=60,
                                  local_addr=(f"127.4.{n // 250}.{n % 250 + 1}", 0))
    _chan, term = await conn.create_session(lambda: Terminal(80, 24),
                                            term_type="xterm-256color", term_size=(80, 24),
                                            encoding=None)
    term.conn = conn
    return term


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def play(players: list[Terminal], moves: int) -> list[float]:
    """Plays until ``moves`` round trips are timed; returns them (seconds)."""
    trips: list[float] = []
    pressed: dict[int, float] = {}  # a player's Enter that played a tile: when
    deadline = time.monotonic() + 300
    while len(trips) < moves and time.monotonic() < deadline:
        changed = [asyncio.ensure_future(p.changed.wait()) for p in players]
        await asyncio.wait(changed, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
        for task in changed:
            task.cancel()
        now = time.monotonic()
        for i, p in enumerate(players):
            p.changed.clear()
            shown = p.text()
            if "Match over" in shown:
                return trips
            if " is over ─" in shown:  # a round's summary: no round trip crosses it
                pressed.clear()
                p.press("enter")
                with contextlib.suppress(AssertionError):  # (a key lost as the screen changed)
                    await p.wait_until(lambda s: " is over ─" not in s, "the summary closed",
                                       10)
                continue
            if "Your turn" not in shown:
                continue
            if i in pressed:  # his turn again: the other has answered
                trips.append(now - pressed.pop(i))
            choice = key_for(shown)  # (the tests' player: tests/ssh/playing.py)
            if choice is None:
                continue
            key = SshPlayer.KEYS.get(choice, choice)
            p.press(key)
            if key == "enter":
                pressed[i] = time.monotonic()
            else:  # a draw or a pass: no round trip crosses it (his, or the other's waiting)
                pressed.clear()
            try:
                await p.wait_until(lambda s, b=shown: s != b, "the move", 10)
            except AssertionError:  # (the key came as the screen changed: tried again)
                pressed.pop(i, None)
    return trips


async def measure(fork: bool, idle: int, watchers: int, moves: int) -> None:
    name = "fork server" if fork else "every game afresh"
    with tempfile.TemporaryDirectory(prefix="ssh-duel-watch-") as home:
        server = Server(home, fork)
        await server.start()
        crowd: list[Terminal] = []
        try:
            ann, bob = await come(server.port, "ann", 0), await come(server.port, "bob", 1)
            await ann.wait_for("bob · guest")
            ann.press("enter")
            await bob.wait_for("ann challenges you")
            bob.press("a")
            await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
            crowd = list(await asyncio.gather(*(come(server.port, f"i{n}", 10 + n)
                                                for n in range(idle))))
            await asyncio.gather(*(t.wait_for("Live duels") for t in crowd))
            eyes = list(await asyncio.gather(*(come(server.port, f"w{n}", 100 + n)
                                               for n in range(watchers))))
            crowd += eyes
            await asyncio.gather(*(t.wait_for("Live duels") for t in eyes))
            for t in eyes:
                t.press("tab", "enter")
            await asyncio.gather(*(t.wait_for("Watching") for t in eyes))
            if watchers:
                await ann.wait_for(f"{watchers} watching")
            for t in crowd:  # their screens are drawn by their games, not read here
                t.data_received = lambda data, datatype: None  # type: ignore[method-assign]
            trips = await play([ann, bob], moves)
            print(f"{name}: {idle} in the lobby, {watchers} watching: {len(trips)} round "
                  f"trips, median {statistics.median(trips) * 1000:.0f} ms, 90th percentile "
                  f"{percentile(trips, 0.9) * 1000:.0f} ms")
            await asyncio.gather(ann.close(), bob.close())
        finally:
            for t in crowd:
                if t.conn is not None:
                    t.conn.close()
            await server.stop()


async def run(args: argparse.Namespace) -> None:
    for fork in {"both": [True, False], "fork": [True], "fresh": [False]}[args.spawner]:
        await measure(fork, args.idle, args.watchers, args.moves)


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--spawner", choices=("both", "fork", "fresh"), default="both")
    parser.add_argument("--idle", type=int, default=32)
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(asyncio.wait_for(run(args), 900))


if __name__ == "__main__":
    main()
