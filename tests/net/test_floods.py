"""What the other side can make this side write: a flood of chat lines is shown at a rate
and cannot grow the match log (the log still replays and the match resumes and ends); a
plain hello spelled another way is still told that the host asks for a code; a join
refused before the match began prints no result naming a forfeit; a log file that
cannot be opened costs a plain line, not a traceback."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import subprocess
from pathlib import Path

import pytest

from tests.net.duel import run
from tests.net.processes import PY, process_env
from tests.net.test_channel import WAIT, host_with_code
from tui_domino import logs
from tui_domino.net import events as ev
from tui_domino.net import journal as jr
from tui_domino.net import messages as m
from tui_domino.net.core import DuelCore, MatchSettings
from tui_domino.net.match_state import CHAT_BURST, CHAT_EVERY


def journaled_pair(tmp_path: Path) -> list[DuelCore]:
    cores = [DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 50),
                      journal=jr.Journal(tmp_path / "host.jsonl", fsync=False)),
             DuelCore("join", "Bob", b"b" * 32)]
    for c in cores:
        c.connection_made()
    return cores


def deliver(sender: DuelCore, receiver: DuelCore) -> None:
    for line in sender.outgoing():
        receiver.receive(line.rstrip(b"\n"))


def test_a_chat_flood_is_shown_at_a_rate_and_does_not_grow_the_log(tmp_path: Path) -> None:
    host, join = cores = journaled_pair(tmp_path)
    run(cores, seed=3, stop=lambda: host.match.rnd is not None and len(host.match.rnd.log) > 2)
    host.events()
    host.tick(100.0)
    size = (tmp_path / "host.jsonl").stat().st_size
    for n in range(3000):  # 1.5 MB of chat at once
        join.chat(f"{n} " + "W" * 495)
    deliver(join, host)
    seen = host.events()
    shown = [e for e in seen if isinstance(e, ev.ChatLine)]
    told = [e for e in seen if isinstance(e, ev.ProtocolError) and e.code == "chat"]
    assert len(shown) == CHAT_BURST and len(told) == 1 and "too fast" in told[0].message
    assert (tmp_path / "host.jsonl").stat().st_size - size < CHAT_BURST * 600
    host.heartbeat()  # the host acknowledges the whole flood: the joiner forgets it
    deliver(host, join)
    assert not join.link.unacked
    # the log, with its gap, rebuilds the host as it stood
    again = jr.replay(jr.load(tmp_path / "host.jsonl"))
    assert again.public_digest() == host.public_digest()
    assert again.link.received < host.link.received
    host.tick(100.0 + CHAT_EVERY)  # a line a while later is shown again
    join.chat("gg")
    deliver(join, host)
    assert [e.text for e in host.events() if isinstance(e, ev.ChatLine)] == ["gg"]
    # killed now, the host resumes from its log and the match plays on to its end
    again.connection_made()
    join.connection_lost()
    join.connection_made()  # the joiner resumes with his token
    deliver(join, again)
    deliver(again, join)
    run([again, join], seed=3)
    result = again.match.result
    assert again.finished and result is not None and result["verified"]
    assert join.match.result is not None and join.match.result["totals"] == result["totals"]


@pytest.mark.parametrize("hello", [
    b'{ "t" : "hello", "proto" : 3, "name" : "Eve" }',
    b'{"proto":3,"name":"Eve","t":"hello"}',
    b'{"name":"Eve","t":"resume","proto":3,"match":"x","token":"y","ack":0}',
])
async def test_a_plain_hello_however_spelled_is_told_the_host_asks_for_a_code(
        hello: bytes) -> None:
    host = await host_with_code()
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    writer.write(hello + b"\n")
    async with asyncio.timeout(WAIT):
        answer = json.loads(await reader.readline())
    writer.close()
    await host.close()
    assert answer["t"] == "error" and answer["code"] == "code"
    assert "asks for an invitation code" in answer["message"]


async def test_an_open_host_tells_a_coded_joiner_however_his_line_is_spelled() -> None:
    from tui_domino.net.transport import DuelSession

    host = await DuelSession.host(0, addr="127.0.0.1", name="Ann",
                                  settings=MatchSettings("classic", 30))
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    writer.write(b'{ "kind": "code", "proto": 3, "t": "pake", "msg": "' + b"ab" * 33 + b'" }\n')
    async with asyncio.timeout(WAIT):
        lines = [json.loads(line) for line in (await reader.read()).splitlines()]
    writer.close()
    await host.close()
    assert any(f.get("code") == "code" and "without an invitation code" in f["message"]
               for f in lines)


async def busy_host(seen: list[bytes]) -> asyncio.Server:
    """An open host that answers every hello: a match is already being played here."""

    async def client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await reader.readline())
        writer.write(m.error("busy", "a match is already being played"))
        await writer.drain()
        writer.close()

    return await asyncio.start_server(client, "127.0.0.1", 0)


async def test_a_refused_open_join_prints_no_result_and_blames_nobody(tmp_path: Path) -> None:
    seen: list[bytes] = []
    server = await busy_host(seen)
    port = server.sockets[0].getsockname()[1]
    proc = await asyncio.create_subprocess_exec(
        *PY, "join", f"127.0.0.1:{port}", "--open", "--bot", "random", "--headless",
        "--quiet", "--journal", "none", env=process_env(tmp_path),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    async with asyncio.timeout(60):
        out, err = await proc.communicate()
    server.close()
    assert seen and b'"hello"' in seen[0]
    assert proc.returncode == 1 and out == b""  # no JSON naming the host as forfeiting
    assert b"refused: a match is already being played" in err and b"Traceback" not in err


def test_a_log_file_that_cannot_be_opened_costs_one_plain_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    handler = logs.LogFile(tmp_path / "x.log", delay=True)

    def no_descriptors() -> object:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(handler, "_open", no_descriptors)
    record = logging.LogRecord("tui_domino.net", logging.WARNING, __file__, 1,
                               "cannot accept connections on port %d", (7777,), None)
    handler.handle(record)
    err = capsys.readouterr().err
    assert "Logging error" not in err and "Traceback" not in err
    assert err.count("\n") == 1
    assert "cannot accept connections on port 7777" in err and "Too many open files" in err
    monkeypatch.undo()
    handler.handle(record)  # the file is tried again with the next record
    handler.close()
    assert "port 7777" in (tmp_path / "x.log").read_text()


def test_garbage_and_error_frames_without_end_are_said_at_a_rate() -> None:
    host, join = cores = pair_in_memory()
    run(cores, seed=3, stop=lambda: host.match.rnd is not None and len(host.match.rnd.log) > 2)
    host.events()
    host.tick(50.0)
    for n in range(2000):
        host.receive(b"\xff not a frame %d" % n)
        host.receive(m.encode(m.Error(code="bad_frame", message="x" * 400)).rstrip(b"\n"))
    said = [e for e in host.events() if isinstance(e, ev.ProtocolError)]
    assert len(said) == 10  # the rest only counted
    out = host.outgoing()
    told = [line for line in out if b'"t":"error"' in line]
    assert host.seat.bad_frames == 2000 and len(told) == 2000  # each one told
    for line in out:  # the rest goes on to the joiner
        if line not in told:
            join.receive(line.rstrip(b"\n"))
    host.tick(52.0)
    host.receive(b"garbage again")
    [again] = host.events()
    assert isinstance(again, ev.ProtocolError) and "(and 3990 more not shown)" in again.message
    run(cores, seed=3)  # and the match plays on to its end
    assert host.match.result is not None and host.match.result["verified"]


def pair_in_memory() -> list[DuelCore]:
    cores = [DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 50)),
             DuelCore("join", "Bob", b"b" * 32)]
    for c in cores:
        c.connection_made()
    return cores
