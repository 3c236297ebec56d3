"""The community's database: accounts, their keys, ratings and rated results, in one SQLite
file in the server's data directory (``community.sqlite3``, stdlib ``sqlite3``).

As the history does (``tui_domino.history.db``): the schema's version is SQLite's
``user_version`` and ``MIGRATIONS[v]`` takes a database of version ``v`` to ``v + 1`` in its
own transaction; WAL with full synchronisation, so that a write is wholly there or not at all
whatever crashes when; several processes may use it at once (a busy database is waited for).

Times are seconds since the epoch (UTC), read from the store's clock (``Store.now``), which
the tests replace so that nothing depends on the wall clock.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tui_domino import sqlite
from tui_domino.community.glicko2 import DEFAULT, System
from tui_domino.files import data_dir
from tui_domino.sqlite import open_database, transaction, version

DB_NAME = "community.sqlite3"
SCHEMA_VERSION = 3

Clock = Callable[[], float]


def _v1(db: sqlite3.Connection) -> None:
    # An account: a name (as shown), owned by the keys below. ``skeleton``: what the name
    # looks like (tui_domino.names.skeleton), unique, so that a look-alike cannot be claimed.
    db.execute("""CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        skeleton TEXT NOT NULL UNIQUE,
        created REAL NOT NULL,
        seen REAL NOT NULL)""")
    # The public keys of an account, by their SHA-256 fingerprint; a key owns one account.
    db.execute("""CREATE TABLE keys (
        fingerprint TEXT PRIMARY KEY,
        account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        added REAL NOT NULL)""")
    db.execute("CREATE INDEX keys_by_account ON keys(account)")
    # The one code an owner may give a new key (single use, until ``expires``).
    db.execute("""CREATE TABLE codes (
        account INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        expires REAL NOT NULL,
        misses INTEGER NOT NULL DEFAULT 0)""")
    # An account's rating in a variant (Glicko-2: tui_domino.community.glicko2); ``rated``:
    # the time of its last rated match (its deviation grows from then on).
    db.execute("""CREATE TABLE ratings (
        account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        variant TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        losses INTEGER NOT NULL,
        rated REAL NOT NULL,
        PRIMARY KEY (account, variant))""")
    db.execute("CREATE INDEX ratings_by_variant ON ratings(variant, rating)")
    # Every match the server settled, once, by its id: whether it was rated (``reason``
    # when it was not), and when it was, both sides' ratings before and after it.
    db.execute("""CREATE TABLE results (
        match_id TEXT PRIMARY KEY,
        at REAL NOT NULL,
        variant TEXT,
        account0 INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        account1 INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
        score0 REAL,
        ending TEXT,
        rated INTEGER NOT NULL,
        reason TEXT NOT NULL,
        rating0 REAL, rd0 REAL, after0 REAL, rd_after0 REAL,
        rating1 REAL, rd1 REAL, after1 REAL, rd_after1 REAL)""")
    db.execute("CREATE INDEX results_by_pair ON results(account0, account1, at)")


def _v2(db: sqlite3.Connection) -> None:
    # Moderation (tui_domino.community.sanctions): every operator's action and every
    # automatic mute, as it was taken. ``kind`` says what ``target`` is: an account's id,
    # a key's SHA-256 fingerprint or an address; ``shown`` is how the target read (a name,
    # the fingerprint, the address); ``until``: the end of a mute or a ban (None for a
    # kick, an unmute or an unban); ``lifted``: when an unmute or unban ended it early.
    db.execute("""CREATE TABLE sanctions (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        operator TEXT NOT NULL,
        action TEXT NOT NULL,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        shown TEXT NOT NULL,
        until REAL,
        reason TEXT NOT NULL,
        lifted REAL)""")
    db.execute("CREATE INDEX sanctions_by_target ON sanctions(action, kind, target)")
    # Whom an account ignores (another account): it follows the account.
    db.execute("""CREATE TABLE ignores (
        account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        other INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        at REAL NOT NULL,
        PRIMARY KEY (account, other))""")


def _v3(db: sqlite3.Connection) -> None:
    # Conduct in lobby duels (tui_domino.community.playban): each offence of an account (an
    # abort, a stall, a walk-away) as it happened, and the bans from pairing it earned:
    # from ``at`` until ``until``, and the offences that earned it.
    db.execute("""CREATE TABLE offences (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        match_id TEXT NOT NULL,
        UNIQUE (account, match_id))""")
    db.execute("CREATE INDEX offences_by_account ON offences(account, at)")
    db.execute("""CREATE TABLE playbans (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        until REAL NOT NULL,
        offences INTEGER NOT NULL)""")
    db.execute("CREATE INDEX playbans_by_account ON playbans(account, until)")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _v1, 1: _v2, 2: _v3}


def db_path(folder: Path | None = None) -> Path:
    """The database's file in ``folder`` (the data directory by default)."""
    return (data_dir() if folder is None else folder) / DB_NAME


@dataclass
class Store:
    """An open community database, the clock its times come from and the rating system."""

    db: sqlite3.Connection
    now: Clock = time.time
    system: System = field(default=DEFAULT)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(path: Path | None = None) -> sqlite3.Connection:
    """The database at ``path`` (the data directory's by default), made or migrated to the
    current schema. A database of a newer version of the game is refused (ValueError)."""
    return open_database(path or db_path(), MIGRATIONS, SCHEMA_VERSION, "community")


def open_store(path: Path | None = None, now: Clock = time.time,
               system: System = DEFAULT) -> Store:
    return Store(connect(path), now, system)


def migrate(db: sqlite3.Connection, to: int = SCHEMA_VERSION) -> None:
    """Brings ``db`` to version ``to`` of this schema (``sqlite.migrate``)."""
    sqlite.migrate(db, MIGRATIONS, SCHEMA_VERSION, "community", to)


__all__ = ["DB_NAME", "MIGRATIONS", "SCHEMA_VERSION", "Clock", "Store", "connect", "db_path",
           "migrate", "open_store", "transaction", "version"]
