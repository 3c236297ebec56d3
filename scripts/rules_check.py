"""The rules at scale: the fast simulators against the public engine, and whole matches.

    python scripts/rules_check.py [--rounds 300000] [--triominos-rounds 60000]
                                  [--matches 20000] [--triominos-matches 1500] [--seed 1000000]

Rounds: plays seeded rounds of each variant with random legal moves (Triominos also under
each set of house rules in turn), through the public engine and the search's fast simulator
side by side, and checks at every move that both offer the same legal moves, and that the
points, the end, the winner (and in Triominos the reason of the end) agree.

Matches: plays seeded matches with random moves to targets the game offers, and checks after
every round what the rules say of the match: the totals bank each round's points; it ends
when (classic) a player reaches the target, (Spider) a player's charged points reach the
limit and he loses, (Triominos) the higher total at or above the target wins and equal totals
play on; and the winner of a round leads the next one with any tile (classic, Triominos).

The test suite checks the same at a small scale; this is for the rare position. It prints one
line per check and exits non-zero at the first disagreement, naming the seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import rules  # noqa: E402
from tui_domino.rules.classic_sim import ClassicSim  # noqa: E402
from tui_domino.rules.spider_sim import SpiderSim  # noqa: E402
from tui_domino.rules.triominos_sim import TriominosSim  # noqa: E402

TRIOMINOS_OPTIONS: list[dict[str, Any] | None] = [
    None,
    {"max_draws": 3},
    {"hand_size": 9, "hexagon_bonus": [50, 60, 70]},
    {"stuck_penalty": 0, "draw_penalty": 0, "hand_size": 20},
]
TARGETS = {"classic": [50, 100, 150], "spider": [50, 70, 100], "triominos": [200, 400]}


def leader_of(seed: int) -> int | None:
    """Most rounds open by the opening rule; every third is led freely by a chosen player."""
    return None if seed % 3 else seed % 2


def check_rounds(variant: str, n: int, start: int) -> None:
    sim_class: Any = {"classic": ClassicSim, "spider": SpiderSim, "triominos": TriominosSim}
    cls = sim_class[variant]
    for seed in range(start, start + n):
        opts = TRIOMINOS_OPTIONS[seed % len(TRIOMINOS_OPTIONS)] if variant == "triominos" \
            else None
        s = rules.new_round(variant, seed=seed, options=opts, leader=leader_of(seed))
        sim = cls.from_state(s)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            if variant == "triominos":
                same = {sim.to_move_public(m) for m in sim.legal()} == set(legal)
            else:
                same = sorted(map(str, legal)) == sorted(str(sim.to_public(m))
                                                        for m in sim.legal())
            assert same, f"{variant} round {seed}: the legal moves differ"
            m = rng.choice(legal)
            s.apply(m)
            sim.play(cls.from_public(m))
            assert sim.points == s.points and sim.over == s.is_over, \
                f"{variant} round {seed}: the points or the end differ"
        assert sim.winner == s.winner, f"{variant} round {seed}: the winner differs"
        if variant == "triominos":
            assert sim.end_reason == s.end_reason, f"triominos round {seed}: the end differs"


def check_matches(variant: str, n: int, start: int) -> None:
    for seed in range(start, start + n):
        rng = random.Random(seed)
        choices = TARGETS[variant]
        target = choices[seed % len(choices)]
        m = rules.new_match(variant, target=target, seed=seed)
        last_winner: int | None = None
        first = True
        while True:
            r = m.round
            if variant != "spider" and not first and last_winner is not None:
                assert r.to_move == last_winner, f"{variant} match {seed}: the wrong leader"
                assert len(r.legal_moves()) >= len(r.hands[last_winner]), \
                    f"{variant} match {seed}: the winner may not lead any tile"
            banked = list(m.totals)
            while not r.is_over:
                r.apply(rng.choice(r.legal_moves()))
            t = m.totals
            assert t == [banked[0] + r.points[0], banked[1] + r.points[1]], \
                f"{variant} match {seed}: the totals do not bank the round"
            if variant == "triominos":
                over = max(t) >= target and t[0] != t[1]
                winner = 0 if t[0] > t[1] else 1
            elif variant == "spider":
                over = max(t) >= target
                winner = 0 if t[1] >= target else 1
            else:
                over = max(t) >= target
                winner = 0 if t[0] >= target else 1
            assert m.is_over == over, f"{variant} match {seed}: over is {m.is_over} at {t}"
            if over:
                assert m.winner == winner, f"{variant} match {seed}: the wrong winner at {t}"
                break
            last_winner, first = r.winner, False
            m.next_round()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=300_000, help="classic and Spider rounds")
    p.add_argument("--triominos-rounds", type=int, default=60_000)
    p.add_argument("--matches", type=int, default=20_000, help="classic and Spider matches")
    p.add_argument("--triominos-matches", type=int, default=1_500)
    p.add_argument("--seed", type=int, default=1_000_000, help="the first seed")
    a = p.parse_args()
    jobs = [
        ("rounds", "classic", a.rounds), ("rounds", "spider", a.rounds),
        ("rounds", "triominos", a.triominos_rounds), ("matches", "classic", a.matches),
        ("matches", "spider", a.matches), ("matches", "triominos", a.triominos_matches),
    ]
    for kind, variant, n in jobs:
        t0 = time.perf_counter()
        try:
            (check_rounds if kind == "rounds" else check_matches)(variant, n, a.seed)
        except AssertionError as e:
            print(f"DISAGREE: {e}", flush=True)
            return 1
        print(f"{variant}: {n} {kind} from seed {a.seed}: agree "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
