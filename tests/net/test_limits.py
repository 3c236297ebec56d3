"""The edges: the frame limit counts the newline (65,536 bytes in all), a host out of file
descriptors backs off and says so once, and a bad group point in the deal is a cheat as
docs/protocol.md says."""

from __future__ import annotations

import asyncio
import errno
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.net.duel import pair, run, verdicts
from tui_domino.net import messages as m
from tui_domino.net.core import MatchSettings
from tui_domino.net.transport import DuelSession

ROOT = Path(__file__).resolve().parents[2]


def _ping(size: int) -> bytes:
    """A valid ping of exactly ``size`` bytes, newline included (JSON allows the spaces)."""
    head, tail = b'{"t":"ping","ack":0', b"}\n"
    return head + b" " * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize(("size", "ok"), [(m.MAX_FRAME, True), (m.MAX_FRAME + 1, False)])
def test_the_frame_limit_counts_the_newline(size, ok):
    line = _ping(size)
    assert len(line) == size
    for data in (line, line.rstrip(b"\n")):  # as read (with it) or as handed on (without)
        if ok:
            assert isinstance(m.decode(data), m.Ping)
        else:
            with pytest.raises(m.FrameError) as caught:
                m.decode(data)
            assert caught.value.code == "too_large"


@pytest.mark.parametrize(("size", "answer"), [(m.MAX_FRAME, "pong"),
                                               (m.MAX_FRAME + 1, "error")])
async def test_the_transport_takes_a_frame_of_the_limit_and_refuses_one_byte_more(size, answer):
    session = await DuelSession.host(0, addr="127.0.0.1", settings=MatchSettings(),
                                     seed=b"h" * 32, heartbeat=0.5)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", session.port)
        writer.write(_ping(size))
        await writer.drain()
        async with asyncio.timeout(5):
            reply = m.decode((await reader.readline()).rstrip(b"\n"))
        writer.close()
        assert reply.__struct_config__.tag == answer
        if answer == "error":
            assert isinstance(reply, m.Error) and reply.code == "too_large"
    finally:
        await session.close()


async def test_the_accept_loop_backs_off_and_says_so_once(monkeypatch, caplog):
    from tui_domino.net.transport import ACCEPT_BACKOFF

    loop = asyncio.get_running_loop()
    real = loop.sock_accept
    calls: list[float] = []
    failures = 5
    served = asyncio.Event()

    async def exhausted(sock):
        calls.append(loop.time())
        if len(calls) <= failures:
            raise OSError(errno.EMFILE, "Too many open files")
        served.set()
        return await real(sock)

    monkeypatch.setattr(loop, "sock_accept", exhausted)
    caplog.set_level(logging.INFO, logger="tui_domino.net.transport")
    session = await DuelSession.host(0, addr="127.0.0.1", settings=MatchSettings(),
                                     seed=b"h" * 32, heartbeat=0.5)
    try:
        async with asyncio.timeout(30):
            await served.wait()  # it accepts again once resources are freed
        reader, writer = await asyncio.open_connection("127.0.0.1", session.port)
        writer.write(b'{"t":"hello","proto":99,"name":"old"}\n')
        async with asyncio.timeout(5):
            reply = m.decode((await reader.readline()).rstrip(b"\n"))
        writer.close()
        assert isinstance(reply, m.Error) and reply.code == "version"  # served again
    finally:
        await session.close()
    # each try came later than the last by at least twice as long: backing off, not spinning
    gaps = [b - a for a, b in zip(calls, calls[1:failures + 1], strict=False)]
    assert all(gap >= ACCEPT_BACKOFF[0] * 2 ** i * 0.99 for i, gap in enumerate(gaps)), gaps
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "Too many open files" in warnings[0].getMessage()


HOST = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
from tui_domino.cli import main
sys.exit(main(["host", "127.0.0.1:" + sys.argv[1], "--headless", "--bot", "random",
               "--quiet", "--journal", "none", "--heartbeat", "2"]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no RLIMIT_NOFILE")
def test_a_host_out_of_file_descriptors_does_not_flood_its_error_output(tmp_path):
    """``tui-domino host`` (which logs to its file, opened at the first record: that too
    needs a file descriptor) at 64 descriptors, under 120 connections."""
    import socket
    import threading

    from tests.net.processes import free_port, process_env

    port = free_port()
    host = subprocess.Popen([sys.executable, "-c", HOST, str(port)], cwd=ROOT,
                            env=process_env(tmp_path), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    err: list[bytes] = []
    warned = threading.Event()

    def read() -> None:
        assert host.stderr is not None
        for line in host.stderr:
            err.append(line)
            if b"cannot accept connections" in line:
                warned.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    socks: list[socket.socket] = []
    try:
        # its first line, the invitation code, says it listens (bounded: killed after 30 s)
        timer = threading.Timer(30, host.kill)
        timer.start()
        try:
            assert host.stdout is not None and host.stdout.readline(), b"".join(err)[:2000]
        finally:
            timer.cancel()
        for _ in range(120):
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        assert warned.wait(30), b"".join(err)[:2000]
    finally:
        for s in socks:
            s.close()
        host.kill()
        host.wait(timeout=10)
        reader.join(timeout=10)
    text = b"".join(err).decode(errors="replace")
    assert len(text) < 4000, text[:2000]
    assert "Traceback" not in text and "Logging error" not in text, text
    assert len(re.findall("cannot accept connections", text)) == 1, text


def test_a_bad_point_in_the_deal_is_a_cheat_and_comes_after_the_accusers_keys():
    cores = pair("classic", 100, seed=2)
    small = "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"  # order 2
    sent: list[bytes] = []

    def tap(i, line):
        f = m.decode(line.rstrip(b"\n"))
        if i == 0 and isinstance(f, m.Shuffle) and f.stage == 1:
            f.deck[3] = small
            return m.encode(f)
        if i == 1:
            sent.append(line)
        return line

    seen = run(cores, seed=2, tap=tap)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("cheat", 0) and "invalid point" in v.reason
    kinds = [m.decode(x.rstrip(b"\n")).__struct_config__.tag for x in sent]
    assert kinds[-2:] == ["reveal", "verdict"]  # the accuser's keys, then the accusation
    doc = " ".join((ROOT / "docs" / "protocol.md").read_text().split())
    assert "A bad element is a `bad_frame`" not in doc
    assert "A bad element is a **cheat** wherever it comes" in doc
