"""The simple computer players: random and greedy.

A player is ``choose(view, rng, budget) -> Move``: it sees only ``state.view(player)``
(its own hand, the board, the sizes of the hidden piles) and never the opponent's hand.
"""

from __future__ import annotations

import random

from tui_domino import rules
from tui_domino.rules.types import SeatView


def determinize(view: SeatView, rng: random.Random) -> rules.RoundState:
    """A full round state consistent with ``view``: the hidden tiles dealt at random (the
    engine's ``rules.determinize``)."""
    return rules.determinize(view, rng)


def legal_moves(view: SeatView, rng: random.Random) -> list[rules.Move]:
    """The viewer's legal moves (the viewer must be the player to move)."""
    return determinize(view, rng).legal_moves()


def random_player(view: SeatView, rng: random.Random, budget: float | None = None) -> rules.Move:
    """A legal move, uniformly at random."""
    return rng.choice(legal_moves(view, rng))


def _tiles_of(move: rules.Move) -> list[tuple[int, ...]]:
    if move.placements is not None:
        return [p.tile for p in move.placements]
    return [move.tile] if move.tile is not None else []


def greedy_player(view: SeatView, rng: random.Random, budget: float | None = None) -> rules.Move:
    """The heaviest tile (spider: most doubles, then most pips; triominos: the best
    immediate score). Closes a spider arm only when that leaves the opponent less room."""
    state = determinize(view, rng)
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    variant = view["variant"]

    def score(move: rules.Move) -> tuple[float, ...]:
        tiles = _tiles_of(move)
        pips = sum(sum(t) for t in tiles)
        if variant == "triominos":
            trial = state.clone()
            events = trial.apply(move)
            me = view["player"]
            return (sum(e.points for e in events if e.player == me), pips)
        if variant == "spider":
            closes = sum(1 for p in move.placements or () if p.close)
            return (len(tiles), pips, -closes)
        return (pips, max((max(t) for t in tiles), default=0))

    best = max(score(m) for m in moves)
    return rng.choice([m for m in moves if score(m) == best])
