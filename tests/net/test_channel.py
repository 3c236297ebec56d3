"""The duel's channel: the invitation code, the key exchange on it, sealed records.

Unit tests of net/channel.py, then sessions on 127.0.0.1: a stranger without the code (or
with a wrong one) is refused in words and the host goes on waiting; too many wrong tries
replace the code; relays in the middle that record, flip, replay, reorder or drop bytes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import Callable

import pytest

from tests.net.guessers import guess
from tui_domino.net import channel as ch
from tui_domino.net import events as ev
from tui_domino.net import messages as m
from tui_domino.net.core import MatchSettings
from tui_domino.net.headless import run_bot
from tui_domino.net.transport import DuelSession

WAIT = 30.0  # seconds: a bound on any one wait below, never reached when all is well


def pair_of_channels(code_a: str = "7-classic-orlando",
                     code_b: str = "7-classic-orlando") -> tuple[ch.Channel, ch.Channel]:
    join = ch.Exchange("join", ch.code_password(code_a))
    host = ch.Exchange("host", ch.code_password(code_b))
    return join.finish(host.message), host.finish(join.message)


# -- the channel on its own ---------------------------------------------------------------------


def test_a_record_opens_once_in_its_place_and_nowhere_else() -> None:
    join, host = pair_of_channels()
    host.check_confirm(join.confirm())
    join.check_confirm(host.confirm())
    a, b = join.seal(b'{"t":"chat","text":"one"}\n'), join.seal(b'{"t":"chat","text":"two"}')
    assert b"chat" not in a and a.endswith(b"\n") and a.count(b"\n") == 1
    assert host.open(a) == b'{"t":"chat","text":"one"}'
    with pytest.raises(ch.Tampered, match="failed authentication"):
        host.open(a)  # replayed
    assert host.open(b) == b'{"t":"chat","text":"two"}'
    # reordered: the second of two records arrives first
    c, d = join.seal(b"3"), join.seal(b"4")
    with pytest.raises(ch.Tampered):
        host.open(d)
    assert host.open(c) == b"3"
    # a record of the other direction does not open here either
    with pytest.raises(ch.Tampered):
        host.open(host.seal(b"5"))


@pytest.mark.parametrize("where", [0, 10, -2])
def test_one_flipped_bit_anywhere_fails(where: int) -> None:
    join, host = pair_of_channels()
    record = bytearray(base64.b64decode(join.seal(b'{"t":"ping","ack":3}')))
    record[where] ^= 1
    with pytest.raises(ch.Tampered):
        host.open(base64.b64encode(bytes(record)))
    with pytest.raises(ch.Tampered, match="not a sealed record"):
        host.open(b'{"t":"ping","ack":3}')


def test_a_wrong_code_gives_other_keys_and_the_confirmation_fails() -> None:
    join, host = pair_of_channels("7-classic-orlando", "8-classic-orlando")
    with pytest.raises(ch.Tampered):
        host.check_confirm(join.confirm())
    assert join.phrase != host.phrase
    same_a, same_b = pair_of_channels()
    assert same_a.phrase == same_b.phrase == ch.phrase(same_a.resume_secret)
    assert len(same_a.phrase.split()) == 4


def test_the_largest_frame_fits_the_largest_record() -> None:
    join, host = pair_of_channels()
    frame = b"x" * m.MAX_LINE
    record = join.seal(frame + b"\n")
    assert len(record) == ch.MAX_RECORD
    assert host.open(record) == frame


def test_a_broken_key_exchange_message_is_refused_in_words() -> None:
    exchange = ch.Exchange("host", ch.code_password("1-acme-ohio"))
    other_host = ch.Exchange("host", ch.code_password("1-acme-ohio"))
    for bad in (b"A" + b"\x00" * 32, other_host.message, b"\xff" * 33):
        with pytest.raises(ch.HandshakeError, match="not valid"):
            ch.Exchange("host", ch.code_password("1-acme-ohio")).finish(bad)
    assert len(exchange.message) == 33


@pytest.mark.parametrize("line, code", [
    (b'{"t":"pake","proto":2,"kind":"code","msg":"' + b"0" * 66 + b'"}', "version"),
    (b'{"t":"pake","proto":3,"kind":"code","msg":"zz"}', "bad_frame"),
    (b'{"t":"hello","proto":3,"name":"Eve"}', "code"),
    (b"GET / HTTP/1.1", "bad_frame"),
    (b"x" * 600, "too_large"),
])
def test_a_first_line_that_is_not_a_handshake_is_refused(line: bytes, code: str) -> None:
    with pytest.raises(ch.HandshakeError) as caught:
        ch.read_pake(line)
    assert caught.value.code == code


def test_codes_are_a_number_and_two_words_and_typing_is_forgiven() -> None:
    codes = {ch.new_code() for _ in range(50)}
    assert len(codes) > 40
    for code in codes:
        n, even, odd = code.split("-")
        assert 1 <= int(n) <= 999 and even in ch.EVEN and odd in ch.ODD
        assert ch.normalize_code(f"  {n} {even.upper()}  {odd} ") == code
    with pytest.raises(ValueError, match="spelling"):
        ch.normalize_code("7-clasic-orlando")
    with pytest.raises(ValueError, match="not an invitation code"):
        ch.normalize_code("7;classic")
    with pytest.raises(ValueError, match="Type the invitation code"):
        ch.normalize_code("  ")


# -- sessions -----------------------------------------------------------------------------------


async def host_with_code(code: str = "7-classic-orlando", **kw: object) -> DuelSession:
    kw.setdefault("heartbeat", 1.0)
    return await DuelSession.host(0, addr="127.0.0.1", name="Ann",
                                  settings=MatchSettings("classic", 30), code=code,
                                  **kw)  # type: ignore[arg-type]


async def until(session: DuelSession, want: Callable[[ev.Event], bool]) -> list[ev.Event]:
    """The session's events up to the first that ``want`` takes (bounded)."""
    seen: list[ev.Event] = []
    async with asyncio.timeout(WAIT):
        while True:
            e = await session.next_event()
            assert e is not None, f"the session closed first: {seen}"
            seen.append(e)
            if want(e):
                return seen


