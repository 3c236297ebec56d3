"""The classic hard player's ISMCTS, written out for speed, in two implementations.

``search`` is the algorithm of ``search.ismcts`` specialised to classic dominoes: the position
is a handful of ints (two hands as bit masks, the two ends, whose turn, how many tiles have
been drawn) instead of a simulator object, and every random choice is one ``rng.random()``
call. The bazaar is drawn lazily: a draw swaps a random undrawn tile to the front (a
Fisher-Yates shuffle done one step at a time), which orders the bazaar as uniformly as
shuffling it first but costs only the draws that happen.

``tui_domino.ai._classic_search`` (C, built with the package where a compiler is available) is
the same algorithm: it takes the state of the caller's ``random.Random`` (the Mersenne Twister
that ``random()`` reads), consumes it call for call as this module does, and hands it back. The
two give the same move, the same root statistics and leave the generator in the same state
(a test compares them over many positions); the C one is about 30 times faster, which is what
lets the hard player search tens of thousands of deals per move. ``search`` picks the C one
when it is there. Both refuse arguments out of range (``check``: a ValueError naming the
argument) before they search, so that no mask, end or count can lead either astray.

A tree node is ``[visits, total reward, availability, children, player]``; the reward of a
finished round is ``reward(winner, points)`` below: a share ``win`` for winning the round, the
rest for the points margin squashed by ``tanh(margin / scale)``, or the whole reward, won or
lost, for a round that ends the match. With ``Params.split_draws`` the searching side's draws
are chance nodes, one child per tile drawn (keyed ``DRAWN + tile``), so that its later choices
in the tree know what it drew. Each iteration also draws whether the opponent plays it as the
random kind (``Sampler.erratic``): his moves in the tree are then uniformly random among those
legal in the deal, not chosen by UCB, and in the playout random among his fitting tiles.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from tui_domino.rules import dominoes as D
from tui_domino.rules.classic import NO_END
from tui_domino.rules.classic_sim import DRAW_M, PASS_M, _blocking_choice, _pips

DRAWN = 64  # a tree key: DRAWN + t, the searching side drew tile t

_NUM = D.NUM
_PIPS = D.PIPS
_A = D.A
_B = D.B
_LO = D.LOW_BITS
_HI = D.HIGH_BITS

_native: ModuleType | None
try:  # the compiled twin; absent where the package was installed without a C compiler
    from tui_domino.ai import _classic_search as _native
except ImportError:  # pragma: no cover - depends on the build
    _native = None


@dataclass(frozen=True)
class Position:
    """The searching side's position: ``me`` is to move with ``hand``; the opponent holds
    ``opp_size`` of the unseen tiles ``hidden`` (the rest are the bazaar, ``bazaar`` of them).
    ``left``/``right`` are the open ends (NO_END on an empty line), ``forced`` a tile that must
    open the round (-1: none), ``reserve`` the tiles that are never drawn, ``points`` the
    round's points so far."""

    me: int
    hand: int
    hidden: int
    opp_size: int
    left: int
    right: int
    forced: int
    reserve: int
    points: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Sampler:
    """How each iteration deals the opponent's hand. Either a weighted pool (``pool`` of hand
    masks with cumulative weights ``cum``: a hand is drawn by weight), or the inference's
    nested groups (``groups``: (allowed tiles, ascending; how many slots), most constrained
    first: each group's slots take distinct tiles uniformly from what is left of its list)."""

    pool: tuple[int, ...] = ()
    cum: tuple[float, ...] = ()
    groups: tuple[tuple[tuple[int, ...], int], ...] = ()
    # The chance that the opponent picks his moves at random rather than as a strong player,
    # for each pool hand (``erratic``: the same length as ``pool``), or for every deal
    # (``erratic_all``, used when there is no per-hand figure).
    erratic: tuple[float, ...] = ()
    erratic_all: float = 0.0


