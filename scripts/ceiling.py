"""How much of a classic round the hidden tiles decide: the hard player's search, shown what no
fair player can see, against a fair level on the arena's deals.

    python scripts/ceiling.py --knows hand --b random --games 400 --seed 71

``--knows hand``: each search iteration deals the opponent his true hand (the bazaar's order
still shuffled); ``--knows all``: his hand and the bazaar's true order. This is a measuring
instrument, not a level: it reads the round's real state, which the game's players never do.
It plays the same search (``search.ismcts``, the default iterations) without the opponent
model and the exact endgame, which only stand in for what it is shown.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import arena, rules  # noqa: E402
from tui_domino.ai import search  # noqa: E402
from tui_domino.ai.inference import knowledge  # noqa: E402
from tui_domino.ai.simulation import variant_of  # noqa: E402
from tui_domino.rules.classic_sim import ClassicSim  # noqa: E402
from tui_domino.rules.state import RoundState  # noqa: E402

_current: dict[str, RoundState] = {}


def seer(knows: str) -> Any:
    def choose(view: dict[str, Any], rng: random.Random, budget: Any = None) -> rules.Move:
        var = variant_of(view)
        base = var.base_sim(view)
        legal = base.legal()
        if len(legal) == 1:
            return var.to_public(base, legal[0])
        know = knowledge(view)
        true = ClassicSim.from_state(_current["state"])
        hand = true.hands[1 - view["player"]]
        bazaar = list(true.bz[true.bp:])

        def sample(r: random.Random) -> tuple[int, list[int]]:
            if knows == "all":
                return hand, bazaar
            order = bazaar[:]
            r.shuffle(order)
            return hand, order

        m, _ = search.ismcts(var, base, know, rng, search.resolve_budget("classic", budget),
                             sampler=sample)
        return var.to_public(base, m)

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--knows", choices=("hand", "all"), default="hand")
    parser.add_argument("--b", choices=("random", "easy", "normal", "hard"), default="random")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=71)
    args = parser.parse_args()
    original_view = RoundState.view

    def view(self: RoundState, player: int) -> dict[str, Any]:
        _current["state"] = self  # the arena asks the state for each move's view
        return original_view(self, player)

    RoundState.view = view  # type: ignore[method-assign]
    arena.LEVELS["seer"] = seer(args.knows)
    r = arena.run("classic", "seer", args.b, args.games, args.seed, None)
    lo, hi = r["a"]["ci95"]
    print(f"knows {args.knows}, vs {args.b}, {args.games} games, seed {args.seed}: "
          f"win rate {r['a']['win_rate']:.3f} [{lo:.3f}, {hi:.3f}], "
          f"mean margin {r['a']['mean_margin']:+.2f}")


if __name__ == "__main__":
    main()