async def play_out(host: DuelSession, join: DuelSession,
                   events: tuple[list, list] | None = None,
                   on_host: Callable[[ev.Event], None] | None = None,
                   chat: str = "") -> tuple[dict, dict]:
    """Both seats played by bots to the end of the match (bounded); ``events`` collects
    each side's events, ``on_host`` sees the host's as they come; the joiner says
    ``chat`` once the match has begun."""
    seen: tuple[list, list] = events if events is not None else ([], [])
    chats: list[asyncio.Future[None]] = []

    def join_event(e: ev.Event) -> None:
        seen[1].append(e)
        if chat and isinstance(e, ev.Connected):
            chats.append(asyncio.ensure_future(join.chat(chat)))

    def host_event(e: ev.Event) -> None:
        seen[0].append(e)
        if on_host is not None:
            on_host(e)

    async with asyncio.timeout(WAIT * 2):
        a, b = await asyncio.gather(
            run_bot(host, "random", seed=1, in_thread=False, on_event=host_event),
            run_bot(join, "random", seed=2, in_thread=False, on_event=join_event))
    await asyncio.gather(*chats)
    return a, b


async def test_a_wrong_code_is_refused_on_both_sides_and_the_host_waits_on() -> None:
    host = await host_with_code(code_penalty=0.01)
    with pytest.raises(ch.Refused, match="wrong invitation code") as refused:
        await DuelSession.join("127.0.0.1", host.port, name="Eve", code="8-classic-orlando")
    assert refused.value.code == "code"
    said = await until(host, lambda e: isinstance(e, ev.ProtocolError))
    assert isinstance(said[-1], ev.ProtocolError) and said[-1].code == "code"
    assert "wrong invitation code (2 more before it is replaced)" in said[-1].message
    assert host.state == "waiting" and not host.core.started and host.code == "7-classic-orlando"
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code="7-classic-orlando")
    a, b = await play_out(host, join)
    assert a["verified"] and b["verified"] and a["totals"] == b["totals"]
    assert a["names"] == ["Ann", "Bob"]


