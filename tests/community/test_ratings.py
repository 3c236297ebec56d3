"""Rated results: written once under the match's id, whole or not at all, both ratings moved
by Glicko-2; at most three rated results a day between the same two accounts."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.community.conftest import Clock
from tui_domino.community import glicko2
from tui_domino.community.accounts import Member, sign_in
from tui_domino.community.db import Store, open_store
from tui_domino.community.rated import CASUAL, END, FORFEIT, NotRated, Rated
from tui_domino.community.ratings import (
    PAIR_LIMIT,
    PAIR_LIMITED,
    PAIR_WINDOW,
    RATED,
    pair_allowance,
    record,
    settled,
    standing,
)

ROOT = Path(__file__).resolve().parents[2]


def account(store: Store, name: str) -> int:
    member = sign_in(store, name, f"SHA256:{name}")
    assert isinstance(member, Member)
    return member.account.id


def counts(store: Store) -> tuple[int, int]:
    """Rows of results and of ratings."""
    return (store.db.execute("SELECT count(*) FROM results").fetchone()[0],
            store.db.execute("SELECT count(*) FROM ratings").fetchone()[0])


def test_a_rated_match_moves_both_ratings_by_glicko2(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    done = record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
    want_ann, want_bob = glicko2.rate_match(glicko2.newcomer(), glicko2.newcomer(), 1.0)
    assert done.rated and done.fresh and done.reason == RATED
    assert done.changes is not None
    assert (done.changes[0].rating, done.changes[0].after) == (1500, want_ann.rating)
    assert (done.changes[1].rating, done.changes[1].after) == (1500, want_bob.rating)
    assert done.changes[0].delta == pytest.approx(-done.changes[1].delta)
    assert done.changes[0].delta > 200
    a, b = standing(store, ann, "classic"), standing(store, bob, "classic")
    assert a.rating == want_ann and b.rating == want_bob
    assert (a.games, a.wins, a.losses, b.games, b.wins, b.losses) == (1, 1, 0, 1, 0, 1)
    assert standing(store, ann, "spider").games == 0  # per variant
    assert standing(store, ann, "spider").rating == glicko2.newcomer()


def test_the_second_match_starts_from_the_first_ones_ratings(store: Store,
                                                              clock: Clock) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
    a1, b1 = standing(store, ann, "classic").rating, standing(store, bob, "classic").rating
    clock.advance(60 * glicko2.DAY)  # both away for two months: their deviations grew
    a_aged, b_aged = glicko2.age(a1, 60 * glicko2.DAY), glicko2.age(b1, 60 * glicko2.DAY)
    assert standing(store, ann, "classic").rating == a_aged and a_aged.rd > a1.rd
    done = record(store, "m2", Rated("classic", (bob, ann), 0.5, END))  # seats swapped
    want_bob, want_ann = glicko2.rate_match(b_aged, a_aged, 0.5)
    assert done.changes is not None
    assert done.changes[0].rd == pytest.approx(b_aged.rd)
    assert standing(store, ann, "classic").rating == want_ann
    assert standing(store, bob, "classic").rating == want_bob
    assert standing(store, ann, "classic").draws == 1


def test_a_match_is_settled_once(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    first = record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
    ratings = standing(store, ann, "classic"), standing(store, bob, "classic")
    again = record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
    other = record(store, "m1", Rated("classic", (ann, bob), 0.0, FORFEIT))
    assert not again.fresh and not other.fresh
    assert again.changes == other.changes == first.changes
    assert (standing(store, ann, "classic"), standing(store, bob, "classic")) == ratings
    assert counts(store) == (1, 2)
    assert settled(store, "m1") == again


def test_a_match_settled_unrated_is_never_rated_after(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    assert not record(store, "m1", NotRated(CASUAL)).rated
    later = record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
    assert not later.rated and later.reason == CASUAL and not later.fresh
    assert standing(store, ann, "classic").games == 0
    assert counts(store) == (1, 0)


class FailAfter:
    """The store's connection, with ``then()`` called right after the first statement that
    contains ``marker`` (an exception, or the process ending)."""

    def __init__(self, db: sqlite3.Connection, marker: str, then: Callable[[], None]) -> None:
        self.db, self.marker, self.then, self.fired = db, marker, then, False

    def execute(self, sql: str, args: Any = ()) -> sqlite3.Cursor:
        cursor = self.db.execute(sql, args)
        if self.marker in sql and not self.fired:
            self.fired = True
            self.then()
        return cursor

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def test_an_exception_in_the_middle_of_a_write_leaves_nothing_written(store: Store) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    real = store.db

    def boom() -> None:
        raise RuntimeError("after the first rating's update")

    store.db = FailAfter(real, "INSERT INTO ratings", boom)  # type: ignore[assignment]
    with pytest.raises(RuntimeError):
        record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
    assert store.db.fired  # type: ignore[attr-defined]
    store.db = real
    assert counts(store) == (0, 0) and settled(store, "m1") is None
    assert record(store, "m1", Rated("classic", (ann, bob), 1.0, END)).fresh  # written now
    assert counts(store) == (1, 2)


CRASH = """
import os, sys
from tests.community.test_ratings import FailAfter, account
from tui_domino.community.db import open_store
from tui_domino.community.rated import END, Rated
from tui_domino.community.ratings import record
store = open_store(__import__("pathlib").Path(sys.argv[1]), now=lambda: 1.75e9)
ann, bob = account(store, "ann"), account(store, "bob")
store.db = FailAfter(store.db, "INSERT INTO ratings", lambda: os._exit(3))
record(store, "m1", Rated("classic", (ann, bob), 1.0, END))
"""


def test_a_crash_in_the_middle_of_a_write_leaves_nothing_written(tmp_path: Path,
                                                                 clock: Clock) -> None:
    """The process ends (no clean-up, no rollback) right after the first rating is
    written: the database, opened again, has the accounts and nothing of the match."""
    path = tmp_path / "community.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(CRASH), str(path)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 3, run.stderr
    with open_store(path, now=clock) as store:
        assert counts(store) == (0, 0) and settled(store, "m1") is None
        ann, bob = account(store, "ann"), account(store, "bob")
        assert record(store, "m1", Rated("classic", (ann, bob), 1.0, END)).rated


def test_the_same_two_accounts_count_three_rated_results_a_day(store: Store,
                                                               clock: Clock) -> None:
    ann, bob, cid = account(store, "ann"), account(store, "bob"), account(store, "cid")
    for i in range(PAIR_LIMIT):
        assert pair_allowance(store, ann, bob) == PAIR_LIMIT - i
        seats = (ann, bob) if i % 2 == 0 else (bob, ann)  # whoever hosts
        assert record(store, f"m{i}", Rated("classic", seats, 1.0, END)).rated
        clock.advance(3600)
    assert pair_allowance(store, bob, ann) == 0
    before = standing(store, ann, "classic"), standing(store, bob, "classic")
    over = record(store, "m-over", Rated("classic", (ann, bob), 1.0, END))
    assert not over.rated and over.reason == PAIR_LIMITED and over.changes is None
    assert (standing(store, ann, "classic"), standing(store, bob, "classic")) == before
    assert record(store, "m-cid", Rated("classic", (ann, cid), 1.0, END)).rated  # other pair
    assert record(store, "m-spider", Rated("spider", (ann, bob), 1.0, END)).reason \
        == PAIR_LIMITED  # whatever the variant
    clock.advance(PAIR_WINDOW - 3 * 3600 + 1)  # the first one is a day old
    assert pair_allowance(store, ann, bob) == 1
    assert record(store, "m-next", Rated("classic", (ann, bob), 1.0, END)).rated
    assert standing(store, ann, "classic").games == PAIR_LIMIT + 2