@dataclass(frozen=True)
class Params:
    """The search's constants: UCB's exploration constant, the reward (the share ``win`` for
    the round won, the margin's ``scale``; ``match``: (totals before the round, target) or
    None), and the playout policy (heaviest placement with probability ``greedy``, counting
    ``block`` pips more for one that leaves the other side nothing to follow)."""

    ucb_c: float = 1.0
    win: float = 0.5
    scale: float = 25.0
    greedy: float = 0.8
    block: int = 12
    match: tuple[tuple[int, int], int] | None = None
    split_draws: bool = False


# The largest number of points (of the round so far, a match total, a match target) and of pips
# (the playout's bonus for blocking) that the search takes: sums of two stay within a C int.
LIMIT = 10**9
_MAX_ITERATIONS = (1 << 63) - 1


def _int(name: str, v: object, lo: int, hi: int, what: str = "") -> int:
    """``v`` if it is an int from ``lo`` to ``hi``; else TypeError or ValueError naming it."""
    # exact types (as the compiled twin: no subclass's code runs while it is read)
    if not isinstance(v, int) or type(v) not in (int, bool):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    if not lo <= v <= hi:
        raise ValueError(f"{name} must be {lo} to {hi}{what}, not {v!r}")
    return v


def _real(name: str, v: object) -> float:
    if not isinstance(v, (int, float)) or type(v) not in (int, float, bool):
        raise TypeError(f"{name} must be a number, not {type(v).__name__}")
    return float(v)


def _chance(name: str, v: object) -> None:
    if not 0.0 <= _real(name, v) <= 1.0:
        raise ValueError(f"{name} must be 0 to 1, not {v!r}")