async def test_a_stranger_without_a_code_is_refused_and_the_friend_plays() -> None:
    host = await host_with_code()
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    writer.write(m.encode(m.Hello(proto=m.PROTOCOL, name="Eve")))
    async with asyncio.timeout(WAIT):
        answer = json.loads(await reader.readline())
        assert await reader.read() == b""  # and the host hangs up
    writer.close()
    assert answer["t"] == "error" and answer["code"] == "code"
    assert "asks for an invitation code" in answer["message"]
    # a joiner who asks without a code is told the same, in words
    session = await DuelSession.join("127.0.0.1", host.port, name="Eve")
    seen = await until(session, lambda e: isinstance(e, ev.ConnectionState)
                       and e.state == "closed")
    assert any(isinstance(e, ev.ProtocolError) and e.from_peer and e.code == "code"
               and "asks for an invitation code" in e.message for e in seen)
    await session.close()
    assert host.state == "waiting" and not host.core.started
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code="7-classic-orlando")
    a, b = await play_out(host, join)
    assert a["verified"] and b["verified"]
    assert host.phrase and host.phrase == join.phrase


async def test_too_many_wrong_tries_replace_the_code() -> None:
    host = await host_with_code(code_penalty=0.01)
    first = host.code
    for n in range(ch.CODE_TRIES):  # from as many sources: one alone cannot kill a code
        assert isinstance(await guess(host.port, "1-acme-ohio", f"127.0.0.{n + 2}"),
                          ch.Refused)
    said = await until(host, lambda e: isinstance(e, ev.Invitation) and e.code != first)
    new = said[-1]
    assert isinstance(new, ev.Invitation) and host.code == new.code != first
    assert new.join == f"tui-domino join 127.0.0.1:{host.port} {new.code}"
    assert any(isinstance(e, ev.ProtocolError) and f"{first} is no longer valid" in e.message
               for e in said)
    assert first is not None
    with pytest.raises(ch.Refused, match="wrong invitation code"):  # the old code is dead
        await DuelSession.join("127.0.0.1", host.port, name="Bob", code=first)
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code=new.code)
    a, b = await play_out(host, join)
    assert a["verified"] and b["verified"]


async def test_wrong_tries_come_slower_and_slower() -> None:
    host = await host_with_code(code_penalty=0.5)
    loop = asyncio.get_running_loop()
    times = []
    for _ in range(2):
        t0 = loop.time()
        with pytest.raises(ch.Refused):
            await DuelSession.join("127.0.0.1", host.port, name="Eve", code="1-acme-ohio")
        times.append(loop.time() - t0)
    await host.close()
    assert times[1] >= 0.49 and times[0] < 0.49


async def test_the_code_does_not_let_a_second_joiner_into_a_match_under_way() -> None:
    host = await host_with_code()
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code="7-classic-orlando")
    dealt = asyncio.Event()
    match = asyncio.ensure_future(play_out(
        host, join, on_host=lambda e: isinstance(e, ev.Dealt) and dealt.set()))
    async with asyncio.timeout(WAIT):
        await dealt.wait()
    assert host.core.link.received > 0  # the joiner's stages of the deal came: the code is used
    with pytest.raises(ch.Refused, match="already being played") as refused:
        await DuelSession.join("127.0.0.1", host.port, name="Eve", code="7-classic-orlando")
    assert refused.value.code == "busy"
    a, b = await match
    assert a["verified"] and b["verified"] and a["names"] == ["Ann", "Bob"]


async def test_open_and_sealed_sides_refuse_each_other_in_words() -> None:
    open_host = await DuelSession.host(0, addr="127.0.0.1", name="Ann")
    with pytest.raises(ch.Refused, match="without an invitation code"):
        await DuelSession.join("127.0.0.1", open_host.port, name="Bob", code="1-acme-ohio")
    await open_host.close()


# -- relays in the middle -----------------------------------------------------------------------

