"""Measures the duel protocol: the deal (28 and 56 tiles), a move's round trip on loopback
(open and in the sealed channel), and the channel's handshake: the time from connecting to
the first frame of the deal reaching the joiner, with an invitation code and open (median).

    python scripts/bench_net.py [--deals 20] [--moves 200] [--connects 30] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time

from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net.channel import new_code
from tui_domino.net.core import MatchSettings
from tui_domino.net.transport import DuelSession


def deal_time(variant: str, count: int) -> float:
    """Median seconds of the four shuffle stages and both hands' opening (both sides'
    work, one machine), and of the end-of-round verification."""
    n = len(mp.encodings(variant)[0])
    times = []
    for _ in range(count):
        a = mp.DealSecrets.derive(os.urandom(32), "bench", n)
        b = mp.DealSecrets.derive(os.urandom(32), "bench", n)
        t0 = time.perf_counter()
        x = mp.stage1(variant, a)
        y = mp.stage2([mp.check_point(p) for p in x], b)
        z = mp.stage_rekey([mp.check_point(p) for p in y], a)
        w = mp.stage_rekey([mp.check_point(p) for p in z], b)
        for j in range(n // 4):  # two hands opened (classic 7+7 of 28, triominos 16+16)
            mp.open_position(variant, w[j], a.keys[j], b.keys[j])
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def verify_time(variant: str, count: int) -> float:
    n = len(mp.encodings(variant)[0])
    times = []
    for _ in range(count):
        a = mp.DealSecrets.derive(os.urandom(32), "bench", n)
        b = mp.DealSecrets.derive(os.urandom(32), "bench", n)
        x = mp.stage1(variant, a)
        y = mp.stage2(x, b)
        z = mp.stage_rekey(y, a)
        w = mp.stage_rekey(z, b)
        t0 = time.perf_counter()
        mp.verify_deal(variant, mp.Transcript(x, y, z, w), a.key, a.keys, b.key, b.keys)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


async def to_first_deal_frame(code: str | None) -> float:
    """Seconds from connecting (``DuelSession.join``) to the first frame of the deal (the
    host's shuffle stage 1) reaching the joiner's core: TCP, the channel's handshake (with a
    code), hello and welcome."""
    host = await DuelSession.host(0, addr="127.0.0.1", name="A",
                                  settings=MatchSettings("classic", 200), code=code)
    arrived = asyncio.get_running_loop().create_future()
    t0 = time.perf_counter()
    join = await DuelSession.join("127.0.0.1", host.port, name="B", code=code)
    receive = join.core.receive  # no frame has reached the core yet: nothing was awaited

    def timed(line: bytes) -> None:
        if not arrived.done() and line.startswith(b'{"t":"shuffle"'):
            arrived.set_result(time.perf_counter() - t0)
        receive(line)

    join.core.receive = timed  # type: ignore[method-assign]
    elapsed = float(await asyncio.wait_for(arrived, 30))
    await asyncio.gather(host.close(), join.close())
    return elapsed


async def handshake(count: int) -> tuple[float, float]:
    """Median seconds to the first frame of the deal, with a code and open (interleaved)."""
    sealed, plain = [], []
    await to_first_deal_frame(new_code())  # warm up: imports, the first key exchange
    for _ in range(count):
        sealed.append(await to_first_deal_frame(new_code()))
        plain.append(await to_first_deal_frame(None))
    return statistics.median(sealed), statistics.median(plain)


async def round_trip(moves: int, code: str | None = None) -> tuple[float, float]:
    """Median seconds from playing a move to seeing the opponent's answer, over TCP on
    127.0.0.1 (the answer is played as soon as it is the opponent's turn), and the median
    time of the first deal over the connection."""
    host = await DuelSession.host(0, addr="127.0.0.1", name="A",
                                  settings=MatchSettings("classic", 200), code=code)
    t_join = time.perf_counter()
    join = await DuelSession.join("127.0.0.1", host.port, name="B", code=code)
    rtts: list[float] = []
    deal = 0.0
    sent_at: float | None = None

    async def responder() -> None:
        async for e in join.events():
            if isinstance(e, ev.MatchOver):
                return
            while join.my_turn():
                await join.play(join.legal_moves()[0])

    task = asyncio.ensure_future(responder())
    async for e in host.events():
        if isinstance(e, ev.MatchOver) or len(rtts) >= moves:
            break
        if isinstance(e, ev.Moved) and e.player == 1 and sent_at is not None:
            rtts.append(time.perf_counter() - sent_at)
            sent_at = None
        if host.my_turn():
            if not deal:
                deal = time.perf_counter() - t_join
            legal = host.legal_moves()
            sent_at = time.perf_counter() if any(m.kind == "place" for m in legal) else None
            await host.play(legal[0])
    await host.leave("bench over")
    task.cancel()
    await join.close()
    return statistics.median(rtts), deal


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--connects", type=int, default=30)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    out = {
        "deal_28_ms": round(deal_time("classic", args.deals) * 1000, 2),
        "deal_56_ms": round(deal_time("triominos", args.deals) * 1000, 2),
        "verify_28_ms": round(verify_time("classic", args.deals) * 1000, 2),
        "verify_56_ms": round(verify_time("triominos", args.deals) * 1000, 2),
    }
    rtt, first = asyncio.run(round_trip(args.moves))
    out["move_round_trip_ms"] = round(rtt * 1000, 2)
    out["connect_and_first_deal_ms"] = round(first * 1000, 2)
    rtt, first = asyncio.run(round_trip(args.moves, new_code()))
    out["move_round_trip_sealed_ms"] = round(rtt * 1000, 2)
    out["connect_and_first_deal_sealed_ms"] = round(first * 1000, 2)
    sealed, plain = asyncio.run(handshake(args.connects))
    out["to_first_deal_frame_sealed_ms"] = round(sealed * 1000, 2)
    out["to_first_deal_frame_open_ms"] = round(plain * 1000, 2)
    out["handshake_cost_ms"] = round((sealed - plain) * 1000, 2)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:34} {v}")


if __name__ == "__main__":
    main()
