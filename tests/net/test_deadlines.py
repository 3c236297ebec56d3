"""Refusing to reveal cannot stall a match: a connected peer has a deadline for his reveal,
and only his resume with the right token stops the resume window (a bare connection, a
wrong token, garbage or a hello do not). The core's clock is driven by hand; the transport's
tests use short deadlines on 127.0.0.1, every wait bounded."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.net.duel import pair, run, verdicts
from tui_domino.net import events as ev
from tui_domino.net import journal as jr
from tui_domino.net import messages as m
from tui_domino.net.core import DuelCore, MatchSettings
from tui_domino.net.deadlines import CLAIM_GRACE
from tui_domino.net.headless import run_bot
from tui_domino.net.transport import DuelSession


def _withheld(seed: int = 12):
    """A pair whose host never sends his end-of-round reveal (the joiner waits for it)."""
    cores = pair("classic", 100, seed=seed)
    run(cores, seed=seed, tap=lambda i, line: None if i == 0 and b'"t":"reveal"' in line
        else line)
    host, join = cores
    assert join.match.rnd.over and join.match.rnd.peer_reveal is None and not join.finished
    return host, join


def test_a_connected_peer_who_withholds_his_reveal_forfeits_at_the_deadline():
    host, join = _withheld()
    join.deadlines.reveal_timeout = 30.0
    for t in range(0, 33):  # he answers every ping, for the deadline and its grace
        join.tick(100.0 + t)
        join.receive(m.encode(m.Ping(ack=join.link.next_seq - 1)).rstrip(b"\n"))
        assert not join.finished
    join.tick(100.0 + 30.0 + CLAIM_GRACE)
    [v] = verdicts(join.events())
    assert (v.kind, v.player) == ("forfeit", 0) and "refused to reveal" in v.reason
    assert join.match.result["winner"] == 1 and not join.match.result["verified"]
    told = [m.decode(line.rstrip(b"\n")) for line in join.outgoing()]
    assert any(isinstance(f, m.VerdictF) and (f.kind, f.player) == ("timeout", 0)
               for f in told)  # he is told, by a frame sent again if he resumes


def test_the_reveal_deadline_counts_connected_time_only():
    host, join = _withheld()
    join.deadlines.reveal_timeout = 30.0
    join.deadlines.resume_window = 900.0
    join.tick(0.0)
    join.tick(20.0)  # 20 s connected
    join.connection_lost()
    join.tick(21.0)
    join.tick(500.0)  # away: the resume window runs, not the reveal deadline
    assert not join.finished
    join.connection_made()  # he resumes (the joiner sends resume, the host answers)
    join.receive(m.encode(m.Resumed(token=join.tokens.peer_token, ack=0)).rstrip(b"\n"))
    join.tick(501.0)
    join.tick(510.0 + CLAIM_GRACE)  # 29 s connected in all, and the grace
    assert not join.finished
    join.tick(511.5 + CLAIM_GRACE)
    assert join.finished and join.match.verdict.player == 0


def test_a_peer_who_withholds_his_reveal_and_keeps_reconnecting_forfeits():
    host, join = _withheld()
    join.deadlines.reveal_timeout, join.deadlines.resume_window = 6.0, 4.0
    t = 0.0
    join.tick(t)
    for _ in range(13):  # back for 0.3 s, away for 3.3 s, over and over
        if join.finished:
            break
        join.connection_made()
        join.receive(m.encode(m.Resumed(token=join.tokens.peer_token, ack=0)).rstrip(b"\n"))
        for _ in range(3):
            t += 0.1
            join.tick(t)
        join.connection_lost()
        for _ in range(33):
            t += 0.1
            join.tick(t)
    assert join.finished and join.match.verdict.player == 0
    assert t <= 6.0 + 4.0


def test_the_deadline_does_not_touch_a_peer_who_reveals():
    cores = pair("classic", 50, seed=12)
    for c in cores:
        c.deadlines.reveal_timeout = 0.5
    clock = {"t": 0.0}

    def tick() -> bool:
        clock["t"] += 0.1  # every step of the match takes a tenth of a second
        for c in cores:
            c.tick(clock["t"])
        return False

    run(cores, seed=12, stop=tick)
    assert cores[0].match.result["verified"] and cores[1].match.result["verified"]


def _cut_off_mid_round():
    """Two cores a few moves into a round, both just cut off; the host waits 10 s."""
    cores = pair("classic", 100, seed=4)
    run(cores, seed=4,
        stop=lambda: cores[0].match.rnd is not None and len(cores[0].match.rnd.log) > 3)
    host, join = cores
    host.deadlines.resume_window = 10.0
    host.connection_lost()
    join.connection_lost()
    return host, join


@pytest.mark.parametrize("poke", ["bare", "garbage", "wrong token", "hello", "ping"])
def test_only_a_resume_with_the_token_stops_the_resume_window(poke):
    host, join = _cut_off_mid_round()
    lines = {
        "bare": [],
        "garbage": [b"\xff\xfe not a frame", b'{"t":"nope"}'],
        "wrong token": [m.encode(m.Resume(proto=m.PROTOCOL, match=host.tokens.match_id,
                                          token="0" * 32, ack=0)).rstrip(b"\n")],
        "hello": [m.encode(m.Hello(proto=m.PROTOCOL, name="Bob")).rstrip(b"\n")],
        "ping": [m.encode(m.Ping(ack=host.link.next_seq - 1)).rstrip(b"\n")],
    }[poke]
    t = 0.0
    host.tick(t)
    while t < 9.5:  # somebody connects every 4 seconds (and stays a while)
        t += 4.0 if t + 4.0 < 9.5 else 9.5 - t
        host.connection_made()
        for line in lines:
            host.receive(line)
        host.tick(t)
        host.connection_lost()
        host.tick(t + 0.25)
        assert not host.finished
    host.tick(10.0)
    [v] = verdicts(host.events())
    assert (v.kind, v.player) == ("forfeit", 1) and "did not come back" in v.reason
    # and the acknowledgement in a stranger's ping dropped none of the frames kept for
    # the joiner
    assert host.link.unacked


def _resume(host, join, t):
    """The joiner comes back with his token at ``t`` (the transport gives the core the time
    of every connection's coming and going, as here)."""
    host.connection_made()
    join.connection_made()
    host.receive(join.outgoing()[0].rstrip(b"\n"))
    assert host.link.up
    host.tick(t)


def _drop(host, join, t):
    host.connection_lost()
    join.connection_lost()
    host.tick(t)


def test_absences_add_up_over_the_match():
    host, join = _cut_off_mid_round()
    host.tick(0.0)
    host.tick(7.5)
    _resume(host, join, 8.0)  # back after 8 s away: the window does not start afresh
    host.tick(9.0)
    _drop(host, join, 9.0)
    host.tick(9.5)
    host.tick(10.9)  # 9.9 s away in all
    assert not host.finished
    host.tick(11.1)
    assert host.finished and host.match.verdict.player == 1
    assert "did not come back" in host.match.verdict.reason


def _peer_on_his_move(seed: int):
    """Two cores mid-round, the joiner owing the host the next step, both cut off."""
    cores = pair("classic", 100, seed=seed)
    run(cores, seed=seed,
        stop=lambda: cores[0].match.rnd is not None and len(cores[0].match.rnd.log) > 2
        and cores[0].owes() == cores[0].peer)
    host, join = cores
    assert host.owes() == host.peer
    return host, join


def test_a_staller_who_keeps_reconnecting_on_his_move_forfeits():
    # The attack: on his move he resumes for 0.3 s, drops, stays away 3.3 s, over and over.
    host, join = _peer_on_his_move(seed=4)
    host.deadlines.turn_timeout, host.deadlines.resume_window = 6.0, 4.0
    t = 0.0
    host.tick(t)
    for _ in range(13):
        if host.finished:
            break
        _resume(host, join, t)
        for _ in range(3):
            t += 0.1
            host.tick(t)
        _drop(host, join, t)
        for _ in range(33):
            t += 0.1
            host.tick(t)
    assert host.finished and host.match.verdict.player == 1
    assert t <= 6.0 + 4.0  # never longer than his turn and the match's time away


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 3.0), st.floats(0.0, 3.0)), min_size=1,
                max_size=40))
