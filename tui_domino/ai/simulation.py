"""One interface over the engine's fast simulation paths, for the computer players.

The three variants' simulators (``ClassicSim``, ``SpiderSim``, ``TriominosSim``) share most of
their shape; this module hides the differences the players care about: how a view becomes a
simulator, how hidden tiles are dealt into one, what a tile is worth, which tiles fit the open
board, and how a compact move becomes an engine ``Move``.

Tiles are indices: ``dominoes.TILES`` for classic and spider (28), ``triominos.TILES`` for
Triominos (56); a set of tiles is a bit mask.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol, Self

from tui_domino import rules
from tui_domino.rules import dominoes as D
from tui_domino.rules import triominos as T
from tui_domino.rules.classic import ClassicState
from tui_domino.rules.classic_sim import DRAW_M as CLASSIC_DRAW
from tui_domino.rules.classic_sim import PASS_M as CLASSIC_PASS
from tui_domino.rules.classic_sim import ClassicSim
from tui_domino.rules.spider import SpiderState
from tui_domino.rules.spider_sim import MULTI, SpiderSim
from tui_domino.rules.triominos import TriominosState
from tui_domino.rules.triominos_sim import CODE_TILE, TriominosSim
from tui_domino.rules.types import SeatView


class Sim(Protocol):
    """What the players use of any variant's simulator (``ClassicSim``, ``SpiderSim``,
    ``TriominosSim``); what only one variant has, they ask of its class."""

    hands: list[int]  # each seat's tiles, a bit mask
    points: list[int]
    winner: int | None
    over: bool

    @property
    def to_move(self) -> int | None:
        """The seat to move (None once the round is over, where the simulator says so)."""

    def clone(self) -> Self:
        """An independent copy."""

    def legal(self) -> list[int]:
        """The compact moves of the seat to move."""

    def play(self, m: int) -> None:
        """Plays the compact move ``m``."""

    def playout(self, rng: random.Random) -> None:
        """Plays the round to its end by the variant's playout policy."""

    def to_public(self, m: int) -> rules.Move:
        """The engine's ``Move`` for the compact move ``m``."""

DRAW = CLASSIC_DRAW  # -1 in every variant's compact moves
PASS = CLASSIC_PASS  # -2 in every variant's compact moves


class Variant:
    """What the players need to know about one variant's tiles and simulator."""

    name = ""
    tiles: tuple[tuple[int, ...], ...] = ()
    index: dict[tuple[int, ...], int] = {}
    value: tuple[int, ...] = ()

    def sim_of_state(self, state: rules.RoundState) -> Sim:
        raise NotImplementedError

    def base_sim(self, view: SeatView) -> Sim:
        """A simulator of the view's position (the hidden tiles dealt arbitrarily)."""
        return self.sim_of_state(rules.determinize(view, random.Random(0)))

    def deal_hidden(self, sim: Sim, opp: int, opp_mask: int, bazaar: list[int]) -> None:
        """Gives the opponent ``opp_mask`` and makes ``bazaar`` (draw order) the bazaar."""
        raise NotImplementedError

    def to_public(self, sim: Sim, m: int) -> rules.Move:
        move: rules.Move = sim.to_public(m)
        return move

    def from_public(self, move: rules.Move) -> int:
        raise NotImplementedError

    def mask_of(self, tiles: Iterable[Sequence[int]]) -> int:
        m = 0
        for t in tiles:
            m |= 1 << self.index[tuple(sorted(t))]
        return m

    def mask_value(self, mask: int) -> int:
        v = 0
        value = self.value
        while mask:
            low = mask & -mask
            v += value[low.bit_length() - 1]
            mask ^= low
        return v

    def margin(self, points: list[int], me: int) -> int:
        """The round's points margin for ``me`` (positive is good)."""
        return points[me] - points[1 - me]

    def move_tiles(self, sim: Sim, m: int) -> list[int]:
        """The tiles a compact placement puts down (empty for a draw or a pass)."""
        raise NotImplementedError


class DominoVariant(Variant):
    """What classic and Spider share: the double-six set."""

    tiles = D.TILES
    index = {tile: i for tile, i in D.INDEX.items()}
    value = D.PIPS

    def deal_hidden(self, sim: Sim, opp: int, opp_mask: int, bazaar: list[int]) -> None:
        assert isinstance(sim, ClassicSim | SpiderSim)
        sim.hands[opp] = opp_mask
        sim.bz = bazaar
        sim.bp = 0


class ClassicVariant(DominoVariant):
    name = "classic"

    def sim_of_state(self, state: rules.RoundState) -> Sim:
        assert isinstance(state, ClassicState)
        return ClassicSim.from_state(state)

    def from_public(self, move: rules.Move) -> int:
        return ClassicSim.from_public(move)

    def move_tiles(self, sim: Sim, m: int) -> list[int]:
        return [] if m < 0 else [m >> 1]


class SpiderVariant(DominoVariant):
    name = "spider"

    def sim_of_state(self, state: rules.RoundState) -> Sim:
        assert isinstance(state, SpiderState)
        return SpiderSim.from_state(state)

    def from_public(self, move: rules.Move) -> int:
        return SpiderSim.from_public(move)

    def margin(self, points: list[int], me: int) -> int:
        # Spider's points are charged: what the opponent was charged is good for me.
        return points[1 - me] - points[me]

    def move_tiles(self, sim: Sim, m: int) -> list[int]:
        if m < 0:
            return []
        if m & MULTI:
            assert isinstance(sim, SpiderSim)
            return [
                D.DOUBLE[sim.ends[arm]] for arm in range(4) if m >> (2 * arm) & 1
            ]
        return [m >> 4]


class TriominosVariant(Variant):
    name = "triominos"
    tiles = T.TILES
    index = {tile: i for tile, i in T.INDEX.items()}
    value = T.VALUE

    def sim_of_state(self, state: rules.RoundState) -> Sim:
        assert isinstance(state, TriominosState)
        return TriominosSim.from_state(state)

    def deal_hidden(self, sim: Sim, opp: int, opp_mask: int, bazaar: list[int]) -> None:
        assert isinstance(sim, TriominosSim)
        sim.hands[opp] = opp_mask
        sim.bazaar = bazaar  # popped from the end: any order is a random order

    def to_public(self, sim: Sim, m: int) -> rules.Move:
        return TriominosSim.to_move_public(m)

    def from_public(self, move: rules.Move) -> int:
        return TriominosSim.from_public(move)

    def move_tiles(self, sim: Sim, m: int) -> list[int]:
        return [] if m < 0 else [CODE_TILE[m & 255]]


VARIANTS: dict[str, Variant] = {
    "classic": ClassicVariant(),
    "spider": SpiderVariant(),
    "triominos": TriominosVariant(),
}


def variant_of(view: SeatView) -> Variant:
    return VARIANTS[view["variant"]]
