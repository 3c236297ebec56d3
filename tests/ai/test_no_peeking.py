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
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_hidden_tiles_do_not_change_the_choice(variant, level):
    differed = 0
    for seed in range(6):
        state = position(variant, seed, 6 + 5 * seed)
        p = state.to_move
        other = twin(state, 1000 + seed)
        if other.hands[1 - p] != state.hands[1 - p] or other.bazaar != state.bazaar:
            differed += 1
        view_a, view_b = state.view(p), other.view(p)
        assert view_a == view_b
        budget = Budget(iterations=60)
        a = LEVELS[level](view_a, random.Random(seed), budget)
        b = LEVELS[level](view_b, random.Random(seed), budget)
        assert a == b
    assert differed >= 4
