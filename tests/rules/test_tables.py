"""The precomputed tables of the rules, against what they stand for, entry by entry."""

from __future__ import annotations

from tui_domino.rules import dominoes as D
from tui_domino.rules import triominos as T


def test_each_half_of_a_hand_lists_its_tiles_in_order() -> None:
    assert len(D.LOW_BITS) == len(D.HIGH_BITS) == 1 << 14
    for m in range(1 << 14):
        low = tuple(i for i in range(14) if m >> i & 1)
        assert D.LOW_BITS[m] == low, m
        assert D.HIGH_BITS[m] == tuple(i + 14 for i in low), m
    hand = D.BIT[0] | D.BIT[13] | D.BIT[14] | D.BIT[27]
    assert D.bits(hand) == (0, 13, 14, 27)


def test_each_pattern_of_corners_lists_the_readings_that_fit_it_in_tile_order() -> None:
    numbers = (*range(6), None)
    assert list(T.FITTING) == [(a, b, c) for a in numbers for b in numbers for c in numbers]
    for need, readings in T.FITTING.items():
        assert readings == tuple(
            (t, rot) for t in T.TILES for rot in T.ROTATIONS[t]
            if all(n is None or n == v for n, v in zip(need, rot, strict=True))), need
    assert len(T.FITTING[None, None, None]) == sum(len(r) for r in T.ROTATIONS.values())
