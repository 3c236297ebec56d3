"""The fast simulation path for classic dominoes: bit masks and ints, no JSON, no objects.

A compact move is an int: ``tile * 2`` for the left end (or the centre of an empty line),
``tile * 2 + 1`` for the right end, ``DRAW_M`` to draw and ``PASS_M`` to pass. The rules are
exactly those of :class:`tui_domino.rules.classic.ClassicState` (a test replays games through
both); the computer players search with this.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from tui_domino.rules import dominoes as D
from tui_domino.rules.classic import NO_END, ClassicState, classic_opening
from tui_domino.rules.moves import DRAW, PASS, Move, classic_place
from tui_domino.rules.options import resolve_options

DRAW_M = -1
PASS_M = -2

_NUM = D.NUM
_BITS_LO = D.LOW_BITS
_BITS_HI = D.HIGH_BITS
_PIPS = D.PIPS
_A = D.A
_B = D.B


def _pips(mask: int) -> int:
    return sum(_PIPS[i] for i in _BITS_LO[mask & 0x3FFF] + _BITS_HI[mask >> 14])


def _blocking_choice(
    opts: tuple[int, ...] | list[int], left: int, right: int, other: int, block: int
) -> tuple[int, int]:
    """The heaviest placement (tile, end: 0 left, 1 right), counting ``block`` pips more for
    one after which the hand ``other`` has nothing that follows either end."""
    best = -1
    tile = side = 0
    for t in opts:
        a, b = _A[t], _B[t]
        v = _PIPS[t]
        if a == left or b == left:
            s = v if other & (_NUM[a if b == left else b] | _NUM[right]) else v + block
            if s > best:
                best, tile, side = s, t, 0
        if a == right or b == right:
            s = v if other & (_NUM[left] | _NUM[b if a == right else a]) else v + block
            if s > best:
                best, tile, side = s, t, 1
    return tile, side


class ClassicSim:
    __slots__ = (
        "hands", "bz", "bp", "left", "right", "to_move", "reserve", "points", "winner",
        "over", "forced", "empty",
    )

    def __init__(self) -> None:
        self.hands: list[int] = [0, 0]
        self.bz: list[int] = []
        self.bp = 0
        self.left = NO_END
        self.right = NO_END
        self.to_move = 0
        self.reserve = 2
        self.points = [0, 0]
        self.winner: int | None = None
        self.over = False
        self.forced = -1
        self.empty = True

    @classmethod
    def from_state(cls, s: ClassicState) -> ClassicSim:
        sim = cls()
        sim.hands = list(s.hand_masks)
        sim.bz = s.bz
        sim.bp = s.bz_pos
        sim.left, sim.right = s.left, s.right
        sim.empty = not s.line
        sim.to_move = 0 if s.to_move is None else s.to_move
        sim.over = s.is_over
        sim.reserve = s.reserve
        sim.points = list(s.points)
        sim.winner = s.winner
        sim.forced = s.forced
        return sim

    @classmethod
    def random_deal(
        cls, rng: random.Random, options: Mapping[str, object] | None = None
    ) -> ClassicSim:
        opts = resolve_options("classic", options) if options is not None else None
        size = 7 if opts is None else opts["hand_size"]
        perm = list(range(28))
        rng.shuffle(perm)
        sim = cls()
        bit = D.BIT
        h0 = h1 = 0
        for i in perm[:size]:
            h0 |= bit[i]
        for i in perm[size : 2 * size]:
            h1 |= bit[i]
        sim.hands = [h0, h1]
        sim.bz = perm[2 * size :]
        if opts is not None:
            sim.reserve = opts["bazaar_reserve"]
        sim.to_move, sim.forced = classic_opening(sim.hands)
        return sim

    def clone(self) -> ClassicSim:
        c = ClassicSim.__new__(ClassicSim)
        c.hands = list(self.hands)
        c.bz = self.bz
        c.bp = self.bp
        c.left = self.left
        c.right = self.right
        c.to_move = self.to_move
        c.reserve = self.reserve
        c.points = list(self.points)
        c.winner = self.winner
        c.over = self.over
        c.forced = self.forced
        c.empty = self.empty
        return c

    def legal(self) -> list[int]:
        if self.over:
            return []
        hand = self.hands[self.to_move]
        if self.empty:
            if self.forced >= 0:
                return [self.forced * 2]
            return [i * 2 for i in _BITS_LO[hand & 0x3FFF] + _BITS_HI[hand >> 14]]
        m = hand & _NUM[self.left]
        out = [i * 2 for i in _BITS_LO[m & 0x3FFF] + _BITS_HI[m >> 14]]
        m = hand & _NUM[self.right]
        out += [i * 2 + 1 for i in _BITS_LO[m & 0x3FFF] + _BITS_HI[m >> 14]]
        if out:
            return out
        return [DRAW_M] if len(self.bz) - self.bp > self.reserve else [PASS_M]

    def play(self, m: int) -> None:
        """Applies a compact move known to be legal."""
        p = self.to_move
        if m == DRAW_M:
            self.hands[p] |= 1 << self.bz[self.bp]
            self.bp += 1
            self._check_blocked()
            return
        if m == PASS_M:
            self.to_move = 1 - p
            self._check_blocked()
            return
        t = m >> 1
        a, b = _A[t], _B[t]
        self.hands[p] &= ~(1 << t)
        self.forced = -1
        if self.empty:
            self.left, self.right = a, b
            self.empty = False
        elif m & 1:
            self.right = b if a == self.right else a
        else:
            self.left = a if b == self.left else b
        if not self.hands[p]:
            self.over = True
            self.winner = p
            self.points[p] += _pips(self.hands[1 - p])
            return
        self.to_move = 1 - p
        self._check_blocked()

    def _check_blocked(self) -> None:
        if len(self.bz) - self.bp > self.reserve:
            return
        ends = _NUM[self.left] | _NUM[self.right]
        if self.hands[0] & ends or self.hands[1] & ends:
            return
        self.over = True
        p0, p1 = _pips(self.hands[0]), _pips(self.hands[1])
        if p0 < p1:
            self.winner = 0
            self.points[0] += p1 - p0
        elif p1 < p0:
            self.winner = 1
            self.points[1] += p0 - p1

    def playout(self, rng: random.Random, greedy: float = 0.0, block: int = 0) -> None:
        """Plays to the round's end: each turn a random playable tile — or, with probability
        ``greedy``, the heaviest one — on a random end that takes it. With ``block`` the
        greedy choice is of a tile and an end together, and a placement after which the other
        side holds nothing that follows counts ``block`` pips more (he will have to draw)."""
        if self.over:
            return
        rand = rng.random
        hands = self.hands
        bz = self.bz
        nbz = len(bz)
        bp = self.bp
        reserve = self.reserve
        left, right = self.left, self.right
        p = self.to_move
        side = -1  # the end the blocking choice picked (0 left, 1 right), else -1
        if self.empty:
            hand = hands[p]
            if self.forced >= 0:
                t = self.forced
            else:
                opts = _BITS_LO[hand & 0x3FFF] + _BITS_HI[hand >> 14]
                t = opts[int(rand() * len(opts))]
            hands[p] = hand & ~(1 << t)
            left, right = _A[t], _B[t]
            self.empty = False
            self.forced = -1
            p ^= 1
        while True:
            hand = hands[p]
            ends = _NUM[left] | _NUM[right]
            m = hand & ends
            if m:
                if m & (m - 1) == 0:
                    t = m.bit_length() - 1
                else:
                    opts = _BITS_LO[m & 0x3FFF] + _BITS_HI[m >> 14]
                    if greedy and rand() < greedy:
                        if block:
                            t, side = _blocking_choice(opts, left, right, hands[1 - p], block)
                        else:
                            t = max(opts, key=_PIPS.__getitem__)
                    else:
                        t = opts[int(rand() * len(opts))]
                a = _A[t]
                b = _B[t]
                if side == 0:
                    left = a if b == left else b
                    side = -1
                elif side == 1:
                    right = b if a == right else a
                    side = -1
                elif a == left or b == left:
                    if (a == right or b == right) and rand() < 0.5:
                        right = b if a == right else a
                    else:
                        left = a if b == left else b
                else:
                    right = b if a == right else a
                hand &= ~(1 << t)
                hands[p] = hand
                if not hand:
                    self.winner = p
                    self.points[p] += _pips(hands[1 - p])
                    break
                p ^= 1
                if nbz - bp <= reserve:
                    ends = _NUM[left] | _NUM[right]
                    if not (hands[0] & ends or hands[1] & ends):
                        self._blocked_end(hands)
                        break
            elif nbz - bp > reserve:
                hands[p] = hand | (1 << bz[bp])
                bp += 1
                if nbz - bp <= reserve and not (hands[0] & ends or hands[1] & ends):
                    self._blocked_end(hands)
                    break
            else:
                p ^= 1
        self.bp = bp
        self.left, self.right = left, right
        self.to_move = p
        self.over = True

    def _blocked_end(self, hands: list[int]) -> None:
        p0, p1 = _pips(hands[0]), _pips(hands[1])
        if p0 < p1:
            self.winner = 0
            self.points[0] += p1 - p0
        elif p1 < p0:
            self.winner = 1
            self.points[1] += p0 - p1

    # -- conversion to and from the public moves --------------------------------------------

    def to_public(self, m: int) -> Move:
        if m == DRAW_M:
            return DRAW
        if m == PASS_M:
            return PASS
        t = m >> 1
        end = "center" if self.empty else ("right" if m & 1 else "left")
        return classic_place(D.TILES[t], end)

    @staticmethod
    def from_public(move: Move) -> int:
        if move.kind == "draw":
            return DRAW_M
        if move.kind == "pass":
            return PASS_M
        assert move.tile is not None
        t = D.INDEX[(move.tile[0], move.tile[1])]
        return t * 2 + (1 if move.end == "right" else 0)
