"""The triangular grid: corners, neighbours, points and the integer keys."""

from __future__ import annotations

import itertools

import pytest

from tui_domino.rules import triangle_grid as g

CELLS = [(r, c) for r in range(-4, 5) for c in range(-5, 6)]


def test_orientation() -> None:
    assert g.is_up((0, 0))
    assert not g.is_up((0, 1))
    assert not g.is_up((1, 0))
    assert g.is_up((-1, -1))


def test_corners_known() -> None:
    # up (r, c): apex (r, c+1), right (r+1, c+2), left (r+1, c)
    assert g.corners((0, 0)) == ((0, 1), (1, 2), (1, 0))
    assert g.corners((2, -2)) == ((2, -1), (3, 0), (3, -2))
    # down (r, c): top-left (r, c), top-right (r, c+2), bottom (r+1, c+1)
    assert g.corners((0, 1)) == ((0, 1), (0, 3), (1, 2))
    assert g.corners((-1, 0)) == ((-1, 0), (-1, 2), (0, 1))


def test_corners_are_points() -> None:
    for cell in CELLS:
        assert all((vr + vx) % 2 == 1 for vr, vx in g.corners(cell))  # grid points


def test_neighbours_known_and_symmetric() -> None:
    assert g.edge_neighbours((0, 0)) == ((0, -1), (0, 1), (1, 0))
    assert g.edge_neighbours((0, 1)) == ((0, 0), (0, 2), (-1, 1))
    for cell in CELLS:
        for nb in g.edge_neighbours(cell):
            assert cell in g.edge_neighbours(nb)
            assert g.is_up(nb) != g.is_up(cell)
            # neighbours share exactly the two points of their common edge
            shared = set(g.corners(cell)) & set(g.corners(nb))
            assert shared == set(g.shared_edge(cell, nb)) == set(g.shared_edge(nb, cell))
            assert len(shared) == 2


def test_opposite_corner() -> None:
    # up (0, 0): its right neighbour (0, 1) shares apex-right, so the left corner is opposite
    assert g.opposite_corner((0, 0), (0, 1)) == 2
    assert g.opposite_corner((0, 0), (0, -1)) == 1
    assert g.opposite_corner((0, 0), (1, 0)) == 0
    # down (0, 1): the up cell above it shares the top edge, the bottom corner is opposite
    assert g.opposite_corner((0, 1), (-1, 1)) == 2
    for cell in CELLS:
        for nb in g.edge_neighbours(cell):
            opp = g.corners(cell)[g.opposite_corner(cell, nb)]
            assert opp not in g.corners(nb)
    with pytest.raises(ValueError):
        g.opposite_corner((0, 0), (0, 2))


def test_cells_around_a_point() -> None:
    assert set(g.cells_around((1, 2))) == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)}
    points = {p for cell in CELLS for p in g.corners(cell)}
    for p in points:
        around = g.cells_around(p)
        assert len(set(around)) == 6
        assert all(p in g.corners(cell) for cell in around)
        assert sum(g.is_up(cell) for cell in around) == 3
    for cell in CELLS:
        for p in g.corners(cell):
            assert cell in g.cells_around(p)
    # the six cells around a point form a ring: each shares an edge with two of the others
    for p in [(1, 2), (0, 1), (-3, 2)]:
        around = g.cells_around(p)
        for cell in around:
            assert sum(nb in around for nb in g.edge_neighbours(cell)) == 2


def test_keys_round_trip_and_parity() -> None:
    for r, c in itertools.product(range(-g.LIMIT, g.LIMIT + 1, 7), repeat=2):
        k = g.key(r, c)
        assert g.unkey(k) == (r, c)
        assert (k & 1 == 0) == g.is_up((r, c))
    assert g.key(0, 0) == g.ORIGIN_KEY
    with pytest.raises(ValueError):
        g.key(g.LIMIT + 1, 0)


def test_key_offsets_agree_with_tuples() -> None:
    for cell in CELLS:
        k = g.key(*cell)
        par = k & 1
        assert [g.unkey(k + o) for o in g.CORNER_OFFSETS[par]] == list(g.corners(cell))
        assert [g.unkey(k + o) for o in g.NEIGHBOUR_OFFSETS[par]] == list(g.edge_neighbours(cell))
        for i, nb in enumerate(g.edge_neighbours(cell)):
            assert g.OPPOSITE[par][i] == g.opposite_corner(cell, nb)
        for p in g.corners(cell):
            pk = g.key(*p)
            assert [g.unkey(pk + o) for o in g.AROUND_OFFSETS] == list(g.cells_around(p))
