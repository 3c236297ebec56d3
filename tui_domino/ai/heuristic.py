"""The heuristic players: ``easy`` and ``normal``, for every variant.

- easy: a random legal move, preferring doubles (Triominos: triples) half the time. Plays
  sensibly, easy to beat.
- normal: one-move scoring with what the view tells. Dominoes: the heaviest tile, doubles early,
  keep a variety of numbers, leave ends the opponent is known to be void in and ends I can
  follow. Spider also weighs closing arms and the fish. Triominos: the best immediate score
  (tile, bridges, hexagons), minus the hexagons the move would leave for the opponent.

Both work on the engine's fast simulators (``simulation``) and see only the view.
"""

from __future__ import annotations

import random

from tui_domino import rules
from tui_domino.ai.inference import Knowledge, knowledge
from tui_domino.ai.simulation import Sim, Variant, variant_of
from tui_domino.rules import dominoes as D
from tui_domino.rules import triangle_grid as grid
from tui_domino.rules.classic_sim import ClassicSim
from tui_domino.rules.spider_sim import MULTI, SpiderSim
from tui_domino.rules.triominos import TILES as T_TILES
from tui_domino.rules.triominos_sim import CODE_TILE, PATTERN_MASK, TriominosSim
from tui_domino.rules.types import SeatView

_DOUBLE_BIT = D.DOUBLES_MASK
_TRIPLE_BIT = sum(1 << i for i, t in enumerate(T_TILES) if t[0] == t[2])


def _position(view: SeatView) -> tuple[Variant, Sim, list[int]]:
    var = variant_of(view)
    sim = var.base_sim(view)
    return var, sim, sim.legal()


# -- random and easy ---------------------------------------------------------------------------


def uniform(view: SeatView, rng: random.Random, budget: object = None) -> rules.Move:
    """A legal move, uniformly at random."""
    var, sim, legal = _position(view)
    return var.to_public(sim, legal[int(rng.random() * len(legal))])


# -- easy ---------------------------------------------------------------------------------------


def easy(view: SeatView, rng: random.Random, budget: object = None) -> rules.Move:
    """A random legal move; half the time a double (a triple) when one can be played."""
    var, sim, legal = _position(view)
    if len(legal) > 1 and rng.random() < 0.5:
        special = _TRIPLE_BIT if var.name == "triominos" else _DOUBLE_BIT
        doubles = [m for m in legal if any(special >> t & 1 for t in var.move_tiles(sim, m))]
        if doubles:
            legal = doubles
    return var.to_public(sim, legal[int(rng.random() * len(legal))])


# -- normal -------------------------------------------------------------------------------------


def _variety(hand: int) -> int:
    """How many of the numbers 0-6 a domino hand shows."""
    return sum(1 for n in range(7) if hand & D.NUM[n])


def _end_score(n: int, hand: int, opp_may: int, unseen: int) -> float:
    """How good an open end showing ``n`` is for me: I can follow it, the opponent cannot."""
    mine = (hand & D.NUM[n]).bit_count()
    theirs = (opp_may & D.NUM[n]).bit_count()
    s = 1.5 * min(mine, 2)
    if theirs == 0:
        s += 4.0  # known void: he must draw or pass on it
    else:
        s -= 0.6 * theirs * theirs / max(1, (unseen & D.NUM[n]).bit_count())
    return s


def classic_scores(view: SeatView, sim: Sim, legal: list[int], know: Knowledge) -> dict[int, float]:
    assert isinstance(sim, ClassicSim)
    me = view["player"]
    hand = sim.hands[me]
    opp_may = know.may_hold()
    out: dict[int, float] = {}
    for m in legal:
        if m < 0:
            out[m] = 0.0
            continue
        t = m >> 1
        a, b = D.A[t], D.B[t]
        rest = hand & ~(1 << t)
        if sim.empty:
            left, right = a, b
        elif m & 1:
            left, right = sim.left, (b if a == sim.right else a)
        else:
            left, right = (a if b == sim.left else b), sim.right
        s = 1.0 * D.PIPS[t] + (4.0 if a == b else 0.0) + 1.2 * _variety(rest)
        s += _end_score(left, rest, opp_may, know.hidden)
        if right != left:
            s += _end_score(right, rest, opp_may, know.hidden)
        if not rest:
            s += 1000.0
        out[m] = s
    return out


