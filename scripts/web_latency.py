"""A key's round trip to the screen through the web door, on loopback: from the key going
down in the browser (chromium, headless, driven by playwright) to the frame that shows its
effect drawn by xterm.js. The key is ``v`` in the lobby, which changes the game of a
challenge (Classic → Spider → Triominos → Classic) on the line under the list.

Also the same round trip without a browser (a websocket client in this process: the key's
frame sent, until the game's output that shows it has arrived), which is the server's and
the game's share of it.

    python scripts/web_latency.py [--keys 60] [--json]

A server with its web door runs in this process on 127.0.0.1, its data in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ["Domino Spider", "Triominos", "Classic dominoes"]  # what each v shows, in turn

# In the page: the time from the next key down to the render that shows ``want`` on the
# challenge's line.
WAIT_JS = """(want) => new Promise((resolve) => {
  const term = window.terminal;
  let t0 = null;
  const down = () => { t0 = performance.now(); };
  document.addEventListener("keydown", down, {capture: true, once: true});
  function shown() {
    const b = term.buffer.active;
    for (let i = 0; i < term.rows; i++) {
      const line = b.getLine(b.viewportY + i);
      const text = line ? line.translateToString(true, 0, term.cols) : "";
      if (text.includes("is to:")) return text.includes(want);
    }
    return false;
  }
  const sub = term.onRender(() => {
    if (t0 !== null && shown()) { sub.dispose(); resolve(performance.now() - t0); }
  });
})"""


def figures(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=20, method="inclusive")
    return {"n": len(samples), "p50_ms": round(statistics.median(samples), 2),
            "p95_ms": round(cuts[18], 2), "max_ms": round(max(samples), 2)}


async def browser_round_trips(url: str, keys: int, profile: Path) -> list[float]:
    from tests.web.browser import Tab, chromium

    async with chromium(profile) as context:
        tab = Tab(await context.new_page())
        await tab.open(url)
        await tab.sign_in("ann")
        await tab.wait_for("Welcome, ann", "is to: Classic dominoes")
        await asyncio.sleep(1.0)
        out = []
        for i in range(keys):
            waiter = asyncio.ensure_future(tab.page.evaluate(WAIT_JS, GAMES[i % 3]))
            await asyncio.sleep(0.05)  # (the page is listening)
            await tab.page.keyboard.press("v")
            out.append(float(await asyncio.wait_for(waiter, 10)))
            await asyncio.sleep(0.1)
        return out


async def socket_round_trips(url: str, keys: int) -> list[float]:
    import aiohttp

    from tests.ssh.screen import Screen

    out = []
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(url + "ws", origin=url.rstrip("/"))
        await ws.send_str(json.dumps({"t": "hello", "name": "bob", "cols": 80, "rows": 24}))
        screen = Screen(80, 24)

        async def until(want: str) -> None:
            while True:
                line = next((ln for ln in screen.text().split("\n") if "is to:" in ln), "")
                if want in line:
                    return
                msg = await ws.receive(timeout=10)
                if msg.type == aiohttp.WSMsgType.BINARY:
                    screen.feed(msg.data)

        await until("Classic dominoes")
        await asyncio.sleep(1.0)
        for i in range(keys):
            t0 = time.perf_counter()
            await ws.send_bytes(b"v")
            await until(GAMES[i % 3])
            out.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.1)
        await ws.close()
    return out


async def measure(keys: int) -> dict[str, dict[str, float]]:
    from tui_domino.ssh.server import GameServer
    from tui_domino.web.door import WebDoor

    server = GameServer(host="127.0.0.1", port=0, accounts=True)
    await server.start()
    door = WebDoor(server, "127.0.0.1", 0)
    await door.start()
    url = f"http://127.0.0.1:{door.port}/"
    try:
        with tempfile.TemporaryDirectory() as profile:
            browser = await browser_round_trips(url, keys, Path(profile))
        socket = await socket_round_trips(url, keys)
    finally:
        await server.close()
        await door.close()
    return {"browser": figures(browser), "socket": figures(socket)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["TUI_DOMINO_HOME"] = home
        result = asyncio.run(measure(args.keys))
    if args.json:
        print(json.dumps(result))
        return
    for name, what in (("browser", "key down in chromium -> xterm.js drew it"),
                       ("socket", "key frame sent -> the game's output showing it arrived")):
        f = result[name]
        print(f"{what}: p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms, max {f['max_ms']} ms "
              f"({f['n']} keys)")


if __name__ == "__main__":
    main()
