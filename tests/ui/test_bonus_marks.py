"""The tiles that made a hexagon or a bridge are marked on the table as it happens (a star
on each, in their own colour), until the next move."""

from __future__ import annotations

import random

from tui_domino import rules
from tui_domino.rules import triangle_grid as grid
from tui_domino.ui.drawing.triangle_grid import label_spot, layout_triominos


def _first_round_with(reason: str, seed: int = 0) -> tuple[rules.RoundState, int]:
    """A Triominos round played at random up to the move that scored ``reason``, and the
    seed it came from."""
    for s in range(seed, seed + 400):
        rng = random.Random(s)
        state = rules.new_round("triominos", seed=s)
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
            last = state.history[-1]
            if any(e["reason"] == reason for e in last["events"]):
                return state, s
    raise AssertionError(f"no {reason} in 400 random rounds")


def _starred(state: rules.RoundState) -> set[tuple[int, int]]:
    cv = layout_triominos(state.view(0), [], None, 0)
    return {(t["cell"][0], t["cell"][1]) for t in state.view(0).get("board", [])
            if cv.get(*label_spot(*t["cell"])) == ("*", "bonus")}


def test_the_six_tiles_of_a_hexagon_just_made_are_marked_until_the_next_move() -> None:
    state, _ = _first_round_with("hexagon")
    cell = tuple(state.history[-1]["move"]["cell"])
    board = {(t["cell"][0], t["cell"][1]) for t in state.view(0)["board"]}
    hexagons = [set(grid.cells_around(pt)) for pt in grid.corners(cell)  # type: ignore[arg-type]
                if set(grid.cells_around(pt)) <= board]
    assert hexagons
    assert _starred(state) == set().union(*hexagons)
    if not state.is_over:
        state.apply(state.legal_moves()[0])
        assert not _starred(state) or any(
            e["reason"] in ("hexagon", "bridge") for e in state.history[-1]["events"])


def test_a_bridge_marks_the_tile_and_the_tiles_it_joins() -> None:
    state, _ = _first_round_with("bridge")
    cell = tuple(state.history[-1]["move"]["cell"])
    starred = _starred(state)
    assert cell in starred and len(starred) >= 3  # the tile, its edge neighbour, the far one


def test_an_ordinary_move_marks_nothing() -> None:
    state = rules.new_round("triominos", seed=3)
    rng = random.Random(3)
    for _ in range(6):
        state.apply(rng.choice(state.legal_moves()))
        if not any(e["reason"] in ("hexagon", "bridge") for e in state.history[-1]["events"]):
            assert not _starred(state)