def spider_scores(view: SeatView, sim: Sim, legal: list[int], know: Knowledge) -> dict[int, float]:
    assert isinstance(sim, SpiderSim)
    me = view["player"]
    opp_may = know.may_hold()
    unseen_avg = (
        sum(D.PIPS[i] for i in D.bits(know.hidden)) / max(1, know.hidden.bit_count())
    )
    out: dict[int, float] = {}
    for m in legal:
        if m < 0:
            out[m] = 0.0
            continue
        trial = sim.clone()
        trial.play(m)
        tiles = (
            [D.DOUBLE[sim.ends[a]] for a in range(4) if m >> (2 * a) & 1]
            if m & MULTI
            else [m >> 4]
        )
        rest = trial.hands[me]
        if trial.over:
            out[m] = 1000.0 + trial.points[1 - me] - trial.points[me] if trial.winner == me else (
                -1000.0 if trial.winner == 1 - me else 0.0
            )
            continue
        s = sum(D.PIPS[t] for t in tiles) + 6.0 * (len(tiles) - 1)
        s += sum(3.0 for t in tiles if D.A[t] == D.B[t])
        s += 1.0 * _variety(rest)
        for a in range(4):
            if not trial.closed[a]:
                s += 0.5 * _end_score(trial.ends[a], rest, opp_may, know.hidden)
        # A closed arm: good when it shuts a number he may hold and I cannot follow anyway.
        for a in range(4):
            if trial.closed[a] and not sim.closed[a]:
                e = sim.ends[a]
                s += 1.0 * (opp_may & D.NUM[e]).bit_count() - 2.0 * (rest & D.NUM[e]).bit_count()
        if all(trial.closed):
            mine = D.pips_of(rest)
            theirs = unseen_avg * know.opp_size
            s += 30.0 if mine < theirs else -30.0
        if rest == 1 << D.DOUBLE[0]:
            s -= 15.0  # a lone 0-0 costs 25
        out[m] = s
    return out


def _hexagon_risk(sim: TriominosSim, k: int, opp_may: int) -> float:
    """After a placement on cell key ``k``: how many hexagons the opponent could complete next
    (points around ``k``'s corners touched by five tiles whose last cell he may fill)."""
    risk = 0.0
    par = k & 1
    for off in grid.CORNER_OFFSETS[par]:
        pk = k + off
        if sim.pcnt.get(pk, 0) != 5:
            continue
        for cell_off in grid.AROUND_OFFSETS:
            cell = pk + cell_off
            pat = sim.frontier.get(cell)
            if pat is not None:
                fits = PATTERN_MASK[pat] & opp_may
                if fits:
                    risk += 1.0 if fits.bit_count() > 1 else 0.6
                break
    return risk


TRIOMINOS_MOBILITY = 8.0
TRIOMINOS_BLOCKING = 8.0


def triominos_scores(
    view: SeatView, sim: Sim, legal: list[int], know: Knowledge
) -> dict[int, float]:
    assert isinstance(sim, TriominosSim)
    me = view["player"]
    opp_may = know.may_hold()
    hex_bonus = sim.hexagon_bonus[1]
    out: dict[int, float] = {}
    for m in legal:
        if m < 0:
            out[m] = 0.0
            continue
        trial = sim.clone()
        before = trial.points[me]
        trial.play(m)
        gain = trial.points[me] - before
        s = float(gain)
        if trial.over:
            s += 1000.0
        else:
            fits = 0
            for pat in trial.frontier.values():
                fits |= PATTERN_MASK[pat]
            rest = trial.hands[me]
            s += TRIOMINOS_MOBILITY * (rest & fits).bit_count()
            # His expected playable tiles: each unseen tile he may hold is in his hand with
            # probability (his hand size / tiles he may hold).
            if opp_may:
                share = know.opp_size / opp_may.bit_count()
                s -= TRIOMINOS_BLOCKING * share * (opp_may & fits).bit_count()
            s -= 0.8 * hex_bonus * _hexagon_risk(trial, m >> 8, opp_may)
            # Spend awkward tiles while they still fit: a small bonus for the tile's value.
            s += 0.1 * T_TILES[CODE_TILE[m & 255]][2]
        out[m] = s
    return out


_SCORERS = {
    "classic": classic_scores,
    "spider": spider_scores,
    "triominos": triominos_scores,
}


def normal(view: SeatView, rng: random.Random, budget: object = None) -> rules.Move:
    """The best move by one-move scoring (ties broken at random)."""
    var, sim, legal = _position(view)
    if len(legal) == 1:
        return var.to_public(sim, legal[0])
    scores = _SCORERS[var.name](view, sim, legal, knowledge(view))
    best = max(scores.values())
    top = [m for m in legal if scores[m] >= best - 1e-9]
    return var.to_public(sim, top[int(rng.random() * len(top))])
