"""The inference masks never exclude the opponent's true hand, over many seeded games, and
the deals sampled from them are consistent and of the right sizes."""

from __future__ import annotations

import random

import pytest

from tui_domino import rules
from tui_domino.ai.heuristic import normal, uniform
from tui_domino.ai.inference import knowledge
from tui_domino.ai.simulation import VARIANTS as SIM_VARIANTS
from tui_domino.rules import dominoes as D

GAMES = {"classic": 40, "spider": 40, "triominos": 8}


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_masks_never_exclude_the_true_hand(variant):
    var = SIM_VARIANTS[variant]
    checked = narrowed = 0
    for seed in range(GAMES[variant]):
        rng = random.Random(seed)
        players = (normal, uniform) if seed % 2 else (uniform, normal)
        leader = None if seed % 3 else seed % 2
        state = rules.new_round(variant, seed=seed, leader=leader)
        while not state.is_over:
            for viewer in (0, 1):
                know = knowledge(state.view(viewer))
                truth = var.mask_of(state.hands[1 - viewer])
                assert know.consistent(truth), (seed, len(state.history), viewer)
                assert truth & ~know.may_hold() == 0
                assert know.surely_not() & truth == 0
                checked += 1
                narrowed += know.may_hold() != know.hidden
                if checked % 7 == 0:
                    hand, bazaar = know.sample(rng)
                    assert know.consistent(hand)
                    assert hand.bit_count() == know.opp_size
                    assert len(bazaar) == know.bazaar_size
                    assert var.mask_of(var.tiles[t] for t in bazaar) | hand == know.hidden
            p = state.to_move
            state.apply(players[p](state.view(p), rng))
    assert narrowed > checked // 10  # the masks do say something


def test_a_draw_rules_out_the_open_numbers():
    # Classic: find a position right after the opponent drew; he held nothing fitting.
    for seed in range(200):
        rng = random.Random(seed)
        state = rules.new_round("classic", seed=seed)
        while not state.is_over:
            p = state.to_move
            move = uniform(state.view(p), rng)
            if move.kind == "draw":
                ends = state.to_json()["ends"]
                state.apply(move)
                know = knowledge(state.view(1 - p))
                excl = know.exclusion_masks()
                # The slots he held before the draw exclude every unseen tile fitting the ends.
                open_tiles = (D.NUM[ends[0]] | D.NUM[ends[1]]) & know.hidden
                assert any(e & open_tiles == open_tiles for e in excl)
                return
            state.apply(move)
    pytest.fail("no draw in 200 rounds")
