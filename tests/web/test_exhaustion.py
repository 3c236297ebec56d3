"""One address cannot knock the web door over: the server under a lowered descriptor limit
(256), 300 idle TCP connections from 127.0.0.2 at its web port; from 127.0.0.1 the page,
a web sign-in and an SSH visit still work, and the server's output stays small. (1,100 such
connections under a 1,024 limit took both doors down and wrote 220 MB of log a minute.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import resource
import sys
from pathlib import Path

import aiohttp

from tests.ssh.conftest import banner, visit

LIMIT = 256
IDLE = 300


def lowered() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))


async def test_idle_connections_from_one_address_leave_both_doors_open(home: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_domino", "serve", "--port", "0", "--web", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        preexec_fn=lowered)
    idle: list[asyncio.StreamWriter] = []
    try:
        said = await banner(proc)
        ssh_port = int(re.search(r"port (\d+)", said).group(1))  # type: ignore[union-attr]
        web_port = int(re.search(r"http://[^:]+:(\d+)/", said).group(1))  # type: ignore[union-attr]
        output = bytearray()

        async def read_output() -> None:
            assert proc.stdout is not None
            while chunk := await proc.stdout.read(65536):
                output.extend(chunk)

        reader_task = asyncio.ensure_future(read_output())
        for _ in range(IDLE):
            with contextlib.suppress(OSError):
                _r, w = await asyncio.open_connection("127.0.0.1", web_port,
                                                      local_addr=("127.0.0.2", 0))
                idle.append(w)
        url = f"http://127.0.0.1:{web_port}/"
        async with asyncio.timeout(30), aiohttp.ClientSession() as session:
            async with session.get(url) as response:  # the page
                assert response.status == 200
            async with session.ws_connect(url + "ws", origin=url.rstrip("/")) as ws:
                await ws.send_str(json.dumps({"t": "hello", "name": "dora", "code": "",
                                              "password": "", "cols": 80, "rows": 24}))
                said = await ws.receive(timeout=30)
                assert json.loads(said.data)["t"] == "ready"  # a web sign-in
        async with asyncio.timeout(30):
            term = await visit(ssh_port, "ann", password="", kbdint_auth=True)  # an SSH visit
            await term.wait_for("Welcome, ann.")
        await term.close()
        assert len(output) < 64 * 1024, bytes(output[-2000:])  # the log stays small
        reader_task.cancel()
    finally:
        for w in idle:
            w.close()
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
