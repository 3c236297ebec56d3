"""The hard player's parts: the exact endgame agrees with plain minimax, the match-aware
reward, budgets and the time cap."""

from __future__ import annotations

import random

import pytest

from tests.ai.positions import position
from tui_domino import rules
from tui_domino.ai import classic_search, search
from tui_domino.ai.heuristic import normal
from tui_domino.ai.inference import knowledge
from tui_domino.ai.simulation import variant_of


def minimax(sim, reward, me, erratic=False) -> float:
    """The value by plain minimax (``erratic``: the opponent's nodes are the mean of their
    children, as for one who picks any legal move)."""
    if sim.over:
        return reward(sim)
    values = []
    for m in sim.legal():
        child = sim.clone()
        child.play(m)
        values.append(minimax(child, reward, me, erratic))
    if sim.to_move == me:
        return max(values)
    return sum(values) / len(values) if erratic else min(values)


def endgames(variant: str, count: int, most: int):
    """Positions where nobody can draw any more and at most ``most`` tiles are in hands."""
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = rules.new_round(variant, seed=seed)
        while not state.is_over:
            view = state.view(state.to_move)
            var = variant_of(view)
            base = var.base_sim(view)
            if (len(base.legal()) > 1 and search._no_more_draws(var, view)
                    and sum(view["hand_sizes"]) <= most):
                yield state
                found += 1
                if found == count:
                    return
                break
            state.apply(normal(view, rng))


def told_the_truth(state):
    """The endgame's move when the search is told the truth (a knowledge whose only consistent
    hand is the real one), with the side to move, the variant and the true position."""
    me = state.to_move
    view = state.view(me)
    var = variant_of(view)
    know = knowledge(view)
    truth = var.mask_of(state.hands[1 - me])
    know.groups = [(truth, know.opp_size)]
    know.group_tiles = [[t for t in range(len(var.tiles)) if truth >> t & 1]]
    base = var.base_sim(view)
    move = search.endgame(var, base, know, random.Random(0), search.Budget(None, 10_000))
    sim = base.clone()
    var.deal_hidden(sim, 1 - me, truth, [var.index[t] for t in state.bazaar])
    return me, var, move, sim


@pytest.mark.parametrize(("variant", "count", "most"),
                         [("classic", 12, 9), ("spider", 12, 9), ("triominos", 6, 7)])
def test_the_exact_endgame_plays_a_minimax_best_move(variant, count, most, monkeypatch):
    monkeypatch.setattr(search, "ERRATIC", 0.0)  # classic: the strong kind of opponent alone
    checked = 0
    for state in endgames(variant, count, most):
        me, var, move, sim = told_the_truth(state)
        assert move is not None
        reward = search._reward_fn(var, me)
        values = {}
        for m in sim.legal():
            child = sim.clone()
            child.play(m)
            values[m] = minimax(child, reward, me)
        assert values[move] == pytest.approx(max(values.values()))
        checked += 1
    assert checked == count


def test_the_classic_endgame_plays_the_best_move_against_a_random_opponent(monkeypatch):
    """When the search is sure he is the random kind (the prior 1, no evidence), each of his
    nodes is the mean of his moves (expectimax), and the move played is the best by that; on
    these positions that is not always the minimax one."""
    monkeypatch.setattr(search, "ERRATIC", 1.0)
    monkeypatch.setattr(search, "OPP_MIX", 1.0)
    checked = differ = 0
    for state in endgames("classic", 30, 11):
        me, var, move, sim = told_the_truth(state)
        reward = search._reward_fn(var, me)
        mean, worst = {}, {}
        for m in sim.legal():
            child = sim.clone()
            child.play(m)
            mean[m] = minimax(child, reward, me, erratic=True)
            worst[m] = minimax(child, reward, me)
        assert mean[move] == pytest.approx(max(mean.values()))
        if worst[move] < max(worst.values()) - 1e-9:
            differ += 1
        checked += 1
    assert checked == 30
    assert differ > 0


def test_a_round_that_ends_the_match_is_worth_the_whole_reward():
    assert search.match_outcome("classic", ([90, 50], 100), [15, 0], 0) == 1
    assert search.match_outcome("classic", ([90, 50], 100), [15, 0], 1) == -1
    assert search.match_outcome("classic", ([10, 50], 100), [15, 0], 0) is None
    assert search.match_outcome("triominos", ([380, 390], 400), [30, 5], 0) == 1
    # Spider: points are charged, and reaching the limit loses.
    assert search.match_outcome("spider", ([95, 0], 100), [10, 0], 0) == -1
    assert search.match_outcome("spider", ([95, 0], 100), [10, 0], 1) == 1
    view = {"match": {"totals": [3, 4], "target": 100}}
    assert search.match_context(view) == ([3, 4], 100)
    assert search.match_context({}) is None


