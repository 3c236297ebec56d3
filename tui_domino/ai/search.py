"""The hard player: search under hidden information.

Information-Set Monte Carlo Tree Search, single observer (Cowling, Powley and Whitehouse,
2012): each iteration deals the hidden tiles afresh from the inference masks
(``inference.Knowledge.sample``: consistent with every draw and pass seen, no rejection), walks
one tree of move sequences shared by all those deals (a move is scored by UCB among the moves
legal in *this* deal, counting how often it was available), adds a node, plays the round out on
the engine's fast simulator and backs up a reward that counts points, not only the round won.

Near the end of a dominoes round, when nobody can draw any more and few tiles remain, it
switches to exact search: every consistent hidden hand (or a sample of them) is solved by
alpha-beta on the simulator, and the move with the best average value is played.

The budget is an iteration count and a wall-clock cap, whichever ends first; the iteration
count makes play reproducible under a seed (the cap only matters on a loaded machine).
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from itertools import combinations

from tui_domino import rules
from tui_domino.ai import classic_search, exact, tree
from tui_domino.ai.inference import (
    Evidence,
    Knowledge,
    Stretch,
    evidence_weight,
    knowledge,
    past_evidence,
    play_evidence,
    uniform_choice_weight,
)
from tui_domino.ai.simulation import Sim, Variant, variant_of
from tui_domino.rules import dominoes as D
from tui_domino.rules.classic_sim import ClassicSim
from tui_domino.rules.triominos_sim import PATTERN_MASK, mask_value
from tui_domino.rules.triominos_sim import TriominosSim as _TSim
from tui_domino.rules.types import SeatView

Stop = Callable[[], bool]  # asked now and then: True ends the search
Reward = tree.Reward
Playout = tree.Playout
Sampler = tree.Sampler
# The bazaar's tiles that cannot be drawn in classic when a view does not say (the rules').
CLASSIC_RESERVE: int = rules.DEFAULTS["classic"]["bazaar_reserve"]


@dataclass(frozen=True)
class Budget:
    """How long the search may think about one move: at most ``iterations`` iterations and at
    most ``ms`` milliseconds of wall-clock time (either may be None: no limit of that kind)."""

    iterations: int | None = None
    ms: float | None = None


# What a player is given to think with: None (its default), a Budget, or seconds.
BudgetLike = Budget | float | None

# Per variant: iterations and the wall-clock cap of the hard player's default budget. Classic
# searches 100,000 deals a move with the compiled search (about 85 ms), 6000 with the Python
# one where the package was installed without a C compiler (about 220 ms).
CLASSIC_ITERATIONS = {"compiled": 100_000, "python": 6000}
DEFAULT_ITERATIONS = {
    "classic": CLASSIC_ITERATIONS["compiled" if classic_search.native_available() else "python"],
    "spider": 1800,
    "triominos": 2000,
}
DEFAULT_MS = 800.0

# The reward: half for winning the round, half for the points margin (tanh-squashed).
MARGIN_SCALE = {"classic": 25.0, "spider": 25.0, "triominos": 60.0}
# Dominoes: the share of the reward for winning the round (the rest is for the margin).
WIN_WEIGHT = 0.5
# The exploration constant of UCB1, per variant (rewards lie in [-1, 1]).
UCB_C = {"classic": 1.0, "spider": 0.7, "triominos": 0.7}
# How deep the tree may grow (moves from the root); below it, the playout decides.
MAX_DEPTH = {"classic": 1000, "spider": 1000, "triominos": 1000}


def resolve_budget(variant: str, budget: Budget | float | None) -> Budget:
    """A ``Budget`` from None (the default), a ``Budget``, or a number of seconds."""
    if budget is None:
        return Budget(DEFAULT_ITERATIONS[variant], DEFAULT_MS)
    if isinstance(budget, Budget):
        its = budget.iterations
        ms = budget.ms
        if its is None and ms is None:
            return Budget(DEFAULT_ITERATIONS[variant], DEFAULT_MS)
        return budget
    if isinstance(budget, int | float) and not isinstance(budget, bool):
        return Budget(None, float(budget) * 1000.0)
    raise TypeError(f"a budget is None, a Budget or seconds, not {budget!r}")


# -- rewards and playouts ---------------------------------------------------------------------

Match = tuple[list[int], int]  # (match totals before this round, target)


def match_context(view: Mapping[str, object]) -> Match | None:
    """The optional match context of a view: ``view["match"] = {"totals": [t0, t1],
    "target": T}`` (the totals banked before this round). The engine's views do not carry
    it; a caller that knows the match may add it, and the search then plays for the match."""
    m = view.get("match")
    if not isinstance(m, dict):
        return None
    totals, target = m.get("totals"), m.get("target")
    if (
        isinstance(totals, list) and len(totals) == 2
        and all(isinstance(t, int) for t in totals) and isinstance(target, int)
    ):
        return (list(totals), target)
    return None


def match_outcome(variant: str, match: Match, points: list[int], me: int) -> int | None:
    """+1 when the finished round wins the match for ``me``, -1 when it loses it, else None."""
    totals, target = match
    new = [totals[0] + points[0], totals[1] + points[1]]
    if variant == "spider":  # points are charged: reaching the limit loses
        for p in (0, 1):
            if new[p] >= target:
                return -1 if p == me else 1
        return None
    if max(new) >= target and new[0] != new[1]:
        return 1 if (new[me] > new[1 - me]) else -1
    return None


def _with_match(reward: Reward, variant: str, me: int, match: Match | None) -> Reward:
    if match is None:
        return reward

    def with_match(sim: Sim) -> float:
        if sim.over:
            o = match_outcome(variant, match, sim.points, me)
            if o is not None:
                return float(o)
        return float(reward(sim))

    return with_match


def _reward_fn(var: Variant, me: int) -> Reward:
    scale = MARGIN_SCALE[var.name]
    tanh = math.tanh
    if var.name == "triominos":

        def reward_t(sim: Sim) -> float:
            m = sim.points[me] - sim.points[1 - me]
            return (0.5 if m > 0 else -0.5 if m < 0 else 0.0) + 0.5 * tanh(m / scale)

        return reward_t
    sign = 1 if var.name == "classic" else -1

    win = WIN_WEIGHT
    rest = 1.0 - win

    def reward_d(sim: Sim) -> float:
        m = sign * (sim.points[me] - sim.points[1 - me])
        w = sim.winner
        return (0.0 if w is None else win if w == me else -win) + rest * tanh(m / scale)

    return reward_d


# The classic playout: with probability CLASSIC_GREEDY a side plays its heaviest placement,
# counting CLASSIC_BLOCK pips more for one that leaves the other side (in this deal) nothing
# to follow, so that he must draw; otherwise a random one.
CLASSIC_GREEDY = 0.8
CLASSIC_BLOCK = 12


def _classic_playout(sim: Sim, rng: random.Random) -> None:
    """Classic to the round's end with the blocking, heavy-first policy above."""
    assert isinstance(sim, ClassicSim)
    sim.playout(rng, greedy=CLASSIC_GREEDY, block=CLASSIC_BLOCK)