def check(pos: Position, sampler: Sampler, params: Params, iterations: int,
          deadline: float = math.inf, stop: Callable[[], bool] | None = None) -> None:
    """Refuse what is not a search the algorithm can do, as the compiled twin refuses it (the
    same checks in the same order, the same messages): a ValueError for a value out of range,
    a TypeError for one of the wrong type. In range means masks of the 28 tiles, a hand that
    is not empty, two ends of 0 to 6 (or both NO_END), an opponent holding 1 to all of the
    unseen tiles, a sampler that deals him exactly that many of them, probabilities from 0 to
    1, and so on, as below."""
    _int("me", pos.me, 0, 1)
    hand = _int("hand", pos.hand, 0, D.FULL, " (a mask of the 28 tiles)")
    if not hand:
        raise ValueError("hand is empty: there is no move to choose")
    hidden = _int("hidden", pos.hidden, 0, D.FULL, " (a mask of the 28 tiles)")
    if hand & hidden:
        raise ValueError("hand and hidden share tiles")
    nhidden = hidden.bit_count()
    opp_size = _int("opp_size", pos.opp_size, 1, nhidden, " (the hidden tiles)")
    left = _int("left", pos.left, 0, NO_END)
    right = _int("right", pos.right, 0, NO_END)
    if (left == NO_END) != (right == NO_END):
        raise ValueError(f"the ends must both be 0 to 6 or both {NO_END} (an empty line), "
                         f"not {left} and {right}")
    forced = _int("forced", pos.forced, -1, len(D.TILES) - 1)
    if forced >= 0 and (not hand >> forced & 1 or left != NO_END):
        raise ValueError(f"forced must be -1 or a tile of the hand on an empty line, not {forced}")
    _int("reserve", pos.reserve, 0, nhidden - opp_size, " (the bazaar)")
    if len(pos.points) != 2:
        raise ValueError(f"points must be two numbers, not {len(pos.points)}")
    _int("points[0]", pos.points[0], 0, LIMIT)
    _int("points[1]", pos.points[1], 0, LIMIT)

    pool, cum, erratic = sampler.pool, sampler.cum, sampler.erratic
    if len(cum) != len(pool):
        raise ValueError("the pool and its weights differ in length")
    if erratic and len(erratic) != len(pool):
        raise ValueError("the pool and its erratic chances differ in length")
    if bool(pool) == bool(sampler.groups):
        raise ValueError("the sampler must deal from a pool or from groups, one of the two")
    for i, h in enumerate(pool):
        if type(h) not in (int, bool):
            raise TypeError(f"pool[{i}] must be an int, not {type(h).__name__}")
        if not 0 <= h <= D.FULL or h & ~hidden or h.bit_count() != opp_size:
            raise ValueError(f"pool[{i}] must be a hand of {opp_size} hidden tiles, not {h!r}")
    prev = 0.0
    for i, c in enumerate(cum):
        x = _real(f"cum[{i}]", c)
        if not (math.isfinite(x) and x >= prev):
            raise ValueError(f"cum must be finite, non-negative and non-decreasing: cum[{i}] is "
                             f"{c!r}")
        prev = x
    for i, q in enumerate(erratic):
        _chance(f"erratic[{i}]", q)
    _chance("erratic_all", sampler.erratic_all)
    if len(sampler.groups) > len(D.TILES):
        raise ValueError(f"there must be at most {len(D.TILES)} groups, not "
                         f"{len(sampler.groups)}")
    total = 0
    for g, (lst, n) in enumerate(sampler.groups):
        seen = 0
        for t in lst:
            if type(t) not in (int, bool):
                raise TypeError(f"groups[{g}] must list ints, not {type(t).__name__}")
            if not 0 <= t < len(D.TILES) or not hidden >> t & 1 or seen >> t & 1:
                raise ValueError(f"groups[{g}] must list distinct hidden tiles: {t!r} is not "
                                 f"one")
            seen |= 1 << t
        total += _int(f"groups[{g}]'s count", n, 1, opp_size)
    if sampler.groups and total != opp_size:
        raise ValueError(f"the groups' counts must add up to opp_size ({opp_size}), not {total}")

    ucb_c = _real("ucb_c", params.ucb_c)
    if not (math.isfinite(ucb_c) and ucb_c >= 0.0):
        raise ValueError(f"ucb_c must be finite and at least 0, not {params.ucb_c!r}")
    _chance("win", params.win)
    scale = _real("scale", params.scale)
    if not (math.isfinite(scale) and scale > 0.0):
        raise ValueError(f"scale must be finite and above 0, not {params.scale!r}")
    _chance("greedy", params.greedy)
    _int("block", params.block, 0, LIMIT)
    if params.match is not None:
        (t0, t1), target = params.match
        _int("match totals[0]", t0, 0, LIMIT)
        _int("match totals[1]", t1, 0, LIMIT)
        _int("match target", target, 1, LIMIT)

    _int("iterations", iterations, 0, _MAX_ITERATIONS)
    if math.isnan(_real("deadline", deadline)):
        raise ValueError("deadline must be a time or inf, not nan")
    if stop is not None and not callable(stop):
        raise TypeError("stop must be callable or None")


def _bits(mask: int) -> tuple[int, ...]:
    return _LO[mask & 0x3FFF] + _HI[mask >> 14]


def legal_moves(hand: int, left: int, right: int, forced: int, can_draw: bool) -> list[int]:
    """The compact moves (as ``ClassicSim.legal``) of the side holding ``hand``."""
    if left == NO_END:
        if forced >= 0:
            return [forced * 2]
        return [i * 2 for i in _bits(hand)]
    out = [i * 2 for i in _bits(hand & _NUM[left])]
    out += [i * 2 + 1 for i in _bits(hand & _NUM[right])]
    if out:
        return out
    return [DRAW_M] if can_draw else [PASS_M]


def _match_outcome(match: tuple[tuple[int, int], int], points: list[int], me: int) -> int:
    (t0, t1), target = match
    n0, n1 = t0 + points[0], t1 + points[1]
    if max(n0, n1) >= target and n0 != n1:
        return 1 if (n0 > n1) == (me == 0) else -1
    return 0


