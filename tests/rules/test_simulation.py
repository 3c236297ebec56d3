"""The fast simulation paths play exactly the rules of the public states."""

from __future__ import annotations

import random

import pytest

from tui_domino import rules
from tui_domino.rules import dominoes as D
from tui_domino.rules.classic_sim import ClassicSim
from tui_domino.rules.spider import charge_for_hand
from tui_domino.rules.spider_sim import SpiderSim

SIMS = {"classic": ClassicSim, "spider": SpiderSim}


@pytest.mark.parametrize("variant", ["classic", "spider"])
def test_sim_replays_public_games_exactly(variant):
    cls = SIMS[variant]
    for seed in range(150):
        s = rules.new_round(variant, seed=seed)
        sim = cls.from_state(s)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            compact = sim.legal()
            assert sorted(map(str, legal)) == sorted(str(sim.to_public(m)) for m in compact)
            assert {cls.from_public(m) for m in legal} == set(compact)
            m = rng.choice(legal)
            s.apply(m)
            sim.play(cls.from_public(m))
            assert sim.over == s.is_over
            assert sim.points == s.points
        assert sim.winner == s.winner and sim.legal() == []


@pytest.mark.parametrize("variant", ["classic", "spider"])
def test_playouts_end_with_consistent_scores(variant):
    cls = SIMS[variant]
    rng = random.Random(3)
    for _ in range(300):
        sim = cls.random_deal(rng)
        sim.playout(rng)
        assert sim.over
        pips = [D.pips_of(h) for h in sim.hands]
        if sim.winner is None:  # blocked (fish) with equal pips
            assert sim.points == [0, 0] and pips[0] == pips[1] and sim.hands[0] and sim.hands[1]
            continue
        w, loser = sim.winner, 1 - sim.winner
        went_out = not sim.hands[w]
        assert went_out or pips[w] < pips[loser]
        if variant == "classic":  # the winner scores: the other's pips, or the difference
            assert sim.points[loser] == 0
            assert sim.points[w] == (pips[loser] if went_out else pips[loser] - pips[w])
        else:  # Spider charges the loser: his hand (a lone 0-0 dearer), or its pips
            assert sim.points[w] == 0
            assert sim.points[loser] == (charge_for_hand(sim.hands[loser], sim.lone)
                                         if went_out else pips[loser])


@pytest.mark.parametrize("variant", ["classic", "spider"])
def test_playout_from_a_public_midgame_does_not_touch_the_state(variant):
    cls = SIMS[variant]
    s = rules.new_round(variant, seed=77)
    rng = random.Random(1)
    for _ in range(5):
        s.apply(rng.choice(s.legal_moves()))
    before = s.to_json()
    sim = cls.from_state(s)
    sim.clone().playout(rng)
    sim.playout(rng)
    assert s.to_json() == before and sim.over


@pytest.mark.parametrize("greedy,block", [(0.0, 0), (0.6, 0), (0.8, 12)])
def test_classic_playout_end_states_obey_the_rules(greedy, block):
    from tui_domino.rules import dominoes as D

    rng = random.Random(11)
    for _ in range(500):
        sim = ClassicSim.random_deal(rng)
        sim.playout(rng, greedy=greedy, block=block)
        h0, h1 = sim.hands
        assert not (h0 & h1)
        left = len(sim.bz) - sim.bp
        # every tile is in one place: a hand, the bazaar still to draw, or the line (which
        # holds at least the first tile played)
        rest = 0
        for t in sim.bz[sim.bp:]:
            assert not (rest >> t) & 1
            rest |= 1 << t
        assert not (rest & (h0 | h1))
        assert (h0 | h1 | rest).bit_count() < 28
        if sim.winner is not None and not sim.hands[sim.winner]:
            # went out: scored the opponent's pips
            assert sim.points[sim.winner] == D.pips_of(sim.hands[1 - sim.winner])
        else:
            # blocked: nobody could draw, nobody held a tile for either end
            ends = D.NUM[sim.left] | D.NUM[sim.right]
            assert left <= sim.reserve and not (h0 & ends) and not (h1 & ends)
            p0, p1 = D.pips_of(h0), D.pips_of(h1)
            assert sim.points == [max(p1 - p0, 0), max(p0 - p1, 0)]


def test_the_blocking_choice_is_the_heaviest_placement_counting_the_block():
    from tui_domino.rules import dominoes as D
    from tui_domino.rules.classic_sim import _blocking_choice

    def t(a, b):
        return D.INDEX[(min(a, b), max(a, b))]

    # Ends 2 and 5; the other hand holds only tiles with a 6 or a 5.
    other = (1 << t(6, 6)) | (1 << t(5, 1))
    opts = [t(2, 4), t(2, 6), t(5, 0)]
    # 2-6 on the left leaves 6 and 5: he follows. 2-4 on the left leaves 4 and 5: he follows
    # the 5. 5-0 on the right leaves 2 and 0: he cannot; 5 pips + 12 beats 2-6's 8.
    assert _blocking_choice(opts, 2, 5, other, 12) == (t(5, 0), 1)
    # Without the bonus, the heaviest wins: 2-6, on the left, the only end it fits.
    assert _blocking_choice(opts, 2, 5, other, 0) == (t(2, 6), 0)


def test_spider_playout_end_states_obey_the_rules():
    from tui_domino.rules import dominoes as D

    rng = random.Random(12)
    for _ in range(500):
        sim = SpiderSim.random_deal(rng)
        sim.playout(rng)
        h0, h1 = sim.hands
        if sim.winner is not None and not sim.hands[sim.winner]:
            loser = sim.hands[1 - sim.winner]
            expected = 25 if loser == 1 << D.INDEX[(0, 0)] else D.pips_of(loser)
            assert sim.points[1 - sim.winner] == expected and sim.points[sim.winner] == 0
        else:
            open_ends = 0
            for a in range(4):
                if not sim.closed[a]:
                    open_ends |= D.NUM[sim.ends[a]]
            assert all(sim.closed) or (
                sim.bp == len(sim.bz) and not (h0 & open_ends) and not (h1 & open_ends)
            )


def test_the_rules_check_script_runs_and_reports_agreement(monkeypatch, capsys):
    import sys

    from tests.scripts import load_script

    script = load_script("rules_check")
    monkeypatch.setattr(sys, "argv", ["rules_check", "--rounds", "20", "--triominos-rounds", "4",
                                      "--matches", "3", "--triominos-matches", "1",
                                      "--seed", "7"])
    assert script.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6 and all(": agree (" in line for line in lines)
    # a disagreement is reported, not hidden: a simulator that forgets the round's points
    play = ClassicSim.play

    def forgetful(sim, m):
        play(sim, m)
        sim.points = [0, 0]

    monkeypatch.setattr(ClassicSim, "play", forgetful)
    assert script.main() == 1
    assert "DISAGREE" in capsys.readouterr().out