def test_no_mix_of_connected_and_absent_time_holds_a_move_past_its_bound(spells):
    host, join = _peer_on_his_move(seed=4)
    host.deadlines.turn_timeout, host.deadlines.resume_window = 6.0, 4.0
    t = 0.0
    host.tick(t)
    step = 0.05
    for here, away in spells * 20:
        if host.finished:
            break
        _resume(host, join, t)
        end = t + here
        while t < end and not host.finished:
            t = min(end, t + step)
            host.tick(t)
        if host.finished:
            break
        _drop(host, join, t)
        end = t + away
        while t < end and not host.finished:
            t = min(end, t + step)
            host.tick(t)
    if not host.finished:  # he stopped playing: he stays away
        while not host.finished:
            t += step
            host.tick(t)
    assert host.match.verdict.player == 1
    assert t <= 6.0 + CLAIM_GRACE + 4.0 + step


def test_a_forfeit_by_the_clock_is_in_the_match_log(tmp_path):
    path = tmp_path / "join.jsonl"
    cores = [DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 100)),
             DuelCore("join", "Bob", b"b" * 32, journal=jr.Journal(path, fsync=False))]
    for c in cores:
        c.connection_made()
    run(cores, seed=12, tap=lambda i, line: None if i == 0 and b'"t":"reveal"' in line
        else line)
    join = cores[1]
    join.deadlines.reveal_timeout = 5.0
    join.tick(0.0)
    join.tick(6.0 + CLAIM_GRACE)
    assert join.finished
    again = jr.replay(jr.load(path))
    assert again.finished and again.match.verdict == join.match.verdict
    assert jr.resume(path, fsync=False) is None  # the match is over: nothing to resume


