"""The session's side of what the duel screen needs: a refused match offered again, an
event for the deal. Everything on 127.0.0.1 with free ports; every wait has a deadline."""

from __future__ import annotations

import asyncio

import pytest

from tui_domino.net import events as ev
from tui_domino.net.core import MatchSettings
from tui_domino.net.headless import run_bot
from tui_domino.net.transport import DuelSession


async def until_event(session: DuelSession, test, seen: list | None = None,
                      timeout: float = 10) -> ev.Event:
    async with asyncio.timeout(timeout):
        while True:
            e = await session.next_event()
            if seen is not None:
                seen.append(e)
            if e is not None and test(e):
                return e


@pytest.mark.parametrize("code", ["mismatch", "left"])
async def test_a_refused_match_is_offered_again_to_the_next_joiner(tmp_path, code) -> None:
    """The first joiner asks for another variant ("mismatch"), or greets and leaves at once,
    before the host's welcome reaches him ("left": a console whose input ends)."""
    journal = tmp_path / "host.jsonl"
    host = await DuelSession.host(0, addr="127.0.0.1", name="Ann", heartbeat=0.5,
                                  settings=MatchSettings("classic", 50), journal_path=journal)
    picky = await DuelSession.join("127.0.0.1", host.port, name="Bob", heartbeat=0.5,
                                   want=MatchSettings("spider") if code == "mismatch" else None)
    if code == "left":
        async with asyncio.timeout(10):
            while not picky.core.link.connected:  # he has greeted (the greeting goes out at once)
                await asyncio.sleep(0)
        assert not picky.core.started  # the host's welcome is not in yet
        await picky.leave()
    try:
        seen: list = []
        refused = await until_event(host, lambda e: isinstance(e, ev.ProtocolError), seen)
        assert refused.from_peer and refused.code == code
        await until_event(host, lambda e: isinstance(e, ev.ConnectionState)
                          and e.state == "waiting", seen)
        assert not any(isinstance(e, ev.ConnectionState) and e.state == "reconnecting"
                       for e in seen)
        assert host.state == "waiting" and not host.core.started and not host.core.finished
        await picky.close()
        # The next joiner gets the match, and it is played to the end.
        carl = await DuelSession.join("127.0.0.1", host.port, name="Carl", heartbeat=0.5)
        try:
            async with asyncio.timeout(60):
                a, b = await asyncio.gather(run_bot(host, "greedy", seed=1, in_thread=False),
                                            run_bot(carl, "random", seed=2, in_thread=False))
            assert a["verified"] and b["verified"] and a["totals"] == b["totals"]
            assert a["names"] == ["Ann", "Carl"]
        finally:
            await carl.close()
    finally:
        await host.close()


async def test_both_seats_hear_of_the_deal() -> None:
    host = await DuelSession.host(0, addr="127.0.0.1", name="Ann", heartbeat=0.5,
                                  settings=MatchSettings("classic", 50))
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", heartbeat=0.5)
    try:
        for session in (host, join):
            dealt = await until_event(session, lambda e: isinstance(e, ev.Dealt))
            assert (dealt.round, dealt.deal) == (1, 1)
            view = session.view()
            assert view is not None and len(view["hand"]) == 7
    finally:
        await asyncio.gather(host.close(), join.close())


def test_the_match_log_lives_beside_the_game_data(tmp_path, monkeypatch) -> None:
    from tui_domino.net.journal import default_dir, default_path

    monkeypatch.setenv("TUI_DOMINO_HOME", str(tmp_path))
    assert default_dir() == tmp_path / "duels"
    assert default_path("join", "::1", 7777) == tmp_path / "duels" / "join-__1-7777.jsonl"


def test_a_host_on_every_interface_lists_them_loopback_last() -> None:
    from tui_domino.net.listening import _interface_addresses, listening_addresses

    shown = listening_addresses("0.0.0.0", 7777)
    assert shown[-1] == "127.0.0.1:7777" and len(shown) == len(set(shown))
    for ip in _interface_addresses():
        if not ip.startswith("127."):
            assert f"{ip}:7777" in shown[:-1]
    assert listening_addresses("127.0.0.1", 7777) == ["127.0.0.1:7777"]


async def test_a_connection_cancelled_as_the_program_ends_goes_quietly() -> None:
    """The event loop cancels the task serving a connection when the program ends with a
    duel open; Python 3.11's streams printed a cancelled task as an error on the terminal."""
    loop = asyncio.get_running_loop()
    errors: list = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    host = await DuelSession.host(0, addr="127.0.0.1", name="Ann", heartbeat=0.5,
                                  settings=MatchSettings("classic", 50))
    _reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    try:
        async with asyncio.timeout(10):
            while host._conn is None:
                await asyncio.sleep(0.01)
        task = host._conn
        ended = asyncio.Event()
        # Called after the callbacks the task already has (the ones that would report it):
        # once it is set, whatever the cancelled task was going to report has been reported.
        task.add_done_callback(lambda _task: ended.set())
        task.cancel()
        async with asyncio.timeout(10):
            await ended.wait()
        assert task.cancelled() or task.exception() is None
        assert errors == []
    finally:
        loop.set_exception_handler(None)
        writer.close()
        await host.close()
