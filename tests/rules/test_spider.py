"""Known-answer tests for Domino Spider duel (RULES.md section 2)."""

from __future__ import annotations

import pytest

from tui_domino import rules
from tui_domino.rules import IllegalMove

from .positions import ALL_DOMINOES, place_spider, spider


def deal(h0: list[list[int]], h1: list[list[int]]) -> dict:
    used = {tuple(sorted(t)) for t in h0 + h1}
    return {"hands": [h0, h1], "bazaar": [t for t in ALL_DOMINOES if tuple(t) not in used]}


def test_lowest_double_from_one_one_opens_and_zero_zero_does_not_count():
    h0 = [[0, 0], [3, 3], [0, 1], [0, 2], [0, 3], [1, 2], [1, 3]]
    h1 = [[2, 2], [6, 6], [0, 4], [1, 4], [2, 4], [3, 4], [0, 5]]
    s = rules.new_round("spider", deal=deal(h0, h1), leader=0)  # leader is ignored
    assert s.to_move == 1
    assert [m.to_json() for m in s.legal_moves()] == [place_spider(([2, 2], "center", False))]
    s.apply(place_spider(([2, 2], "center", False)))
    arms = s.to_json()["arms"]
    assert all(arms[a]["end"] == 2 and not arms[a]["closed"] for a in "NESW")
    assert s.to_move == 0


def test_no_double_from_one_one_means_redeal():
    h0 = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    h1 = [[0, 4], [1, 4], [2, 4], [3, 4], [0, 5], [1, 5], [2, 5]]
    with pytest.raises(ValueError, match="redeal"):
        rules.new_round("spider", deal=deal(h0, h1))
    # A seeded round always finds an opener (redealing as needed).
    for seed in range(200):
        s = rules.new_round("spider", seed=seed)
        assert s.legal_moves()[0].placements[0].arm == "center"


def test_single_placements_and_close_options():
    s = spider([[[1, 1], [1, 5], [3, 5], [0, 2]], [[6, 6]]], center=3,
               arms={"N": ([[3, 1]], False)})
    moves = {str(m) for m in s.legal_moves()}
    # 1-1 on N open or closed, 1-5 on N, 3-5 on E, S or W; one double: no multi turn.
    assert moves == {"1-1 N", "1-1 N closed", "1-5 N", "3-5 E", "3-5 S", "3-5 W"}


def test_multi_double_turn_with_a_close():
    s = spider(
        [[[1, 1], [2, 2], [4, 4], [0, 6]], [[5, 5], [6, 6]]],
        center=3,
        arms={"N": ([[3, 1]], False), "E": ([[3, 2]], False), "W": ([[3, 4]], False)},
    )
    move = place_spider(([1, 1], "N", True), ([2, 2], "E", False), ([4, 4], "W", False))
    assert rules.move_from_json("spider", move) in s.legal_moves()
    # 16 multi-double moves with 2 doubles (3 pairs x 4 closes) + 8 with 3.
    assert sum(len(m.placements) > 1 for m in s.legal_moves()) == 3 * 4 + 8
    with pytest.raises(IllegalMove, match="does not match"):
        s.apply(place_spider(([1, 1], "N", False), ([2, 2], "S", False)))
    with pytest.raises(IllegalMove, match="only doubles"):
        s.apply(place_spider(([1, 1], "N", False), ([0, 6], "S", False)))
    events = s.apply(move)
    assert events == []
    arms = s.to_json()["arms"]
    assert arms["N"] == {"tiles": [[3, 1], [1, 1]], "end": 1, "closed": True}
    assert arms["E"] == {"tiles": [[3, 2], [2, 2]], "end": 2, "closed": False}
    assert arms["W"] == {"tiles": [[3, 4], [4, 4]], "end": 4, "closed": False}
    assert [list(t) for t in s.hands[0]] == [[0, 6]]
    assert s.to_move == 1
    # Nothing more attaches to the closed North arm.
    d = s.to_json()
    d["to_move"] = 0
    d["hands"][0].append([1, 6])
    d["bazaar"].remove([1, 6])
    s2 = rules.state_from_json(d)
    with pytest.raises(IllegalMove, match="closed"):
        s2.apply(place_spider(([1, 6], "N", False)))


def test_placement_order_is_normalised():
    m1 = rules.move_from_json(
        "spider", place_spider(([2, 2], "W", False), ([1, 1], "N", True))
    )
    assert [p.arm for p in m1.placements] == ["N", "W"]
    with pytest.raises(IllegalMove):
        rules.move_from_json("spider", {"kind": "place", "placements": []})
    with pytest.raises(IllegalMove):
        rules.move_from_json("spider", place_spider(([2, 2], "X", False)))


def test_close_only_a_double_off_centre():
    s = spider([[[3, 5], [0, 1]], [[6, 6]]], center=3)
    with pytest.raises(IllegalMove, match="only a double"):
        s.apply(place_spider(([3, 5], "N", True)))