async def _sessions(**kw):
    host = await DuelSession.host(0, addr="127.0.0.1", name="Ann", seed=b"h" * 32,
                                  settings=MatchSettings("classic", 100), **kw)
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", seed=b"j" * 32, **kw)
    return host, join


async def _verdict(session: DuelSession, timeout: float) -> ev.Verdict:
    async with asyncio.timeout(timeout):
        while True:
            e = await session.next_event()
            if isinstance(e, ev.Verdict):
                return e


async def test_over_tcp_a_withheld_reveal_forfeits():
    host, join = await _sessions(heartbeat=0.3, resume_window=5.0, reveal_timeout=1.0)
    real = join.core.outgoing
    join.core.outgoing = lambda: [x for x in real() if b'"t":"reveal"' not in x]
    bots = [asyncio.ensure_future(run_bot(join, "random", seed=2, in_thread=False))]
    try:
        seen: list = []

        async def play_host() -> None:
            await run_bot(host, "greedy", seed=1, in_thread=False,
                          on_event=seen.append)

        async with asyncio.timeout(30):
            await play_host()
        [v] = [e for e in seen if isinstance(e, ev.Verdict)]
        assert (v.kind, v.player) == ("forfeit", 1) and "refused to reveal" in v.reason
    finally:
        for b in bots:
            b.cancel()
        await asyncio.gather(host.close(), join.close(), return_exceptions=True)


async def test_over_tcp_pokes_at_the_port_do_not_keep_the_resume_window_open():
    host, join = await _sessions(heartbeat=0.3, resume_window=1.5)
    try:
        async with asyncio.timeout(10):
            while not (host.core.match.rnd and host.core.match.rnd.know is not None):
                await asyncio.sleep(0.02)
        join._target = ("127.0.0.1", 9)  # he will never find the host again
        join.drop_connection()
        payloads = [b"", b"garbage\n", json.dumps({"t": "resume", "proto": m.PROTOCOL,
                                                    "match": host.core.tokens.match_id,
                                                    "token": "0" * 32, "ack": 0}).encode()
                    + b"\n", m.encode(m.Hello(proto=m.PROTOCOL, name="Bob"))]

        async def poke() -> None:
            i = 0
            while True:
                with_ = payloads[i % len(payloads)]
                i += 1
                try:
                    _, w = await asyncio.open_connection("127.0.0.1", host.port)
                    if with_:
                        w.write(with_)
                    await asyncio.sleep(0.2)
                    w.close()
                except OSError:
                    pass
                await asyncio.sleep(0.1)

        poker = asyncio.ensure_future(poke())
        try:
            v = await _verdict(host, timeout=8)
        finally:
            poker.cancel()
        assert (v.kind, v.player) == ("forfeit", 1) and "did not come back" in v.reason
    finally:
        await asyncio.gather(host.close(), join.close(), return_exceptions=True)


@pytest.mark.parametrize(("flag", "given", "default"),
                         [("reveal", "12.5", 30.0), ("turn", "90", 600.0)])
def test_the_command_line_takes_a_timeout(flag, given, default):
    import argparse

    from tui_domino.net.cli import add_host_join

    parser = argparse.ArgumentParser()
    add_host_join(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["host", "7777", f"--{flag}-timeout", given])
    assert getattr(args, f"{flag}_timeout") == float(given)
    assert getattr(parser.parse_args(["join", "h:1"]), f"{flag}_timeout") == default
