"""Triominos: known answers for every rule, properties, and the fast path's equivalence."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_domino import rules
from tui_domino.rules import IllegalMove
from tui_domino.rules.moves import DRAW, PASS, Move, is_tile_rotation, triomino_place
from tui_domino.rules.triominos import (
    OPENING_ORDER,
    ROTATIONS,
    TILES,
    VALUE,
    TriominosState,
    tile_rank,
)
from tui_domino.rules.triominos_sim import TriominosSim, bench

Tile = tuple[int, int, int]

# -- helpers ------------------------------------------------------------------------------------


def deal(h0: list[Tile], h1: list[Tile], bazaar: list[Tile] | None = None) -> dict[str, Any]:
    """An explicit deal; the bazaar is every other tile in set order unless given."""
    if bazaar is None:
        bazaar = [t for t in TILES if t not in h0 and t not in h1]
    return {"hands": [list(map(list, h0)), list(map(list, h1))],
            "bazaar": [list(t) for t in bazaar]}


def new(h0: list[Tile], h1: list[Tile], leader: int | None = None, **opts: Any) -> TriominosState:
    s = rules.new_round("triominos", deal=deal(h0, h1), leader=leader,
                        options={"hand_size": len(h0), **opts})
    assert isinstance(s, TriominosState)
    return s


def position(
    board: list[tuple[tuple[int, int], Tile]],
    h0: list[Tile],
    h1: list[Tile],
    bazaar: list[Tile] | None = None,
    to_move: int = 0,
    **opts: Any,
) -> TriominosState:
    """A hand-built position: placements in order (alternating players), both hands, and the
    bazaar (every other tile in set order unless given)."""
    used = {tuple(sorted(co)) for _, co in board} | set(h0) | set(h1)
    if bazaar is None:
        bazaar = [t for t in TILES if t not in used]
    d = {
        "format": 1, "variant": "triominos", "options": opts, "to_move": to_move,
        "points": [0, 0], "winner": None, "over": False, "end_reason": None,
        "hands": [list(map(list, h0)), list(map(list, h1))],
        "bazaar": [list(t) for t in bazaar], "history": [],
        "board": [{"cell": list(c), "corners": list(co), "player": i % 2}
                  for i, (c, co) in enumerate(board)],
        "forced": None, "draws_this_turn": 0,
    }
    s = rules.state_from_json(d)
    assert isinstance(s, TriominosState)
    return s


def place(tile: Tile, cell: tuple[int, int], corners: Tile) -> Move:
    return triomino_place(tile, cell, corners)


def ev(events: list[rules.ScoreEvent]) -> list[tuple[int, int, str]]:
    return [(e.player, e.points, e.reason) for e in events]


def refused(s: rules.RoundState, move: Move | dict[str, Any], match: str) -> None:
    """``move`` raises IllegalMove with a message matching ``match`` and changes nothing."""
    before = s.to_json()
    with pytest.raises(IllegalMove, match=match):
        s.apply(move)
    assert s.to_json() == before


def sorted_tile(corners: Tile) -> Tile:
    a, b, c = sorted(corners)
    return (a, b, c)


# -- the set ----------------------------------------------------------------------------------


def test_the_set() -> None:
    assert len(TILES) == 56 == len(set(TILES))
    assert all(a <= b <= c <= 5 for a, b, c in TILES)
    assert sum(1 for a, b, c in TILES if a == b == c) == 6
    assert VALUE[TILES.index((3, 4, 5))] == 12
    assert sum(VALUE) == 56 * 7.5


def test_clockwise_ascending_rotations_never_reflections() -> None:
    assert set(ROTATIONS[(0, 1, 2)]) == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}
    assert set(ROTATIONS[(1, 1, 4)]) == {(1, 1, 4), (1, 4, 1), (4, 1, 1)}
    assert ROTATIONS[(3, 3, 3)] == ((3, 3, 3),)
    assert is_tile_rotation((0, 1, 2), (2, 0, 1))
    assert not is_tile_rotation((0, 1, 2), (0, 2, 1))
    with pytest.raises(IllegalMove, match="never flip"):
        rules.move_from_json("triominos", {"kind": "place", "tile": [0, 1, 2], "cell": [0, 0],
                                           "corners": [0, 2, 1]})


def test_opening_rotations_and_a_built_reflection_is_refused() -> None:
    s = new([(0, 1, 2), (4, 5, 5)], [(0, 0, 1), (2, 3, 4)], leader=0)
    moves = {m for m in s.legal_moves() if m.tile == (0, 1, 2)}
    assert {m.corners for m in moves} == {(0, 1, 2), (1, 2, 0), (2, 0, 1)}
    assert all(m.cell == (0, 0) for m in moves)
    refused(s, place((0, 1, 2), (0, 0), (0, 2, 1)), "never flip")


def test_only_readings_in_clockwise_order_fit() -> None:
    # 0-1-2 on (0, 0) as apex 0, right 1, left 2. Open cells: (0, -1) needs (?, 0, 2),
    # (0, 1) needs (0, ?, 1), (1, 0) needs (2, 1, ?).
    s = new([(0, 1, 2), (5, 5, 5), (4, 4, 4), (3, 3, 3), (2, 2, 2), (1, 1, 1)],
            [(0, 0, 1), (0, 1, 1), (0, 1, 3), (0, 2, 3), (1, 2, 2), (1, 2, 3)], leader=0)
    s.apply(place((0, 1, 2), (0, 0), (0, 1, 2)))
    assert set(s.legal_moves()) == {
        place((0, 0, 1), (0, 1), (0, 0, 1)),
        place((0, 1, 1), (0, 1), (0, 1, 1)),
        place((0, 2, 3), (0, -1), (3, 0, 2)),
        place((1, 2, 2), (1, 0), (2, 1, 2)),
    }
    # 0-1-3 holds a 0 and a 1 but cannot show 0 then 1 going clockwise on (0, 1)
    refused(s, place((0, 1, 3), (0, 1), (0, 3, 1)), "never flip")
    refused(s, place((0, 1, 3), (0, 1), (0, 1, 3)), r"corner 3 \(bottom\) must be 1")


# -- the opening --------------------------------------------------------------------------------


def test_the_highest_triple_must_lead() -> None:
    s = new([(2, 2, 2), (4, 5, 5), (0, 1, 2)], [(3, 3, 3), (1, 1, 1), (0, 0, 1)])
    assert s.to_move == 1 and s.forced == (3, 3, 3)
    assert s.legal_moves() == [place((3, 3, 3), (0, 0), (3, 3, 3))]
    assert s.to_json()["forced"] == [3, 3, 3]
    refused(s, place((1, 1, 1), (0, 0), (1, 1, 1)), "the first tile must be 3-3-3")
    refused(s, place((3, 3, 3), (0, 1), (3, 3, 3)), r"goes on cell \(0, 0\)")
    refused(s, DRAW, "playable")
    events = s.apply(place((3, 3, 3), (0, 0), (3, 3, 3)))
    assert ev(events) == [(1, 9, "tile"), (1, 10, "opening")]
    assert s.points == [0, 19] and s.to_move == 0 and s.to_json()["forced"] is None


def test_without_a_triple_the_highest_tile_leads() -> None:
    s = new([(0, 4, 5), (0, 0, 1)], [(2, 4, 4), (0, 1, 1)])
    assert (s.to_move, s.forced) == (1, (2, 4, 4))  # value 10 beats 9
    assert {m.corners for m in s.legal_moves()} == {(2, 4, 4), (4, 4, 2), (4, 2, 4)}
    ev_ = s.apply(place((2, 4, 4), (0, 0), (4, 2, 4)))
    assert ev(ev_) == [(1, 10, "tile")]  # no opening bonus without a triple


def test_equal_values_compare_corners_from_the_top() -> None:
    # All worth 9: 1-3-5 (5, 3, 1) > 1-4-4 (4, 4, 1) > 2-3-4 (4, 3, 2)
    s = new([(2, 3, 4), (1, 4, 4), (0, 1, 2)], [(1, 3, 5), (0, 0, 1), (0, 1, 1)])
    assert (s.to_move, s.forced) == (1, (1, 3, 5))
    s = new([(2, 3, 4), (1, 4, 4), (0, 1, 2)], [(0, 1, 3), (0, 0, 1), (0, 1, 1)])
    assert (s.to_move, s.forced) == (0, (1, 4, 4))
    assert tile_rank((0, 4, 5)) > tile_rank((1, 3, 5)) > tile_rank((1, 4, 4))
    assert OPENING_ORDER[:7] == ((5, 5, 5), (4, 4, 4), (3, 3, 3), (2, 2, 2), (1, 1, 1),
                                 (0, 0, 0), (4, 5, 5))


def test_a_leader_chooses_freely() -> None:
    h0 = [(0, 1, 2), (1, 1, 3), (2, 2, 2)]
    s = new(h0, [(5, 5, 5), (0, 0, 0), (3, 4, 5)], leader=0)
    assert s.to_move == 0 and s.forced is None
    assert len(s.legal_moves()) == 3 + 3 + 1
    assert {m.tile for m in s.legal_moves()} == set(h0)
    assert ev(s.apply(place((2, 2, 2), (0, 0), (2, 2, 2)))) == [(0, 6, "tile"), (0, 10, "opening")]
    s = new(h0, [(5, 5, 5), (0, 0, 0), (3, 4, 5)], leader=1)
    assert s.to_move == 1 and len(s.legal_moves()) == 1 + 1 + 3


def test_opening_bonus_for_zero_triple_and_house_values() -> None:
    s = new([(0, 0, 0), (1, 2, 3)], [(0, 1, 2), (1, 2, 4)])
    assert (s.to_move, s.forced) == (0, (0, 0, 0))
    assert ev(s.apply(place((0, 0, 0), (0, 0), (0, 0, 0)))) == [(0, 0, "tile"), (0, 40, "opening")]
    assert s.points == [40, 0]
    s = new([(0, 0, 0), (1, 2, 3)], [(5, 5, 5), (1, 2, 4)], opening_bonus=[20, 50])
    assert ev(s.apply(place((5, 5, 5), (0, 0), (5, 5, 5)))) == [(1, 15, "tile"), (1, 20, "opening")]
    s = new([(0, 0, 0), (1, 2, 3)], [(5, 5, 5), (1, 2, 4)], leader=0, opening_bonus=[20, 50])
    assert ev(s.apply(place((0, 0, 0), (0, 0), (0, 0, 0)))) == [(0, 0, "tile"), (0, 50, "opening")]


def test_seeded_deals_are_reproducible() -> None:
    a = rules.new_round("triominos", seed=42)
    b = rules.new_round("triominos", seed=42)
    assert a.to_json() == b.to_json()
    assert [len(h) for h in a.hands] == [16, 16] and len(a.bazaar) == 24
    c = rules.new_round("triominos", seed=42, options={"hand_size": 9})
    assert [len(h) for h in c.hands] == [9, 9] and len(c.bazaar) == 38


def test_bad_deals_are_refused() -> None:
    good = deal([(0, 0, 0)], [(1, 1, 1)])
    with pytest.raises(ValueError):  # hands of the wrong size
        rules.new_round("triominos", deal=good)
    dup = copy.deepcopy(good)
    dup["bazaar"][0] = [0, 0, 0]
    with pytest.raises(ValueError, match="twice"):
        rules.new_round("triominos", deal=dup, options={"hand_size": 1})
    short = copy.deepcopy(good)
    short["bazaar"].pop()
    with pytest.raises(ValueError):
        rules.new_round("triominos", deal=short, options={"hand_size": 1})
    bad = copy.deepcopy(good)
    bad["hands"][0] = [[0, 0, 6]]
    with pytest.raises(ValueError):
        rules.new_round("triominos", deal=bad, options={"hand_size": 1})
    with pytest.raises(ValueError):
        rules.new_round("triominos", deal=good, seed=1, options={"hand_size": 1})


# -- hexagons and bridges -------------------------------------------------------------------------

# Twelve tiles around the triangle (1, 1) (corners (1, 2), (2, 3), (2, 1)). The first five
# surround point (1, 2), the first nine also point (2, 1), all twelve also point (2, 3).
RING = [
    ((0, 0), (0, 1, 4)), ((0, 1), (0, 0, 1)), ((0, 2), (0, 1, 1)), ((1, 2), (1, 1, 3)),
    ((1, 0), (4, 1, 4)), ((1, -1), (4, 4, 0)), ((2, -1), (0, 4, 5)), ((2, 0), (4, 4, 5)),
    ((2, 1), (4, 3, 4)), ((1, 3), (1, 3, 3)), ((2, 3), (3, 3, 3)), ((2, 2), (3, 3, 4)),
]
HOLE = place((1, 3, 4), (1, 1), (1, 3, 4))  # worth 8


@pytest.mark.parametrize(
    ("tiles", "bonus", "house"),
    [(5, 50, 50), (9, 100, 60), (12, 150, 70)],
)
def test_hexagons_one_two_three_at_once(tiles: int, bonus: int, house: int) -> None:
    house_rule: dict[str, Any] = {"hexagon_bonus": [50, 60, 70]}
    cases: list[tuple[dict[str, Any], int]] = [({}, bonus), (house_rule, house)]
    for opts, expected in cases:
        s = position(RING[:tiles], [(1, 3, 4), (5, 5, 5)], [(2, 2, 2)], **opts)
        events = s.apply(HOLE)
        assert ev(events) == [(0, 8, "tile"), (0, expected, "hexagon")]
        assert s.points == [8 + expected, 0]
    assert "(1, 2)" in events[1].detail


def test_five_tiles_around_a_point_is_not_a_hexagon_yet() -> None:
    s = position(RING[:4], [(1, 3, 4), (5, 5, 5)], [(2, 2, 2)])
    assert ev(s.apply(HOLE)) == [(0, 8, "tile")]  # one edge, no far corner: no bonus


# Eight tiles: (1, 2) will touch the new tile (1, 1) along its right edge; (1, -1) reaches
# point (2, 1), the far corner of (1, 1), from the other side.
BRIDGE = [
    ((0, 0), (0, 1, 4)), ((0, 1), (0, 0, 1)), ((0, 2), (0, 1, 1)), ((1, 2), (1, 1, 3)),
    ((0, -1), (4, 0, 4)), ((0, -2), (4, 4, 1)), ((1, -2), (1, 4, 5)), ((1, -1), (4, 4, 5)),
]


def test_bridge() -> None:
    s = position(BRIDGE, [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    assert s.number_at((2, 1)) == 4
    events = s.apply(HOLE)
    assert ev(events) == [(0, 8, "tile"), (0, 40, "bridge")]
    assert events[1].detail == "bridge to (2, 1)"
    s = position(BRIDGE, [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)], bridge_bonus=25)
    assert s.apply(HOLE)[1].points == 25


def test_no_bridge_when_the_far_corner_is_free() -> None:
    s = position(BRIDGE[:7], [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    assert s.number_at((2, 1)) is None
    assert ev(s.apply(HOLE)) == [(0, 8, "tile")]


def test_a_corner_touched_only_by_a_point_must_match() -> None:
    # (1, 1)'s left corner (2, 1) carries a 4 from (1, -1), which shares no edge with it
    s = position(BRIDGE, [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    refused(s, place((1, 3, 5), (1, 1), (1, 3, 5)), r"corner 3 \(left\) must be 4 to match")
    assert place((1, 3, 5), (1, 1), (1, 3, 5)) not in s.legal_moves()
    # without the tile at (1, -1) the same placement is fine
    s = position(BRIDGE[:7], [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    assert place((1, 3, 5), (1, 1), (1, 3, 5)) in s.legal_moves()


def test_illegal_placements_explained_and_refused() -> None:
    s = position(BRIDGE, [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    refused(s, place((2, 2, 2), (1, 1), (2, 2, 2)), "tile 2-2-2 is not in your hand")
    refused(s, place((1, 3, 4), (0, 1), (1, 3, 4)), r"cell \(0, 1\) is taken")
    refused(s, place((1, 3, 4), (5, 5), (1, 3, 4)), "does not share an edge")
    refused(s, place((1, 3, 4), (1, 1), (3, 4, 1)), r"corner 1 \(apex\) must be 1")
    refused(s, place((1, 3, 4), (1, 1), (1, 4, 3)), "never flip")
    refused(s, DRAW, "playable tile: you cannot draw")
    refused(s, PASS, "playable tile: you cannot pass")
    refused(s, {"kind": "place", "tile": [1, 3, 4]}, "cell")
    refused(s, {"kind": "jump"}, "unknown move kind")


# -- drawing, passing, going out, blocking ------------------------------------------------------

# A real 29-tile board. On it, and once 0-1-1 is placed at (1, -3) (worth 2, no bonus), none
# of the 26 other tiles (LEFT, worth 190) can be placed; 0-1-1 itself fits in five places.
BLOCKING = [
    ((0, 0), (5, 5, 5)), ((0, -1), (1, 5, 5)), ((0, 1), (5, 3, 5)), ((0, 2), (3, 4, 5)),
    ((0, 3), (3, 3, 4)), ((0, 4), (3, 4, 4)), ((-1, 3), (0, 3, 3)), ((1, 2), (5, 4, 4)),
    ((-1, -1), (4, 5, 1)), ((-1, -2), (3, 4, 1)), ((-1, 4), (0, 2, 3)), ((-1, 2), (5, 0, 3)),
    ((-1, 5), (2, 3, 3)), ((0, -2), (1, 5, 1)), ((0, -3), (1, 1, 1)), ((-1, 6), (2, 2, 3)),
    ((-2, 4), (1, 2, 0)), ((1, 1), (5, 4, 5)), ((-1, -3), (3, 1, 1)), ((-2, 2), (0, 0, 5)),
    ((-2, 5), (1, 1, 2)), ((-2, 6), (1, 2, 2)), ((-2, 1), (5, 0, 5)), ((-2, 3), (0, 1, 0)),
    ((1, -2), (1, 5, 0)), ((-1, -4), (2, 3, 1)), ((1, 3), (4, 1, 4)), ((2, 3), (4, 1, 1)),
    ((2, 2), (4, 1, 2)),
]
LAST = ((1, -3), (1, 0, 1))
LAST_MOVE = place((0, 1, 1), (1, -3), (1, 0, 1))
LEFT = sorted(
    set(TILES) - {sorted_tile(co) for _, co in BLOCKING} - {(0, 1, 1)}
)
LOW5 = [(0, 0, 0), (0, 0, 2), (0, 0, 3), (0, 0, 4), (0, 1, 3)]  # worth 13


def rest(*taken: list[Tile]) -> list[Tile]:
    out = [t for t in LEFT if not any(t in group for group in taken)]
    return out


def test_blocking_fixture() -> None:
    assert len(LEFT) == 26 and sum(map(sum, LEFT)) == 190
    s = position(BLOCKING, [(0, 1, 1), *LEFT[:13]], LEFT[13:], bazaar=[])
    moves = s.legal_moves()
    assert LAST_MOVE in moves and len(moves) == 5 and {m.tile for m in moves} == {(0, 1, 1)}


def test_draw_until_playable_then_play_in_the_same_turn() -> None:
    bazaar = [(4, 4, 4), (0, 1, 1), (2, 5, 5)]
    s = position(BLOCKING, LOW5, rest(LOW5, bazaar), bazaar=bazaar)
    assert s.legal_moves() == [DRAW]
    refused(s, PASS, "you must draw: you have no playable tile")
    assert ev(e1 := s.apply(DRAW)) == [(0, -5, "draw")] and e1[0].detail == "1 tile drawn"
    assert s.to_move == 0 and s.legal_moves() == [DRAW]
    assert s.apply(DRAW)[0].detail == "2 tiles drawn"
    assert s.to_json()["draws_this_turn"] == 2
    assert {m.tile for m in s.legal_moves()} == {(0, 1, 1)}  # only the drawn tile fits
    refused(s, DRAW, "you cannot draw")
    assert ev(s.apply(LAST_MOVE)) == [(0, 2, "tile")]
    assert s.points == [-8, 0] and s.to_move == 1 and s.to_json()["draws_this_turn"] == 0
    assert s.history[0]["tile"] == [4, 4, 4] and "tile" not in s.view(1)["history"][0]


def test_stuck_with_an_empty_bazaar_pays_and_passes() -> None:
    mine = rest([(4, 4, 4)])
    s = position(BLOCKING, mine, [(0, 1, 1), (4, 4, 4)], bazaar=[])
    assert s.legal_moves() == [PASS]
    refused(s, DRAW, "the bazaar is empty")
    assert ev(s.apply(PASS)) == [(0, -10, "pass")]
    assert s.to_move == 1 and not s.is_over
    # 0-1-1 blocks the round: 1 tile (12) against 25 (178); no pass penalty for anyone
    assert ev(s.apply(LAST_MOVE)) == [
        (1, 2, "tile"), (0, -10, "blocked"), (1, -10, "blocked"), (1, 166, "blocked")]
    assert s.points == [-20, 158] and s.winner == 1 and s.end_reason == "blocked"
    assert s.is_over and s.to_move is None and s.legal_moves() == []


def test_stuck_penalty_house_rule_zero() -> None:
    s = position(BLOCKING, rest([(4, 4, 4)]), [(0, 1, 1), (4, 4, 4)], bazaar=[],
                 stuck_penalty=0)
    assert s.apply(PASS) == [] and s.points == [0, 0] and s.to_move == 1


def test_draw_limit_then_pass() -> None:
    bazaar = [(4, 4, 4), (2, 5, 5), (3, 3, 5), (0, 1, 1), (2, 4, 5)]
    s = position(BLOCKING, LOW5, rest(LOW5, bazaar), bazaar=bazaar, max_draws=3)
    for _ in range(3):
        assert s.legal_moves() == [DRAW]
        s.apply(DRAW)
    assert s.legal_moves() == [PASS] and s.points == [-15, 0]
    refused(s, DRAW, "drawn 3 tiles this turn, the limit")
    assert ev(s.apply(PASS)) == [(0, -10, "pass")]
    assert s.points == [-25, 0] and s.to_move == 1 and len(s.bazaar) == 2
    assert s.to_json()["draws_this_turn"] == 0


def test_domino_scores_bonus_and_opponent_hand() -> None:
    s = new([(1, 2, 3)], [(4, 5, 5)], leader=0)
    assert ev(s.apply(place((1, 2, 3), (0, 0), (2, 3, 1)))) == [(0, 6, "tile"), (0, 39, "domino")]
    assert (s.points, s.winner, s.end_reason, s.to_move) == ([45, 0], 0, "domino", None)
    assert s.legal_moves() == []
    refused(s, PASS, "the round is over")
    # the opening rule, a triple and an opponent's 0-0-0 worth nothing
    s = new([(0, 0, 0)], [(5, 5, 5)])
    assert ev(s.apply(place((5, 5, 5), (0, 0), (5, 5, 5)))) == [
        (1, 15, "tile"), (1, 10, "opening"), (1, 25, "domino")]
    s = new([(0, 0, 0)], [(5, 5, 5)], domino_bonus=50)
    assert s.apply(place((5, 5, 5), (0, 0), (5, 5, 5)))[-1].points == 50


def test_domino_on_a_big_board() -> None:
    s = position(BLOCKING, [(0, 1, 1)], LEFT, bazaar=[])
    assert ev(s.apply(LAST_MOVE)) == [(0, 2, "tile"), (0, 25 + 190, "domino")]
    assert s.winner == 0 and s.end_reason == "domino"


HIGH12 = [(4, 4, 4), (2, 5, 5), (3, 3, 5), (2, 4, 5), (2, 3, 5), (2, 4, 4),
          (0, 4, 5), (1, 3, 5), (2, 2, 5), (2, 3, 4), (3, 3, 3), (0, 4, 4)]  # worth 119
SIDE90 = [(0, 0, 0), (0, 0, 3), (0, 1, 3), (0, 1, 4), (0, 2, 2), (0, 2, 4), (1, 2, 5),
          (2, 2, 4), (2, 3, 4), (2, 3, 5), (2, 4, 4), (2, 4, 5), (4, 4, 4)]
SIDE95 = [(0, 0, 2), (0, 0, 4), (0, 1, 3), (0, 1, 4), (0, 3, 4), (0, 4, 5), (1, 2, 5),
          (1, 3, 3), (1, 3, 5), (2, 2, 4), (2, 3, 5), (2, 4, 4), (4, 4, 4)]


@pytest.mark.parametrize(
    ("mine", "value", "events", "winner"),
    [
        # fewer tiles (5 against 21) and lower value: 177 - 13
        (LOW5, 13, [(0, 164, "blocked")], 0),
        # fewer tiles (12 against 14) but higher value: 71 - 119, a negative score
        (HIGH12, 119, [(0, -48, "blocked")], 0),
        # 13 tiles each: the lower value (90 against 100) wins, here the opponent
        (rest(SIDE90), 100, [(1, 10, "blocked")], 1),
        # 13 tiles each, 95 each: no winner
        (SIDE95, 95, [], None),
    ],
)
def test_blocked_round(mine: list[Tile], value: int, events: list[Any], winner: int | None) -> None:
    assert sum(map(sum, mine)) == value
    s = position(BLOCKING, [(0, 1, 1), *mine], rest(mine), bazaar=[])
    got = s.apply(LAST_MOVE)
    assert ev(got) == [(0, 2, "tile"), (0, -10, "blocked"), (1, -10, "blocked"), *events]
    assert s.winner == winner and s.end_reason == "blocked" and s.is_over
    assert s.points == [sum(e[1] for e in ev(got) if e[0] == p) for p in (0, 1)]


def test_blocked_right_after_a_draw() -> None:
    # The last tile of the bazaar fits nowhere: the round ends at once, nobody passes.
    theirs = rest(LOW5, [(4, 4, 4)])
    s = position([*BLOCKING, LAST], LOW5, theirs, bazaar=[(4, 4, 4)])
    assert s.legal_moves() == [DRAW]
    assert ev(s.apply(DRAW)) == [
        (0, -5, "draw"), (0, -10, "blocked"), (1, -10, "blocked"), (0, 165 - 25, "blocked")]
    assert s.winner == 0 and s.points == [125, -10] and s.to_move is None


def test_blocked_penalty_house_value() -> None:
    s = position(BLOCKING, [(0, 1, 1), *SIDE95], rest(SIDE95), bazaar=[], blocked_penalty=0)
    assert ev(s.apply(LAST_MOVE)) == [(0, 2, "tile")]
    assert s.winner is None and s.end_reason == "blocked"


# -- JSON -----------------------------------------------------------------------------------------


def test_json_keys_for_the_board() -> None:
    s = position(BRIDGE, [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    d = s.to_json()
    assert d["board"][0] == {"cell": [0, 0], "corners": [0, 1, 4], "tile": [0, 1, 4], "player": 0}
    assert d["forced"] is None and d["draws_this_turn"] == 0
    v = s.view(1)
    assert "bazaar" not in v and v["hand"] == [[2, 2, 2]] and v["hand_sizes"] == [2, 1]


def _json_after(moves: int, seed: int = 5) -> dict[str, Any]:
    s = rules.new_round("triominos", seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_moves()))
    return s.to_json()


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d["hands"][0].append(d["bazaar"].pop()), None),
        (lambda d: d["hands"][0].append([0, 0, 0]), "twice|full set"),
        (lambda d: d["board"][3].update(corners=[5, 5, 5], tile=[5, 5, 5]), None),
        (lambda d: d["board"][2].update(cell=[9, 9]), "illegal"),
        (lambda d: d.update(forced=[5, 5, 5]), "forced"),
        (lambda d: d.update(points=[1, 2]), "history"),
        (lambda d: d.update(draws_this_turn=-1), "draws"),
        (lambda d: d.update(over=True), "over"),
        (lambda d: d.update(to_move=None), "over|end_reason"),
        (lambda d: d["options"].update(colour=1), "unknown option"),
        (lambda d: d.update(format=99), "format"),
    ],
)
def test_inconsistent_json_is_refused(change: Any, match: str | None) -> None:
    d = _json_after(12)
    rules.state_from_json(copy.deepcopy(d))
    change(d)
    with pytest.raises(ValueError, match=match):
        rules.state_from_json(d)


# -- properties -------------------------------------------------------------------------------

OPTION_SETS: list[dict[str, Any] | None] = [
    None,
    {"max_draws": 3},
    {"hand_size": 9, "hexagon_bonus": [50, 60, 70]},
    {"stuck_penalty": 0, "draw_penalty": 0, "hand_size": 20},
]


def _tile_count(s: TriominosState) -> list[Tile]:
    return [*s.hands[0], *s.hands[1], *s.bazaar, *(sorted_tile(co) for _, co, _ in s.board)]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), opts=st.sampled_from(OPTION_SETS),
       leader=st.sampled_from([None, 0, 1]))
def test_random_games_keep_the_rules(seed: int, opts: dict[str, Any] | None,
                                     leader: int | None) -> None:
    s = rules.new_round("triominos", seed=seed, leader=leader, options=opts)
    assert isinstance(s, TriominosState)
    rng = random.Random(seed)
    for _ in range(400):
        if s.is_over:
            break
        tiles = _tile_count(s)
        assert len(tiles) == 56 and set(tiles) == set(TILES)
        moves = s.legal_moves()
        assert moves and len(set(moves)) == len(moves)
        kinds = {m.kind for m in moves}
        assert kinds == {"place"} or moves in ([DRAW], [PASS])
        move = rng.choice(moves)
        before = list(s.points)
        events = s.apply(move)
        for p in (0, 1):
            assert s.points[p] - before[p] == sum(e.points for e in events if e.player == p)
    assert s.is_over, "the round never ended"
    assert s.legal_moves() == []
    assert s.end_reason in ("domino", "blocked")
    if s.end_reason == "domino":
        assert s.winner is not None and not s.hands[s.winner]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60), opts=st.sampled_from(OPTION_SETS))
def test_json_round_trip_and_clone(seed: int, plies: int, opts: dict[str, Any] | None) -> None:
    s = rules.new_round("triominos", seed=seed, options=opts)
    rng = random.Random(seed)
    for _ in range(plies):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_moves()))
    d = s.to_json()
    back = rules.state_from_json(d)
    assert back.to_json() == d
    assert back.legal_moves() == s.legal_moves()
    d["points"][0] += 1000  # to_json hands out a fresh structure
    assert s.to_json() != d
    c = s.clone()
    before = s.to_json()
    while not c.is_over:
        c.apply(rng.choice(c.legal_moves()))
    assert s.to_json() == before


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 40),
    tile=st.sampled_from(TILES),
    rot=st.integers(0, 2),
    flip=st.booleans(),
    cell=st.tuples(st.integers(-4, 4), st.integers(-4, 4)),
    kind=st.sampled_from(["place", "place", "place", "draw", "pass"]),
)
def test_refused_moves_are_illegal_and_change_nothing(
    seed: int, plies: int, tile: Tile, rot: int, flip: bool, cell: tuple[int, int], kind: str
) -> None:
    s = rules.new_round("triominos", seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_moves()))
    if kind == "place":
        rots = ROTATIONS[tile]
        x, y, z = rots[rot % len(rots)]
        move = place(tile, cell, (x, z, y) if flip else (x, y, z))
    else:
        move = DRAW if kind == "draw" else PASS
    before = s.to_json()
    if move in s.legal_moves():
        s.apply(move)
        return
    with pytest.raises(IllegalMove) as exc:
        s.apply(move)
    assert str(exc.value) and "not a legal move now" not in str(exc.value)
    assert s.to_json() == before


def test_every_legal_move_is_accepted() -> None:
    rng = random.Random(9)
    s = rules.new_round("triominos", seed=9)
    while not s.is_over:
        moves = s.legal_moves()
        for m in moves:
            c = s.clone()
            c.apply(m)
            assert c.history[-1]["move"] == m.to_json()
        s.apply(rng.choice(moves))


# -- the fast path ------------------------------------------------------------------------------


@pytest.mark.parametrize("opts", OPTION_SETS)
def test_sim_replays_public_games_exactly(opts: dict[str, Any] | None) -> None:
    for seed in range(25):
        s = rules.new_round("triominos", seed=seed, options=opts, leader=None if seed % 3 else 1)
        assert isinstance(s, TriominosState)
        sim = TriominosSim.from_state(s)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            compact = sim.legal()
            assert len(compact) == len(legal)
            assert {sim.to_move_public(m) for m in compact} == set(legal)
            assert {TriominosSim.from_public(m) for m in legal} == set(compact)
            assert sim.to_move == s.to_move
            m = rng.choice(legal)
            s.apply(m)
            sim.play(TriominosSim.from_public(m))
            assert sim.points == s.points and sim.over == s.is_over
        assert sim.winner == s.winner and sim.end_reason == s.end_reason and sim.legal() == []
        assert sim.to_move is None


def test_sim_known_positions() -> None:
    s = position(RING[:12], [(1, 3, 4), (5, 5, 5)], [(2, 2, 2)])
    sim = TriominosSim.from_state(s)
    sim.play(TriominosSim.from_public(HOLE))
    assert sim.points == [158, 0]
    s = position(BRIDGE, [(1, 3, 4), (1, 3, 5)], [(2, 2, 2)])
    sim = TriominosSim.from_state(s)
    sim.play(TriominosSim.from_public(HOLE))
    assert sim.points == [48, 0]
    s = position(BLOCKING, [(0, 1, 1), *HIGH12], rest(HIGH12), bazaar=[])
    sim = TriominosSim.from_state(s)
    sim.play(TriominosSim.from_public(LAST_MOVE))
    assert sim.points == [2 - 10 - 48, -10] and sim.winner == 0 and sim.end_reason == "blocked"


def test_random_deal_matches_the_seeded_round() -> None:
    for seed in range(20):
        s = rules.new_round("triominos", seed=seed)
        sim = TriominosSim.random_deal(random.Random(seed))
        assert isinstance(s, TriominosState)
        ref = TriominosSim.from_state(s)
        assert (sim.hands, sim.bazaar, sim.turn, sim.forced) == (
            ref.hands, ref.bazaar, ref.turn, ref.forced)
        assert sim.legal() == ref.legal()


def test_playouts_end_and_leave_the_source_alone() -> None:
    rng = random.Random(3)
    for _ in range(200):
        sim = TriominosSim.random_deal(rng, {"max_draws": 3} if rng.random() < 0.3 else None)
        sim.playout(rng)
        assert sim.over and sim.legal() == [] and sim.end_reason in ("domino", "blocked")
        h0, h1 = sim.hands
        assert not h0 & h1
        if sim.end_reason == "domino":
            assert sim.winner is not None and not sim.hands[sim.winner]
    s = rules.new_round("triominos", seed=77)
    for _ in range(6):
        s.apply(rng.choice(s.legal_moves()))
    before = s.to_json()
    assert isinstance(s, TriominosState)
    sim = TriominosSim.from_state(s)
    c = sim.clone()
    c.playout(rng)
    assert not sim.over and sim.legal() == TriominosSim.from_state(s).legal()
    sim.playout(rng)
    assert s.to_json() == before


def test_compact_moves_round_trip() -> None:
    for m in (DRAW, PASS, place((0, 1, 2), (-3, 7), (2, 0, 1))):
        assert TriominosSim.to_move_public(TriominosSim.from_public(m)) == m
    with pytest.raises(ValueError):
        TriominosSim.from_public(place((0, 1, 2), (0, 0), (0, 2, 1)))


def test_bench_reports_all_figures() -> None:
    r = bench(0.4, 1)
    assert set(r) == {"rounds_per_s", "api_rounds_per_s", "legal_per_s", "api_legal_per_s"}
    assert all(v > 0 for v in r.values())


def test_a_tile_is_read_in_any_order_and_nothing_else_is_a_tile() -> None:
    import itertools

    from tui_domino.rules.triominos_tiles import ALL_TILES, parse_tile

    for tile in ALL_TILES:
        for order in itertools.permutations(tile):
            assert parse_tile(list(order)) == parse_tile(order) == tile

    class Sly(int):
        pass

    assert parse_tile([Sly(5), 0, 2]) == (0, 2, 5)  # (an int all the same)
    for bad in ([True, 1, 2], [1, 2, False], [1.0, 2, 3], [6, 1, 2], [-1, 0, 0], [1, 2],
                [1, 2, 3, 4], "123", None, {1: 2, 3: 4, 5: 0}, [[1], 2, 3]):
        with pytest.raises(ValueError):
            parse_tile(bad)