def _reward(p: Params, me: int, winner: int, points: list[int]) -> float:
    """The reward for ``me`` of a finished round (``winner`` -1: a tie)."""
    if p.match is not None:
        o = _match_outcome(p.match, points, me)
        if o:
            return float(o)
    m = points[me] - points[1 - me]
    w = 0.0 if winner < 0 else p.win if winner == me else -p.win
    return w + (1.0 - p.win) * math.tanh(m / p.scale)


Rand = Callable[[], float]  # random.Random().random: a number in [0, 1)


class _Round:
    """One deal being played out: two hands, the ends, the lazily shuffled bazaar."""

    __slots__ = ("hands", "left", "right", "p", "forced", "bz", "bp", "nbz", "reserve",
                 "points", "winner", "over", "rand")

    def __init__(self, pos: Position, opp_hand: int, bazaar: list[int], rand: Rand) -> None:
        self.hands = [0, 0]
        self.hands[pos.me] = pos.hand
        self.hands[1 - pos.me] = opp_hand
        self.left, self.right = pos.left, pos.right
        self.p = pos.me
        self.forced = pos.forced
        self.bz = bazaar
        self.bp = 0
        self.nbz = len(bazaar)
        self.reserve = pos.reserve
        self.points = list(pos.points)
        self.winner = -1
        self.over = False
        self.rand = rand

    def legal(self) -> list[int]:
        return legal_moves(self.hands[self.p], self.left, self.right, self.forced,
                           self.nbz - self.bp > self.reserve)

    def draw(self) -> int:
        """The next bazaar tile: a random one of those not drawn yet."""
        bz, bp = self.bz, self.bp
        j = bp + int(self.rand() * (self.nbz - bp))
        t = bz[j]
        bz[j] = bz[bp]
        bz[bp] = t
        self.bp = bp + 1
        return t

    def play(self, m: int) -> None:
        p = self.p
        if m == DRAW_M:
            self.hands[p] |= 1 << self.draw()
            self._check_blocked()
            return
        if m == PASS_M:
            self.p = 1 - p
            self._check_blocked()
            return
        t = m >> 1
        a, b = _A[t], _B[t]
        hand = self.hands[p] & ~(1 << t)
        self.hands[p] = hand
        self.forced = -1
        if self.left == NO_END:
            self.left, self.right = a, b
        elif m & 1:
            self.right = b if a == self.right else a
        else:
            self.left = a if b == self.left else b
        if not hand:
            self._end(p, _pips(self.hands[1 - p]))
            return
        self.p = 1 - p
        self._check_blocked()

    def _end(self, winner: int, points: int) -> None:
        self.over = True
        self.winner = winner
        if winner >= 0:
            self.points[winner] += points

    def _check_blocked(self) -> None:
        if self.nbz - self.bp > self.reserve:
            return
        ends = _NUM[self.left] | _NUM[self.right]
        if self.hands[0] & ends or self.hands[1] & ends:
            return
        self._blocked()

    def _blocked(self) -> None:
        p0, p1 = _pips(self.hands[0]), _pips(self.hands[1])
        if p0 < p1:
            self._end(0, p1 - p0)
        elif p1 < p0:
            self._end(1, p0 - p1)
        else:
            self._end(-1, 0)

    def playout(self, greedy: float, block: int, erratic: int = -1) -> None:
        """To the round's end, as ``ClassicSim.playout(greedy, block)``: each side plays its
        heaviest placement (``block`` pips more for one after which the other side holds
        nothing that follows) with probability ``greedy``, else a random playable tile on a
        random end that takes it; the side ``erratic`` (-1: neither) always the latter."""
        rand = self.rand
        hands = self.hands
        while not self.over:
            p = self.p
            hand = hands[p]
            left, right = self.left, self.right
            if left == NO_END:  # only at the root, which the tree always leaves first
                if self.forced >= 0:
                    self.play(self.forced * 2)
                else:
                    opts = _bits(hand)
                    self.play(opts[int(rand() * len(opts))] * 2)
                continue
            fit = hand & (_NUM[left] | _NUM[right])
            if not fit:
                self.play(DRAW_M if self.nbz - self.bp > self.reserve else PASS_M)
                continue
            side = -1
            if fit & (fit - 1) == 0:
                t = fit.bit_length() - 1
            else:
                opts = _bits(fit)
                if greedy and p != erratic and rand() < greedy:
                    if block:
                        t, side = _blocking_choice(opts, left, right, hands[1 - p], block)
                    else:
                        t = max(opts, key=_PIPS.__getitem__)
                else:
                    t = opts[int(rand() * len(opts))]
            a, b = _A[t], _B[t]
            if side < 0:
                if a == left or b == left:
                    side = 1 if (a == right or b == right) and rand() < 0.5 else 0
                else:
                    side = 1
            self.play(t * 2 + side)


