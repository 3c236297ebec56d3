"""Attacks on a real ``tui-domino host`` on 127.0.0.1, and what they get.

Guessing: for ``--seconds`` seconds, 100 connections at a time guess the invitation code
(every guess wrong), from one address and then from 100 addresses (127.0.3.1 ...
127.0.3.100); the host's answers say which guesses it checked. Prints the guesses checked
in all and per second, the most checked against one code, the codes that died, and how
many connections were refused unchecked.

Stalling: a joiner (an open duel, the same deadlines) plays until his move, then resumes
for 0.3 s and stays away 3.3 s, over and over, against ``--turn-timeout 6
--resume-window 4``; prints how long he held the match before the host ended it.

    python scripts/bench_attacks.py [--seconds 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import sys
import tempfile
import time
from typing import Any

from tui_domino.net import channel as ch
from tui_domino.net import messages as m
from tui_domino.net.core import DuelCore
from tui_domino.net.handshake_io import join_channel

PY = [sys.executable, "-m", "tui_domino"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_host(*args: str) -> tuple[asyncio.subprocess.Process, int, list[str]]:
    """A headless host with a random bot; its port and the codes it printed (kept up to
    date as it prints new ones)."""
    port = free_port()
    home = tempfile.mkdtemp(prefix="tui-domino-attacks-")
    proc = await asyncio.create_subprocess_exec(
        *PY, "host", f"127.0.0.1:{port}", "--bot", "random", "--headless", "--quiet",
        "--journal", "none", *args, env=dict(os.environ, TUI_DOMINO_HOME=home),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    codes: list[str] = []
    assert proc.stdout is not None
    if "--open" not in args:
        async with asyncio.timeout(30):
            codes.append(json.loads(await proc.stdout.readline())["code"])

        async def follow() -> None:
            assert proc.stdout is not None
            async for line in proc.stdout:
                with contextlib.suppress(ValueError, KeyError):
                    codes.append(json.loads(line)["code"])

        asyncio.ensure_future(follow())
    else:
        async with asyncio.timeout(30):
            while True:
                with contextlib.suppress(OSError):
                    _, w = await asyncio.open_connection("127.0.0.1", port)
                    w.close()
                    break
                await asyncio.sleep(0.05)
    return proc, port, codes


async def one_guess(port: int, source: str, tally: dict[str, int]) -> None:
    code = f"{random.randint(1, 999)}-acme-ohio"  # never a real one: "acme" is no code word
    try:
        async with asyncio.timeout(10):
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(source, 0))
            try:
                await join_channel(reader, writer, "code", ch.code_password(code))
                tally["admitted"] += 1
            finally:
                writer.close()
    except ch.Refused as exc:
        if exc.message.startswith("wrong invitation code"):
            tally["checked"] += 1
        else:
            tally["refused unchecked"] += 1
    except (OSError, TimeoutError):
        tally["failed"] += 1


async def guessing(sources: list[str], seconds: float) -> dict[str, Any]:
    proc, port, codes = await start_host()
    tally = {"checked": 0, "refused unchecked": 0, "admitted": 0, "failed": 0}
    t0 = time.monotonic()
    n = 0
    while time.monotonic() - t0 < seconds:
        await asyncio.gather(*(one_guess(port, sources[(n + i) % len(sources)], tally)
                               for i in range(100)))
        n += 100
    elapsed = time.monotonic() - t0
    proc.kill()
    await proc.wait()
    return {"sources": len(sources), "seconds": round(elapsed, 1), "connections": n,
            **tally, "checked per second": round(tally["checked"] / elapsed, 2),
            "codes that died": len(codes) - 1,
            "checked per code (mean)": round(tally["checked"] / len(codes), 2)}


async def stalling(turn: float, window: float) -> dict[str, Any]:
    """The staller's hold, against a real host process."""
    proc, port, _ = await start_host("--open", "--turn-timeout", str(turn),
                                     "--resume-window", str(window))
    core = DuelCore("join", "Staller", os.urandom(32))
    rng = random.Random(1)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def pump() -> None:
        for line in core.outgoing():
            writer.write(line)
        await writer.drain()

    core.connection_made()
    await pump()
    # play honestly until it is his move
    async with asyncio.timeout(60):
        while not (core.started and core.match.rnd is not None and len(core.match.rnd.log) > 0
                   and core.my_turn()):
            line = await reader.readline()
            if not line:
                raise RuntimeError("the host hung up before the stall")
            core.receive(line.rstrip(b"\n"))
            if core.my_turn() and not (core.match.rnd is not None and len(core.match.rnd.log) > 0):
                core.play(rng.choice(core.legal_moves()))
            await pump()
    start = time.monotonic()
    cycles = 0
    ended = ""
    while not ended and time.monotonic() - start < 120:
        writer.close()
        core.connection_lost()
        await asyncio.sleep(3.3)
        cycles += 1
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            ended = "the host closed"
            break
        core.connection_made()
        await pump()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.3):
                while True:
                    line = await reader.readline()
                    if not line:
                        break
                    with contextlib.suppress(m.FrameError):
                        f = m.decode(line.rstrip(b"\n"))
                        if isinstance(f, m.VerdictF | m.Error) and (
                                isinstance(f, m.VerdictF) or f.code in ("timeout", "busy")):
                            ended = f.reason if isinstance(f, m.VerdictF) else f.message
                            break
                    if not core.my_turn():  # never: he does not move
                        break
    held = time.monotonic() - start
    writer.close()
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    await proc.wait()
    return {"turn timeout": turn, "resume window": window, "cycles": cycles,
            "held seconds": round(held, 1), "ended": ended or "not within 120 s"}


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    out = {
        "guessing, one address": await guessing(["127.0.0.2"], args.seconds),
        "guessing, 100 addresses": await guessing([f"127.0.3.{i}" for i in range(1, 101)],
                                                  args.seconds),
        "stalling": await stalling(6.0, 4.0),
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, figures in out.items():
        print(f"{name}:")
        for k, v in figures.items():
            print(f"  {k:32} {v}")


if __name__ == "__main__":
    asyncio.run(main())
