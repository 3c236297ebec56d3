"""Conduct in lobby duels: what an abort or a stall costs, as lichess's ``playban`` does.

Three deeds cost something (an *offence*), each counted once per match:

- ``ABORT``: leaving a duel before one's own first move (by leaving, quitting, or not coming
  back): a look at one's hand, then gone, costs the other a match he sat down to;
- ``STALL``: losing on the move clock, sitting on a position until the time runs out;
- ``WALKAWAY``: leaving a match by dropping out and not coming back within the seat's time
  (ssh/seats.py): the other waits for nothing. Leaving a match one has played in with the
  table's Leave (resigning: the other is told at once) is no offence.

An account with ``OFFENCES`` offences within ``WINDOW`` seconds (a day) is banned from
pairing (challenges, seeks, quick pairing, rated play) from his latest offence on: the first
ban lasts ``FIRST_BAN`` seconds (10 minutes), and each ban within ``BANS_WINDOW`` (a week)
before it makes the next ``FACTOR`` times longer, up to ``LONGEST`` (48 hours): 10 minutes,
30, 90, 4.5 hours, 13.5 hours, 40.5 hours, 48 hours. Two offences a day are free: anybody's
connection can fail, anybody may be called away. While the day holds three offences, each one
more bans again, for longer. Times come from the store's clock; rows
are never deleted (the server's record).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from tui_domino.community.db import Store, transaction

ABORT, STALL, WALKAWAY = "abort", "stall", "walkaway"
KINDS = (ABORT, STALL, WALKAWAY)

OFFENCES = 3  # offences within WINDOW that earn a ban
WINDOW = 24 * 3600.0
FIRST_BAN = 10 * 60.0
FACTOR = 3.0
LONGEST = 48 * 3600.0
BANS_WINDOW = 7 * 24 * 3600.0


@dataclass(frozen=True)
class Playban:
    """A ban from pairing: until when (the store's clock), how many offences within the
    day earned it, and how long it was."""

    until: float
    offences: int
    length: float


def ban_length(earlier: int) -> float:
    """How long a ban lasts after ``earlier`` bans within ``BANS_WINDOW``."""
    return min(LONGEST, FIRST_BAN * FACTOR ** max(0, earlier))


def offend(store: Store, account: int, kind: str, match: str) -> Playban | None:
    """Keeps ``account``'s offence ``kind`` in ``match`` (once per match); the ban it earns,
    if it earns one (else None)."""
    if kind not in KINDS:
        raise ValueError(f"no such offence: {kind}")
    now = store.now()
    db = store.db
    with transaction(db):
        try:
            db.execute("INSERT INTO offences (at, account, kind, match_id) VALUES (?, ?, ?, ?)",
                       (now, account, kind, match))
        except sqlite3.IntegrityError:
            return None  # (counted already)
        n = int(db.execute("SELECT COUNT(*) FROM offences WHERE account = ? AND at > ?",
                           (account, now - WINDOW)).fetchone()[0])
        if n < OFFENCES:
            return None
        earlier = int(db.execute("SELECT COUNT(*) FROM playbans WHERE account = ? AND at > ?",
                                 (account, now - BANS_WINDOW)).fetchone()[0])
        length = ban_length(earlier)
        running = current(store, account)
        until = max(now + length, running.until if running is not None else 0.0)
        db.execute("INSERT INTO playbans (at, account, until, offences) VALUES (?, ?, ?, ?)",
                   (now, account, until, n))
    return Playban(until, n, length)


def current(store: Store, account: int) -> Playban | None:
    """The ban from pairing running on ``account`` now (the longest), or None."""
    row = store.db.execute(
        "SELECT until, offences, until - at AS length FROM playbans WHERE account = ? "
        "AND until > ? ORDER BY until DESC LIMIT 1", (account, store.now())).fetchone()
    if row is None:
        return None
    return Playban(float(row[0]), int(row[1]), float(row[2]))


def offences(store: Store, account: int) -> list[tuple[float, str]]:
    """``account``'s offences within the last ``WINDOW`` seconds: (when, kind), oldest
    first."""
    rows = store.db.execute(
        "SELECT at, kind FROM offences WHERE account = ? AND at > ? ORDER BY at, id",
        (account, store.now() - WINDOW)).fetchall()
    return [(float(r[0]), str(r[1])) for r in rows]


__all__ = ["ABORT", "BANS_WINDOW", "FACTOR", "FIRST_BAN", "KINDS", "LONGEST", "OFFENCES",
           "STALL", "WALKAWAY", "WINDOW", "Playban", "ban_length", "current", "offend",
           "offences"]
