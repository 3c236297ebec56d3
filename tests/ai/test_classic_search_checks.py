"""The classic search refuses arguments out of range, in C and in Python alike.

Random arguments are thrown at the compiled entry point and at the Python twin: a search in
range with at most one argument spoilt (put out of its range). The spoilt ones must raise
ValueError (the same message from both); the others must return a legal move of the hand, the
same move, statistics and generator state from both."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_domino.ai import classic_search as cs
from tui_domino.rules import dominoes as D
from tui_domino.rules.classic import NO_END
from tui_domino.rules.classic_sim import DRAW_M, PASS_M

native = pytest.mark.skipif(not cs.native_available(), reason="the compiled search is not built")

FULL = D.FULL
LIMIT = cs.LIMIT
NAN = float("nan")
INF = float("inf")

# The arguments of the compiled entry point, in order.
NAMES = ("me", "hand", "hidden", "opp_size", "left", "right", "forced", "reserve", "points0",
         "points1", "pool", "cum", "erratic", "erratic_all", "group_tiles", "group_counts",
         "ucb_c", "win", "scale", "greedy", "block", "split_draws", "total0", "total1",
         "target", "mt", "iterations", "deadline", "stop", "clock")

# Spoilt arguments only the compiled entry point takes (the Python twin has no counterpart).
NATIVE_ONLY = {"mt", "group_lengths"}


def bits(mask: int) -> list[int]:
    return [t for t in range(28) if mask >> t & 1]


def subset(draw: Any, tiles: list[int], lo: int, hi: int) -> list[int]:
    n = draw(st.integers(lo, min(hi, len(tiles))))
    return sorted(draw(st.permutations(tiles))[:n])


def mask(tiles: list[int]) -> int:
    return sum(1 << t for t in tiles)


@st.composite
def in_range(draw: Any, sampler: str | None = None) -> dict[str, Any]:
    """The arguments of a search every check accepts (dealing from a pool or from groups, as
    ``sampler`` says, or either)."""
    a: dict[str, Any] = {}
    a["me"] = draw(st.integers(0, 1))
    tiles = draw(st.permutations(range(28)))
    nhand = draw(st.integers(1, 14))
    hand = sorted(tiles[:nhand])
    hidden = sorted(tiles[nhand:nhand + draw(st.integers(1, 28 - nhand))])
    a["hand"], a["hidden"] = mask(hand), mask(hidden)
    opp = a["opp_size"] = draw(st.integers(1, len(hidden)))
    if draw(st.booleans()):
        a["left"] = a["right"] = NO_END
        a["forced"] = draw(st.sampled_from([-1, *hand]))
    else:
        a["left"], a["right"] = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        a["forced"] = -1
    a["reserve"] = draw(st.integers(0, len(hidden) - opp))
    a["points0"], a["points1"] = draw(st.integers(0, 300)), draw(st.integers(0, 300))
    if sampler == "pool" or sampler is None and draw(st.booleans()):  # a pool of hands
        size = draw(st.integers(1, 6))
        a["pool"] = [mask(draw(st.permutations(hidden))[:opp]) for _ in range(size)]
        steps = draw(st.lists(st.floats(0.0, 10.0), min_size=size, max_size=size))
        a["cum"] = [sum(steps[:i + 1]) for i in range(size)]
        a["erratic"] = draw(st.sampled_from([[], [draw(st.floats(0.0, 1.0))] * size]))
        a["group_tiles"], a["group_counts"] = [], []
    else:  # nested groups
        counts: list[int] = []
        left = opp
        while left:
            counts.append(draw(st.integers(1, left)))
            left -= counts[-1]
        a["group_tiles"] = [subset(draw, hidden, 0, 28) for _ in counts]
        a["group_counts"] = counts
        a["pool"], a["cum"], a["erratic"] = [], [], []
    a["erratic_all"] = draw(st.sampled_from([0.0, 0.4, 1.0]))
    a["ucb_c"] = draw(st.sampled_from([0.0, 0.7, 1.0, 1.4]))
    a["win"] = draw(st.sampled_from([0.0, 0.5, 1.0]))
    a["scale"] = draw(st.sampled_from([0.5, 12.0, 25.0]))
    a["greedy"] = draw(st.sampled_from([0.0, 0.8, 1.0]))
    a["block"] = draw(st.sampled_from([0, 12, LIMIT]))
    a["split_draws"] = draw(st.booleans())
    if draw(st.booleans()):
        a["total0"], a["total1"], a["target"] = 0, 0, 0
    else:
        a["total0"], a["total1"] = draw(st.integers(0, 150)), draw(st.integers(0, 150))
        a["target"] = draw(st.integers(1, 150))
    a["mt"] = list(random.Random(draw(st.integers(0, 2**32))).getstate()[1])
    a["iterations"] = draw(st.integers(0, 40))
    a["deadline"] = INF
    a["stop"] = None
    a["clock"] = time.perf_counter
    return a


def big() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(max_value=-1), st.integers(min_value=1 << 28),
                     st.integers(min_value=1 << 64))


def not_chance() -> st.SearchStrategy[float]:
    return st.one_of(st.just(NAN), st.floats(max_value=-1e-9), st.floats(min_value=1.000001))


# What can be put out of range: each is tried in every run. The ones for a pool or for groups
# only (a sampler deals from one of the two) are marked so.
SPOILS = ("me", "hand", "hidden", "opp_size", "ends", "forced", "reserve", "points", "sampler",
          "pool:pool", "cum:pool", "erratic:pool", "groups:groups", "group_lengths:groups",
          "erratic_all", "ucb_c", "win", "scale", "greedy", "block", "match", "mt",
          "iterations", "deadline")


def spoil(draw: Any, a: dict[str, Any], what: str) -> None:
    """Put the argument ``what`` of ``a`` out of its range."""
    hand, hidden, opp = a["hand"], a["hidden"], a["opp_size"]
    nhidden = bin(hidden).count("1")
    pool = bool(a["pool"])
    if what == "me":
        a["me"] = draw(st.integers().filter(lambda v: v not in (0, 1)))
    elif what == "hand":
        a["hand"] = draw(st.one_of(st.just(0), big()))
    elif what == "hidden":
        a["hidden"] = draw(st.one_of(big(), st.just(hidden | 1 << draw(st.sampled_from(
            bits(hand))))))
    elif what == "opp_size":
        a["opp_size"] = draw(st.one_of(st.integers(max_value=0),
                                       st.integers(min_value=nhidden + 1)))
    elif what == "ends":
        bad = st.one_of(st.integers(max_value=-1), st.integers(min_value=NO_END + 1))
        a[draw(st.sampled_from(["left", "right"]))] = draw(st.one_of(bad, st.just(NO_END)
                                                                       if a["left"] != NO_END
                                                                       else st.integers(0, 6)))
    elif what == "forced":
        outside = bits(FULL & ~hand)
        if a["left"] == NO_END:
            bad = st.one_of(st.integers(max_value=-2), st.integers(min_value=28),
                            st.sampled_from(outside))
        else:
            bad = st.one_of(st.integers(max_value=-2), st.integers(0, 2**40))
        a["forced"] = draw(bad)
    elif what == "reserve":
        a["reserve"] = draw(st.one_of(st.integers(max_value=-1),
                                      st.integers(min_value=nhidden - opp + 1)))
    elif what == "points":
        a[draw(st.sampled_from(["points0", "points1"]))] = draw(st.one_of(
            st.integers(max_value=-1), st.integers(min_value=LIMIT + 1)))
    elif what == "sampler":  # both a pool and groups, or neither
        if pool:
            a["group_tiles"], a["group_counts"] = [bits(hidden)], [opp]
        else:
            a["group_tiles"], a["group_counts"] = [], []
    elif what == "pool":
        i = draw(st.integers(0, len(a["pool"]) - 1))
        outside = bits(FULL & ~hidden)
        h = a["pool"][i]
        bad = [big()]
        if outside:  # a tile he cannot hold
            bad.append(st.just(h | 1 << draw(st.sampled_from(outside))))
        bad.append(st.just(h & (h - 1)))  # one tile short
        a["pool"][i] = draw(st.one_of(*bad))
    elif what == "cum":
        i = draw(st.integers(0, len(a["cum"]) - 1))
        kind = draw(st.sampled_from(["length", "nan", "inf", "negative", "decreasing"]))
        if kind == "length":
            a["cum"] = a["cum"] + [a["cum"][-1]] if draw(st.booleans()) else a["cum"][:-1]
        elif kind == "decreasing":
            a["cum"] = a["cum"] + [a["cum"][-1] + 1.0, a["cum"][-1]]
            a["pool"] = a["pool"] + a["pool"][:1] * 2
            a["erratic"] = a["erratic"] + a["erratic"][:1] * 2 if a["erratic"] else []
        else:
            a["cum"][i] = {"nan": NAN, "inf": INF, "negative": -1.0}[kind]
    elif what == "erratic":
        if a["erratic"] and draw(st.booleans()):
            a["erratic"][draw(st.integers(0, len(a["erratic"]) - 1))] = draw(not_chance())
        else:  # a length of its own
            a["erratic"] = [0.5] * draw(st.integers(1, 10).filter(
                lambda n: n != len(a["pool"])))
    elif what == "groups":
        g = draw(st.integers(0, len(a["group_counts"]) - 1))
        kind = draw(st.sampled_from(["tile", "twice", "count", "sum"]))
        outside = bits(FULL & ~hidden)
        if kind == "tile":
            bad = [st.integers(max_value=-1), st.integers(min_value=28)]
            if outside:
                bad.append(st.sampled_from(outside))
            a["group_tiles"][g] = a["group_tiles"][g] + [draw(st.one_of(*bad))]
        elif kind == "twice":
            a["group_tiles"][g] = a["group_tiles"][g] + [draw(st.sampled_from(bits(hidden)))] * 2
        elif kind == "count":
            a["group_counts"][g] = draw(st.one_of(st.integers(max_value=0),
                                                  st.integers(min_value=opp + 1)))
        else:  # a count too many, or one group too few
            if draw(st.booleans()) and a["group_counts"][g] < opp:
                a["group_counts"][g] += 1
            elif len(a["group_counts"]) > 1:
                del a["group_counts"][g], a["group_tiles"][g]
            else:
                a["group_counts"].append(1)
                a["group_tiles"].append([])
    elif what == "group_lengths":
        a["group_counts"] = a["group_counts"] + [1]
    elif what == "erratic_all":
        a["erratic_all"] = draw(not_chance())
    elif what == "ucb_c":
        a["ucb_c"] = draw(st.sampled_from([NAN, INF, -INF, -0.5]))
    elif what in ("win", "greedy"):
        a[what] = draw(not_chance())
    elif what == "scale":
        a["scale"] = draw(st.sampled_from([NAN, INF, 0.0, -1.0]))
    elif what == "block":
        a["block"] = draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=LIMIT + 1)))
    elif what == "match":
        which = draw(st.sampled_from(["total0", "total1", "target", "no target"]))
        if which == "no target":  # totals without a target
            a[draw(st.sampled_from(["total0", "total1"]))] = draw(st.integers(1, 150))
            a["target"] = 0
        else:
            a[which] = draw(st.one_of(st.integers(max_value=-1),
                                      st.integers(min_value=LIMIT + 1)))
    elif what == "mt":
        kind = draw(st.sampled_from(["length", "number", "index", "zeros"]))
        if kind == "length":
            a["mt"] = a["mt"][:draw(st.integers(0, 624))]
        elif kind == "number":
            a["mt"][draw(st.integers(0, 623))] = draw(st.one_of(st.integers(max_value=-1),
                                                               st.integers(min_value=1 << 32)))
        elif kind == "index":
            a["mt"][624] = draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=625)))
        else:
            a["mt"] = [draw(st.integers(0, 0x7FFFFFFF))] + [0] * 623 + [draw(st.integers(0, 624))]
    elif what == "iterations":
        a["iterations"] = draw(st.integers(max_value=-1))
    elif what == "deadline":
        a["deadline"] = NAN


@st.composite
def calls(draw: Any, what: str | None) -> tuple[dict[str, Any], str | None]:
    """In-range arguments, with the one ``what`` spoilt (None: none)."""
    name, _, sampler = (what or "").partition(":")
    a = draw(in_range(sampler or None))
    if what is not None:
        spoil(draw, a, name)
    return a, name or None


def python_form(a: dict[str, Any]) -> tuple[cs.Position, cs.Sampler, cs.Params]:
    pos = cs.Position(me=a["me"], hand=a["hand"], hidden=a["hidden"], opp_size=a["opp_size"],
                      left=a["left"], right=a["right"], forced=a["forced"],
                      reserve=a["reserve"], points=(a["points0"], a["points1"]))
    sampler = cs.Sampler(pool=tuple(a["pool"]), cum=tuple(a["cum"]),
                         erratic=tuple(a["erratic"]), erratic_all=a["erratic_all"],
                         groups=tuple((tuple(lst), n) for lst, n in zip(
                             a["group_tiles"], a["group_counts"], strict=True)))
    no_match = (a["total0"], a["total1"], a["target"]) == (0, 0, 0)
    params = cs.Params(ucb_c=a["ucb_c"], win=a["win"], scale=a["scale"], greedy=a["greedy"],
                       block=a["block"], split_draws=a["split_draws"],
                       match=None if no_match else ((a["total0"], a["total1"]), a["target"]))
    return pos, sampler, params


def outcome(run: Any) -> Any:
    try:
        return run()
    except ValueError as e:
        return ValueError, str(e)


def fits(move: int, a: dict[str, Any]) -> bool:
    """Whether ``move`` is a tile of the hand played where it fits, or a draw or a pass when no
    tile fits (a draw only while the bazaar has more than its reserve)."""
    hand, left, right = a["hand"], a["left"], a["right"]
    fitting = [t for t in bits(hand)
               if left == NO_END or left in D.TILES[t] or right in D.TILES[t]]
    if move in (DRAW_M, PASS_M):
        can_draw = bin(a["hidden"]).count("1") - a["opp_size"] > a["reserve"]
        return not fitting and move == (DRAW_M if can_draw else PASS_M)
    tile, side = move >> 1, move & 1
    if tile not in fitting:
        return False
    if left == NO_END:
        return side == 0 and a["forced"] in (-1, tile)
    return (left, right)[side] in D.TILES[tile]


KINDS = [None, *SPOILS]
checked = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@native
@pytest.mark.parametrize("what", KINDS)
@checked
@given(data=st.data())
def test_out_of_range_is_refused_and_in_range_gives_a_legal_move(what, data):
    from tui_domino.ai import _classic_search as c

    a, spoilt = data.draw(calls(what), label="arguments")
    mt_before = list(a["mt"])
    got = outcome(lambda: c.search(*(a[n] for n in NAMES)))
    if spoilt is not None:
        assert isinstance(got, tuple) and got[0] is ValueError, (spoilt, got)
        assert a["mt"] == mt_before  # the caller's generator is left as it was
    else:
        assert not (isinstance(got, tuple) and got[0] is ValueError), got
        move, stats = got
        assert fits(move, a), (move, a)
        assert all(fits(m, a) for m in stats)
    if spoilt in NATIVE_ONLY:
        return
    pos, sampler, params = python_form(a)
    rng = random.Random()
    rng.setstate((3, tuple(mt_before), None))
    py = outcome(lambda: cs.search_python(pos, sampler, params, rng, a["iterations"],
                                          a["deadline"], a["stop"]))
    assert py == got
    if spoilt is None:
        assert list(rng.getstate()[1]) == a["mt"]


@pytest.mark.parametrize("what", KINDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_search_refuses_the_same_with_the_compiled_search_or_without(what, data):
    """``search`` checks before either implementation runs: with the compiled one or without,
    the same ValueError."""
    a, spoilt = data.draw(calls(what), label="arguments")
    if spoilt in NATIVE_ONLY:
        return
    pos, sampler, params = python_form(a)
    runs = [False, True] if cs.native_available() else [False]
    results = [outcome(lambda n=n: cs.search(pos, sampler, params, random.Random(1),
                                             a["iterations"], a["deadline"], a["stop"],
                                             native=n)) for n in runs]
    if spoilt is not None:
        assert all(isinstance(r, tuple) and r[0] is ValueError for r in results), results
    assert all(r == results[0] for r in results)


def test_a_match_target_of_nought_is_refused():
    """The compiled search reads a target of 0 as no match; ``search`` refuses it with either."""
    pos = cs.Position(me=0, hand=3, hidden=4, opp_size=1, left=NO_END, right=NO_END,
                      forced=-1, reserve=0)
    sampler = cs.Sampler(groups=(((2,), 1),))
    params = cs.Params(match=((0, 0), 0))
    for native_ in ([False, True] if cs.native_available() else [False]):
        with pytest.raises(ValueError, match="match target must be 1 to"):
            cs.search(pos, sampler, params, random.Random(1), 10, native=native_)


@native
def test_the_two_inputs_once_read_out_of_bounds():
    """A hand with tiles beyond the 28 and an empty hand: refused, not searched."""
    from tui_domino.ai import _classic_search as c

    def args(hand: int) -> list[Any]:
        return [0, hand, 4, 1, NO_END, NO_END, -1, 0, 0, 0, [], [], [], 0.0, [[2]], [1], 1.0,
                0.5, 25.0, 0.8, 12, False, 0, 0, 0, list(random.Random(1).getstate()[1]), 1,
                math.inf, None, time.perf_counter]

    with pytest.raises(ValueError, match=r"hand must be 0 to 268435455 \(a mask of the 28"):
        c.search(*args(0xF00000FF))
    with pytest.raises(ValueError, match="hand is empty"):
        c.search(*args(0))


class _Meddler(int):
    """An int whose conversion to float empties the lists the search is reading."""

    lists: list[list[object]] = []

    def __float__(self) -> float:
        for lst in self.lists:
            lst.clear()
        return 0.0


@native
def test_numbers_that_run_code_while_read_are_refused_not_a_crash():
    """Reading a number must not run Python code that changes what is being read (it used to
    crash the process): a subclass of int or float is refused, by either search."""
    from tui_domino.ai import _classic_search as c

    pool: list[object] = [4, 4, 4]
    cum: list[object] = [_Meddler(1), 2.0, 3.0]
    erratic: list[object] = [0.0, 0.0, 0.0]
    _Meddler.lists = [pool, cum, erratic]
    with pytest.raises(TypeError, match=r"cum\[0\] must be a number, not _Meddler"):
        c.search(me=0, hand=3, hidden=4, opp_size=1, left=NO_END, right=NO_END, forced=-1,
                 reserve=0, points0=0, points1=0, pool=pool, cum=cum, erratic=erratic,
                 erratic_all=0.0, groups=[], group_counts=[], ucb_c=1.0, win=0.5, scale=25.0,
                 greedy=0.8, block=12, split_draws=False, total0=0, total1=0, target=0,
                 mt=list(random.Random(1).getstate()[1]), iterations=10, deadline=math.inf,
                 stop=None, clock=time.perf_counter)
    pos = cs.Position(me=0, hand=3, hidden=4, opp_size=1, left=NO_END, right=NO_END,
                      forced=-1, reserve=0)
    sampler = cs.Sampler(pool=(4,), cum=(_Meddler(1),))
    with pytest.raises(TypeError, match=r"cum\[0\] must be a number, not _Meddler"):
        cs.check(pos, sampler, cs.Params(), 10)
