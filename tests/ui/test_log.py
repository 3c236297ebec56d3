"""The log of recent moves: a run of draws the viewer did not see reads as one line."""

from __future__ import annotations

import random
import re

import pytest

from tui_domino import rules
from tui_domino.ui.session import Seat, Session


def played_round(variant: str, seed: int) -> Session:
    """A whole round of random legal moves (drawing whenever it is allowed, so that runs of
    draws happen)."""
    match = rules.new_match(variant, seed=seed)
    rng = random.Random(seed)
    state = match.round
    while not state.is_over:
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
    assert [int(m[1]) if (m := re.match(r"Computer drew (\d+) tiles", line)) else 1
            for line in drew] == runs_of_draws(history, 1)
    assert any(" 3 tiles" in line or re.search(r" ([4-9]|1\d) tiles", line) for line in drew)
    if variant == "triominos":  # each draw costs 5 points: the line says what the run cost
        for line in drew:
            n = int(m[1]) if (m := re.match(r"Computer drew (\d+) tiles", line)) else 1
            assert line.endswith(f" {-5 * n:+d}")
    # Ann's own draws stay one line each, with the tile she drew
    mine = [line for line in lines if line.startswith("Ann drew")]
    assert len(mine) == sum(r["move"]["kind"] == "draw" and r["player"] == 0 for r in history)
    assert all(re.match(r"Ann drew \d", line) for line in mine)
    # seen from the other seat it is the other way round
    theirs = session.log_lines(history, 1)
    assert sum(line.startswith("Ann drew") for line in theirs) == len(runs_of_draws(history, 0))
    assert all(re.match(r"Computer drew \d", line)
               for line in theirs if line.startswith("Computer drew"))
