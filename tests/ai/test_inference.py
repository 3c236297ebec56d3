"""The inference masks never exclude the opponent's true hand, over many seeded games, and
the deals sampled from them are consistent and of the right sizes."""

from __future__ import annotations

import random

import pytest

from tui_domino import rules
from tui_domino.ai.heuristic import normal, uniform
from tui_domino.ai.inference import knowledge
from tui_domino.ai.search import OpponentModel
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
                assert (know.hidden & ~know.may_hold()) & truth == 0  # surely in the bazaar
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
                excl = [know.hidden & ~mask for mask, n in know.groups for _ in range(n)]
                # The slots he held before the draw exclude every unseen tile fitting the ends.
                open_tiles = (D.NUM[ends[0]] | D.NUM[ends[1]]) & know.hidden
                assert any(e & open_tiles == open_tiles for e in excl)
                return
            state.apply(move)
    pytest.fail("no draw in 200 rounds")


def _tile(a, b):
    return D.INDEX[(min(a, b), max(a, b))]


def test_play_evidence_follows_the_opponents_placements_since_his_last_draw():
    variant = "classic"
    # Play seeded rounds with the normal player; at every view, the evidence is the opponent's
    # single-tile placements after his last draw (not the opening), each tile fitted the board
    # then, and it and his later tiles are no longer in his hand.
    from tui_domino.ai.inference import play_evidence

    seen = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = rules.new_round(variant, seed=seed)
        while not state.is_over:
            p = state.to_move
            view = state.view(p)
            opp = 1 - p
            hist = view["history"]
            last_draw = max((i for i, r in enumerate(hist)
                             if r["player"] == opp and r["move"]["kind"] == "draw"), default=-1)
            placed = []
            for r in hist[last_draw + 1:]:
                mv = r["move"]
                if r["player"] != opp or mv["kind"] != "place":
                    continue
                pls = mv.get("placements", [mv])
                if len(pls) == 1 and pls[0].get("end", pls[0].get("arm")) != "center":
                    placed.append(D.INDEX[tuple(sorted(pls[0]["tile"]))])
            evidence = play_evidence(view)
            assert sorted(t for t, _f, _l in evidence) == sorted(placed)
            truth = SIM_VARIANTS[variant].mask_of(state.hands[opp])
            for tile, fits, later in evidence:
                assert fits >> tile & 1 and later >> tile & 1
                assert not truth & later  # the tiles he placed are no longer in his hand
                seen += 1
            state.apply(normal(view, rng))
    assert seen > 100


def test_evidence_weight_prefers_hands_without_heavier_tiles_passed_over():
    from tui_domino.ai.inference import evidence_weight, uniform_choice_weight

    weight = [2.0 ** D.PIPS[t] for t in range(28)]
    # He played 1-2 when the ends were 2 and 3 (fits: every tile with a 2 or a 3).
    fits = D.NUM[2] | D.NUM[3]
    played = _tile(1, 2)
    evidence = [(played, fits, 1 << played)]
    light = (1 << _tile(0, 0)) | (1 << _tile(0, 1))  # nothing else fitting
    heavy = (1 << _tile(0, 0)) | (1 << _tile(3, 6))  # 3-6 fitted and was heavier
    assert evidence_weight(evidence, light, weight) == 1.0
    assert evidence_weight(evidence, heavy, weight) == pytest.approx(8 / (8 + 512))
    assert evidence_weight([], heavy, weight) == 1.0
    # a player who picks any fitting tile: one chance in the number that fitted
    assert uniform_choice_weight(evidence, heavy) == evidence_weight(evidence, heavy, [1.0] * 28)
    assert uniform_choice_weight(evidence, heavy) == 0.5
    assert uniform_choice_weight(evidence, light) == 1.0


def test_the_opponent_model_samples_only_consistent_hands():
    variant = "classic"
    from tui_domino.ai import search

    rng = random.Random(5)
    checked = 0
    for seed in range(20):
        state = rules.new_round(variant, seed=seed)
        while not state.is_over:
            p = state.to_move
            view = state.view(p)
            know = knowledge(view)
            model = search.opponent_model(SIM_VARIANTS[variant], know, view, rng)
            if model is not None:
                hand, bazaar = model.sample(rng)
                assert know.consistent(hand)
                assert len(bazaar) == know.bazaar_size
                checked += 1
            state.apply(normal(view, rng))
    assert checked > 50