def _deal(sampler: Sampler, rand: Rand, hidden_tiles: tuple[int, ...]) -> tuple[int, bool]:
    """The opponent's hand for one iteration, and whether he plays at random in it."""
    if sampler.pool:
        pool = sampler.pool
        i = min(len(pool) - 1, bisect(sampler.cum, rand() * sampler.cum[-1]))
        q = sampler.erratic[i] if sampler.erratic else sampler.erratic_all
        return pool[i], q > 0.0 and rand() < q
    chosen = 0
    for lst, n in sampler.groups:
        free = [t for t in lst if not chosen >> t & 1]
        if len(free) < n:  # an inconsistent history: never happens for a real game
            free = [t for t in hidden_tiles if not chosen >> t & 1]
        for _ in range(n):
            i = int(rand() * len(free))
            chosen |= 1 << free[i]
            free[i] = free[-1]
            free.pop()
    q = sampler.erratic_all
    return chosen, q > 0.0 and rand() < q


Stats = dict[int, tuple[int, float]]
Node = list[Any]  # [visits, total reward for its player, availability, children, player]


def _count_available(children: dict[int, Node], legal: list[int]) -> None:
    """One more availability for each child already made of the moves ``legal`` here."""
    for m in legal:
        c = children.get(m)
        if c is not None:
            c[2] += 1


def _step(children: dict[int, Node], key: int, player: int, path: list[Node]
          ) -> tuple[Node, bool]:
    """The child ``key`` (made for ``player`` when there is none), added to ``path``, and
    whether it was made now."""
    child = children.get(key)
    made = child is None
    if child is None:
        child = [0, 0.0, 1, {}, player]
        children[key] = child
    path.append(child)
    return child, made


