"""The coach: expected points per move from a seat's own view, honest judgements, the CLI."""

from __future__ import annotations

import copy
import json
import random
import statistics
from pathlib import Path
from typing import Any

import pytest

from tui_domino import cli, rules
from tui_domino.ai import coach, search
from tui_domino.ai.simulation import VARIANTS as SIMS
from tui_domino.history.records import check_match, deal_of, match_json, round_record

SMALL = {"classic": 4000, "spider": 300, "triominos": 200}


def random_position(variant: str, seed: int, plies: int) -> rules.RoundState:
    """A round after ``plies`` random moves, stopped early at a position with a choice."""
    rng = random.Random(seed)
    state = rules.new_round(variant, seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def position_with_choice(variant: str, seed: int) -> rules.RoundState:
    for s in range(seed, seed + 200):
        state = random_position(variant, s, 4 + s % 5)
        if not state.is_over and len(state.legal_moves()) > 1:
            return state
    raise AssertionError("no position with a choice")


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_the_ranking_covers_the_legal_moves_best_first(variant: str) -> None:
    state = position_with_choice(variant, 11)
    view = state.view(state.to_move)
    ranked = coach.rank(view, random.Random(0), search.Budget(SMALL[variant], None))
    legal = state.legal_moves()
    assert {r.move for r in ranked} == set(legal) and len(ranked) == len(legal)
    assert [r.expected for r in ranked] == sorted((r.expected for r in ranked), reverse=True)
    assert all(r.visits > 0 for r in ranked)


def test_the_expected_points_track_a_clearly_better_move() -> None:
    """Classic, two tiles left, ends 6 and 1: 6-6 on the left keeps 0-1 (1 pip) for the
    end, 0-1 on the right keeps 6-6 (12 pips). The figures must say so, in points."""
    hand = [[0, 1], [6, 6]]
    line = [[6, 3], [3, 1]]
    used = [sorted(t) for t in hand + line]
    others = [[a, b] for a in range(7) for b in range(a, 7) if [a, b] not in used]
    d: dict[str, Any] = {
        "format": 1, "variant": "classic", "options": {"hand_size": 7, "bazaar_reserve": 2},
        "to_move": 0, "points": [0, 0], "winner": None, "over": False, "end_reason": None,
        "hands": [hand, others[:3]], "bazaar": others[3:], "history": [],
        "line": line, "ends": [6, 1], "forced": None, "leader": 0, "bazaar_reserve": 2,
    }
    state = rules.state_from_json(d)
    ranked = coach.rank(state.view(0), random.Random(1), search.Budget(20_000, None))
    assert ranked[0].move.tile == (6, 6)
    assert ranked[0].expected - ranked[-1].expected >= 3


def hidden_twin(variant: str, seed: int, moves: int) -> tuple[Any, Any, Any]:
    """A round played at random for ``moves`` records, and the same round dealt with two
    hidden tiles swapped (one of the second player's, kept by him throughout, and one of the
    bazaar never drawn): the same record, the same views for player 0."""
    rng = random.Random(seed)
    a = rules.new_round(variant, seed=seed)
    while len(a.history) < moves and not a.is_over:
        a.apply(rng.choice(a.legal_moves()))
    deal = deal_of(a)
    played = {tuple(sorted(r["move"].get("tile") or r["move"].get("corners") or ()))
              for r in a.history}
    drawn = {tuple(sorted(r["tile"])) for r in a.history if "tile" in r}
    kept = [t for t in deal["hands"][1] if tuple(t) not in played]
    spare = [t for t in deal["bazaar"] if tuple(t) not in drawn]
    for x in kept:
        for y in spare:
            d = copy.deepcopy(deal)
            d["hands"][1] = sorted([y if t == x else t for t in d["hands"][1]])
            d["bazaar"] = [x if t == y else t for t in d["bazaar"]]
            leader = a.to_json().get("leader")
            try:
                b = rules.new_round(variant, deal=d, leader=leader, options=a.options)
                for r in a.history:
                    b.apply(r["move"])
            except ValueError:
                continue  # the swap changed what he could do (a draw became illegal, say)
            start_a = rules.new_round(variant, deal=deal, leader=leader, options=a.options)
            return start_a, b, a.history
    raise AssertionError("the fixed round has a swap that keeps the record legal")


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_the_review_never_uses_hidden_tiles(variant: str) -> None:
    start_a, b_end, history = hidden_twin(variant, 5, 8 if variant != "triominos" else 10)
    leader = start_a.to_json().get("leader")
    start_b = rules.new_round(variant, deal=deal_of(b_end), leader=leader,
                              options=start_a.options)
    assert start_a.hands[1] != start_b.hands[1]  # the hidden tiles differ
    its = SMALL[variant]
    ja = coach.review_round(start_a, history, (0,), its, None)
    jb = coach.review_round(start_b, history, (0,), its, None)
    assert ja, "player 0 had a choice"
    assert [j.to_json() for j in ja] == [j.to_json() for j in jb]


@pytest.mark.parametrize("variant", ["classic", "spider"])
def test_the_best_move_of_every_judgement_is_legal(variant: str) -> None:
    rng = random.Random(3)
    state = rules.new_round(variant, seed=3)
    start = state.clone()
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    judged = coach.review_round(start, state.history, (0, 1), SMALL[variant], None)
    assert judged
    replay = start.clone()
    for i, rec in enumerate(state.history):
        for j in (j for j in judged if j.index == i):
            assert j.player == replay.to_move
            assert rules.move_from_json(variant, j.best) in replay.legal_moves()
            assert j.loss == pytest.approx(max(0.0, j.best_expected - j.expected))
        replay.apply(rec["move"])


def replay_margin(state: rules.RoundState, move: rules.Move, seed: int) -> float:
    """The final margin for the player to move after ``move``, the rest of the round played
    by the playout policy on the simulator."""
    var = SIMS[state.variant]
    me = state.to_move
    assert me is not None
    sim = var.sim_of_state(state)
    sim.play(var.from_public(move))
    rng = random.Random(seed)
    if not sim.over:
        play = search.PLAYOUTS.get(state.variant)
        if play is None:
            sim.playout(rng)
        else:
            play(sim, rng)
    return float(var.margin(list(sim.points), me))


# The coach's budget for Spider and Triominos is the game's (coach.HINT_ITERATIONS); the
# random rounds give at least 20 mistakes each (Triominos: 26 in its one round).
@pytest.mark.parametrize(("variant", "rounds", "iterations", "deals"),
                         [("classic", 40, 4000, 60), ("spider", 12, 1200, 30),
                          ("triominos", 1, 1000, 24)])
def test_the_moves_marked_mistakes_really_cost_points_on_average(
        variant: str, rounds: int, iterations: int, deals: int) -> None:
    """Random rounds: wherever the coach marks the move played a mistake, both moves are
    replayed over many deals of the hidden tiles (each consistent with the player's view,
    the rest played by the same policy with the same dice): the mistake must lose points
    on average, about as much as the coach says."""
    assert variant == "classic" or iterations == coach.HINT_ITERATIONS[variant]
    costs: list[float] = []
    said: list[float] = []
    for seed in range(rounds):
        rng = random.Random(seed)
        state = rules.new_round(variant, seed=seed)
        while not state.is_over:
            legal = state.legal_moves()
            p = state.to_move
            assert p is not None
            move = rng.choice(legal)
            if len(legal) > 1:
                view = state.view(p)
                ranked = coach.rank_json(view, 7, iterations, None)
                j = coach.judge(view, len(state.history), move.to_json(), ranked)
                if j is not None and j.mark == "mistake":
                    best = rules.move_from_json(variant, j.best)
                    diffs = []
                    for k in range(deals):
                        deal = rules.determinize(view, random.Random(k))
                        diffs.append(replay_margin(deal, best, k)
                                     - replay_margin(deal, move, k))
                    costs.append(statistics.fmean(diffs))
                    said.append(j.loss)
            state.apply(move)
    assert len(costs) >= 20
    assert statistics.fmean(costs) > 0 and sum(c > 0 for c in costs) >= 0.7 * len(costs)
    if variant == "classic":  # (elsewhere the playouts play the rest worse than the search
        # the coach's figures come from, so the cost measured is smaller than said)
        assert statistics.fmean(costs) > 0.5 * statistics.fmean(said)


# -- the command line ---------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_hint_prints_ranked_moves_and_a_json_line(
        variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = position_with_choice(variant, 2)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(state.view(state.to_move)))
    code, out, err = run(["hint", str(path), "--json", "--iterations", str(SMALL[variant])],
                         capsys)
    assert code == 0, err
    last = json.loads(out.strip().splitlines()[-1])
    moves = [rules.move_from_json(variant, m["move"]) for m in last["moves"]]
    assert set(moves) == set(state.legal_moves())
    exp = [m["expected"] for m in last["moves"]]
    assert exp == sorted(exp, reverse=True) and all(isinstance(x, float) for x in exp)
    # the fields of old, and the new ones beside them
    assert set(last["moves"][0]) == {"move", "expected", "behind_best", "name"}
    assert last["moves"][0]["behind_best"] == 0.0
    assert [m["name"] for m in last["moves"]] == [
        coach.describe(m["move"], state) for m in last["moves"]]


