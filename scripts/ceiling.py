"""How much of a classic round the hidden tiles decide: the hard player's search, shown what no
fair player can see, against a fair level on the arena's deals.

    python scripts/ceiling.py --knows hand --b random --games 400 --seed 71

``--knows hand``: each search iteration deals the opponent his true hand (the bazaar's order
still shuffled); ``--knows all``: his hand and the bazaar's true order; ``--knows numbers``: a
hand the fair inference allows that holds exactly the numbers his true hand holds (so the
numbers he cannot follow are known, not his tiles; found by sampling, the true hand when
``NUMBER_TRIES`` samples find none). This is a measuring instrument, not a level: it reads the
round's real state, which the game's players never do. It plays the same search
(``search.ismcts``, the default iterations) without the opponent model and the exact endgame,
which only stand in for what it is shown.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import rules  # noqa: E402
from tui_domino.ai import arena, search  # noqa: E402
from tui_domino.ai.inference import knowledge  # noqa: E402
from tui_domino.ai.simulation import variant_of  # noqa: E402
from tui_domino.rules import dominoes as D  # noqa: E402
from tui_domino.rules.classic_sim import ClassicSim  # noqa: E402
from tui_domino.rules.state import RoundState  # noqa: E402

_current: dict[str, RoundState] = {}
NUMBER_TRIES = 1000
_fallbacks = [0, 0]  # [searches that fell back to the true hand, searches]


def numbers(hand: int) -> int:
    """The set of numbers on the tiles of ``hand`` (a 7-bit mask)."""
    return sum(1 << n for n in range(7) if hand & D.NUM[n])


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

        pool: list[int] = []
        if knows == "numbers":
            want = numbers(hand)
            tries = [know.sample(rng)[0] for _ in range(NUMBER_TRIES)]
            pool = [h for h in tries if numbers(h) == want]
            _fallbacks[0] += not pool
            _fallbacks[1] += 1

        def sample(r: random.Random) -> tuple[int, list[int]]:
            if knows == "all":
                return hand, bazaar
            if knows == "numbers":
                h = pool[int(r.random() * len(pool))] if pool else hand
                rest = know.outside(h)
                r.shuffle(rest)
                return h, rest
            order = bazaar[:]
            r.shuffle(order)
            return hand, order

        m, _ = search.ismcts(var, base, know, rng, search.resolve_budget("classic", budget),
                             sampler=sample)
        return var.to_public(base, m)

    return choose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--knows", choices=("hand", "all", "numbers"), default="hand")
    parser.add_argument("--b", choices=("random", "easy", "greedy", "normal", "hard"),
                        default="random")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=71)
    args = parser.parse_args()
    original_view = RoundState.view

    def view(self: RoundState, player: int) -> dict[str, Any]:
        _current["state"] = self  # the arena asks the state for each move's view
        return original_view(self, player)

    RoundState.view = view  # type: ignore[method-assign]
    arena.PLAYERS["seer"] = seer(args.knows)
    r = arena.run("classic", "seer", args.b, args.games, args.seed, None)
    lo, hi = r["a"]["ci95"]
    print(f"knows {args.knows}, vs {args.b}, {args.games} games, seed {args.seed}: "
          f"win rate {r['a']['win_rate']:.3f} [{lo:.3f}, {hi:.3f}], "
          f"mean margin {r['a']['mean_margin']:+.2f}")
    if args.knows == "numbers":
        print(f"searches that fell back to the true hand: {_fallbacks[0]} of {_fallbacks[1]}")


if __name__ == "__main__":
    main()