TRIOMINOS_PLAYOUT_PLIES = 6
TRIOMINOS_MOBILITY = 8.0


def _triominos_playout(sim: Sim, rng: random.Random) -> None:
    """A short greedy-ish playout: each side plays its best-scoring placement most of the time
    (a random one otherwise), for a few plies; the caller evaluates the position after."""
    assert isinstance(sim, _TSim)
    rand = rng.random
    for _ in range(TRIOMINOS_PLAYOUT_PLIES):
        if sim.over:
            return
        ms = sim.legal()
        if len(ms) == 1 or ms[0] < 0:
            sim.play(ms[0])
            continue
        if rand() < 0.25:
            sim.play(ms[int(rand() * len(ms))])
            continue
        best = ms[0]
        bv = -1
        gain = sim.gain
        for m in ms:
            g = gain(m)
            if g > bv:
                bv, best = g, m
        sim.play(best)


def triominos_value_fn(var: Variant, me: int, points: bool = False) -> Reward:
    """The reward of a (possibly unfinished) Triominos playout for ``me``; with ``points`` the
    margin estimated, in units of the margin's scale, not squashed."""
    scale = MARGIN_SCALE["triominos"]
    tanh = math.tanh

    def reward(sim: Sim) -> float:
        m = float(sim.points[me] - sim.points[1 - me])
        if not sim.over:
            # Tiles still held: each will score about its value when placed, but the one who
            # goes out first gets 25 plus the other's hand; fewer tiles is better on balance.
            mine, theirs = sim.hands[me], sim.hands[1 - me]
            m += 4.0 * (theirs.bit_count() - mine.bit_count())
            m += 0.3 * (mask_value(mine) - mask_value(theirs))
            assert isinstance(sim, _TSim)
            fits = 0
            for pat in sim.frontier.values():
                fits |= PATTERN_MASK[pat]
            m += TRIOMINOS_MOBILITY * ((mine & fits).bit_count() - (theirs & fits).bit_count())
        if points:
            return m / scale
        return (0.5 if m > 0 else -0.5 if m < 0 else 0.0) + 0.5 * tanh(m / scale)

    return reward


