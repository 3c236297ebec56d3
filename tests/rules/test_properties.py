"""Properties every variant's engine keeps, over hypothesis-chosen random games."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_domino import rules
from tui_domino.rules import IllegalMove

VARIANTS = ["classic", "spider"]
SEEDS = st.integers(min_value=0, max_value=2**32)


def all_tiles_in_play(s: rules.RoundState) -> Counter:
    j = s.to_json()
    tiles = [tuple(t) for h in s.hands for t in h] + [tuple(t) for t in s.bazaar]
    tiles += rules.board_tiles(j)
    return Counter(tiles)


def random_game(variant: str, seed: int):
    """Yields each state of a random game (after each move)."""
    s = rules.new_round(variant, seed=seed)
    rng = random.Random(seed)
    yield s
    for _ in range(500):
        if s.is_over:
            return
        s.apply(rng.choice(s.legal_moves()))
        yield s
    raise AssertionError("the game did not end in 500 moves")


def random_move_json(variant: str, rng: random.Random) -> dict:
    kind = rng.choice(["place", "place", "place", "draw", "pass"])
    if kind != "place":
        return {"kind": kind}
    if variant == "classic":
        return {"kind": "place", "tile": [rng.randint(0, 6), rng.randint(0, 6)],
                "end": rng.choice(["left", "right", "center"])}
    n = rng.randint(1, 3)
    return {"kind": "place", "placements": [
        {"tile": [rng.randint(0, 6), rng.randint(0, 6)],
         "arm": rng.choice(["N", "E", "S", "W", "center"]), "close": rng.random() < 0.3}
        for _ in range(n)]}


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(VARIANTS))
def test_tiles_conserved_and_json_round_trips(seed, variant):
    full = Counter(rules.full_set(variant))
    for s in random_game(variant, seed):
        assert all_tiles_in_play(s) == full
        j = s.to_json()
        assert rules.state_from_json(j).to_json() == j


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(VARIANTS))
def test_every_legal_move_is_accepted_and_events_add_up(seed, variant):
    for s in random_game(variant, seed):
        for m in s.legal_moves():
            c = s.clone()
            before = list(c.points)
            events = c.apply(m)
            assert [before[i] + sum(e.points for e in events if e.player == i)
                    for i in (0, 1)] == c.points
            # the JSON form of a move is read back as the same move
            assert rules.move_from_json(variant, m.to_json()) == m


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(VARIANTS))
def test_random_illegal_moves_are_refused_without_change(seed, variant):
    rng = random.Random(seed ^ 0x5EED)
    for s in random_game(variant, seed):
        if s.is_over:
            break
        legal = set(s.legal_moves())
        before = s.to_json()
        for _ in range(5):
            d = random_move_json(variant, rng)
            try:
                m = rules.move_from_json(variant, d)
            except IllegalMove:
                continue
            if m in legal:
                continue
            try:
                s.apply(m)
            except IllegalMove as exc:
                assert str(exc)
            else:
                raise AssertionError(f"illegal move {d} accepted")
            assert s.to_json() == before


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(VARIANTS))
def test_clone_is_independent(seed, variant):
    s = rules.new_round(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(6):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_moves()))
    snapshot = s.to_json()
    c = s.clone()
    while not c.is_over:
        c.apply(rng.choice(c.legal_moves()))
    assert s.to_json() == snapshot


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, variant=st.sampled_from(VARIANTS))
def test_determinized_view_has_the_same_legal_moves(seed, variant):
    rng = random.Random(seed)
    for s in random_game(variant, seed):
        if s.is_over:
            break
        p = s.to_move
        d = rules.determinize(s.view(p), rng)
        assert d.legal_moves() == s.legal_moves()
        assert d.hands[p] == s.hands[p]
        assert sorted(d.hands[1 - p] + d.bazaar) == sorted(s.hands[1 - p] + s.bazaar)
