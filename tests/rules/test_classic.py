"""Known-answer tests for classic dominoes (RULES.md section 1)."""

from __future__ import annotations

import pytest

from tui_domino import rules
from tui_domino.rules import IllegalMove

from .positions import ALL_DOMINOES, classic, place_classic


def deal(h0: list[list[int]], h1: list[list[int]]) -> dict:
    used = {tuple(sorted(t)) for t in h0 + h1}
    return {"hands": [h0, h1], "bazaar": [t for t in ALL_DOMINOES if tuple(t) not in used]}


H_NO_DOUBLE_A = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3], [3, 5]]
H_NO_DOUBLE_B = [[0, 4], [1, 4], [2, 4], [3, 4], [4, 5], [1, 5], [3, 6]]


def test_highest_double_must_lead():
    h0 = [[5, 5], [0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    h1 = [[4, 4], [6, 6], [0, 4], [1, 4], [2, 4], [3, 4], [0, 5]]
    s = rules.new_round("classic", deal=deal(h0, h1))
    assert s.to_move == 1
    assert [m.to_json() for m in s.legal_moves()] == [place_classic([6, 6], "center")]
    with pytest.raises(IllegalMove, match="must be 6-6"):
        s.apply(place_classic([4, 4], "center"))


def test_no_double_highest_tile_leads_pips_then_higher_end():
    # 3-6 and 4-5 both have 9 pips: 6-3 beats 5-4.
    s = rules.new_round("classic", deal=deal(H_NO_DOUBLE_A, H_NO_DOUBLE_B))
    assert s.to_move == 1
    assert s.legal_moves() == [rules.move_from_json("classic", place_classic([3, 6], "center"))]


def test_leader_chooses_freely():
    s = rules.new_round("classic", deal=deal(H_NO_DOUBLE_A, H_NO_DOUBLE_B), leader=0)
    assert s.to_move == 0
    assert len(s.legal_moves()) == 7
    assert all(m.end == "center" for m in s.legal_moves())


def test_line_ends_and_orientation():
    s = rules.new_round("classic", deal=deal(H_NO_DOUBLE_A, H_NO_DOUBLE_B), leader=0)
    s.apply(place_classic([2, 3], "center"))
    s.apply(place_classic([4, 3], "right"))  # player 1: 3-4 on the right end 3
    assert s.to_json()["line"] == [[2, 3], [3, 4]]
    s.apply(place_classic([1, 2], "left"))
    assert s.to_json()["line"] == [[1, 2], [2, 3], [3, 4]]
    assert s.to_json()["ends"] == [1, 4]


def test_same_number_on_both_ends_gives_two_moves():
    s = classic([[[3, 5], [1, 1]], [[5, 5], [2, 2]]], line=[[3, 0], [0, 2], [2, 3]])
    ends = sorted(m.end for m in s.legal_moves())
    assert ends == ["left", "right"]
    s.apply(place_classic([3, 5], "left"))
    assert s.to_json()["line"][0] == [5, 3]


def test_draw_only_without_playable_tile_and_not_at_two():
    s = classic([[[0, 0], [1, 1]], [[5, 5]]], line=[[3, 4]])
    assert [m.kind for m in s.legal_moves()] == ["draw"]
    with pytest.raises(IllegalMove, match="cannot pass"):
        s.apply({"kind": "pass"})
    # A playable tile forbids drawing.
    s2 = classic([[[0, 3], [1, 1]], [[5, 5]]], line=[[3, 4]])
    with pytest.raises(IllegalMove, match="cannot draw"):
        s2.apply({"kind": "draw"})


def test_no_draw_when_bazaar_holds_two_pass_instead():
    # Only 2 tiles in the bazaar: player 0 holds no 1 and no 4, so he must pass.
    rest = [t for t in ALL_DOMINOES if t not in ([1, 4], [6, 6], [5, 6])]
    p0 = [t for t in rest if 1 not in t and 4 not in t]
    p1 = [t for t in rest if t not in p0]
    s = classic([p0, p1], [[1, 4]], bazaar=[[6, 6], [5, 6]])
    assert [m.kind for m in s.legal_moves()] == ["pass"]
    with pytest.raises(IllegalMove, match="cannot draw"):
        s.apply({"kind": "draw"})
    s.apply({"kind": "pass"})
    assert s.to_move == 1 and not s.is_over


def test_reserve_option_changes_the_draw_limit():
    rest = [t for t in ALL_DOMINOES if t not in ([1, 4], [6, 6], [5, 6])]
    p0 = [t for t in rest if 1 not in t and 4 not in t]
    p1 = [t for t in rest if t not in p0]
    s = classic([p0, p1], [[1, 4]], bazaar=[[6, 6], [5, 6]], options={"bazaar_reserve": 0})
    assert [m.kind for m in s.legal_moves()] == ["draw"]
    events = s.apply({"kind": "draw"})
    assert events == [] and [6, 6] in [list(t) for t in s.hands[0]]
    assert s.to_move == 0  # the drawer acts again


def test_domino_scores_opponents_pips():
    s = classic([[[3, 5]], [[6, 6], [1, 2]]], line=[[4, 3]])
    events = s.apply(place_classic([3, 5], "right"))
    assert s.is_over and s.winner == 0 and s.end_reason == "domino"
    assert [(e.player, e.points, e.reason) for e in events] == [(0, 15, "domino")]
    assert s.points == [15, 0]
    assert s.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        s.apply({"kind": "pass"})


def test_blocked_by_full_line():
    # A line that uses every tile with a 5 or a 6 except those in the bazaar: ends 5 and 6.
    line = [[5, 0], [0, 6], [6, 1], [1, 5], [5, 2], [2, 6], [6, 3], [3, 5], [5, 4], [4, 6],
            [6, 6], [6, 5], [5, 5]]
    bazaar = [[0, 0], [1, 1]]  # exactly 2: nobody may draw
    p0 = [[2, 3], [0, 1]]        # 6 pips
    p1 = [[3, 4], [2, 2], [0, 2]]  # 13 pips
    on = {tuple(sorted(t)) for t in line + bazaar + p0 + p1}
    rest = [t for t in ALL_DOMINOES if tuple(t) not in on]
    # Everything left has no 5 and no 6: split it, player 1 gets the rest.
    assert all(5 not in t and 6 not in t for t in rest)
    p1 = p1 + rest
    # Ends are 5 (left) and 5 (right): make player 0 play 5-5? 5-5 is on the line already.
    s = classic([p0, p1], line, to_move=0, bazaar=bazaar)
    assert s.is_over is False
    # Nobody can play or draw: the state is blocked as soon as any move is checked; player
    # 0's only move is pass, after which the round ends at once.
    assert [m.kind for m in s.legal_moves()] == ["pass"]
    events = s.apply({"kind": "pass"})
    assert s.is_over and s.end_reason == "blocked"
    pips1 = sum(sum(t) for t in p1)
    assert s.winner == 0
    assert [(e.player, e.points, e.reason) for e in events] == [(0, pips1 - 6, "blocked")]


# Every 6 and every 5 but 5-5 on the line (ends 5 and 5), 0-0 and 1-1 left in the bazaar
# (its reserve: nobody may draw): once 5-5 is placed, nobody holds a 5 and the round is blocked.
BLOCKING_LINE = [[5, 0], [0, 6], [6, 1], [1, 5], [5, 2], [2, 6], [6, 3], [3, 5], [5, 4], [4, 6],
                 [6, 6], [6, 5]]


def _hands_around_the_blocking_line(p0: list[list[int]]) -> list[list[list[int]]]:
    """Player 0 holds 5-5 and ``p0``, player 1 every other tile off the line and the bazaar
    (none has a 5 or a 6)."""
    bazaar = [[0, 0], [1, 1]]
    on = {tuple(sorted(t)) for t in BLOCKING_LINE + bazaar + p0 + [[5, 5]]}
    rest = [t for t in ALL_DOMINOES if tuple(t) not in on]
    assert all(5 not in t and 6 not in t for t in rest)
    return [[[5, 5], *p0], rest]


def test_blocked_checked_after_a_placement():
    hands = _hands_around_the_blocking_line([[1, 2]])  # 3 pips left, against 55
    s = classic(hands, BLOCKING_LINE, bazaar=[[0, 0], [1, 1]])
    assert not s.is_over
    pips1 = sum(sum(t) for t in hands[1])
    assert pips1 == 55
    events = s.apply(place_classic([5, 5], "left"))
    assert s.is_over and s.end_reason == "blocked" and s.winner == 0
    assert events == [rules.ScoreEvent(0, pips1 - 3, "blocked", events[0].detail)]
    assert s.points == [pips1 - 3, 0]


def test_blocked_after_a_placement_with_equal_pips_is_a_tie():
    # The 58 pips off the line and the bazaar split 29 and 29 once 5-5 is down.
    hands = _hands_around_the_blocking_line([[4, 4], [3, 4], [2, 3], [0, 4], [1, 4]])
    assert [sum(map(sum, h)) for h in hands] == [10 + 29, 29]
    s = classic(hands, BLOCKING_LINE, bazaar=[[0, 0], [1, 1]])
    assert not s.is_over
    events = s.apply(place_classic([5, 5], "left"))
    assert s.is_over and s.end_reason == "blocked"
    assert s.winner is None and s.points == [0, 0] and events == []


def test_blocked_tie_nobody_scores():
    line = [[5, 0], [0, 6], [6, 1], [1, 5], [5, 2], [2, 6], [6, 3], [3, 5], [5, 4], [4, 6],
            [6, 6], [6, 5], [5, 5]]
    bazaar = [[0, 0], [1, 1]]
    rest = [t for t in ALL_DOMINOES if tuple(sorted(t)) not in
            {tuple(sorted(x)) for x in line + bazaar}]
    # rest: 0-1 0-2 0-3 0-4 1-2 1-3 1-4 2-2 2-3 2-4 3-3 3-4 4-4: 58 pips, 29 each
    p0 = [[4, 4], [3, 4], [2, 3], [0, 4], [1, 4]]
    p1 = [t for t in rest if t not in p0]
    assert sum(map(sum, p0)) == sum(map(sum, p1)) == 29
    s = classic([p0, p1], line, bazaar=bazaar)
    s.apply({"kind": "pass"})
    assert s.is_over and s.winner is None and s.points == [0, 0]


def test_illegal_moves_change_nothing():
    s = rules.new_round("classic", seed=5)
    before = s.to_json()
    bad = [
        {"kind": "place", "tile": [7, 1], "end": "left"},
        {"kind": "place", "tile": [1, 2], "end": "middle"},
        {"kind": "jump"},
        {"kind": "draw", "extra": 1},
        "draw",
        {"kind": "place", "tile": [True, 1], "end": "left"},
        {"kind": "pass"},
        {"kind": "draw"},
    ]
    for m in bad:
        with pytest.raises(IllegalMove):
            s.apply(m)
    assert s.to_json() == before
    hand = s.hands[1 - s.to_move]
    with pytest.raises(IllegalMove, match="not in your hand"):
        s.apply(place_classic(list(hand[0]), "center"))
    assert s.to_json() == before


def test_views_hide_the_opponent_and_bazaar():
    s = rules.new_round("classic", seed=11)
    while not s.is_over and len(s.history) < 12:
        s.apply(s.legal_moves()[-1])
    v = s.view(0)
    assert "hands" not in v and "bazaar" not in v
    assert v["hand"] == [list(t) for t in s.hands[0]]
    assert v["hand_sizes"] == [len(s.hands[0]), len(s.hands[1])]
    assert v["bazaar_size"] == len(s.bazaar)
    for rec in v["history"]:
        if rec["player"] == 1:
            assert "tile" not in rec


def test_options_are_validated_and_travel():
    with pytest.raises(ValueError):
        rules.new_round("classic", seed=1, options={"spinner": True})
    with pytest.raises(ValueError):
        rules.new_round("classic", seed=1, options={"hand_size": 20})
    with pytest.raises(ValueError):
        rules.new_round("classic", seed=1, options={"bazaar_reserve": -1})
    s = rules.new_round("classic", seed=1, options={"hand_size": 5, "bazaar_reserve": 0})
    assert len(s.hands[0]) == 5 and len(s.bazaar) == 18
    assert rules.state_from_json(s.to_json()).options["bazaar_reserve"] == 0


def test_deal_validation():
    with pytest.raises(ValueError):
        rules.new_round("classic")
    with pytest.raises(ValueError):
        rules.new_round("classic", seed=1, deal=deal(H_NO_DOUBLE_A, H_NO_DOUBLE_B))
    bad = deal(H_NO_DOUBLE_A, H_NO_DOUBLE_B)
    bad["bazaar"] = bad["bazaar"][1:]
    with pytest.raises(ValueError):
        rules.new_round("classic", deal=bad)
    dup = deal(H_NO_DOUBLE_A, H_NO_DOUBLE_B)
    dup["hands"][1][0] = [0, 1]
    with pytest.raises(ValueError):
        rules.new_round("classic", deal=dup)
    short = deal(H_NO_DOUBLE_A[:6], H_NO_DOUBLE_B)
    with pytest.raises(ValueError):
        rules.new_round("classic", deal=short)


def test_seeded_deals_are_reproducible():
    a = rules.new_round("classic", seed=42).to_json()
    b = rules.new_round("classic", seed=42).to_json()
    c = rules.new_round("classic", seed=43).to_json()
    assert a == b and a != c


def test_a_tile_is_read_either_way_round_and_nothing_else_is_a_tile():
    from tui_domino.rules import dominoes as D

    for i, (a, b) in enumerate(D.TILES):
        assert D.index_of([a, b]) == D.index_of((b, a)) == i
    assert D.mask_of([[6, 5], [0, 0]]) == 1 << D.INDEX[(5, 6)] | 1 << D.INDEX[(0, 0)]

    class Sly(int):
        pass

    assert D.index_of([Sly(2), 3]) == D.INDEX[(2, 3)]  # (an int all the same)
    for bad in ([True, 1], [1, False], [1.0, 2], [7, 1], [-1, 0], [1, 2, 3], [1], "12",
                {1: 2}, None, [[1], 2], ["1", "2"]):
        with pytest.raises(ValueError):
            D.index_of(bad)
    with pytest.raises(ValueError, match="twice"):
        D.mask_of([[1, 2], [2, 1]])
