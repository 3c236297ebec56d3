"""Ratings per account and variant, and the settled matches that change them.

``record(store, match, decision)`` settles a match (``rated.agree``'s decision) under its id,
in one transaction: the result's row and, when it is rated, both accounts' new ratings
(``glicko2.rate_match``, each aged for his time away since his last rated match). A match id
is settled once: writing it again, whatever the decision then, changes nothing and returns
what was written the first time; a crash at any point of the write leaves the match wholly
settled or not at all.

Against rating farming: the same two accounts count at most ``PAIR_LIMIT`` rated results in
any ``PAIR_WINDOW`` (24 hours, whoever won, in any variant); a match beyond that is settled
unrated (``PAIR_LIMITED``), and ``pair_allowance`` tells the lobby beforehand, so that it can
offer the match as casual. A guest has no account, so never plays rated (``rated.judge``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from tui_domino.community import glicko2
from tui_domino.community.db import Store, transaction
from tui_domino.community.rated import Decision, Rated

PAIR_LIMIT = 3
PAIR_WINDOW = 86_400.0
PAIR_LIMITED = "pair-limit"
RATED = "rated"


@dataclass(frozen=True)
class Standing:
    """An account's rating in a variant, as of the store's clock (its deviation grown for
    the time since its last rated match), with its rated games."""

    account: int
    variant: str
    rating: glicko2.Rating
    games: int
    wins: int
    draws: int
    losses: int
    rated: float | None  # the time of the last rated match (None: never rated)


@dataclass(frozen=True)
class Change:
    """One side's rating and deviation before a rated match (aged to its time) and after."""

    rating: float
    rd: float
    after: float
    rd_after: float

    @property
    def delta(self) -> float:
        return self.after - self.rating


@dataclass(frozen=True)
class Settled:
    """A settled match: whether it changed the ratings (``reason`` ``RATED``; otherwise why
    not), and if so each seat's ``Change``. ``fresh``: written by this call (not before)."""

    match: str
    rated: bool
    reason: str
    variant: str | None
    accounts: tuple[int | None, int | None]
    changes: tuple[Change, Change] | None
    fresh: bool


def _row_standing(row: sqlite3.Row | None, account: int, variant: str, now: float,
                  system: glicko2.System) -> Standing:
    if row is None:
        return Standing(account, variant, glicko2.newcomer(system), 0, 0, 0, 0, None)
    stored = glicko2.Rating(float(row["rating"]), float(row["rd"]), float(row["volatility"]))
    rated = float(row["rated"])
    return Standing(account, variant, glicko2.age(stored, now - rated, system),
                    int(row["games"]), int(row["wins"]), int(row["draws"]),
                    int(row["losses"]), rated)


def standing(store: Store, account: int, variant: str) -> Standing:
    """The account's rating in ``variant`` now (a newcomer's when he has none yet)."""
    row = store.db.execute("SELECT * FROM ratings WHERE account = ? AND variant = ?",
                           (account, variant)).fetchone()
    return _row_standing(row, account, variant, store.now(), store.system)


def pair_count(store: Store, a: int, b: int) -> int:
    """How many rated results accounts ``a`` and ``b`` have together within the window."""
    since = store.now() - PAIR_WINDOW
    return int(store.db.execute(
        "SELECT count(*) FROM results WHERE rated = 1 AND at > ? AND "
        "((account0 = ? AND account1 = ?) OR (account0 = ? AND account1 = ?))",
        (since, a, b, b, a)).fetchone()[0])


def pair_allowance(store: Store, a: int, b: int) -> int:
    """How many more rated matches ``a`` and ``b`` may play now."""
    return max(0, PAIR_LIMIT - pair_count(store, a, b))


def _settled(row: sqlite3.Row, fresh: bool) -> Settled:
    changes = None
    if row["rated"]:
        changes = (Change(row["rating0"], row["rd0"], row["after0"], row["rd_after0"]),
                   Change(row["rating1"], row["rd1"], row["after1"], row["rd_after1"]))
    return Settled(str(row["match_id"]), bool(row["rated"]), str(row["reason"]), row["variant"],
                   (row["account0"], row["account1"]), changes, fresh)


def settled(store: Store, match: str) -> Settled | None:
    """How match ``match`` was settled, or None when it was not."""
    row = store.db.execute("SELECT * FROM results WHERE match_id = ?", (match,)).fetchone()
    return None if row is None else _settled(row, False)


def _write_rating(db: sqlite3.Connection, s: Standing, after: glicko2.Rating, score: float,
                  now: float) -> None:
    win, draw, loss = int(score == 1.0), int(score == 0.5), int(score == 0.0)
    db.execute(
        """INSERT INTO ratings (account, variant, rating, rd, volatility, games, wins, draws,
           losses, rated) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
           ON CONFLICT (account, variant) DO UPDATE SET rating = excluded.rating,
           rd = excluded.rd, volatility = excluded.volatility, games = games + 1,
           wins = wins + excluded.wins, draws = draws + excluded.draws,
           losses = losses + excluded.losses, rated = excluded.rated""",
        (s.account, s.variant, after.rating, after.rd, after.volatility, win, draw, loss, now))


def record(store: Store, match: str, decision: Decision) -> Settled:
    """Settles match ``match`` with ``decision``, once (see the module's notes)."""
    now = store.now()
    db = store.db
    with transaction(db):
        row = db.execute("SELECT * FROM results WHERE match_id = ?", (match,)).fetchone()
        if row is not None:
            return _settled(row, False)
        if not isinstance(decision, Rated):
            db.execute("INSERT INTO results (match_id, at, rated, reason) VALUES (?, ?, 0, ?)",
                       (match, now, decision.reason))
            return Settled(match, False, decision.reason, None, (None, None), None, True)
        a, b = decision.accounts
        variant, score = decision.variant, decision.score
        if pair_count(store, a, b) >= PAIR_LIMIT:
            db.execute(
                """INSERT INTO results (match_id, at, variant, account0, account1, score0,
                   ending, rated, reason) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)""",
                (match, now, variant, a, b, score, decision.ending, PAIR_LIMITED))
            return Settled(match, False, PAIR_LIMITED, variant, (a, b), None, True)
        sa, sb = standing(store, a, variant), standing(store, b, variant)  # aged to now
        after_a, after_b = glicko2.rate_match(sa.rating, sb.rating, score,
                                              system=store.system)
        _write_rating(db, sa, after_a, score, now)
        _write_rating(db, sb, after_b, 1.0 - score, now)
        db.execute(
            """INSERT INTO results (match_id, at, variant, account0, account1, score0, ending,
               rated, reason, rating0, rd0, after0, rd_after0, rating1, rd1, after1,
               rd_after1) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (match, now, variant, a, b, score, decision.ending, RATED,
             sa.rating.rating, sa.rating.rd, after_a.rating, after_a.rd,
             sb.rating.rating, sb.rating.rd, after_b.rating, after_b.rd))
    return Settled(match, True, RATED, variant, (a, b),
                   (Change(sa.rating.rating, sa.rating.rd, after_a.rating, after_a.rd),
                    Change(sb.rating.rating, sb.rating.rd, after_b.rating, after_b.rd)), True)


__all__ = ["PAIR_LIMIT", "PAIR_LIMITED", "PAIR_WINDOW", "RATED", "Change", "Settled", "Standing",
           "pair_allowance", "pair_count", "record", "settled", "standing"]
