"""``tui-domino serve --web PORT`` as a process; and the command line loads no aiohttp
unless --web is given."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp

from tests.ssh.conftest import (
    banner,
    home,  # noqa: F401
)


def test_the_command_line_loads_no_web_door_unless_asked() -> None:
    code = ("import sys; from tui_domino import cli; p = cli.build_parser(); "
            "p.parse_args(['serve', '--web', '8080']); "
            "print(sorted(m for m in sys.modules if m.startswith(('aiohttp', 'tui_domino.web'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"


def test_web_options_that_cannot_go_together_are_refused(home: Path) -> None:  # noqa: F811
    for args, said in ((["--cert", "c.pem"], "--cert and --key go with --web"),
                       (["--web", "0", "--key", "k.pem"], "--key goes with --cert"),
                       (["--web", "0", "--authorized-keys", __file__],
                        "needs --password too")):
        out = subprocess.run([sys.executable, "-m", "tui_domino", "serve", "--port", "0",
                              *args], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parents[2])
        assert out.returncode == 2 and said in out.stderr, out.stderr


async def test_serve_with_a_web_door_tells_a_browser_visitor_when_it_stops(
        home: Path) -> None:  # noqa: F811
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_domino", "serve", "--port", "0", "--web", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        cwd=Path(__file__).resolve().parents[2])
    try:
        said = await banner(proc)
        url = re.search(r"The web door is open: (http://\S+/)", said).group(1)  # type: ignore[union-attr]
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(url + "ws", origin=url.rstrip("/"))
            await ws.send_str(json.dumps({"t": "hello", "name": "dora"}))
            assert json.loads((await ws.receive(timeout=30)).data) == {"t": "ready"}
            proc.send_signal(signal.SIGINT)
            while True:
                msg = await ws.receive(timeout=30)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    said = json.loads(msg.data)
                    break
                assert msg.type == aiohttp.WSMsgType.BINARY
            assert said["t"] == "bye" and "shutting down" in said["text"]
        assert await asyncio.wait_for(proc.wait(), 15) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