def test_hard_plays_legal_moves_with_a_match_context():
    state = position("classic", 9, 5)
    view = state.view(state.to_move)
    view["match"] = {"totals": [95, 20], "target": 100}
    move = search.hard(view, random.Random(1), search.Budget(iterations=100))
    assert move in state.legal_moves()


def test_budgets():
    b = search.resolve_budget("spider", None)
    assert b.iterations == search.DEFAULT_ITERATIONS["spider"] and b.ms == search.DEFAULT_MS
    assert search.resolve_budget("classic", 0.25) == search.Budget(None, 250.0)
    assert search.resolve_budget("classic", search.Budget(iterations=7)).iterations == 7
    with pytest.raises(TypeError):
        search.resolve_budget("classic", "fast")


def open_position(variant: str, seed: int) -> rules.RoundState:
    """A position where the player to move has a real choice."""
    for plies in range(4, 60):
        state = position(variant, seed, plies)
        view = state.view(state.to_move)
        if len(variant_of(view).base_sim(view).legal()) > 1:
            return state
    raise AssertionError("no choice in this round")


class _Clock:
    """The searches' clock: a millisecond passes at each reading. Read long after ``limit``
    (seconds), it fails the test instead of letting a search run on."""

    def __init__(self, limit: float) -> None:
        self.now = 0.0
        self.limit = limit

    def perf_counter(self) -> float:
        self.now += 0.001
        if self.now > 2 * self.limit:
            raise AssertionError("the search went on past its time cap")
        return self.now


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_the_time_cap_holds(variant, monkeypatch):
    """With iterations enough for hours, the search stops at its first look at the clock past
    the cap (it looks every 16 iterations: each look a millisecond on this clock)."""
    state = open_position(variant, 4)
    view = state.view(state.to_move)
    clock = _Clock(0.1)
    monkeypatch.setattr(search, "time", clock)
    monkeypatch.setattr(classic_search, "time", clock)
    move = search.hard(view, random.Random(0), search.Budget(iterations=10**9, ms=100))
    assert move in state.legal_moves()
    assert 0.1 < clock.now < 0.1 + 0.005


def test_a_stop_request_ends_the_search():
    """The search asks ``stop`` every 16 iterations and ends at the first yes."""
    state = open_position("triominos", 6)
    view = state.view(state.to_move)
    asked = []

    def stop() -> bool:
        asked.append(1)
        if len(asked) > 3:
            raise AssertionError("asked again after it was told to stop")
        return len(asked) == 3

    move = search.hard(view, random.Random(0), search.Budget(iterations=10**9), stop=stop)
    assert len(asked) == 3
    assert move in state.legal_moves()


class _NoTable(dict):
    """A transposition table that never remembers: plain alpha-beta, exact at the root."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value) -> None:
        pass


def test_the_triominos_endgame_table_changes_no_value():
    """The exact search's table is keyed by what decides the rest of a Triominos round (hands,
    the player to move, the points so far, the board's cells and numbers): with it, every root
    move's value is what alpha-beta finds without it. (Keyed by the cells alone, one value of
    these positions comes out wrong.)"""
    var = variant_of({"variant": "triominos"})
    compared = 0
    for state in endgames("triominos", 4, 12):
        me = state.to_move
        view = state.view(me)
        sim = var.base_sim(view).clone()
        hand = var.mask_of(state.hands[1 - me])
        assert knowledge(view).consistent(hand)  # the bazaar is empty: his hand is known
        var.deal_hidden(sim, 1 - me, hand, [])
        reward = search._reward_fn(var, me)
        table: dict = {}
        for m in sim.legal():
            child = sim.clone()
            child.play(m)
            no_limit = [0.0, 1e18, 1e18]  # nodes searched, deadline, most nodes
            with_table = search._solve(var, child, reward, me, -1e9, 1e9, table, no_limit)
            no_limit = [0.0, 1e18, 1e18]
            without = search._solve(var, child, reward, me, -1e9, 1e9, _NoTable(), no_limit)
            assert with_table == pytest.approx(without)
            compared += 1
    assert compared >= 10
    # the points so far and the numbers on the board are part of the key
    (state,) = endgames("triominos", 1, 12)
    sim = var.base_sim(state.view(state.to_move))
    key = search._key(var, sim)
    sim.points[0] += 5
    assert search._key(var, sim) != key
    sim.points[0] -= 5
    point = next(iter(sim.pnum))
    sim.pnum[point] = (sim.pnum[point] + 1) % 6
    assert search._key(var, sim) != key
