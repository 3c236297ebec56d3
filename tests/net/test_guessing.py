"""Guessing the invitation code: the guard's rules on their own (an injected clock), then a
host on 127.0.0.1 under guesses from many loopback addresses at once. However many
connections try together: at most three guesses are checked against one code, a dead code
admits nobody, wrong answers are spaced across connections, and one source that keeps
guessing wrong is shut out without ever costing the friend his way in."""

from __future__ import annotations

import asyncio

from tests.net.guessers import Hold, guess
from tests.net.test_channel import host_with_code, play_out, until
from tui_domino.net import channel as ch
from tui_domino.net import events as ev
from tui_domino.net.guessing import CODE_TRIES, SOURCE_TRIES, Guard, source_of
from tui_domino.net.transport import DuelSession

RIGHT = "7-classic-orlando"


# -- the guard on its own -----------------------------------------------------------------------


def test_one_source_alone_can_never_kill_a_code() -> None:
    guard = Guard(spacing=0.5)
    assert SOURCE_TRIES < CODE_TRIES
    now = 0.0
    for _ in range(50):
        if guard.enter("192.0.2.7") is not None:
            continue  # shut out: refused before any exchange
        assert guard.refusal("192.0.2.7", 0) is None
        now += guard.wait(now)
        assert not guard.wrong_guess("192.0.2.7", now).replaced
        guard.leave("192.0.2.7")
    assert guard.generation == 0 and len(guard.checked) == SOURCE_TRIES
    refused = guard.enter("192.0.2.7")
    assert refused is not None and refused.code == "code" and "192.0.2.7" in refused.message
    assert guard.enter("198.51.100.1") is None  # the friend is answered


def test_three_wrong_guesses_kill_a_code_and_a_guess_on_it_is_never_checked() -> None:
    guard = Guard(spacing=0.5)
    made_on = guard.generation  # four exchanges made on the first code, at once
    for source in ("a", "b", "c", "d"):
        assert guard.enter(source) is None
    told = [guard.wrong_guess(s, t) for s, t in (("a", 0.0), ("b", 0.5), ("c", 1.0))]
    assert [w.replaced for w in told] == [False, False, True]
    refused = guard.refusal("d", made_on)  # the fourth guess would have been right
    assert refused is not None and "no longer valid" in refused.message
    assert guard.refusal("d", guard.generation) is None  # on the new code it is checked


def test_after_a_wrong_guess_no_check_is_taken_for_the_spacing() -> None:
    guard = Guard(spacing=0.5)
    assert guard.wait(10.0) == 0.0
    guard.wrong_guess("a", 10.0)
    assert guard.wait(10.25) == 0.25 and guard.wait(10.5) == 0.0


def test_too_many_handshakes_at_once_from_one_source_are_refused_before_the_exchange() -> None:
    guard = Guard(pending=4, pending_all=6)
    assert all(guard.enter("a") is None for _ in range(4))
    refused = guard.enter("a")
    assert refused is not None and refused.code == "busy"
    assert guard.enter("b") is None and guard.enter("b") is None
    assert guard.enter("c") is not None  # six in all
    guard.leave("a")
    assert guard.enter("c") is None


def test_sources_are_addresses_and_ipv6_networks() -> None:
    assert source_of(("192.0.2.7", 5555)) == "192.0.2.7"
    assert source_of(("::ffff:192.0.2.7", 5555, 0, 0)) == "192.0.2.7"
    assert source_of(("2001:db8:1:2:3:4:5:6", 5555, 0, 0)) == "2001:db8:1:2::/64"
    assert source_of(("2001:db8:1:2:ffff::9", 1, 0, 0)) == "2001:db8:1:2::/64"
    assert source_of(None) == "None"


# -- a host under guesses -----------------------------------------------------------------------


async def test_forty_guesses_at_once_check_three_and_the_dead_code_admits_nobody() -> None:
    host = await host_with_code(RIGHT, code_penalty=0.2, heartbeat=30.0)
    wrong_hold, right_hold = Hold(), Hold()
    wrong = [asyncio.ensure_future(guess(host.port, "1-acme-ohio", f"127.0.1.{n}", wrong_hold))
             for n in range(1, 40)]
    right = asyncio.ensure_future(guess(host.port, RIGHT, "127.0.2.1", right_hold))
    await wrong_hold.until_exchanged(39)  # every exchange is made on the first code ...
    await right_hold.until_exchanged(1)
    wrong_hold.release()  # ... the 39 wrong confirmations come at once
    said = await until(host, lambda e: isinstance(e, ev.Invitation) and e.code != RIGHT)
    told = await asyncio.gather(*wrong)
    right_hold.release()  # and then the right guess for the code that died
    late = await right
    guard = host.handshakes.guard
    assert len(guard.checked) == CODE_TRIES and not any(ok for _, _, ok in guard.checked)
    times = [t for t, _, _ in guard.checked]
    assert all(b - a >= 0.2 for a, b in zip(times, times[1:], strict=False))  # spaced
    assert all(isinstance(t, ch.Refused) and t.code == "code" for t in told)
    assert sum("no longer valid" in t.message for t in told if isinstance(t, ch.Refused)) == 36
    assert isinstance(late, ch.Refused) and "no longer valid" in late.message
    assert not host.core.started and host.code != RIGHT
    new = said[-1]
    assert isinstance(new, ev.Invitation)
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code=new.code)
    a, b = await play_out(host, join)
    assert a["verified"] and b["verified"]


async def test_a_stranger_guessing_on_and_on_never_keeps_the_friend_out() -> None:
    host = await host_with_code(RIGHT, code_penalty=0.05)
    told = [await guess(host.port, f"{n}-acme-ohio", "127.0.0.2") for n in range(1, 16)]
    assert all(isinstance(t, ch.Refused) for t in told)
    messages = [t.message for t in told if isinstance(t, ch.Refused)]
    assert messages[:SOURCE_TRIES] == ["wrong invitation code: check it with the host"] * 2
    assert all("this host does not answer it any more" in m for m in messages[SOURCE_TRIES:])
    assert len(host.handshakes.guard.checked) == SOURCE_TRIES  # the rest never checked
    assert host.code == RIGHT  # never replaced for him
    # the friend, told the code long after, gets in with it
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code=RIGHT)
    a, b = await play_out(host, join)
    assert a["verified"] and b["verified"] and a["names"] == ["Ann", "Bob"]


async def test_a_hundred_connections_from_one_address_get_two_guesses() -> None:
    host = await host_with_code(RIGHT, code_penalty=0.05)
    told = await asyncio.gather(*(guess(host.port, f"{n}-acme-ohio", "127.0.0.2")
                                  for n in range(1, 101)))
    assert all(isinstance(t, ch.Refused) for t in told)
    assert len(host.handshakes.guard.checked) <= SOURCE_TRIES and host.code == RIGHT
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code=RIGHT)
    seen = await until(join, lambda e: isinstance(e, ev.Secured))
    assert seen and host.core.started
    await join.close()
    await host.close()
