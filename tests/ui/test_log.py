"""The log of recent moves: a run of draws the viewer did not see reads as one line."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable

import pytest

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import screen_lines
from tui_domino import rules
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.session import Seat, Session, fold


def played_round(variant: str, seed: int,
                 stop: Callable[[rules.RoundState], bool] = lambda state: False) -> Session:
    """A round of random legal moves (drawing whenever it is allowed, so that runs of draws
    happen), to its end or until ``stop``."""
    match = rules.new_match(variant, seed=seed)
    rng = random.Random(seed)
    state = match.round
    while not state.is_over and not stop(state):
        moves = state.legal_moves()
        draws = [m for m in moves if m.to_json()["kind"] == "draw"]
        state.apply(draws[0] if draws and rng.random() < 0.7 else rng.choice(moves))
    return Session(match, [Seat("Ann"), Seat("Computer", "computer", "random")])


def runs_of_draws(history: list[dict], player: int) -> list[int]:
    """The lengths of the runs of ``player``'s draws, in order."""
    out: list[int] = []
    previous = None
    for rec in history:
        key = (rec["player"], rec["move"]["kind"], tuple(
            (e["player"], e["reason"], e["points"]) for e in rec["events"]))
        if rec["player"] == player and rec["move"]["kind"] == "draw":
            if key == previous:
                out[-1] += 1
            else:
                out.append(1)
        previous = key
    return out


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_the_opponents_draws_run_together_and_ones_own_show_each_tile(variant: str) -> None:
    session = next(s for seed in range(40)
                   if max(runs_of_draws((s := played_round(variant, seed)).state.history, 1),
                          default=0) >= 3)
    history = session.state.history
    lines = session.log_lines(history, 0)
    drew = [line for line in lines if line.startswith("Computer drew")]
    counts = [int(m[1]) if (m := re.match(r"Computer drew (\d+) tiles", line)) else 1
              for line in drew]
    assert counts == runs_of_draws(history, 1)  # one line a run, and it has one of 3 or more
    if variant == "triominos":  # each draw costs 5 points: the line says what the run cost
        assert all(line.endswith(f" {-5 * n:+d}") for line, n in zip(drew, counts, strict=True))
    # Ann's own draws stay one line each, with the tile she drew
    mine = [line for line in lines if line.startswith("Ann drew")]
    assert len(mine) == sum(r["move"]["kind"] == "draw" and r["player"] == 0 for r in history)
    assert all(re.match(r"Ann drew \d", line) for line in mine)
    # seen from the other seat it is the other way round
    theirs = session.log_lines(history, 1)
    assert sum(line.startswith("Ann drew") for line in theirs) == len(runs_of_draws(history, 0))
    assert all(re.match(r"Computer drew \d", line)
               for line in theirs if line.startswith("Computer drew"))


def test_a_long_line_folds_between_words_never_inside_a_tile() -> None:
    assert fold("Computer: 5-4-5 +64 hexagon", 24) == ["Computer: 5-4-5 +64", "  hexagon"]
    assert fold("You: 0-1-2 +3", 24) == ["You: 0-1-2 +3"]
    long = "Bartholomew: 1-2 N, 3-3 E closed, 4-4 S, 5-5 W"
    assert all(len(part) <= 24 for part in fold(long, 24))
    assert " ".join(part.strip() for part in fold(long, 24)) == long


def draws_before_the_last_move(state: rules.RoundState) -> int:
    """How many tiles the opponent drew in a row before his last move (a tile or a pass)."""
    *before, last = state.history or [None]
    if last is None or last["player"] != 1:
        return 0
    return len(list(itertools.takewhile(
        lambda r: r["player"] == 1 and r["move"]["kind"] == "draw", reversed(before))))


def after_a_run_of_draws(state: rules.RoundState) -> bool:
    return state.to_move == 0 and draws_before_the_last_move(state) >= 2


async def test_the_score_panel_shows_a_run_of_draws_as_one_line() -> None:
    session = next(s for seed in range(60)
                   if after_a_run_of_draws(
                       (s := played_round("triominos", seed, after_a_run_of_draws)).state))
    run = draws_before_the_last_move(session.state)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session))
        await settle(pilot)
        lines = screen_lines(app)
        # one line, folded to the panel's width ("Computer drew 7 tiles" / "  -35")
        parts = fold(f"Computer drew {run} tiles {-5 * run:+d}", 24)
        at = next(i for i, line in enumerate(lines) if parts[0] in line)
        col = lines[at].index(parts[0])
        assert [lines[at + k][col:col + len(p)] for k, p in enumerate(parts)] == parts
        shown = "\n".join(lines)
        assert "Computer drew a tile" not in shown


def test_the_log_says_where_triominos_points_came_from() -> None:
    from tui_domino.ui.screenshots import session_after

    said = set()
    for seed in range(12):
        s = session_after("triominos", seed, 60)
        for rec in s.state.history:
            line = s.describe(rec, 0)
            own = [e for e in rec["events"] if e["player"] == rec["player"]]
            for reason, word in (("hexagon", "hexagon"), ("bridge", "bridge"),
                                 ("opening", "opening bonus")):
                points = sum(e["points"] for e in own if e["reason"] == reason)
                if any(e["reason"] == reason for e in own):
                    # "You: 2-3-4 +9, hexagon +50": the tile's points, then the bonus's
                    tile = sum(e["points"] for e in own if e["reason"] == "tile")
                    assert f" {tile:+d}, " in line and f"{word} {points:+d}" in line, line
                    said.add(reason)
    assert said == {"hexagon", "bridge", "opening"}
