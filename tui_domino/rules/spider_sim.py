"""The fast simulation path for Domino Spider: bit masks and ints, no JSON, no objects.

Compact moves are ints. A single placement is ``tile << 4 | arm << 1 | close`` (arm 0-3 for
N, E, S, W; 4 for the centre). Several doubles in one turn are ``MULTI | code`` where bits
``2*arm`` and ``2*arm+1`` of ``code`` say "a double on this arm" and "closed" (the double is
the one matching the arm's end). ``DRAW_M`` draws, ``PASS_M`` passes. The rules are exactly
those of :class:`tui_domino.rules.spider.SpiderState` (a test replays games through both).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping

from tui_domino.rules import dominoes as D
from tui_domino.rules.moves import ARMS, DRAW, PASS, Move, Placement, spider_place
from tui_domino.rules.options import resolve_options
from tui_domino.rules.spider import (
    NONE,
    SpiderState,
    charge_for_hand,
    multi_double_moves,
    spider_opening,
)

DRAW_M = -1
PASS_M = -2
MULTI = 1 << 20

_NUM = D.NUM
_LO = D.LOW_BITS
_HI = D.HIGH_BITS
_A = D.A
_B = D.B
_DOUBLE = D.DOUBLE


class SpiderSim:
    __slots__ = (
        "hands", "bz", "bp", "center", "ends", "closed", "to_move", "points", "winner",
        "over", "lone", "opening_double",
    )

    def __init__(self) -> None:
        self.hands: list[int] = [0, 0]
        self.bz: list[int] = []
        self.bp = 0
        self.center = NONE
        self.ends = [NONE] * 4
        self.closed = [False] * 4
        self.to_move = 0
        self.points = [0, 0]
        self.winner: int | None = None
        self.over = False
        self.lone = 25
        self.opening_double = 1

    @classmethod
    def from_state(cls, s: SpiderState) -> SpiderSim:
        sim = cls()
        sim.hands = list(s.hand_masks)
        sim.bz = s.bz
        sim.bp = s.bz_pos
        sim.center = s.center
        sim.ends = list(s.ends)
        sim.closed = list(s.closed)
        sim.to_move = 0 if s.to_move is None else s.to_move
        sim.points = list(s.points)
        sim.winner = s.winner
        sim.over = s.is_over
        sim.lone = s.options["lone_blank_double"]
        sim.opening_double = s.opening_double
        return sim

    @classmethod
    def random_deal(
        cls, rng: random.Random, options: Mapping[str, object] | None = None
    ) -> SpiderSim:
        size = 7
        sim = cls()
        if options is not None:
            opts = resolve_options("spider", options)
            size = opts["hand_size"]
            sim.lone = opts["lone_blank_double"]
        perm = list(range(28))
        bit = D.BIT
        while True:
            rng.shuffle(perm)
            h0 = h1 = 0
            for i in perm[:size]:
                h0 |= bit[i]
            for i in perm[size : 2 * size]:
                h1 |= bit[i]
            opening = spider_opening([h0, h1])
            if opening is not None:
                break
        sim.hands = [h0, h1]
        sim.bz = perm[2 * size :]
        sim.to_move, sim.opening_double = opening
        return sim

    def clone(self) -> SpiderSim:
        c = SpiderSim.__new__(SpiderSim)
        c.hands = list(self.hands)
        c.bz = self.bz
        c.bp = self.bp
        c.center = self.center
        c.ends = list(self.ends)
        c.closed = list(self.closed)
        c.to_move = self.to_move
        c.points = list(self.points)
        c.winner = self.winner
        c.over = self.over
        c.lone = self.lone
        c.opening_double = self.opening_double
        return c

    def _open_mask(self) -> int:
        ends, closed = self.ends, self.closed
        m = 0
        for a in range(4):
            if not closed[a]:
                m |= _NUM[ends[a]]
        return m

    def legal(self) -> list[int]:
        if self.over:
            return []
        hand = self.hands[self.to_move]
        if self.center == NONE:
            return [_DOUBLE[self.opening_double] << 4 | 4 << 1]
        ends, closed = self.ends, self.closed
        out: list[int] = []
        m = hand & self._open_mask()
        for t in _LO[m & 0x3FFF] + _HI[m >> 14]:
            a, b = _A[t], _B[t]
            for arm in range(4):
                if not closed[arm] and (ends[arm] == a or ends[arm] == b):
                    out.append(t << 4 | arm << 1)
                    if a == b:
                        out.append(t << 4 | arm << 1 | 1)
        for combo in multi_double_moves(hand, ends, closed):
            for closes in itertools.product((0, 1), repeat=len(combo)):
                code = 0
                for (arm, _n), c in zip(combo, closes, strict=True):
                    code |= (1 | c << 1) << (2 * arm)
                out.append(MULTI | code)
        if out:
            return out
        return [DRAW_M] if self.bp < len(self.bz) else [PASS_M]

    def play(self, m: int) -> None:
        p = self.to_move
        if m == DRAW_M:
            self.hands[p] |= 1 << self.bz[self.bp]
            self.bp += 1
            self._check_fish()
            return
        if m == PASS_M:
            self.to_move = 1 - p
            self._check_fish()
            return
        ends, closed = self.ends, self.closed
        if m & MULTI:
            for arm in range(4):
                bits = m >> (2 * arm) & 3
                if bits & 1:
                    self.hands[p] &= ~(1 << _DOUBLE[ends[arm]])
                    if bits & 2:
                        closed[arm] = True
        else:
            t = m >> 4
            arm = m >> 1 & 7
            self.hands[p] &= ~(1 << t)
            if arm == 4:
                self.center = _A[t]
                self.ends = [_A[t]] * 4
            else:
                e = ends[arm]
                ends[arm] = _B[t] if _A[t] == e else _A[t]
                if m & 1:
                    closed[arm] = True
        if not self.hands[p]:
            self.over = True
            self.winner = p
            self.points[1 - p] += charge_for_hand(self.hands[1 - p], self.lone)
            return
        self.to_move = 1 - p
        self._check_fish()

    def _check_fish(self) -> None:
        closed = self.closed
        if not (closed[0] and closed[1] and closed[2] and closed[3]):
            if self.bp < len(self.bz):
                return
            om = self._open_mask()
            if self.hands[0] & om or self.hands[1] & om:
                return
        self._fish()

    def _fish(self) -> None:
        self.over = True
        p0 = sum(D.PIPS[i] for i in D.bits(self.hands[0]))
        p1 = sum(D.PIPS[i] for i in D.bits(self.hands[1]))
        if p0 < p1:
            self.winner = 0
            self.points[1] += p1
        elif p1 < p0:
            self.winner = 1
            self.points[0] += p0

    def playout(self, rng: random.Random) -> None:
        """Random play to the end: a random playable tile on a random matching arm; a double
        closes its arm one time in four and brings along each other playable double on another
        arm half the time."""
        if self.over:
            return
        rand = rng.random
        if self.center == NONE:
            self.play(self.legal()[0])
        hands = self.hands
        ends = self.ends
        closed = self.closed
        bz = self.bz
        nbz = len(bz)
        while not self.over:
            p = self.to_move
            hand = hands[p]
            om = 0
            for a in range(4):
                if not closed[a]:
                    om |= _NUM[ends[a]]
            m = hand & om
            if not m:
                if self.bp < nbz:
                    hands[p] = hand | (1 << bz[self.bp])
                    self.bp += 1
                    if self.bp == nbz:
                        self._check_fish()
                    continue
                self.to_move = 1 - p
                self._check_fish()
                continue
            opts = _LO[m & 0x3FFF] + _HI[m >> 14]
            t = opts[int(rand() * len(opts))]
            a, b = _A[t], _B[t]
            arms = [x for x in range(4) if not closed[x] and (ends[x] == a or ends[x] == b)]
            arm = arms[int(rand() * len(arms))]
            hand &= ~(1 << t)
            if a == b:
                if rand() < 0.25:
                    closed[arm] = True
                used = {a}
                for x in range(4):
                    if x != arm and not closed[x]:
                        e = ends[x]
                        d = _DOUBLE[e]
                        if e not in used and hand >> d & 1 and rand() < 0.5:
                            used.add(e)
                            hand &= ~(1 << d)
                            if rand() < 0.25:
                                closed[x] = True
            else:
                ends[arm] = b if a == ends[arm] else a
            hands[p] = hand
            if not hand:
                self.over = True
                self.winner = p
                self.points[1 - p] += charge_for_hand(hands[1 - p], self.lone)
                return
            self.to_move = 1 - p
            self._check_fish()

    # -- conversion to and from the public moves --------------------------------------------

    def to_public(self, m: int) -> Move:
        if m == DRAW_M:
            return DRAW
        if m == PASS_M:
            return PASS
        if m & MULTI:
            pls = []
            for arm in range(4):
                bits = m >> (2 * arm) & 3
                if bits & 1:
                    n = self.ends[arm]
                    pls.append(Placement((n, n), ARMS[arm], bool(bits & 2)))
            return spider_place(pls)
        t = m >> 4
        arm = m >> 1 & 7
        return spider_place([Placement(D.TILES[t], "center" if arm == 4 else ARMS[arm],
                                       bool(m & 1))])

    @staticmethod
    def from_public(move: Move) -> int:
        if move.kind == "draw":
            return DRAW_M
        if move.kind == "pass":
            return PASS_M
        assert move.placements is not None
        idx = {"N": 0, "E": 1, "S": 2, "W": 3, "center": 4}
        if len(move.placements) == 1:
            pl = move.placements[0]
            return D.INDEX[pl.tile] << 4 | idx[pl.arm] << 1 | int(pl.close)
        code = 0
        for pl in move.placements:
            code |= (1 | int(pl.close) << 1) << (2 * idx[pl.arm])
        return MULTI | code
