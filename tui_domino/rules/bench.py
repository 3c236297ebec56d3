"""``tui-domino bench``: how fast the rules engine plays, per variant.

For each variant: random full rounds per second and legal-move generations per second, both
through the public contract (``rules.new_round``, ``legal_moves``, ``apply``) and through the
fast simulation path the computer players search with. Fixed seeds, one core.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from tui_domino import rules
from tui_domino.rules.classic_sim import ClassicSim
from tui_domino.rules.spider_sim import SpiderSim
from tui_domino.rules.triominos_sim import TriominosSim

VARIANTS = ("classic", "spider", "triominos")


def sim_class(variant: str) -> Any:
    if variant == "classic":
        return ClassicSim
    if variant == "spider":
        return SpiderSim
    return TriominosSim


def _rate(work: Callable[[], int], seconds: float) -> float:
    """Calls ``work`` (which returns how many units it did) until ``seconds`` pass."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def positions(variant: str, count: int, seed: int) -> list[rules.RoundState]:
    """Mid-round positions from seeded random games, the player to move to act."""
    rng = random.Random(seed)
    out: list[rules.RoundState] = []
    n = 0
    while len(out) < count:
        s = rules.new_round(variant, seed=seed + n)
        n += 1
        moves = rng.randint(1, 30 if variant == "triominos" else 10)
        for _ in range(moves):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_moves()))
        if not s.is_over:
            out.append(s)
    return out


def bench_variant(variant: str, seconds: float, seed: int) -> dict[str, float]:
    sim_cls = sim_class(variant)
    rng = random.Random(seed)

    def sim_round() -> int:
        sim_cls.random_deal(rng).playout(rng)
        return 1

    counter = [seed]

    def api_round() -> int:
        counter[0] += 1
        s = rules.new_round(variant, seed=counter[0])
        choice = rng.choice
        while not s.is_over:
            s.apply(choice(s.legal_moves()))
        return 1

    states = positions(variant, 200, seed)
    sims = [sim_cls.from_state(s) for s in states]

    def sim_legal() -> int:
        for sim in sims:
            sim.legal()
        return len(sims)

    def api_legal() -> int:
        for s in states:
            s.generate()
        return len(states)

    return {
        "rounds_per_s": round(_rate(sim_round, seconds), 1),
        "api_rounds_per_s": round(_rate(api_round, seconds), 1),
        "legal_per_s": round(_rate(sim_legal, seconds), 1),
        "api_legal_per_s": round(_rate(api_legal, seconds), 1),
    }


def run(as_json: bool = False, seconds: float = 1.5, seed: int = 2024,
        variants: tuple[str, ...] = VARIANTS) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    print(f"tui-domino engine benchmark (seed {seed}, {seconds:g} s per figure, one core)")
    print(f"{'variant':<10} {'sim rounds/s':>13} {'api rounds/s':>13} "
          f"{'sim legal/s':>13} {'api legal/s':>13}")
    for v in variants:
        r = bench_variant(v, seconds, seed)
        results[v] = r
        print(f"{v:<10} {r['rounds_per_s']:>13,.0f} {r['api_rounds_per_s']:>13,.0f} "
              f"{r['legal_per_s']:>13,.0f} {r['api_legal_per_s']:>13,.0f}", flush=True)
    if as_json:
        print(json.dumps(results))
    return results
