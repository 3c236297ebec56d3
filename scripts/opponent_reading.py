"""How well the hard classic player's opponent model reads the opponent's hidden hand.

    python scripts/opponent_reading.py [--rounds 200] [--mix 0 0.5 1]

Plays seeded classic rounds: player 0 plays the normal level, player 1 each of the arena's
random, easy, greedy and normal players in turn. At every view of player 0 that holds
evidence of the opponent's choices (his placements since his last draw), it builds the
search's opponent model, weighs its pool under each prior ``OPP_MIX`` of the uniformly random
kind of player (0: the heavy-first kind alone; 1: the random kind alone) and scores how much
each favours his true hand: the log of the true hand's weight over the mean weight of the
pool of consistent hands. It prints the mean score per opponent and prior: 0 is no better
than the masks alone, below 0 misled.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import rules  # noqa: E402
from tui_domino.ai import PLAYERS, Choose, search  # noqa: E402
from tui_domino.ai.heuristic import normal  # noqa: E402
from tui_domino.ai.inference import knowledge, play_evidence  # noqa: E402
from tui_domino.ai.simulation import VARIANTS  # noqa: E402

OPPONENTS = ("random", "easy", "greedy", "normal")


def truth_scores(opponent: Choose, mixes: Sequence[float], rounds: int,
                 seed: int = 0) -> tuple[list[float], int]:
    """The mean score of the true hand for each prior in ``mixes``, and the number of views
    scored, over ``rounds`` seeded rounds against ``opponent``."""
    totals, count = [0.0] * len(mixes), 0
    adopted = search.OPP_MIX
    try:
        for s in range(seed, seed + rounds):
            rng = random.Random(s)
            state = rules.new_round("classic", seed=s)
            while not state.is_over:
                view = state.view(state.to_move)
                if state.to_move == 1:
                    state.apply(opponent(view, rng, None))
                    continue
                evidence = play_evidence(view)
                if evidence:
                    know = knowledge(view)
                    truth = VARIANTS["classic"].mask_of(state.hands[1])
                    # One pool of consistent hands, drawn once (it does not depend on the
                    # prior), weighed under each prior in turn.
                    model = search.OpponentModel(know, evidence, random.Random(s))
                    for i, mix in enumerate(mixes):
                        search.OPP_MIX = mix
                        model.mix = mix  # the prior itself: no earlier stretches are read
                        mean = sum(map(model.weigh, model.pool)) / len(model.pool)
                        totals[i] += math.log(model.weigh(truth) / mean)
                    count += 1
                state.apply(normal(view, rng))
    finally:
        search.OPP_MIX = adopted
    return [t / max(count, 1) for t in totals], count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mix", type=float, nargs="+", default=[0.0, search.OPP_MIX, 1.0])
    args = parser.parse_args(argv)
    print(f"opponent model of the hard classic player (OPP_MIX in use {search.OPP_MIX}); "
          f"{args.rounds} rounds from seed {args.seed}")
    print("opponent  views  " + "  ".join(f"mix {m:<4g}" for m in args.mix))
    for name in OPPONENTS:
        scores, count = truth_scores(PLAYERS[name], args.mix, args.rounds, args.seed)
        print(f"{name:<8} {count:>6}  " + "  ".join(f"{s:+8.3f}" for s in scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
