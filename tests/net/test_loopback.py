"""Two sessions on 127.0.0.1 play whole matches over TCP; a dropped connection resumes; two
real processes play through the command line."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from tui_domino.net import events as ev
from tui_domino.net.core import MatchSettings
from tui_domino.net.headless import run_bot
from tui_domino.net.transport import DuelSession


async def duel(variant: str, target: int, drop_after: int | None = None,
               tmp_path=None) -> tuple[dict, dict, list]:
    journals = [None, None] if tmp_path is None else [tmp_path / "h.jsonl",
                                                      tmp_path / "j.jsonl"]
    host = await DuelSession.host(0, addr="127.0.0.1", name="Ann",
                                  settings=MatchSettings(variant, target), seed=b"h" * 32,
                                  heartbeat=0.5, resume_window=10, journal_path=journals[0])
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", seed=b"j" * 32,
                                  heartbeat=0.5, resume_window=10, journal_path=journals[1])
    states: list = []
    moves = {"n": 0}

    def watch(e):
        if isinstance(e, ev.ConnectionState):
            states.append(e.state)
        if isinstance(e, ev.Moved):
            moves["n"] += 1
            if drop_after is not None and moves["n"] == drop_after:
                join.drop_connection()

    async with asyncio.timeout(60):
        a, b = await asyncio.gather(
            run_bot(host, "greedy", seed=1, in_thread=False),
            run_bot(join, "random", seed=2, in_thread=False, on_event=watch))
    return a, b, states


@pytest.mark.parametrize(("variant", "target"), [
    ("classic", 50), ("spider", 50), ("triominos", 200)])
async def test_a_whole_match_over_tcp(variant, target):
    a, b, _ = await duel(variant, target)
    assert a["verified"] and b["verified"]
    assert a["totals"] == b["totals"] and a["winner"] == b["winner"] is not None
    assert a["variant"] == variant and a["rounds"] >= 1


async def test_a_dropped_connection_resumes_where_it_was(tmp_path):
    a, b, states = await duel("classic", 50, drop_after=6, tmp_path=tmp_path)
    assert "reconnecting" in states
    assert "connected" in states[states.index("reconnecting"):]
    assert a["verified"] and b["verified"] and a["totals"] == b["totals"]


async def test_refused_connection_is_a_clean_error():
    host = await DuelSession.host(0, addr="127.0.0.1", settings=MatchSettings())
    port = host.port
    await host.close()
    with pytest.raises(OSError):
        await DuelSession.join("127.0.0.1", port, connect_timeout=5)


async def test_a_variant_mismatch_is_refused():
    host = await DuelSession.host(0, addr="127.0.0.1", settings=MatchSettings("spider"),
                                  heartbeat=0.5)
    join = await DuelSession.join("127.0.0.1", host.port, want=MatchSettings("triominos"),
                                  heartbeat=0.5)
    seen = []
    async with asyncio.timeout(10):
        async for e in join.events():
            seen.append(e)
            if isinstance(e, ev.ConnectionState) and e.state == "closed":
                break
    await join.close()
    await host.close()
    errors = [e for e in seen if isinstance(e, ev.ProtocolError)]
    assert errors and errors[0].code == "mismatch" and "spider" in errors[0].message


def test_two_processes_play_from_the_command_line_with_a_code(tmp_path):
    """The default: the host prints a code first, the joiner gives it, the match is
    verified and both seats show the same verification phrase."""
    from tests.net.processes import free_port, start_host

    port = free_port()
    common = ["--headless", "--quiet", "--heartbeat", "1", "--journal", "none"]
    host, code = start_host([f"127.0.0.1:{port}", "--variant", "spider", "--target", "50",
                             "--bot", "greedy", "--name", "Ann", *common], dict(os.environ))
    try:
        join = subprocess.run(
            [sys.executable, "-m", "tui_domino.net.cli", "join", f"127.0.0.1:{port}", code,
             "--bot", "random", "--name", "Bob", *common],
            capture_output=True, text=True, timeout=60)
        out, err = host.communicate(timeout=60)
    finally:
        host.kill()
    assert join.returncode == 0, join.stderr
    a, b = json.loads(out.strip().splitlines()[-1]), json.loads(join.stdout.strip())
    for r in (a, b):
        assert set(r) >= {"variant", "totals", "winner", "rounds", "verified"}
        assert r["verified"] is True and r["variant"] == "spider"
    assert a["totals"] == b["totals"] and a["winner"] == b["winner"]
    assert a["phrase"] == b["phrase"] and len(a["phrase"].split()) == 4
