"""What a browser visitor costs in memory: the PSS of his game's process (from
/proc/PID/smaps_rollup, children included when it has any), and the server's own cost per
web connection (its PSS and its Python heap, tracemalloc, with N visitors signed in, over
the same server with none, divided by N).

    python scripts/web_memory.py [--visitors 8] [--json]

A server with its web door runs in this process on 127.0.0.1, its data in a temporary
folder; the visitors are websocket clients as the page's (no browser: the browser's own
memory is the visitor's, on his machine).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def pss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    raise RuntimeError("no Pss line")


def children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids = (task / "children").read_text().split()
        for kid in kids:
            out += [int(kid), *children(int(kid))]
    return out


async def measure(visitors: int) -> dict[str, float]:
    import aiohttp

    from tests.ssh.screen import Screen
    from tui_domino.ssh.limits import Limits
    from tui_domino.ssh.server import GameServer
    from tui_domino.web.door import WebDoor

    # (all of them come from 127.0.0.1: the cap per address is raised)
    limits = Limits(max_per_address=visitors + 2, rate_count=visitors + 2)
    server = GameServer(host="127.0.0.1", port=0, accounts=True, limits=limits)
    await server.start()
    door = WebDoor(server, "127.0.0.1", 0)
    await door.start()
    url = f"http://127.0.0.1:{door.port}/"
    session = aiohttp.ClientSession()
    sockets = []
    try:
        # a first visitor, so that what loads once (the lobby's code, the page) is loaded
        warm = await session.ws_connect(url + "ws", origin=url.rstrip("/"))
        await warm.send_str(json.dumps({"t": "hello", "name": "warm"}))
        await asyncio.sleep(3)
        gc.collect()
        tracemalloc.start()
        heap0 = tracemalloc.get_traced_memory()[0]
        pss0 = pss_kib(os.getpid())
        for n in range(visitors):
            ws = await session.ws_connect(url + "ws", origin=url.rstrip("/"))
            await ws.send_str(json.dumps({"t": "hello", "name": f"v{n}", "cols": 80,
                                          "rows": 24}))
            sockets.append(ws)
        for ws in sockets:  # each sees his lobby: his game is up and drawn
            screen = Screen(80, 24)
            while "Welcome" not in screen.text():
                msg = await ws.receive(timeout=30)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    screen.feed(msg.data)
                elif msg.type != aiohttp.WSMsgType.TEXT:
                    raise RuntimeError(f"a visitor was refused or lost: {msg}")
        await asyncio.sleep(2)
        gc.collect()
        heap1 = tracemalloc.get_traced_memory()[0]
        pss1 = pss_kib(os.getpid())
        tracemalloc.stop()
        games = []
        for visit in server.visits:
            proc = getattr(visit, "proc", None)
            if proc is not None and getattr(visit, "name", "") != "warm":
                games.append(sum(pss_kib(p) for p in [proc.pid, *children(proc.pid)]))
        return {"visitors": visitors,
                "game_pss_mib_median": round(statistics.median(games) / 1024, 1),
                "game_pss_mib_max": round(max(games) / 1024, 1),
                "server_pss_kib_per_visitor": round((pss1 - pss0) / visitors, 1),
                "server_heap_kib_per_visitor": round((heap1 - heap0) / 1024 / visitors, 1)}
    finally:
        for ws in sockets:
            await ws.close()
        await session.close()
        await server.close()
        await door.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["TUI_DOMINO_HOME"] = home
        result = asyncio.run(measure(args.visitors))
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['visitors']} browser visitors in the lobby:")
    print(f"  a visitor's game process: PSS {result['game_pss_mib_median']} MiB "
          f"(median; the largest {result['game_pss_mib_max']} MiB)")
    print(f"  the server, per web visitor: PSS {result['server_pss_kib_per_visitor']} KiB, "
          f"Python heap {result['server_heap_kib_per_visitor']} KiB")


if __name__ == "__main__":
    main()