def search_python(pos: Position, sampler: Sampler, params: Params, rng: random.Random,
                  iterations: int, deadline: float = math.inf,
                  stop: Callable[[], bool] | None = None) -> tuple[int, Stats]:
    """ISMCTS from ``pos``: the chosen compact move and the root statistics
    {move: (visits, mean reward)}. At most ``iterations`` iterations; the clock
    (``time.perf_counter``) and ``stop`` are checked every 16. Arguments out of range (see
    ``check``) raise ValueError."""
    check(pos, sampler, params, iterations, deadline, stop)
    me = pos.me
    rand = rng.random
    hidden_tiles = _bits(pos.hidden)
    root_legal = legal_moves(pos.hand, pos.left, pos.right, pos.forced,
                             len(hidden_tiles) - pos.opp_size > pos.reserve)
    if len(root_legal) == 1:
        return root_legal[0], {}
    ucb_c = params.ucb_c
    split = params.split_draws
    log, sqrt = math.log, math.sqrt
    clock = time.perf_counter
    root: Node = [0, 0.0, 1, {}, 1 - me]
    it = 0
    while it < iterations:
        if it & 15 == 0 and it and (clock() > deadline or (stop is not None and stop())):
            break
        it += 1
        h, erratic = _deal(sampler, rand, hidden_tiles)
        rnd = _Round(pos, h, [t for t in hidden_tiles if not h >> t & 1], rand)
        node = root
        path: list[Node] = []
        while not rnd.over:
            legal = rnd.legal()
            children = node[3]
            if split and legal[0] == DRAW_M and rnd.p == me:  # he knows what he drew
                rnd.play(DRAW_M)
                node, made = _step(children, DRAWN + rnd.bz[rnd.bp - 1], me, path)
                if made:
                    break
                continue
            if erratic and rnd.p != me:  # he picks any legal move
                m = legal[int(rand() * len(legal))]
                _count_available(children, legal)
                rnd.play(m)
                node, made = _step(children, m, 1 - me, path)
                if made:
                    break
                continue
            untried = [m for m in legal if m not in children]
            if untried:
                m = untried[int(rand() * len(untried))]
                _count_available(children, legal)
                _step(children, m, rnd.p, path)
                rnd.play(m)
                break
            best: Node = root
            bm = 0
            bv = -math.inf
            for mm in legal:
                c = children[mm]
                c[2] += 1
                v = c[1] / c[0] + ucb_c * sqrt(log(c[2]) / c[0])
                if v > bv:
                    bv, best, bm = v, c, mm
            rnd.play(bm)
            path.append(best)
            node = best
        if not rnd.over:
            rnd.playout(params.greedy, params.block, 1 - me if erratic else -1)
        r = _reward(params, me, rnd.winner, rnd.points)
        for nd in path:
            nd[0] += 1
            nd[1] += r if nd[4] == me else -r
    stats = {m: (c[0], c[1] / c[0] if c[0] else 0.0) for m, c in root[3].items()}
    best_m = max(root_legal, key=lambda m: stats.get(m, (0, 0.0)))
    return best_m, stats


def search(pos: Position, sampler: Sampler, params: Params, rng: random.Random,
           iterations: int, deadline: float = math.inf,
           stop: Callable[[], bool] | None = None, native: bool | None = None
           ) -> tuple[int, Stats]:
    """``search_python``, done by the compiled twin when it is there (``native`` False: never;
    True: always, an ImportError when it is not built). Both refuse the same arguments with
    the same ValueError (``check``)."""
    if native is None:
        native = _native is not None
    if not native:
        return search_python(pos, sampler, params, rng, iterations, deadline, stop)
    if _native is None:
        raise ImportError("tui_domino.ai._classic_search is not built")
    # The compiled one checks its arguments too, but it cannot tell "no match" from a match
    # whose target is 0 (``match`` None goes to it as a target of 0): so check here as well.
    check(pos, sampler, params, iterations, deadline, stop)
    state = rng.getstate()
    mt = list(state[1])
    match = params.match
    move, stats = _native.search(
        me=pos.me, hand=pos.hand, hidden=pos.hidden, opp_size=pos.opp_size, left=pos.left,
        right=pos.right, forced=pos.forced, reserve=pos.reserve, points0=pos.points[0],
        points1=pos.points[1], pool=tuple(sampler.pool), cum=tuple(sampler.cum),
        erratic=tuple(sampler.erratic), erratic_all=sampler.erratic_all,
        groups=tuple(tuple(lst) for lst, _ in sampler.groups),
        group_counts=tuple(n for _, n in sampler.groups),
        ucb_c=params.ucb_c, win=params.win, scale=params.scale, greedy=params.greedy,
        block=params.block, split_draws=params.split_draws,
        total0=0 if match is None else match[0][0], total1=0 if match is None else match[0][1],
        target=0 if match is None else match[1],
        mt=mt, iterations=iterations, deadline=deadline, stop=stop, clock=time.perf_counter,
    )
    rng.setstate((state[0], tuple(mt), state[2]))
    return move, stats


def native_available() -> bool:
    return _native is not None


__all__ = ["LIMIT", "Params", "Position", "Sampler", "check", "legal_moves", "native_available",
           "search", "search_python"]