def mutations(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """Views the game could never show, each with a word of what is wrong."""
    out: list[tuple[str, Any]] = []
    out.append(("not an object", [view]))
    v = copy.deepcopy(view)
    v["hand"][0] = v["hand"][1]
    out.append(("a tile twice", v))
    v = copy.deepcopy(view)
    v["hand_sizes"][1 - v["player"]] += 1
    out.append(("tiles that do not add up", v))
    v = copy.deepcopy(view)
    v["player"] = 1 - v["player"]
    out.append(("the other player", v))
    v = copy.deepcopy(view)
    v["hands"] = [v["hand"], []]
    out.append(("hidden tiles shown", v))
    v = copy.deepcopy(view)
    v["hand"] = "[bold]6-6"
    out.append(("a hand of text", v))
    v = copy.deepcopy(view)
    v["history"] = [{"player": 0, "move": {"kind": "fly"}, "events": []}] + v["history"]
    out.append(("a move of no kind", v))
    v = copy.deepcopy(view)
    v["bazaar_size"] = -3
    out.append(("a negative bazaar", v))
    v = copy.deepcopy(view)
    v["variant"] = "chess"
    out.append(("another game", v))
    v = copy.deepcopy(view)
    del v["history"]
    out.append(("no history", v))
    v = copy.deepcopy(view)
    v["player"] = True
    out.append(("a player that is a boolean", v))
    return out


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_hint_refuses_malformed_views_with_a_clear_error(
        variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = position_with_choice(variant, 4)
    view = state.view(state.to_move)
    for what, bad in mutations(view):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(bad))
        code, out, err = run(["hint", str(path), "--json"], capsys)
        assert code == 2, what
        assert err.startswith("tui-domino hint: not a view: ") and err.count("\n") == 1, what
        assert not out, what
    for raw in (b"{", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000):
        path.write_bytes(raw)
        code, out, err = run(["hint", str(path)], capsys)
        assert code == 2 and "Traceback" not in err and err.startswith("tui-domino hint: ")


def slots(node: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) of a JSON value, depth first."""
    out: list[tuple[Any, Any]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else ()
    for k, v in items:
        out.append((node, k))
        out += slots(v)
    return out


def test_hint_refuses_random_damage_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Values of a real view replaced at random (seeded): refused, or ranked if still a
    position of the game; never an error of any other kind."""
    rng = random.Random(9)
    junk: list[Any] = [None, -1, 7, 10**30, "x", [], {}, [[9, 9]], [0, 1], True, 2.5]
    for n in range(60):
        state = position_with_choice(rng.choice(["classic", "spider", "triominos"]), n)
        view = state.view(state.to_move)
        paths = slots(view)
        node, key = rng.choice(paths)
        node[key] = rng.choice(junk)
        path = tmp_path / "v.json"
        path.write_text(json.dumps(view))
        code, out, err = run(["hint", str(path), "--iterations", "50"], capsys)
        assert code in (0, 2) and "Traceback" not in err
        assert (code == 2) == bool(err)


def test_review_judges_every_choice_of_every_round_from_each_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(2)
    match = rules.new_match("classic", target=20, seed=2)
    rounds = []
    while True:
        st = match.round
        while not st.is_over:
            st.apply(rng.choice(st.legal_moves()))
        rounds.append(round_record(st, match.round_no))
        if match.is_over:
            break
        match.next_round()
    rec = match_json(variant="classic", target=20, options=match.options,
                     players=[{"name": "You"}, {"name": "[red]Bo"}], rounds=rounds,
                     totals=match.totals, winner=match.winner, me=0, kind="person")
    check_match(rec)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(rec))
    code, out, err = run(["review", str(path), "--json", "--iterations", "3000"], capsys)
    assert code == 0, err
    last = json.loads(out.strip().splitlines()[-1])
    assert len(last["rounds"]) == len(rounds)
    for r, rnd in zip(last["rounds"], rounds, strict=True):
        start = rules.new_round("classic", deal=rnd["deal"], leader=rnd["leader"])
        expected = coach.choices(start, rnd["moves"])
        assert [j["index"] for j in r["judgements"]] == [i for i, _, _ in expected]
        assert r["cost"] == [pytest.approx(sum(j["loss"] for j in r["judgements"]
                                               if j["player"] == p), abs=0.05) for p in (0, 1)]
    assert "You ended the round" in out and "[red]Bo ended the round" in out
    assert "With the coach's moves you would have ended about" in out or (
        "You chose as well as the coach every time." in out)
