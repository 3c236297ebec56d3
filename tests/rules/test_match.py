"""Matches: totals, leaders, the end of a match for each variant."""

from __future__ import annotations

import random

import pytest

from tui_domino import rules


def play_round(m: rules.Match, rng: random.Random) -> None:
    while not m.round.is_over:
        m.round.apply(rng.choice(m.round.legal_moves()))


@pytest.mark.parametrize("variant", ["classic", "spider"])
def test_match_plays_to_its_end(variant):
    rng = random.Random(1)
    m = rules.new_match(variant, target=50, seed=3)
    rounds = 0
    while True:
        play_round(m, rng)
        rounds += 1
        if m.is_over:
            break
        m.next_round()
        assert rules.match_from_json(m.to_json()).to_json() == m.to_json()
    t = m.totals
    if variant == "spider":
        loser = 1 - m.winner
        assert t[loser] >= 50 and t[m.winner] < 50
    else:
        assert t[m.winner] >= 50 and t[m.winner] > t[1 - m.winner]
    assert len(m.past) == rounds - 1
    with pytest.raises(ValueError):
        m.next_round()


def test_round_winner_leads_next_round_freely():
    rng = random.Random(2)
    m = rules.new_match("classic", target=200, seed=5)
    play_round(m, rng)
    w = m.round.winner
    m.next_round()
    if w is not None:
        assert m.round.to_move == w and m.round.to_json()["forced"] is None
        assert len(m.round.legal_moves()) == len(m.round.hands[w])


def test_totals_bank_each_round_and_seed_reproduces():
    rng = random.Random(4)
    a = rules.new_match("spider", seed=9)
    b = rules.new_match("spider", seed=9)
    assert a.round.to_json() == b.round.to_json()
    play_round(a, rng)
    pts = list(a.round.points)
    assert a.totals == pts
    a.next_round()
    assert a.totals == pts and a.round_no == 2


def test_next_round_refused_mid_round_and_bad_targets():
    m = rules.new_match("classic")
    assert m.target == 100
    with pytest.raises(ValueError):
        m.next_round()
    with pytest.raises(ValueError):
        rules.new_match("classic", target=0)
    with pytest.raises(ValueError):
        rules.new_match("bridge")
    assert rules.TARGETS["spider"] == (50, 70, 100, 120)
    assert rules.DEFAULT_TARGET["triominos"] == 400


def test_corrupt_match_json_is_a_value_error():
    m = rules.new_match("classic", seed=1)
    d = m.to_json()
    for broken in ({}, {"kind": "match"}, {**d, "round": {"variant": "classic"}},
                   {**d, "banked": "x"}, {**d, "variant": "spider"}):
        with pytest.raises(ValueError):
            rules.match_from_json(broken)


def test_a_players_view_carries_the_totals_banked_before_the_round():
    rng = random.Random(6)
    m = rules.new_match("classic", target=150, seed=2)
    p = m.round.to_move
    view = m.player_view(p)
    assert view.pop("match") == {"totals": [0, 0], "target": 150}
    assert view == m.round.view(p)
    play_round(m, rng)
    banked = m.totals
    m.next_round()
    p = m.round.to_move
    assert m.player_view(p)["match"] == {"totals": banked, "target": 150}
    assert "match" not in m.round.view(p)  # the round's own view is untouched