def test_the_mixed_opponent_model_reads_a_random_player_and_a_heavy_first_one():
    from tests.scripts import load_script
    from tui_domino.ai import PLAYERS, search

    reading = load_script("opponent_reading")
    mixes = (0.0, search.OPP_MIX, 1.0)  # the heavy-first kind alone, the mixture, random alone
    # Against a player who picks at random, the heavy-first kind alone is misled (it weighs the
    # true hand below the pool's average); the mixture is not, and reads him far better.
    (heavy, mixed, rand), views = reading.truth_scores(PLAYERS["random"], mixes, rounds=30)
    assert views > 200
    assert heavy < 0 < mixed <= rand + 0.1
    assert mixed > heavy + 0.15
    # Against the heavy-first normal player, the mixture reads him better than the random kind.
    (heavy, mixed, rand), views = reading.truth_scores(PLAYERS["normal"], mixes, rounds=30)
    assert heavy > 0 and mixed > rand + 0.05
    assert mixes[1] == search.OPP_MIX  # the script put the adopted prior back


def test_past_stretches_always_allow_his_true_hand():
    """Before each of his draws that ends a stretch of placements with a choice, his true hand
    is among the hands the stretch allows (the right size, inside its candidates), and the
    stretch's placements are his, with the tiles he placed after each."""
    from tui_domino.ai.inference import past_evidence
    from tui_domino.rules import dominoes as D

    rng = random.Random(4)
    stretches_seen = 0
    for seed in range(120):
        state = rules.new_round("classic", seed=seed, leader=(None, 0, 1)[seed % 3])
        truths: list[int] = []
        chosen_since_draw = False
        prev_draw = False
        while not state.is_over:
            p = state.to_move
            view = state.view(p)
            move = rng.choice(state.legal_moves())
            held = D.mask_of(state.hands[1])
            state.apply(move)
            rec = state.view(0)["history"][-1]
            if rec["player"] == 1:
                kind = rec["move"]["kind"]
                if kind == "draw":
                    if not prev_draw and chosen_since_draw:
                        truths.append(held)
                    chosen_since_draw = False
                elif kind == "place" and rec["move"]["end"] != "center":
                    chosen_since_draw = True
                prev_draw = kind == "draw"
            else:
                prev_draw = False
            stretches = past_evidence(state.view(0))
            assert len(stretches) == len(truths)
            for (cand, size, evidence), truth in zip(stretches, truths, strict=True):
                assert truth & ~cand == 0 and truth.bit_count() == size
                assert evidence
                for tile, fits, later in evidence:
                    assert later >> tile & 1 and fits >> tile & 1
                    assert truth & later == 0  # placed before the draw: not in his hand then
        stretches_seen += len(truths)
        del view
    assert stretches_seen > 100


def test_the_opponent_model_tells_a_random_player_from_a_heavy_first_one():
    """The chance the model gives the random kind (which the search plays him as, in that
    share of its deals) rises with evidence against a player who picks at random and falls
    against one who lays his heaviest tile."""
    from tui_domino.ai import PLAYERS, search

    def mean_chance(opponent: str) -> float:
        rng = random.Random(11)
        chances = []
        for seed in range(30):
            state = rules.new_round("classic", seed=seed)
            while not state.is_over:
                p = state.to_move
                view = state.view(p)
                if p == 0:  # we play normal and read him
                    know = knowledge(view)
                    model = search.opponent_model(SIM_VARIANTS["classic"], know, view, rng)
                    if model is not None:
                        chances.append(erratic_chance(model))
                        assert all(0.0 <= q <= 1.0 for q in model.erratic)
                    state.apply(normal(view, rng))
                else:
                    state.apply(PLAYERS[opponent](view, rng))
        assert len(chances) > 60
        return sum(chances) / len(chances)

    against_random, against_greedy = mean_chance("random"), mean_chance("greedy")
    assert against_random > search.OPP_MIX > against_greedy
    assert against_random - against_greedy > 0.25  # 0.66 and 0.28 on these rounds


def test_a_placed_tile_is_charged_to_the_oldest_slot_that_could_hold_it():
    from tui_domino.ai.inference import _charge

    # Void events: ends 2|3 (both deal slots lived through it), then 5|5 (all three slots).
    voids = [D.NUM[2] | D.NUM[3], D.NUM[5]]
    # Two deal slots (lived through events 0 and 1) and one drawn at event 0 (lived through 1).
    slots = [0, 0, 1]
    _charge(slots, voids, 1 << _tile(2, 4))  # fitted event 0: only the drawn slot could hold it
    assert slots == [0, 0]
    slots = [0, 0, 1]
    _charge(slots, voids, 1 << _tile(1, 4))  # fitted nothing: any slot, the oldest is charged
    assert slots == [0, 1]
    slots = [0, 0, 1]
    _charge(slots, voids, 1 << _tile(5, 6))  # fits every slot's events: cannot happen; sound
    assert len(slots) == 2


def erratic_chance(model: OpponentModel) -> float:
    """How likely it is, given his choices, that the opponent is the random kind (over the
    model's pool)."""
    if not model.total:
        return model.mix
    prev = acc = 0.0
    for c, q in zip(model.cum, model.erratic, strict=True):
        acc += (c - prev) * q
        prev = c
    return acc / model.total