def points_fn(var: Variant, me: int) -> Reward:
    """The points margin for ``me`` of a finished dominoes round, in units of the margin's
    scale (positive is good): a reward that averages to the expected margin."""
    scale = MARGIN_SCALE[var.name]
    sign = 1 if var.name == "classic" else -1

    def points_d(sim: Sim) -> float:
        return float(sign * (sim.points[me] - sim.points[1 - me]) / scale)

    return points_d


PLAYOUTS: dict[str, Playout] = {"classic": _classic_playout, "triominos": _triominos_playout}


# The opponent model for weighting hidden deals (classic). He is one of two kinds of player:
# heavy-first, picking among his fitting tiles with probability proportional to
# exp(OPP_BETA * pips), or one who picks uniformly at random, with prior OPP_MIX. A hand's
# weight is the likelihood of his placements with it under each kind, mixed by the priors:
# over all the placements read (those since his last draw), not move by move, so his choices
# also tell which kind he is. OPP_BETA 0 turns the weighting off; OPP_MIX 0 keeps the
# heavy-first kind alone.
OPP_BETA = 0.8
OPP_MIX = 0.5
OPP_POOL = 256
# How much the classic search believes the kind: in each iteration the opponent plays at
# random with ERRATIC times the chance, given the deal and his choices, that he is the random
# kind (the prior OPP_MIX before any evidence); else as a strong player (UCB in the tree,
# the playout policy after it). 0: always as a strong player.
ERRATIC = 1.0
# The classic tree tells the searching side's draws apart (his next choice knows the tile he
# drew) instead of one node for "he drew".
SPLIT_DRAWS = True
# The opponent's placements before his last draw tell his kind (not his hand now): each such
# stretch is weighed over this many hands it allows (0: they are not read).
PAST_SAMPLES = 128


class OpponentModel:
    """Hidden deals weighted by the opponent's past choices (classic): a hand is weighted by
    how likely his placements since his last draw were with it, mixed over two kinds of player
    (heavy-first and uniformly random) by ``mix``, the random kind's share before those
    placements: the prior OPP_MIX, updated by his placements before his last draw
    (``stretches``, each averaged over the hands it allows). ``sample`` draws from a pool of
    consistent hands by weight (the rest shuffled into the bazaar); ``weigh`` weighs one."""

    def __init__(self, know: Knowledge, evidence: Evidence, rng: random.Random,
                 stretches: list[Stretch] | None = None) -> None:
        self._evidence = evidence
        self._know = know
        self._weight = [math.exp(OPP_BETA * p) for p in D.PIPS]
        self.mix = _updated_mix(stretches or [], self._weight, rng)
        self.pool = [know.sample(rng)[0] for _ in range(OPP_POOL)]
        self.cum: list[float] = []
        self.erratic: list[float] = []
        total = 0.0
        for h in self.pool:
            w, q = self._weigh(h)
            total += w
            self.cum.append(total)
            self.erratic.append(q)
        self.total = total

    def _weigh(self, hand: int) -> tuple[float, float]:
        """The weight of ``hand`` and the chance, if he holds it, that he is the random kind."""
        mix = self.mix
        heavy = evidence_weight(self._evidence, hand, self._weight)
        uniform = uniform_choice_weight(self._evidence, hand) if mix else 0.0
        w = (1 - mix) * heavy + mix * uniform
        return w, (mix * uniform / w if w > 0 else mix)

    def erratic_of(self, hand: int) -> float:
        """The chance that he is the random kind if his hand is ``hand``."""
        return self._weigh(hand)[1]

    def weigh(self, hand: int) -> float:
        return self._weigh(hand)[0]

    def sample(self, r: random.Random) -> tuple[int, list[int]]:
        h = self.pool[min(len(self.pool) - 1, bisect(self.cum, r.random() * self.total))]
        bazaar = self._know.outside(h)
        r.shuffle(bazaar)
        return h, bazaar


