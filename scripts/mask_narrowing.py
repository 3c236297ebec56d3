"""How much the inference's slot charging narrows the opponent's possible hands.

    python scripts/mask_narrowing.py [--rounds 300]

Plays seeded classic rounds between two random players. At every decision of player 0 with
a choice it builds the inference masks twice: with the rule in use (a placed tile is charged
to the oldest slot that could have held it) and with the earlier rule (the oldest slot of
all), counts the opponent hands each allows, checks that the true hand passes both and that
the rule in use never allows more, and prints how often the two differ and the mean log2 of
the counts.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from functools import lru_cache
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import rules  # noqa: E402
from tui_domino.ai import inference  # noqa: E402
from tui_domino.ai.heuristic import uniform  # noqa: E402
from tui_domino.ai.inference import Knowledge, knowledge  # noqa: E402
from tui_domino.ai.simulation import VARIANTS  # noqa: E402


def hands_allowed(know: Knowledge) -> int:
    """The number of opponent hands the nested masks allow: choose c_j tiles from each layer
    (the tiles a group allows and no tighter group does) such that the tiles of the looser
    layers fit in the looser groups (Hall's condition for nested masks)."""
    layers: list[tuple[int, int]] = []
    tighter = 0
    for mask, n in know.groups:
        layers.append(((mask & ~tighter).bit_count(), n))
        tighter |= mask

    @lru_cache(None)
    def count(j: int, used: int) -> int:
        if j < 0:
            return 1 if used == know.opp_size else 0
        size = layers[j][0]
        room = sum(n for _, n in layers[j:])
        return sum(comb(size, c) * count(j - 1, used + c)
                   for c in range(size + 1) if used + c <= room)

    return count(len(layers) - 1, 0)


def oldest_of_all(slots: list[int], voids: list[int], tile: int) -> None:
    if slots:
        del slots[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    var = VARIANTS["classic"]
    in_use = inference._charge
    logs_old: list[float] = []
    logs_new: list[float] = []
    differ = 0
    for seed in range(args.rounds):
        rng = random.Random(seed)
        state = rules.new_round("classic", seed=seed)
        while not state.is_over:
            p = state.to_move
            view = state.view(p)
            if p == 0 and len(state.legal_moves()) > 1:
                truth = var.mask_of(state.hands[1])
                inference._charge = oldest_of_all
                old = knowledge(view)
                inference._charge = in_use
                new = knowledge(view)
                assert old.consistent(truth) and new.consistent(truth)
                a, b = hands_allowed(old), hands_allowed(new)
                assert b <= a
                differ += a != b
                logs_old.append(math.log2(a))
                logs_new.append(math.log2(b))
            state.apply(uniform(view, rng))
    n = len(logs_new)
    print(f"{args.rounds} rounds, {n} decisions of player 0 with a choice")
    print(f"hands allowed differ at {differ} decisions ({100 * differ / max(1, n):.1f}%)")
    print(f"mean log2 of the hands allowed: oldest of all {sum(logs_old) / n:.3f}, "
          f"oldest that could hold the tile {sum(logs_new) / n:.3f}")


if __name__ == "__main__":
    main()
