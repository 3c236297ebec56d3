"""The classic search written out for speed: its rounds follow the rules (against the engine's
simulator), and its compiled twin gives exactly what the Python one gives."""

from __future__ import annotations

import random
import shutil
import sysconfig
import time

import pytest

from tui_domino import rules
from tui_domino.ai import classic_search as cs
from tui_domino.ai import search
from tui_domino.ai.inference import knowledge
from tui_domino.ai.simulation import variant_of
from tui_domino.rules.classic_sim import ClassicSim


class _Front:
    """A 'random' source that always answers 0: the lazy bazaar then draws in list order."""

    def __call__(self) -> float:
        return 0.0


def test_a_round_follows_the_simulator_move_for_move():
    """Random rounds played through both (the same moves, the bazaar in the same order) agree
    on the legal moves, the hands, the ends and the result at every step."""
    rng = random.Random(2)
    for seed in range(300):
        sim = ClassicSim.random_deal(random.Random(seed))
        me = sim.to_move
        pos = cs.Position(me=me, hand=sim.hands[me], hidden=0, opp_size=0, left=sim.left,
                          right=sim.right, forced=sim.forced, reserve=sim.reserve)
        rnd = cs._Round(pos, sim.hands[1 - me], list(sim.bz), _Front())
        while not sim.over:
            assert rnd.legal() == sim.legal()
            assert (rnd.hands, rnd.left, rnd.right, rnd.p) == (
                sim.hands, sim.left, sim.right, sim.to_move)
            m = rng.choice(sim.legal())
            sim.play(m)
            rnd.play(m)
        assert rnd.over
        assert (rnd.winner if rnd.winner >= 0 else None) == sim.winner
        assert rnd.points == sim.points


def setup(view: dict, rng: random.Random) -> tuple[cs.Position, cs.Sampler]:
    var = variant_of(view)
    base = var.base_sim(view)
    know = knowledge(view)
    me = view["player"]
    pos = cs.Position(me=me, hand=base.hands[me], hidden=know.hidden, opp_size=know.opp_size,
                      left=base.left, right=base.right, forced=base.forced,
                      reserve=base.reserve, points=tuple(base.points))
    model = search.opponent_model(var, know, view, rng)
    if model is not None:
        return pos, cs.Sampler(pool=tuple(model.pool), cum=tuple(model.cum))
    groups = tuple((tuple(lst), n) for lst, (_m, n) in zip(know.group_tiles, know.groups,
                                                           strict=True))
    return pos, cs.Sampler(groups=groups)


def positions(count: int, seed: int):
    """Positions with a choice from seeded random rounds (rounds led by a previous winner
    too)."""
    rng = random.Random(seed)
    found = 0
    n = 0
    while True:
        leader = (None, 0, 1)[n % 3]
        state = rules.new_round("classic", seed=seed * 1000 + n, leader=leader)
        n += 1
        while not state.is_over:
            moves = state.legal_moves()
            if len(moves) > 1 and rng.random() < 0.35:
                yield state.clone()
                found += 1
                if found == count:
                    return
            state.apply(rng.choice(moves))


def compiler_present() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


def test_the_compiled_search_is_built_where_a_compiler_is():
    if compiler_present():
        assert cs.native_available(), "a C compiler is here, but the compiled search is not"


native = pytest.mark.skipif(not cs.native_available(), reason="the compiled search is not built")


@native
def test_the_compiled_search_gives_what_the_python_one_gives():
    """The same move, the same root statistics (to the last bit) and the same generator state
    afterwards, over positions of every kind (both samplers, match contexts, other constants)."""
    rng = random.Random(7)
    checked = 0
    for state in positions(160, 3):
        view = state.view(state.to_move)
        pos, sampler = setup(view, random.Random(checked))
        erratic: tuple[float, ...] = ()
        if sampler.pool and rng.random() < 0.5:  # the chance he plays at random, by hand
            erratic = tuple(rng.random() for _ in sampler.pool)
        sampler = cs.Sampler(pool=sampler.pool, cum=sampler.cum, groups=sampler.groups,
                             erratic=erratic, erratic_all=rng.choice([0.0, 0.4, 1.0]))
        params = cs.Params(
            ucb_c=rng.choice([0.7, 1.0, 1.4]), win=rng.choice([0.5, 0.7, 1.0]),
            scale=rng.choice([12.0, 25.0]), greedy=rng.choice([0.0, 0.8, 1.0]),
            block=rng.choice([0, 12]),
            match=rng.choice([None, ((90, 40), 100), ((10, 95), 100)]),
            split_draws=rng.random() < 0.5,
        )
        iterations = rng.choice([1, 17, 200, 800])
        r1, r2 = random.Random(checked), random.Random(checked)
        py = cs.search(pos, sampler, params, r1, iterations, native=False)
        c = cs.search(pos, sampler, params, r2, iterations, native=True)
        assert c == py
        assert r1.getstate() == r2.getstate()
        checked += 1
    assert checked == 160


class _Clock:
    """A clock that moves on a second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("native_", [False, pytest.param(True, marks=native)])
def test_the_search_stops_on_request_and_on_time(native_, monkeypatch):
    """Both look at ``stop`` and at the clock every 16 iterations, and stop when ``stop`` says
    so or the clock has passed the deadline."""
    state = next(positions(1, 5))
    view = state.view(state.to_move)
    pos, sampler = setup(view, random.Random(0))
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 3

    move, stats = cs.search(pos, sampler, cs.Params(), random.Random(0), 10**9, stop=stop,
                            native=native_)
    assert sum(n for n, _ in stats.values()) == 48  # checked every 16 iterations
    clock = _Clock()
    monkeypatch.setattr(cs, "time", clock)
    move, stats = cs.search(pos, sampler, cs.Params(), random.Random(0), 10**12,
                            deadline=2.5, native=native_)
    assert clock.now == 3.0  # read at iterations 16, 32 and 48: past 2.5 at the third
    assert sum(n for n, _ in stats.values()) == 48


@native
def test_the_compiled_search_refuses_what_is_not_a_position():
    from tui_domino.ai import _classic_search as c

    args = [0, 3, 4, 1, 7, 7, -1, 0, 0, 0, [], [], [], 0.0, [[2]], [1], 1.0, 0.5, 25.0, 0.8,
            12, False, 0, 0, 0, list(random.Random(1).getstate()[1]), 10, float("inf"), None,
            time.perf_counter]
    move, stats = c.search(*args)  # the arguments as they stand make a position
    assert move in (0, 2) and sum(n for n, _ in stats.values()) == 10
    with pytest.raises(ValueError):
        c.search(*(args[:4] + [9] + args[5:]))  # an end that is no number
    with pytest.raises(ValueError):
        c.search(*(args[:25] + [[1, 2, 3]] + args[26:]))  # not a generator's state
    with pytest.raises(ValueError):
        c.search(*(args[:10] + [[1, 2], [1.0]] + args[12:]))  # a pool without its weights
    with pytest.raises(ValueError):  # a pool whose erratic chances do not match it
        c.search(*(args[:10] + [[1], [1.0], [0.5, 0.5]] + args[13:]))
    with pytest.raises(TypeError):
        c.search(*(args[:10] + ["pool"] + args[11:]))


def test_the_hard_player_plays_legal_moves_without_the_compiled_search(monkeypatch):
    monkeypatch.setattr(cs, "_native", None)
    for state in positions(12, 9):
        view = state.view(state.to_move)
        move = search.hard(view, random.Random(1), search.Budget(iterations=300))
        assert move in state.legal_moves()