def _updated_mix(stretches: list[Stretch], weight: list[float], rng: random.Random) -> float:
    """The random kind's share OPP_MIX updated by ``stretches``: each one's likelihood under
    each kind is its mean over PAST_SAMPLES hands drawn uniformly from what it allows."""
    mix = OPP_MIX
    if not stretches or mix in (0.0, 1.0):
        return mix
    odds = 1.0
    for cand, size, evidence in stretches:
        tiles = [t for t in range(len(D.TILES)) if cand >> t & 1]
        if len(tiles) < size:  # cannot happen for a real game
            continue
        heavy = uniform = 0.0
        for _ in range(PAST_SAMPLES):
            h = 0
            for t in rng.sample(tiles, size):
                h |= 1 << t
            heavy += evidence_weight(evidence, h, weight)
            uniform += uniform_choice_weight(evidence, h)
        if heavy > 0.0:
            odds *= uniform / heavy
        elif uniform > 0.0:
            return 1.0
    random_odds = odds * mix / (1 - mix)
    return random_odds / (1 + random_odds)


def opponent_model(var: Variant, know: Knowledge, view: SeatView,
                   rng: random.Random) -> OpponentModel | None:
    """The weighted deals when the view holds evidence of the opponent's choices."""
    if OPP_BETA <= 0 or var.name != "classic":
        return None
    evidence = play_evidence(view)
    stretches = past_evidence(view) if PAST_SAMPLES else []
    if not evidence and not stretches:
        return None
    return OpponentModel(know, evidence, rng, stretches)


# -- ISMCTS -------------------------------------------------------------------------------------


def ismcts(
    var: Variant,
    base: Sim,
    know: Knowledge,
    rng: random.Random,
    budget: Budget,
    stop: Stop | None = None,
    match: Match | None = None,
    sampler: Sampler | None = None,
    points: bool = False,
) -> tuple[int, dict[int, tuple[int, float]]]:
    """Searches from ``base`` (the viewer to move); returns the chosen compact move and the root
    statistics {move: (visits, mean reward)}. With ``points`` the reward is the round's points
    margin for the viewer divided by ``MARGIN_SCALE`` (not squashed, no match): the root's mean
    rewards times the scale are then each move's expected final margin (the coach's figures)."""
    me = know.me
    root_legal = base.legal()
    if len(root_legal) == 1:
        return root_legal[0], {}
    triominos = var.name == "triominos"
    if points:
        reward = triominos_value_fn(var, me, True) if triominos else points_fn(var, me)
    else:
        reward = triominos_value_fn(var, me) if triominos else _reward_fn(var, me)
        reward = _with_match(reward, var.name, me, match)
    clock = time.perf_counter
    root = tree.grow(
        base, me, sampler if sampler is not None else know.sample, var.deal_hidden, reward,
        PLAYOUTS.get(var.name), rng,
        limit=budget.iterations if budget.iterations is not None else 1 << 30,
        deadline=clock() + budget.ms / 1000.0 if budget.ms is not None else math.inf,
        clock=clock, stop=stop, ucb_c=UCB_C[var.name], max_depth=MAX_DEPTH[var.name],
    )
    stats = {m: (c.n, c.w / c.n if c.n else 0.0) for m, c in root.children.items()}
    best_m = max(root_legal, key=lambda m: (stats.get(m, (0, 0.0))))
    return best_m, stats


