"""Seeded positions of every variant for the players' tests."""

from __future__ import annotations

import random

from tui_domino import rules

VARIANTS = ("classic", "spider", "triominos")


def position(variant: str, seed: int, plies: int, leader: int | None = None) -> rules.RoundState:
    """The round dealt from ``seed`` after up to ``plies`` random moves, not over (if the round
    ends sooner, the position just before its last move)."""
    rng = random.Random(seed)
    if variant == "spider":
        leader = None
    state = rules.new_round(variant, seed=seed, leader=leader)
    for _ in range(plies):
        moves = state.legal_moves()
        trial = state.clone()
        trial.apply(rng.choice(moves))
        if trial.is_over:
            break
        state = trial
    return state
