"""Matches: totals, leaders, the end of a match for each variant."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


def mid_match(variant: str, seed: int) -> dict:
    """A match's JSON in its second round, some moves in (a past round, draws, placements)."""
    m = rules.new_match(variant, seed=seed)
    rng = random.Random(seed)
    play_round(m, rng)
    m.next_round()
    def drew() -> bool:
        return any(r["move"]["kind"] == "draw" for r in m.round.history)

    while (len(m.round.history) < 12 or not drew()) and not m.round.is_over:
        m.round.apply(rng.choice(m.round.legal_moves()))
    return m.to_json()


def first(history: list, kind: str) -> dict:
    return next(r for r in history if r["move"]["kind"] == kind)


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_a_match_whose_round_disagrees_with_its_history_is_refused(variant):
    d = mid_match(variant, 3)
    assert rules.match_from_json(d).to_json() == d  # as saved, it reads back
    history = d["round"]["history"]
    assert any(r["move"]["kind"] == "draw" for r in history)
    tampered = []
    # a placement with points it did not score
    t = copy.deepcopy(d)
    first(t["round"]["history"], "place")["events"].append(
        {"player": 0, "points": 5, "reason": "tile"})
    tampered.append(t)
    # the points of the round changed, the history left alone
    t = copy.deepcopy(d)
    t["round"]["points"][0] += 1
    tampered.append(t)
    # a placement of a tile its player did not hold: the other player's
    t = copy.deepcopy(d)
    rec = first(t["round"]["history"], "place")
    rec["player"] = 1 - rec["player"]
    tampered.append(t)
    # a draw without its tile; a record that is not a record; a move of no known kind
    i = next(i for i, r in enumerate(history) if r["move"]["kind"] == "draw")
    for broken in ({**history[i], "tile": None}, "draw",
                   {"player": 0, "move": {"kind": "x"}, "events": []}):
        t = copy.deepcopy(d)
        t["round"]["history"][i] = broken
        tampered.append(t)
    # the history cut short; a record repeated
    t = copy.deepcopy(d)
    t["round"]["history"].pop()
    tampered.append(t)
    t = copy.deepcopy(d)
    t["round"]["history"].insert(3, t["round"]["history"][3])
    tampered.append(t)
    # a past round without its points
    t = copy.deepcopy(d)
    t["past"][0] = {"round": 1}
    tampered.append(t)
    for t in tampered:
        with pytest.raises(ValueError):
            rules.match_from_json(t)


def _leaves(obj, path=()):
    yield path
    if isinstance(obj, dict | list):
        for k, v in obj.items() if isinstance(obj, dict) else enumerate(obj):
            yield from _leaves(v, (*path, k))


ODD_VALUES = [None, -1, 0, 1, 7, 99, "x", "left", [], {}, [0], [9, 9], [1, 2, 3], True, 1.5]


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_a_tampered_match_is_refused_or_plays_on(variant, data):
    """Any one value of a saved match replaced or removed: reading it back is a ValueError,
    or the match it gives plays on (views, moves, the round's end, the next round) without
    any other error."""
    d = MATCHES.setdefault(variant, mid_match(variant, 5))
    t = copy.deepcopy(d)
    path = data.draw(st.sampled_from([p for p in _leaves(t) if p]))
    parent = t
    for k in path[:-1]:
        parent = parent[k]
    if data.draw(st.booleans()):
        parent[path[-1]] = data.draw(st.sampled_from(ODD_VALUES))
    else:
        del parent[path[-1]]
    try:
        m = rules.match_from_json(t)
    except ValueError:
        return
    rng = random.Random(0)
    for _ in range(2):
        for player in (0, 1):
            m.player_view(player)
        play_round(m, rng)
        assert m.totals == [m.banked[i] + m.round.points[i] for i in (0, 1)]
        if m.is_over:
            break
        m.next_round()


MATCHES: dict[str, dict] = {}