def classic_ismcts(
    base: Sim,
    know: Knowledge,
    rng: random.Random,
    budget: Budget,
    stop: Stop | None = None,
    match: Match | None = None,
    model: OpponentModel | None = None,
    points: bool = False,
) -> tuple[int, dict[int, tuple[int, float]]]:
    """``ismcts`` for classic, by ``classic_search`` (compiled where it was built): the same
    tree, playouts and reward, many times faster. Deals come from the opponent ``model`` when
    there is one, else from the masks. With ``points`` the reward is the points margin over
    ``MARGIN_SCALE`` as in ``ismcts`` (the search's squashed margin taken where tanh is a
    straight line: a scale POINTS_STRETCH times larger, with the exploration constant scaled
    down alike, which is the same search on rewards of margin / scale)."""
    me = know.me
    assert isinstance(base, ClassicSim)
    pos = classic_search.Position(
        me=me, hand=base.hands[me], hidden=know.hidden, opp_size=know.opp_size,
        left=base.left, right=base.right, forced=base.forced, reserve=base.reserve,
        points=(base.points[0], base.points[1]),
    )
    if model is not None:
        sampler = classic_search.Sampler(
            pool=tuple(model.pool), cum=tuple(model.cum),
            erratic=tuple(ERRATIC * q for q in model.erratic) if ERRATIC else ())
    else:
        sampler = classic_search.Sampler(groups=tuple(
            (tuple(lst), n) for lst, (_mask, n) in zip(know.group_tiles, know.groups, strict=True)
        ), erratic_all=ERRATIC * OPP_MIX)
    if points:
        params = classic_search.Params(
            ucb_c=UCB_C["classic"] / POINTS_STRETCH, win=0.0,
            scale=MARGIN_SCALE["classic"] * POINTS_STRETCH,
            greedy=CLASSIC_GREEDY, block=CLASSIC_BLOCK, split_draws=SPLIT_DRAWS, match=None,
        )
    else:
        params = classic_search.Params(
            ucb_c=UCB_C["classic"], win=WIN_WEIGHT, scale=MARGIN_SCALE["classic"],
            greedy=CLASSIC_GREEDY, block=CLASSIC_BLOCK,
            split_draws=SPLIT_DRAWS,
            match=None if match is None else ((match[0][0], match[0][1]), match[1]),
        )
    deadline = time.perf_counter() + budget.ms / 1000.0 if budget.ms is not None else math.inf
    limit = budget.iterations if budget.iterations is not None else 1 << 40
    move, stats = classic_search.search(pos, sampler, params, rng, limit, deadline, stop)
    if points:  # back to rewards of margin / scale (tanh(x) = x to 1e-8 at these x)
        stats = {m: (n, r * POINTS_STRETCH) for m, (n, r) in stats.items()}
    return move, stats


# The stretch of the classic search's margin scale for rewards in points (see classic_ismcts):
# margins of at most 168 pips give tanh arguments below 1e-4, where tanh is x to 1e-8.
POINTS_STRETCH = 1e5


# -- exact endgame ------------------------------------------------------------------------------

ENDGAME_TILES = {"classic": 16, "spider": 12, "triominos": 12}
ENDGAME_DEALS = 24
# The exact search gives up (and ISMCTS decides) past this many positions, whatever the
# budget: so that a budget of iterations alone, as in the arena, cannot make a move take long.
ENDGAME_NODES = 200_000


def _no_more_draws(var: Variant, view: SeatView) -> bool:
    if var.name == "classic":
        return bool(view["bazaar_size"] <= view.get("bazaar_reserve", CLASSIC_RESERVE))
    return bool(view["bazaar_size"] == 0)


# The exact solver's pieces (ai/exact.py), by the names the search has always given them.
_key = exact.position_key
_OutOfTime = exact.OutOfTime


def _solve(var: Variant, sim: Sim, reward: Reward, me: int, alpha: float, beta: float,
           table: dict[tuple[Hashable, ...], float], ctl: list[float], erratic: bool = False
           ) -> float:
    """``exact.solve`` on this module's clock."""
    return exact.solve(var, sim, reward, me, alpha, beta, table, ctl, erratic,
                       time.perf_counter)


