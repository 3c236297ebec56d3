"""The game's SQLite databases (the history, a server's community): one file each in the
data folder, opened the same way (WAL, full sync, foreign keys, autocommit outside explicit
transactions) and brought to their schema by numbered migrations in ``PRAGMA user_version``.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

Migration = Callable[[sqlite3.Connection], None]


def open_database(path: Path, migrations: Mapping[int, Migration], schema: int,
                  what: str) -> sqlite3.Connection:
    """The database at ``path``, made or migrated to ``schema`` (``migrations[v]`` takes it
    from version v to v + 1). One of a newer version is refused with ValueError naming
    ``what`` ("history", "community")."""
    db = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
    db.row_factory = sqlite3.Row
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db, migrations, schema, what)
    except BaseException:
        db.close()
        raise
    return db


def version(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, migrations: Mapping[int, Migration], schema: int,
            what: str, to: int | None = None) -> None:
    """Brings ``db`` to version ``to`` (``schema`` by default), one migration a transaction;
    another process migrating it meanwhile is waited for, not repeated."""
    v = version(db)
    if v > schema:
        raise ValueError(f"the {what} database is of version {v}, newer than this game's "
                         f"({schema})")
    target = schema if to is None else to
    while v < target:
        with transaction(db):
            if version(db) != v:  # another process migrated it meanwhile
                v = version(db)
                continue
            migrations[v](db)
            db.execute(f"PRAGMA user_version = {v + 1}")
        v += 1


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: taken at once (``BEGIN IMMEDIATE``: no other writer between
    what it reads and what it writes), committed whole or rolled back whole."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


__all__ = ["Migration", "migrate", "open_database", "transaction", "version"]
