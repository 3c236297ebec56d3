"""No peeking: states that differ only in hidden tiles get the same choice under the same
seed, at every level."""

from __future__ import annotations

import random

import pytest

from tests.ai.positions import VARIANTS, position
from tui_domino import rules
from tui_domino.ai.levels import LEVELS
from tui_domino.ai.search import Budget


def twin(state: rules.RoundState, seed: int) -> rules.RoundState:
    """The same position with the opponent's hand and the bazaar dealt differently."""
    p = state.to_move
    other = rules.determinize(state.view(p), random.Random(seed))
    assert other.hands[p] == state.hands[p]
    return other


@pytest.mark.parametrize("variant", VARIANTS)
def test_hidden_tiles_do_not_change_the_view(variant):
    differed = 0
    for seed in range(6):
        state = position(variant, seed, 6 + 5 * seed)
        p = state.to_move
        other = twin(state, 1000 + seed)
        if other.hands[1 - p] != state.hands[1 - p] or other.bazaar != state.bazaar:
            differed += 1
        assert state.view(p) == other.view(p)
    assert differed >= 4


def choice_after_seeing(level: str, seen: dict, view: dict, seed: int) -> rules.Move:
    """The level's choice for ``view``, made in a process where it has just chosen for the
    view ``seen`` (as in a game between two computers, which choose in one process)."""
    budget = Budget(iterations=60)
    LEVELS[level](seen, random.Random(seed + 1), budget)
    return LEVELS[level](view, random.Random(seed), budget)


def position_with_a_choice(variant: str, seed: int, plies: int) -> rules.RoundState:
    """The position ``plies`` moves on (``position``), or the nearest one after it (else
    before it, if the round ends first) with more than one legal move."""
    for n in [*range(plies, plies + 40), *range(plies - 1, -1, -1)]:
        state = position(variant, seed, n)
        if len(state.legal_moves()) > 1:
            return state
    raise AssertionError(f"no choice in {variant} round {seed}")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_hidden_tiles_do_not_change_the_choice(variant, level):
    """Each choice follows the opponent's own choice, made from his view, which shows his
    hand: what the process saw of the hidden tiles must not change the next choice."""
    differed = 0
    for seed in range(6):
        state = position_with_a_choice(variant, seed, 6 + 5 * seed)
        p = state.to_move
        other = twin(state, 1000 + seed)
        if other.hands[1 - p] != state.hands[1 - p]:
            differed += 1
        a = choice_after_seeing(level, state.view(1 - p), state.view(p), seed)
        b = choice_after_seeing(level, other.view(1 - p), other.view(p), seed)
        assert a == b
    assert differed >= 4
