"""The fast Triominos path for simulations: the same rules as ``TriominosState``, on integers.

- Cells and grid points are integer keys (``triangle_grid.key``); a cell's corners, neighbours
  and the cells around a point are the key plus fixed offsets.
- Tiles are indices into ``triominos.TILES``; a hand is a 56-bit mask.
- The point map: ``pnum[point]`` (its number) and ``pcnt[point]`` (tiles touching it).
- The frontier: every empty cell sharing an edge with a tile, mapped to its corner pattern
  ``a * 49 + b * 7 + c`` (each number 0-5, or 6 where no tile touches the point yet),
  maintained incrementally as tiles are placed.
- ``PATTERN_MASK[pattern]``: the tiles that fit a pattern, as a mask;
  ``PATTERN_FITS[pattern]``: each fitting reading as (corner code, tile bit).
- A compact move is an int: ``cell_key << 8 | corner_code`` for a placement (the corner code
  is ``x * 36 + y * 6 + z``), ``DRAW_MOVE`` (-1) or ``PASS_MOVE`` (-2).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping

from tui_domino.rules import triangle_grid as grid
from tui_domino.rules.moves import DRAW, PASS, Move, triomino_place
from tui_domino.rules.options import resolve_options
from tui_domino.rules.round import new_round
from tui_domino.rules.triominos import (
    INDEX,
    OPENING_ORDER,
    ROTATIONS,
    TILES,
    VALUE,
    TriominosState,
)
from tui_domino.rules.types import Options

DRAW_MOVE = -1
PASS_MOVE = -2

BIT: tuple[int, ...] = tuple(1 << i for i in range(len(TILES)))
FULL = (1 << len(TILES)) - 1
UNKNOWN = 6
EMPTY_PATTERN = UNKNOWN * 49 + UNKNOWN * 7 + UNKNOWN

# Corner codes: x * 36 + y * 6 + z for a clockwise reading (x, y, z).
CODE_TILE: list[int] = [-1] * 216  # the tile index of a valid reading, else -1
CODE_CORNERS: list[tuple[int, int, int]] = [
    (x, y, z) for x in range(6) for y in range(6) for z in range(6)
]
for _t, _tile in enumerate(TILES):
    for _x, _y, _z in ROTATIONS[_tile]:
        CODE_TILE[_x * 36 + _y * 6 + _z] = _t


def _pattern_tables() -> tuple[list[int], list[tuple[tuple[int, int], ...]]]:
    masks: list[int] = []
    fits: list[tuple[tuple[int, int], ...]] = []
    for a in range(7):
        for b in range(7):
            for c in range(7):
                m = 0
                out: list[tuple[int, int]] = []
                for t, tile in enumerate(TILES):
                    for x, y, z in ROTATIONS[tile]:
                        if a in (x, UNKNOWN) and b in (y, UNKNOWN) and c in (z, UNKNOWN):
                            m |= BIT[t]
                            out.append((x * 36 + y * 6 + z, BIT[t]))
                masks.append(m)
                fits.append(tuple(out))
    return masks, fits


PATTERN_MASK, PATTERN_FITS = _pattern_tables()
OPENING_INDEX: tuple[int, ...] = tuple(INDEX[t] for t in OPENING_ORDER)
TRIPLE_INDEX: frozenset[int] = frozenset(INDEX[(n, n, n)] for n in range(6))
ZERO_TRIPLE = INDEX[(0, 0, 0)]

_W = grid.WIDTH
_CORNER_OFFSETS = grid.CORNER_OFFSETS
_NEIGHBOUR_OFFSETS = grid.NEIGHBOUR_OFFSETS
_OPPOSITE = grid.OPPOSITE
_AROUND = grid.AROUND_OFFSETS
_NO_LIMIT = 1 << 30


class TriominosSim:
    """A Triominos round on integers, for playouts. Same rules and points as
    ``TriominosState``; no history, no events."""

    __slots__ = (
        "hands", "bazaar", "pnum", "pcnt", "occ", "frontier", "turn", "points", "winner",
        "over", "end_reason", "draws", "forced", "placed",
        "opening_triple", "opening_zero", "hexagon_bonus", "bridge_bonus",
        "_draw_pen", "_max_draws", "_stuck", "_domino", "_blocked_pen",
    )

    def __init__(self, options: Options) -> None:
        self.hands = [0, 0]
        self.bazaar: list[int] = []  # reversed draw order: pop() draws the next tile
        self.pnum: dict[int, int] = {}
        self.pcnt: dict[int, int] = {}
        self.occ: set[int] = set()
        self.frontier: dict[int, int] = {grid.ORIGIN_KEY: EMPTY_PATTERN}
        self.turn = 0
        self.points = [0, 0]
        self.winner: int | None = None
        self.over = False
        self.end_reason: str | None = None
        self.draws = 0
        self.forced = -1  # tile index the opener must lead, or -1
        self.placed = 0
        # The bonuses a placement can score (read by ``gain`` and by the computer players):
        # opening with a triple (with 0-0-0), hexagons by how many one placement completes
        # (index 1-3), and a bridge.
        self.opening_triple, self.opening_zero = options["opening_bonus"]
        h = options["hexagon_bonus"]
        self.hexagon_bonus = (0, h[0], h[1], h[2])
        self.bridge_bonus: int = options["bridge_bonus"]
        self._draw_pen: int = options["draw_penalty"]
        md = options["max_draws"]
        self._max_draws: int = _NO_LIMIT if md is None else md
        self._stuck: int = options["stuck_penalty"]
        self._domino: int = options["domino_bonus"]
        self._blocked_pen: int = options["blocked_penalty"]

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def random_deal(
        cls, rng: random.Random, options: Mapping[str, object] | None = None
    ) -> TriominosSim:
        """A fresh round, dealt as ``new_round(seed=...)`` deals from the same generator state,
        with the opening rule of a first round."""
        opts = resolve_options("triominos", options)
        s = cls(opts)
        order = list(range(len(TILES)))
        rng.shuffle(order)
        size = opts["hand_size"]
        h0 = h1 = 0
        for t in order[:size]:
            h0 |= BIT[t]
        for t in order[size : 2 * size]:
            h1 |= BIT[t]
        s.hands = [h0, h1]
        rest = order[2 * size :]
        rest.reverse()
        s.bazaar = rest
        for t in OPENING_INDEX:
            if h0 & BIT[t]:
                s.turn, s.forced = 0, t
                break
            if h1 & BIT[t]:
                s.turn, s.forced = 1, t
                break
        return s

    @classmethod
    def from_state(cls, state: TriominosState) -> TriominosSim:
        """The sim of a ``TriominosState`` (same position, points and turn)."""
        s = cls(state.options)
        for p in (0, 1):
            m = 0
            for tile in state.hands[p]:
                m |= BIT[INDEX[tile]]
            s.hands[p] = m
        s.bazaar = [INDEX[t] for t in reversed(state.bazaar)]
        for (r, c), (x, y, z), _player in state.board:
            s.put(grid.key(r, c), x * 36 + y * 6 + z)
        s.points = list(state.points)
        s.winner = state.winner
        s.end_reason = state.end_reason
        s.over = state.is_over
        s.turn = state.to_move if state.to_move is not None else 0
        s.draws = state.draws_this_turn
        s.forced = INDEX[state.forced] if state.forced is not None else -1
        return s

    def clone(self) -> TriominosSim:
        new = TriominosSim.__new__(TriominosSim)
        for name in TriominosSim.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.bazaar = list(self.bazaar)
        new.pnum = dict(self.pnum)
        new.pcnt = dict(self.pcnt)
        new.occ = set(self.occ)
        new.frontier = dict(self.frontier)
        new.points = list(self.points)
        return new

    # -- the contract ---------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.turn

    def legal(self) -> list[int]:
        """Every legal compact move of the player to move; empty once over."""
        if self.over:
            return []
        h = self.hands[self.turn]
        if self.forced >= 0:
            h = BIT[self.forced]
        out: list[int] = []
        for k, pat in self.frontier.items():
            if PATTERN_MASK[pat] & h:
                base = k << 8
                for code, b in PATTERN_FITS[pat]:
                    if h & b:
                        out.append(base | code)
        if out:
            return out
        if self.bazaar and self.draws < self._max_draws:
            return [DRAW_MOVE]
        return [PASS_MOVE]

    def gain(self, m: int) -> int:
        """What the placement ``m`` scores now: the tile's value, plus the opening bonus on an
        empty board, else any hexagons it completes and a bridge (without playing it)."""
        k = m >> 8
        t = CODE_TILE[m & 255]
        gain = VALUE[t]
        if self.placed == 0:
            if t in TRIPLE_INDEX:
                gain += self.opening_zero if t == ZERO_TRIPLE else self.opening_triple
            return gain
        par = k & 1
        pcnt = self.pcnt
        o0, o1, o2 = _CORNER_OFFSETS[par]
        hexes = (pcnt.get(k + o0, 0) == 5) + (pcnt.get(k + o1, 0) == 5) + (pcnt.get(k + o2, 0) == 5)
        if hexes:
            gain += self.hexagon_bonus[hexes]
        occ = self.occ
        n0, n1, n2 = _NEIGHBOUR_OFFSETS[par]
        a, b, c = (k + n0) in occ, (k + n1) in occ, (k + n2) in occ
        if a + b + c == 1:
            opp = _OPPOSITE[par][0 if a else 1 if b else 2]
            if pcnt.get(k + _CORNER_OFFSETS[par][opp], 0):
                gain += self.bridge_bonus
        return gain

    def play(self, m: int) -> None:
        """Plays a legal compact move (not checked)."""
        p = self.turn
        points = self.points
        if m == DRAW_MOVE:
            self.hands[p] |= BIT[self.bazaar.pop()]
            self.draws += 1
            points[p] -= self._draw_pen
            if not self.bazaar:
                self._check_blocked()
            return
        if m == PASS_MOVE:
            points[p] -= self._stuck
            self.draws = 0
            self.turn = 1 - p
            if not self.bazaar:
                self._check_blocked()
            return
        k = m >> 8
        code = m & 255
        t = CODE_TILE[code]
        self.hands[p] ^= BIT[t]
        gain = self.gain(m)
        if self.placed == 0:
            self.forced = -1
        points[p] += gain
        self.put(k, code)
        self.draws = 0
        if not self.hands[p]:
            left = 0
            h = self.hands[1 - p]
            while h:
                low = h & -h
                left += VALUE[low.bit_length() - 1]
                h ^= low
            points[p] += self._domino + left
            self.winner = p
            self.end_reason = "domino"
            self.over = True
            return
        self.turn = 1 - p
        if not self.bazaar:
            self._check_blocked()

    def playout(self, rng: random.Random) -> None:
        """Plays uniformly random legal moves to the end of the round."""
        rand = rng.random
        legal = self.legal
        play = self.play
        while not self.over:
            ms = legal()
            play(ms[int(rand() * len(ms))])

    def put(self, k: int, code: int) -> None:
        """Puts corner code ``code`` on cell ``k``, updating the point map and the frontier."""
        par = k & 1
        pnum = self.pnum
        pcnt = self.pcnt
        o0, o1, o2 = _CORNER_OFFSETS[par]
        x, y, z = CODE_CORNERS[code]
        fresh: list[int] = []
        for pk, v in ((k + o0, x), (k + o1, y), (k + o2, z)):
            c = pcnt.get(pk, 0)
            if not c:
                pnum[pk] = v
                fresh.append(pk)
            pcnt[pk] = c + 1
        occ = self.occ
        frontier = self.frontier
        occ.add(k)
        del frontier[k]
        self.placed += 1
        g = pnum.get
        for off in _NEIGHBOUR_OFFSETS[par]:
            nb = k + off
            if nb not in occ and nb not in frontier:
                q0, q1, q2 = _CORNER_OFFSETS[nb & 1]
                frontier[nb] = g(nb + q0, 6) * 49 + g(nb + q1, 6) * 7 + g(nb + q2, 6)
        for pk in fresh:
            for off in _AROUND:
                cell = pk + off
                if cell in frontier:
                    q0, q1, q2 = _CORNER_OFFSETS[cell & 1]
                    frontier[cell] = g(cell + q0, 6) * 49 + g(cell + q1, 6) * 7 + g(cell + q2, 6)

    # -- internals ------------------------------------------------------------------------------

    def _check_blocked(self) -> None:
        """With an empty bazaar: ends the round when neither player can place."""
        u = 0
        for pat in self.frontier.values():
            u |= PATTERN_MASK[pat]
        h0, h1 = self.hands
        if u & (h0 | h1):
            return
        points = self.points
        points[0] -= self._blocked_pen
        points[1] -= self._blocked_pen
        n0, n1 = h0.bit_count(), h1.bit_count()
        v0, v1 = mask_value(h0), mask_value(h1)
        if n0 != n1:
            w: int | None = 0 if n0 < n1 else 1
        elif v0 != v1:
            w = 0 if v0 < v1 else 1
        else:
            w = None
        if w == 0:
            points[0] += v1 - v0
        elif w == 1:
            points[1] += v0 - v1
        self.winner = w
        self.end_reason = "blocked"
        self.over = True

    # -- public moves ---------------------------------------------------------------------------

    @staticmethod
    def to_move_public(m: int) -> Move:
        """The engine ``Move`` of compact move ``m``."""
        if m == DRAW_MOVE:
            return DRAW
        if m == PASS_MOVE:
            return PASS
        x, y, z = CODE_CORNERS[m & 255]
        return triomino_place(TILES[CODE_TILE[m & 255]], grid.unkey(m >> 8), (x, y, z))

    @staticmethod
    def to_public(m: int) -> Move:
        """The same as ``to_move_public`` (the name the other simulations use)."""
        return TriominosSim.to_move_public(m)

    @staticmethod
    def from_public(move: Move) -> int:
        """The compact form of an engine ``Move``; ValueError when it has none."""
        if move.kind == "draw":
            return DRAW_MOVE
        if move.kind == "pass":
            return PASS_MOVE
        if move.kind != "place" or move.cell is None or move.corners is None:
            raise ValueError(f"not a Triominos move: {move}")
        x, y, z = move.corners
        if not all(0 <= n <= 5 for n in (x, y, z)):
            raise ValueError(f"bad corners {move.corners}")
        code = x * 36 + y * 6 + z
        if CODE_TILE[code] < 0 or TILES[CODE_TILE[code]] != tuple(sorted(move.tile or ())):
            raise ValueError(f"corners {move.corners} are not a reading of tile {move.tile}")
        return grid.key(*move.cell) << 8 | code


def mask_value(h: int) -> int:
    """The value of the tiles in hand mask ``h``."""
    v = 0
    while h:
        low = h & -h
        v += VALUE[low.bit_length() - 1]
        h ^= low
    return v


# -- benchmark ----------------------------------------------------------------------------------


def _positions(seed: int, count: int = 24, plies: int = 16) -> list[TriominosState]:
    """Seeded mid-game positions: ``plies`` random moves into ``count`` rounds."""
    rng = random.Random(seed)
    out: list[TriominosState] = []
    while len(out) < count:
        st = new_round("triominos", seed=rng.getrandbits(32))
        assert isinstance(st, TriominosState)
        for _ in range(plies):
            if st.is_over:
                break
            ms = st.legal_moves()
            st.apply(ms[rng.randrange(len(ms))])
        if not st.is_over:
            out.append(st)
    return out


def bench(seconds: float = 2.0, seed: int = 0) -> dict[str, float]:
    """Random full rounds and legal-move generations per second, on the fast path and through
    the engine API; each of the four figures is measured for ``seconds / 4``."""
    part = seconds / 4
    clock = time.perf_counter
    result: dict[str, float] = {}

    rng = random.Random(seed)
    n, t0 = 0, clock()
    while True:
        sim = TriominosSim.random_deal(rng)
        sim.playout(rng)
        n += 1
        if (el := clock() - t0) >= part:
            break
    result["rounds_per_s"] = n / el

    rng = random.Random(seed)
    n, t0 = 0, clock()
    while True:
        st = new_round("triominos", seed=rng.getrandbits(32))
        while not st.is_over:
            ms = st.legal_moves()
            st.apply(ms[rng.randrange(len(ms))])
        n += 1
        if (el := clock() - t0) >= part:
            break
    result["api_rounds_per_s"] = n / el

    states = _positions(seed)
    sims = [TriominosSim.from_state(s) for s in states]
    n, t0 = 0, clock()
    while True:
        for sim in sims:
            sim.legal()
        n += len(sims)
        if (el := clock() - t0) >= part:
            break
    result["legal_per_s"] = n / el

    n, t0 = 0, clock()
    while True:
        for st in states:
            st.generate()
        n += len(states)
        if (el := clock() - t0) >= part:
            break
    result["api_legal_per_s"] = n / el
    return result


if __name__ == "__main__":  # pragma: no cover
    import json
    import sys

    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 4.0), indent=2))
