"""Every level returns only legal moves, in positions of every variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.ai.positions import VARIANTS, position
from tui_domino.ai.levels import LEVELS, MENU_LEVELS, choose
from tui_domino.ai.search import Budget

SMALL = Budget(iterations=40)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
    leader=st.sampled_from([None, 0, 1]),
    level=st.sampled_from(sorted(LEVELS)),
)
def test_each_level_plays_only_legal_moves(variant, seed, plies, leader, level):
    state = position(variant, seed, plies, leader)
    view = state.view(state.to_move)
    move = LEVELS[level](view, random.Random(seed), SMALL)
    assert move in state.legal_moves()


@pytest.mark.parametrize("variant", VARIANTS)
def test_levels_play_whole_rounds(variant):
    state = position(variant, 5, 0)
    rng = random.Random(1)
    seats = ("hard", "normal")
    while not state.is_over:
        p = state.to_move
        move = choose(state.view(p), seats[p], rng, Budget(iterations=25))
        assert move in state.legal_moves()
        state.apply(move)


def test_the_menu_offers_three_strengths():
    assert MENU_LEVELS == ("easy", "normal", "hard")
    assert set(MENU_LEVELS) <= set(LEVELS)


def test_an_unknown_level_is_refused():
    state = position("classic", 1, 0)
    with pytest.raises(ValueError):
        choose(state.view(state.to_move), "grandmaster", random.Random(0))


def test_the_strengths_names_are_the_players() -> None:
    from tui_domino import ai

    assert set(ai.NAMES) == set(ai.PLAYERS) and [n for n, _ in ai.MENU] == list(ai.NAMES)


def test_the_players_load_only_when_used() -> None:
    """The menu, the settings and a saved match need only the strengths' names: starting
    the app loads none of the players' modules (a good part of the start-up time)."""
    import subprocess
    import sys

    code = ("import sys, tui_domino.ui.app, tui_domino.ui.storage; "
            "print(sorted(m for m in sys.modules if m.startswith('tui_domino.ai.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "tui_domino.ai.levels" not in out and "tui_domino.ai.simulation" not in out, out