def test_draw_until_playable_then_play_same_turn():
    bazaar = [[6, 6], [0, 0], [2, 4]]
    h0 = [[5, 5]]
    s = spider([h0, [[1, 1]]], center=4, bazaar=None)
    # rebuild with an explicit bazaar order: every tile not elsewhere
    used = {(5, 5), (1, 1), (4, 4)}
    rest = [t for t in ALL_DOMINOES if tuple(t) not in used and t not in bazaar]
    # put the rest in player 1's hand, keep the 3-tile bazaar
    s = spider([h0, [[1, 1]] + rest], center=4, bazaar=bazaar)
    assert [m.kind for m in s.legal_moves()] == ["draw"]
    s.apply({"kind": "draw"})  # 6-6: no
    s.apply({"kind": "draw"})  # 0-0: no
    assert s.to_move == 0 and [m.kind for m in s.legal_moves()] == ["draw"]
    s.apply({"kind": "draw"})  # 2-4 plays on a 4 arm
    assert s.to_move == 0 and all(m.kind == "place" for m in s.legal_moves())
    assert len(s.bazaar) == 0


def test_pass_with_empty_bazaar():
    # Bazaar empty, player 0 holds nothing playable, player 1 can play.
    used = {(4, 4)}
    others = [t for t in ALL_DOMINOES if tuple(t) not in used]
    p0 = [t for t in others if 4 not in t][:5]
    p1 = [t for t in others if t not in p0]
    s = spider([p0, p1], center=4, bazaar=[])
    assert [m.kind for m in s.legal_moves()] == ["pass"]
    s.apply({"kind": "pass"})
    assert s.to_move == 1 and not s.is_over


def test_going_out_charges_opponent_pips():
    s = spider([[[4, 6]], [[2, 3], [0, 0]]], center=4)
    events = s.apply(place_spider(([4, 6], "E", False)))
    assert s.is_over and s.winner == 0 and s.end_reason == "domino"
    assert [(e.player, e.points, e.reason) for e in events] == [(1, 5, "domino")]
    assert s.points == [0, 5]


def test_lone_blank_double_costs_25_and_its_option():
    s = spider([[[4, 6]], [[0, 0]]], center=4)
    s.apply(place_spider(([4, 6], "S", False)))
    assert s.points == [0, 25]
    s = spider([[[4, 6]], [[0, 0]]], center=4, options={"lone_blank_double": 10})
    s.apply(place_spider(([4, 6], "S", False)))
    assert s.points == [0, 10]


def test_fish_when_every_arm_is_closed_even_with_a_bazaar():
    s = spider(
        [[[1, 1], [2, 2], [5, 6]], [[0, 0], [0, 1]]],
        center=3,
        arms={
            "N": ([[3, 1]], False),
            "E": ([[3, 2]], False),
            "S": ([[3, 5], [5, 5]], True),
            "W": ([[3, 4], [4, 4]], True),
        },
    )
    assert len(s.bazaar) > 0
    events = s.apply(place_spider(([1, 1], "N", True), ([2, 2], "E", True)))
    assert s.is_over and s.end_reason == "blocked"
    # player 0 keeps 5-6 (11 pips), player 1 holds 0-0, 0-1 (1 pip): player 1 wins the fish,
    # player 0 is charged his own pips; the lone-0-0 rule does not apply to a fish.
    assert s.winner == 1
    assert [(e.player, e.points, e.reason) for e in events] == [(0, 11, "blocked")]


def test_fish_with_empty_bazaar_and_equal_pips():
    # Arms end on 6, 6 and 5, the West arm is closed, every tile with a 4, 5 or 6 is on
    # the board and the bazaar is empty: nobody can play.
    arms = {
        "N": ([[6, 0], [0, 1], [1, 6]], False),
        "E": ([[6, 2], [2, 3], [3, 6]], False),
        "S": ([[6, 4], [4, 4], [4, 0], [0, 5], [5, 4], [4, 1], [1, 5], [5, 2], [2, 4],
               [4, 3], [3, 5], [5, 5]], False),
        "W": ([[6, 5]], True),
    }
    on = {tuple(sorted(t)) for a in arms.values() for t in a[0]} | {(6, 6)}
    rest = [t for t in ALL_DOMINOES if tuple(t) not in on]
    assert all(not ({4, 5, 6} & set(t)) for t in rest)
    # rest: 0-0 0-2 0-3 1-1 1-2 1-3 2-2 3-3 = 0+2+3+2+3+4+4+6 = 24 pips
    p0 = [[0, 3], [1, 2], [3, 3]]  # 3+3+6 = 12
    p1 = [t for t in rest if t not in p0]
    assert sum(map(sum, p0)) == sum(map(sum, p1)) == 12
    s = spider([p0, p1], center=6, arms=arms, bazaar=[])
    # Ends N 6, E 6, S 5, W closed: nobody holds 5 or 6, bazaar empty: the next check ends it.
    assert [m.kind for m in s.legal_moves()] == ["pass"]
    s.apply({"kind": "pass"})
    assert s.is_over and s.end_reason == "blocked" and s.winner is None and s.points == [0, 0]


def test_illegal_moves_change_nothing_spider():
    s = rules.new_round("spider", seed=9)
    before = s.to_json()
    for m in (
        {"kind": "draw"},
        {"kind": "pass"},
        place_spider(([1, 2], "N", False)),
        place_spider(([1, 1], "center", False), ([2, 2], "N", False)),
        {"kind": "place", "placements": "N"},
        {"kind": "place", "placements": [{"tile": [1, 1], "arm": "center", "close": 1}]},
    ):
        with pytest.raises(IllegalMove):
            s.apply(m)
    assert s.to_json() == before