def endgame(
    var: Variant,
    base: Sim,
    know: Knowledge,
    rng: random.Random,
    budget: Budget,
    match: Match | None = None,
    model: OpponentModel | None = None,
) -> int | None:
    """The best move by exact search over the consistent hidden hands (weighted by the
    opponent ``model`` when there is one), or None when the position is too big or the time
    ran out. In classic each hand's value mixes the two kinds of opponent as the ISMCTS does:
    the random kind's (expectimax) by the chance, given that hand and his choices, that he is
    that kind (``ERRATIC`` times it; the prior ``OPP_MIX`` without evidence), the strong
    one's (minimax) by the rest."""
    me = know.me
    opp = 1 - me
    legal: list[int] = base.legal()
    if len(legal) == 1:
        return legal[0]
    hidden_list = know.hidden_tiles
    hands: list[int] = []
    if len(hidden_list) <= 12:
        for combo in combinations(hidden_list, know.opp_size):
            h = sum(1 << t for t in combo)
            if know.consistent(h):
                hands.append(h)
    weights: list[float] = [1.0] * len(hands)
    if not hands:
        draw = model.sample if model is not None else know.sample
        hands = [draw(rng)[0] for _ in range(ENDGAME_DEALS)]
        weights = [1.0] * len(hands)
    elif model is not None:
        weights = [model.weigh(h) for h in hands]
        if len(hands) > ENDGAME_DEALS:
            hands = rng.choices(hands, weights=weights, k=ENDGAME_DEALS)
            weights = [1.0] * len(hands)
    elif len(hands) > ENDGAME_DEALS:
        hands = rng.sample(hands, ENDGAME_DEALS)
        weights = [1.0] * len(hands)
    reward = _with_match(_reward_fn(var, me), var.name, me, match)
    # Exact search may use at most half of the time cap; ISMCTS gets the rest if it fails.
    deadline = time.perf_counter() + (budget.ms if budget.ms is not None else 1e9) / 2000.0
    totals = dict.fromkeys(legal, 0.0)
    ctl = [0.0, deadline, float(ENDGAME_NODES)]
    for h, w in zip(hands, weights, strict=True):
        sim = base.clone()
        rest = know.outside(h)
        var.deal_hidden(sim, opp, h, rest)
        q = 0.0
        if var.name == "classic" and ERRATIC:
            q = ERRATIC * (model.erratic_of(h) if model is not None else OPP_MIX)
        for kind, share in ((False, 1.0 - q), (True, q)):
            if share <= 0.0:
                continue
            table: dict[tuple[Hashable, ...], float] = {}
            for m in legal:
                child = sim.clone()
                child.play(m)
                try:
                    v = _solve(var, child, reward, me, -math.inf, math.inf, table, ctl, kind)
                except _OutOfTime:
                    return None
                totals[m] += w * share * v
    return max(legal, key=lambda m: totals[m])


# -- the player ---------------------------------------------------------------------------------


def hard(view: SeatView, rng: random.Random, budget: BudgetLike = None,
         stop: Stop | None = None) -> rules.Move:
    """The hard player: exact endgame search when it applies, else ISMCTS."""
    start = time.perf_counter()
    var = variant_of(view)
    b = resolve_budget(var.name, budget)
    base = var.base_sim(view)
    legal = base.legal()
    if len(legal) == 1:
        return var.to_public(base, legal[0])
    know = knowledge(view)
    match = match_context(view)
    model = opponent_model(var, know, view, rng)
    if var.name in ENDGAME_TILES and _no_more_draws(var, view):
        held = len(view["hand"]) + know.opp_size
        if held <= ENDGAME_TILES[var.name]:
            m = endgame(var, base, know, rng, b, match, model)
            if m is not None:
                return var.to_public(base, m)
            if b.ms is not None:  # what the exact search left of the time
                spent = (time.perf_counter() - start) * 1000.0
                b = Budget(b.iterations, max(1.0, b.ms - spent))
    if var.name == "classic":
        m, _stats = classic_ismcts(base, know, rng, b, stop, match, model)
    else:
        m, _stats = ismcts(var, base, know, rng, b, stop, match,
                           model.sample if model is not None else None)
    return var.to_public(base, m)


__all__ = ["Budget", "endgame", "hard", "ismcts", "resolve_budget"]
