"""The ISMCTS tree: one tree of move sequences shared by every deal of the hidden tiles.

``grow`` is the search's loop with everything it tunes passed in (the reward, the playout, the
exploration constant, the depth, the clock): ``search.ismcts`` chooses them per variant.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from tui_domino.ai.simulation import Sim

Reward = Callable[[Sim], float]
Playout = Callable[[Sim, random.Random], None]
Sampler = Callable[[random.Random], tuple[int, list[int]]]
Deal = Callable[[Sim, int, int, list[int]], None]


class Node:
    __slots__ = ("children", "n", "w", "avail", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1
        self.player = player  # who made the move leading here


def grow(
    base: Sim,
    me: int,
    sample: Sampler,
    deal: Deal,
    reward: Reward,
    playout: Playout | None,
    rng: random.Random,
    *,
    limit: int,
    deadline: float,
    clock: Callable[[], float],
    stop: Callable[[], bool] | None,
    ucb_c: float,
    max_depth: int,
) -> Node:
    """Runs at most ``limit`` iterations from ``base`` (``me`` to move), looking at ``clock``
    and ``stop`` every 16 of them; returns the root. Each iteration deals the hidden tiles by
    ``sample``, walks the tree by UCB among the moves legal in that deal (counting how often
    each was available), adds a node, plays the rest out (``playout``, else the simulator's
    own) and backs up ``reward``."""
    opp = 1 - me
    root = Node(opp)
    log = math.log
    sqrt = math.sqrt
    rand = rng.random
    it = 0
    while it < limit:
        if it & 15 == 0 and it and (clock() > deadline or (stop is not None and stop())):
            break
        it += 1
        sim = base.clone()
        oh, bz = sample(rng)
        deal(sim, opp, oh, bz)
        node = root
        path: list[Node] = []
        while not sim.over and len(path) < max_depth:
            legal = sim.legal()
            children = node.children
            untried = [m for m in legal if m not in children]
            player = sim.to_move
            assert player is not None  # the round is not over
            if untried:
                m = untried[int(rand() * len(untried))]
                for mm in legal:
                    c = children.get(mm)
                    if c is not None:
                        c.avail += 1
                child = Node(player)
                children[m] = child
                sim.play(m)
                path.append(child)
                break
            best = None
            bm = 0
            bv = -math.inf
            for mm in legal:
                c = children[mm]
                c.avail += 1
                v = c.w / c.n + ucb_c * sqrt(log(c.avail) / c.n)
                if v > bv:
                    bv, best, bm = v, c, mm
            assert best is not None
            sim.play(bm)
            path.append(best)
            node = best
        if not sim.over:
            if playout is None:
                sim.playout(rng)
            else:
                playout(sim, rng)
        r = reward(sim)
        for nd in path:
            nd.n += 1
            nd.w += r if nd.player == me else -r
    return root
