"""At least 10,000 malformed or hostile frames at a core mid-match: nothing escapes, nothing
hangs, every refusal is answered with an error frame, and none of them trips an internal
error (the core charges the peer only for what it checked of his input: everything he can
send must be checked explicitly)."""

from __future__ import annotations

import json
import random

from tests.net.duel import pair, run
from tui_domino.net import events as ev
from tui_domino.net import messages as m

SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",  # the identity
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000080",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
]


def hostile_frames(rng: random.Random, valid: list[bytes]) -> list[bytes]:
    out: list[bytes] = []
    kinds = ["shuffle", "keys", "call", "move", "block", "reveal", "chat", "leave", "verdict",
             "hello", "welcome", "resume", "resumed", "ping", "pong", "error", "nope"]
    for i in range(10_500):
        k = i % 10
        if k == 0:  # garbage bytes
            out.append(rng.randbytes(rng.randrange(0, 300)))
        elif k == 1:  # a huge line
            out.append(b'{"t":"chat","text":"' + b"x" * (m.MAX_FRAME + rng.randrange(1, 5000)))
        elif k == 2:  # deep JSON
            depth = rng.choice([100, 10_000, 30_000])
            out.append(b'{"t":"chat","text":' + b"[" * depth + b"]" * depth + b"}")
        elif k == 3:  # wrong types
            t = rng.choice(kinds)
            val = rng.choice([None, True, -1, 2**70, 1.5, "s", [], {}, [[1]], "ff" * 32])
            fields = rng.sample(["seq", "ack", "round", "deal", "stage", "deck", "positions",
                                 "keys", "rank", "n", "move", "proofs", "chain", "key",
                                 "text", "kind", "player", "reason", "proto", "name"], 3)
            out.append(json.dumps({"t": t, **{f: val for f in fields}}).encode())
        elif k == 4:  # replayed frames
            out.append(rng.choice(valid).rstrip(b"\n"))
        elif k == 5:  # invalid group elements in otherwise good frames
            bad = rng.choice(SMALL_ORDER + ["ff" * 32, "00" * 32, rng.randbytes(32).hex()])
            f = rng.choice([
                {"t": "shuffle", "seq": rng.randrange(1, 40), "ack": 0, "round": 1, "deal": 1,
                 "stage": rng.randrange(1, 5), "deck": [bad] * 28},
                {"t": "keys", "seq": rng.randrange(1, 40), "round": 1, "deal": 1,
                 "positions": [rng.randrange(28)], "keys": [bad]},
                {"t": "reveal", "seq": rng.randrange(1, 40), "round": 1, "deal": 1,
                 "key": bad, "keys": [bad] * 28},
                {"t": "move", "seq": rng.randrange(1, 40), "round": 1, "deal": 1, "n": 0,
                 "move": {"kind": "place", "tile": [6, 6], "end": "center"},
                 "proofs": [{"pos": 3, "key": bad}], "chain": "00" * 32},
            ])
            out.append(json.dumps(f).encode())
        elif k == 6:  # a valid frame with one byte flipped
            line = bytearray(rng.choice(valid).rstrip(b"\n"))
            if line:
                line[rng.randrange(len(line))] = rng.randrange(256)
            out.append(bytes(line))
        elif k == 7:  # valid shapes with hostile values
            out.append(json.dumps({"t": "move", "seq": rng.randrange(1, 10**6),
                                   "round": rng.randrange(1, 5), "deal": 1,
                                   "n": rng.randrange(0, 100),
                                   "move": {"kind": rng.choice(["place", "draw", "pass"]),
                                            "tile": [rng.randrange(-5, 9)] * 2,
                                            "end": "left"},
                                   "chain": "ab" * 32}).encode())
        elif k == 8:
            out.append(b'{"t":"' + rng.choice(kinds).encode() + b'"}')
        else:  # unicode, control characters, nulls
            out.append(json.dumps({"t": "chat", "seq": 10**9, "text": "\u0000\u202e" * 40})
                       .encode() + rng.randbytes(3))
    return out


def test_ten_thousand_hostile_frames():
    cores = pair("classic", 50, seed=9)
    valid: list[bytes] = []
    count = {"n": 0}

    def tap(i, line):
        valid.append(line)
        return line

    def stop() -> bool:
        count["n"] += 1
        return count["n"] > 30

    run(cores, seed=9, tap=tap, stop=stop)
    victim = cores[1]
    rng = random.Random(99)
    frames = hostile_frames(rng, valid)
    assert len(frames) >= 10_000
    for data in frames:
        victim.receive(data)  # must never raise
        for line in victim.outgoing():
            assert len(line) <= m.MAX_FRAME
            m.decode(line.rstrip(b"\n"))  # everything it answers is a valid frame
        internal = [e for e in victim.events()
                    if isinstance(e, ev.ProtocolError) and e.code == "internal"]
        assert not internal and victim.match.internal is None, (data[:200], internal)
    assert victim.seat.bad_frames > 5000


def test_the_transport_survives_hostile_connections():
    import asyncio

    from tui_domino.net.core import MatchSettings
    from tui_domino.net.transport import DuelSession

    async def main() -> list[bytes]:
        session = await DuelSession.host(0, addr="127.0.0.1", settings=MatchSettings(),
                                         seed=b"h" * 32, heartbeat=0.5)
        answers = []
        for payload in [b"x" * (m.MAX_FRAME + 10) + b"\n", b"\xff\xfe garbage\n",
                        b'{"t":"hello","proto":99,"name":"old"}\n']:
            reader, writer = await asyncio.open_connection("127.0.0.1", session.port)
            writer.write(payload)
            await writer.drain()
            async with asyncio.timeout(5):
                answers.append(await reader.readline())
            writer.close()
            await writer.wait_closed()
        await session.close()
        return answers

    answers = asyncio.run(main())
    codes = [m.decode(a.rstrip(b"\n")).code for a in answers]
    assert codes == ["too_large", "bad_frame", "version"]
