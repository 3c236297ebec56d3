"""Exact search of a perfect-information position (every hand dealt): alpha-beta with a
transposition table, or expectimax against an opponent who plays at random. The hard
player's endgame (``search.endgame``) runs it on each consistent deal of the hidden tiles."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable

from tui_domino.ai.simulation import Sim, Variant
from tui_domino.rules.classic_sim import ClassicSim
from tui_domino.rules.spider_sim import SpiderSim
from tui_domino.rules.triominos_sim import TriominosSim

Reward = Callable[[Sim], float]


class OutOfTime(Exception):
    """The exact search went past its deadline or its most nodes."""


def position_key(var: Variant, sim: Sim) -> tuple[Hashable, ...]:
    """What decides the rest of the round in ``sim``: the transposition table's key."""
    if isinstance(sim, ClassicSim):
        return (sim.hands[0], sim.hands[1], sim.left, sim.right, sim.to_move)
    if isinstance(sim, TriominosSim):
        # The points so far count (the reward is not additive), and the board is its cells
        # and the numbers on its points (which decide fits, hexagons and bridges).
        return (sim.hands[0], sim.hands[1], sim.turn, sim.points[0] - sim.points[1],
                frozenset(sim.occ), frozenset(sim.pnum.items()))
    assert isinstance(sim, SpiderSim)
    return (sim.hands[0], sim.hands[1], tuple(sim.ends), tuple(sim.closed), sim.to_move)


def solve(var: Variant, sim: Sim, reward: Reward, me: int, alpha: float, beta: float,
          table: dict[tuple[Hashable, ...], float], ctl: list[float], erratic: bool = False,
          clock: Callable[[], float] = time.perf_counter) -> float:
    """The exact value (for ``me``) of a perfect-information position, by alpha-beta; with
    ``erratic`` the opponent picks any legal move with the same chance (his nodes are
    averages: expectimax). ``ctl`` is [nodes searched, deadline, most nodes]: raises
    OutOfTime past the deadline (on ``clock``) or the most nodes."""
    if sim.over:
        return float(reward(sim))
    ctl[0] += 1
    if ctl[0] % 2048 == 0 and (clock() > ctl[1] or ctl[0] > ctl[2]):
        raise OutOfTime
    key = position_key(var, sim)
    hit = table.get(key)
    if hit is not None:
        return hit
    maximize = sim.to_move == me
    if erratic and not maximize:
        moves = sim.legal()
        total = 0.0
        for m in moves:
            child = sim.clone()
            child.play(m)
            total += solve(var, child, reward, me, -math.inf, math.inf, table, ctl, True,
                           clock)
        value = total / len(moves)
        table[key] = value
        return value
    best = -math.inf if maximize else math.inf
    a, b = alpha, beta
    for m in sim.legal():
        child = sim.clone()
        child.play(m)
        v = solve(var, child, reward, me, a, b, table, ctl, erratic, clock)
        if maximize:
            if v > best:
                best = v
            a = max(a, v)
        else:
            if v < best:
                best = v
            b = min(b, v)
        if a >= b:
            return best  # a bound, not the exact value: not stored
    if alpha < best < beta:  # outside the window it is only a bound
        table[key] = best
    return best