Tamper = Callable[[str, int, bytes], list[bytes]]


class Relay:
    """A man in the middle on 127.0.0.1: relays lines between the joiner and the host,
    records them (``seen``), and lets ``tamper(direction, n, line)`` replace the ``n``th
    line of a direction ("h2j", "j2h"; counted over all connections) with any lines."""

    def __init__(self, target: int, tamper: Tamper | None = None) -> None:
        self.target = target
        self.tamper = tamper
        self.seen: list[tuple[str, bytes]] = []
        self.count = {"h2j": 0, "j2h": 0}
        self.connections = 0
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> Relay:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0,
                                                 limit=ch.MAX_RECORD * 2)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _client(self, jr: asyncio.StreamReader, jw: asyncio.StreamWriter) -> None:
        self.connections += 1
        hr, hw = await asyncio.open_connection("127.0.0.1", self.target,
                                               limit=ch.MAX_RECORD * 2)

        async def pipe(direction: str, r: asyncio.StreamReader,
                       w: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while line := await r.readline():
                    n = self.count[direction]
                    self.count[direction] += 1
                    self.seen.append((direction, line))
                    out = self.tamper(direction, n, line) if self.tamper else [line]
                    for piece in out:
                        w.write(piece)
                    await w.drain()
            with contextlib.suppress(Exception):
                w.close()

        await asyncio.gather(pipe("j2h", jr, hw), pipe("h2j", hr, jw))

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def through(relay_tamper: Tamper | None = None, code: str | None = "7-classic-orlando"
                  ) -> tuple[DuelSession, DuelSession, Relay]:
    host = await DuelSession.host(0, addr="127.0.0.1", name="Zephyrine",
                                  settings=MatchSettings("classic", 30), code=code,
                                  heartbeat=1.0)
    relay = await Relay(host.port, relay_tamper).start()
    join = await DuelSession.join("127.0.0.1", relay.port, name="Quillon", code=code,
                                  heartbeat=1.0)
    return host, join, relay


SECRETS = [b"Zephyrine", b"Quillon", b"marmalade-larkspur", b'"seq"', b'"ack"', b'"name"',
           b'"text"', b'"deck"', b'"move"', b'"token"', b'"match"', b'"chat"', b'"shuffle"',
           b'"keys"', b'"welcome"', b'"tile"', b'"proofs"']


def in_the_clear(seen: list[tuple[str, bytes]]) -> set[bytes]:
    data = b"".join(line for _, line in seen)
    return {s for s in SECRETS if s in data}


async def test_a_recording_relay_reads_nothing_of_the_match() -> None:
    host, join, relay = await through()
    events: tuple[list, list] = ([], [])
    a, b = await play_out(host, join, events, chat="marmalade-larkspur")
    await relay.close()
    assert ev.ChatLine(1, "marmalade-larkspur") in events[0]  # it went through
    assert a["verified"] and b["verified"] and a["rounds"] >= 1
    assert "verdict" not in a and "verdict" not in b
    assert in_the_clear(relay.seen) == set()
    # past the two handshake lines of each direction, every line is a base64 record
    for direction in ("h2j", "j2h"):
        lines = [line for d, line in relay.seen if d == direction]
        assert len(lines) > 10
        assert lines[0].startswith(b'{"t":"pake","proto":3,')
        for line in lines[1:]:
            base64.b64decode(line.rstrip(b"\n"), validate=True)
    # the same relay on an open duel reads it all: the check above could fail
    host, join, relay = await through(code=None)
    a, b = await play_out(host, join, chat="marmalade-larkspur")
    await relay.close()
    assert {b"Zephyrine", b"Quillon", b"marmalade-larkspur", b'"seq"', b'"move"',
            b'"tile"', b'"token"'} <= in_the_clear(relay.seen)


def flip(line: bytes) -> list[bytes]:
    record = bytearray(base64.b64decode(line.rstrip(b"\n")))
    record[len(record) // 2] ^= 0x04
    return [base64.b64encode(bytes(record)) + b"\n"]


HELD: list[bytes] = []


def tamper_once(how: str, at: int = 8) -> Tamper:
    """Alters the ``at``th line from the host to the joiner (a record of the deal), once."""

    def tamper(direction: str, n: int, line: bytes) -> list[bytes]:
        if direction != "h2j" or n not in (at, at + 1):
            return [line]
        if how == "flip":
            return flip(line) if n == at else [line]
        if how == "replay":
            return [line, line] if n == at else [line]
        if how == "drop":
            return [] if n == at else [line]
        # reorder: hold line ``at`` back and send it after the next
        if n == at:
            HELD.append(line)
            return []
        return [line, HELD.pop()]

    return tamper


AT = 8  # the altered line from the host: a record of the first deal


@pytest.mark.parametrize("how, record", [("flip", AT - 1), ("replay", AT), ("reorder", AT - 1),
                                         ("drop", AT - 1)])
async def test_a_relay_that_alters_the_stream_ends_the_connection_as_tampering(
        how: str, record: int) -> None:
    host, join, relay = await through(tamper_once(how, AT))
    events: tuple[list, list] = ([], [])
    a, b = await play_out(host, join, events)
    await relay.close()
    problems = [e for e in events[1] if isinstance(e, ev.ProtocolError)]
    assert problems and problems[0].code == "tampered", problems
    # within one frame: the record that did not open is the altered one (line 0 of a
    # direction is its key exchange message, so line AT carries record AT - 1; a replayed
    # line comes again as record AT); nothing after it was read on that connection
    assert f"record {record} of the connection failed authentication" in problems[0].message
    told = [e for e in events[0] if isinstance(e, ev.ProtocolError) and e.from_peer]
    assert told and told[0].code == "tampered"
    assert not any(isinstance(e, ev.Verdict) for e in events[0] + events[1])  # not a cheat
    # the dropped connection resumed (a fresh key from the resume secret) and the match
    # ended verified, with the phrase it began with
    assert a["verified"] and b["verified"] and a["totals"] == b["totals"]
    assert relay.connections == 2 and join.phrase == host.phrase != ""
    secured = [e for e in events[1] if isinstance(e, ev.Secured)]
    assert [e.phrase for e in secured] == [join.phrase]
    states = [e.state for e in events[1] if isinstance(e, ev.ConnectionState)]
    assert states[:3] == ["connected", "reconnecting", "connected"]


async def test_garbage_at_the_handshake_is_refused_in_words_and_the_host_waits_on() -> None:
    host = await host_with_code()
    bad_point = ch.pake_line("code", b"A" + b"\x00" * 32)
    for first in (b"\x00\xff garbage\n", b'{"t":"pake"}\n', bad_point, b"x" * 1000 + b"\n"):
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(first)
        async with asyncio.timeout(WAIT):
            answer = json.loads(await reader.readline())
            if answer["t"] == "pake":  # the host sent its own message before it read his
                answer = json.loads(await reader.readline())
            assert await reader.read() == b""  # then it hangs up
        writer.close()
        assert answer["t"] == "error" and answer["code"] in ("bad_frame", "too_large")
    assert host.state == "waiting" and not host.core.started and host.code == "7-classic-orlando"
    join = await DuelSession.join("127.0.0.1", host.port, name="Bob", code="7-classic-orlando")
    a, b = await play_out(host, join)
    assert a["verified"] and b["verified"]


def test_the_match_log_keeps_the_resume_secret_and_replays_it() -> None:
    from tui_domino.net import journal as jr
    from tui_domino.net.core import DuelCore

    log: list[dict] = []
    core = DuelCore("join", "Bob", b"b" * 32, journal=log.append)
    secret = pair_of_channels()[0].resume_secret
    core.keep_channel(secret)
    core.keep_channel(secret)  # the same secret again is not logged again
    assert [e for e in log if e["k"] == "channel"] == [{"k": "channel", "resume": secret}]
    assert jr.replay(log).tokens.channel_secret == secret
    with pytest.raises(ValueError):
        jr.replay([log[0], {"k": "channel", "resume": "not hex"}])
