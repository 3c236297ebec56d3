"""The match history: every finished match in an SQLite database in the data directory.

``history.sqlite3`` (stdlib ``sqlite3``) holds one row per match and one per round. The
schema's version is SQLite's ``user_version``; ``MIGRATIONS[v]`` takes a database of version
``v`` to ``v + 1``, each in its own transaction, so a database of any earlier version opens
as the current one. A match is written in one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``)
in WAL mode with full synchronisation: a crash mid-write leaves the match wholly there or not
at all. Several processes may write at once (a busy database is waited for).

``record_match(...)`` is the one way in, for any kind of match (``kind`` "computer",
"person", "duel"); the screens and the command line read through ``list_matches``,
``load_match``, ``stats_rows`` and ``save_review``.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui_domino import sqlite
from tui_domino.files import data_dir
from tui_domino.history.records import MatchRecord, PlayerJSON, RoundRecord, match_json
from tui_domino.rules.types import Options
from tui_domino.sqlite import open_database, transaction, version

if TYPE_CHECKING:
    from tui_domino.ai.coach import JudgementJSON

DB_NAME = "history.sqlite3"
SCHEMA_VERSION = 2


def _v1(db: sqlite3.Connection) -> None:
    db.execute("""CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        played_at TEXT NOT NULL,
        variant TEXT NOT NULL,
        target INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER,
        kind TEXT NOT NULL,
        player0 TEXT NOT NULL, kind0 TEXT NOT NULL, level0 TEXT NOT NULL,
        player1 TEXT NOT NULL, kind1 TEXT NOT NULL, level1 TEXT NOT NULL,
        me INTEGER,
        opponent TEXT NOT NULL,
        total0 INTEGER NOT NULL, total1 INTEGER NOT NULL,
        winner INTEGER,
        rounds INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        take_backs INTEGER NOT NULL)""")
    db.execute("""CREATE TABLE rounds (
        match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        points0 INTEGER NOT NULL, points1 INTEGER NOT NULL,
        winner INTEGER,
        end_reason TEXT,
        hints INTEGER NOT NULL,
        take_backs INTEGER NOT NULL,
        PRIMARY KEY (match_id, number))""")
    # The deal and the moves (zlib-compressed JSON) apart, so that the statistics read
    # compact rows.
    db.execute("""CREATE TABLE round_moves (
        match_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        leader INTEGER,
        deal BLOB NOT NULL,
        moves BLOB NOT NULL,
        PRIMARY KEY (match_id, number),
        FOREIGN KEY (match_id, number) REFERENCES rounds(match_id, number) ON DELETE CASCADE)""")
    db.execute("CREATE INDEX matches_by_date ON matches(played_at)")


def _v2(db: sqlite3.Connection) -> None:
    """The coach's reviews, kept with their rounds: the judgements (compressed JSON, beside
    the moves) and what the player's choices cost (with the round, for the statistics)."""
    db.execute("ALTER TABLE round_moves ADD COLUMN review BLOB")
    db.execute("ALTER TABLE rounds ADD COLUMN cost REAL")
    db.execute("CREATE INDEX matches_by_filter ON matches(variant, opponent, played_at)")


def pack(data: Any) -> bytes:
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 6)


def unpack(blob: bytes | None) -> Any:
    return None if blob is None else json.loads(zlib.decompress(blob))


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {0: _v1, 1: _v2}


def db_path(folder: Path | None = None) -> Path:
    if folder is None:
        folder = data_dir()
    return folder / DB_NAME


def connect(path: Path | None = None) -> sqlite3.Connection:
    """The database at ``path`` (the data directory's by default), migrated to the current
    schema. A database from a newer version of the game is refused (ValueError)."""
    return open_database(path or db_path(), MIGRATIONS, SCHEMA_VERSION, "history")


def migrate(db: sqlite3.Connection, to: int = SCHEMA_VERSION) -> None:
    """Brings ``db`` to version ``to`` of this schema (``sqlite.migrate``)."""
    sqlite.migrate(db, MIGRATIONS, SCHEMA_VERSION, "history", to)


def opponent_of(players: list[PlayerJSON], me: int | None, kind: str) -> str:
    """What the history filters by: the computer's level, "person" or "duel"."""
    if kind == "duel":
        return "duel"
    if me is None:
        return "person"
    other = players[1 - me]
    return str(other.get("level") or "computer") if other.get("kind") == "computer" else "person"


def insert(db: sqlite3.Connection, record: MatchRecord,
           before_commit: Callable[[], None] | None = None) -> int:
    """Writes one match record (``records.match_json``) in one transaction; its id."""
    players = record["players"]
    me = record.get("me")
    with transaction(db):
        cur = db.execute(
            """INSERT INTO matches (played_at, variant, target, options, seed, kind,
               player0, kind0, level0, player1, kind1, level1, me, opponent,
               total0, total1, winner, rounds, hints, take_backs)
               VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
            (record["played_at"], record["variant"], record["target"],
             json.dumps(record["options"]), record.get("seed"), record["match_kind"],
             players[0]["name"], players[0]["kind"], players[0]["level"],
             players[1]["name"], players[1]["kind"], players[1]["level"],
             me, opponent_of(players, me, record["match_kind"]),
             record["totals"][0], record["totals"][1], record["winner"],
             len(record["rounds"]), record["hints"], record["take_backs"]))
        match_id = int(cur.lastrowid or 0)
        insert_rounds(db, match_id, record["rounds"], me)
        if before_commit is not None:
            before_commit()
    return match_id


def insert_rounds(db: sqlite3.Connection, match_id: int, rounds: list[RoundRecord],
                  me: int | None, packed: list[tuple[bytes, bytes]] | None = None) -> None:
    """The rounds of match ``match_id`` (in the caller's transaction); ``packed``: their deals
    and moves already packed."""
    db.executemany(
        """INSERT INTO rounds (match_id, number, points0, points1, winner, end_reason, hints,
           take_backs, cost) VALUES (?,?,?,?,?,?,?,?,?)""",
        [(match_id, r["number"], r["points"][0], r["points"][1], r.get("winner"),
          r.get("end_reason"), int(r.get("hints") or 0), int(r.get("take_backs") or 0),
          r["cost"] if "cost" in r else _cost(r.get("review"), me))
         for r in rounds])
    db.executemany(
        """INSERT INTO round_moves (match_id, number, leader, deal, moves, review)
           VALUES (?,?,?,?,?,?)""",
        [(match_id, r["number"], r.get("leader"),
          *(packed[i] if packed else (pack(r["deal"]), pack(r["moves"]))),
          pack(r["review"]) if r.get("review") else None)
         for i, r in enumerate(rounds)])


def _cost(review: list[JudgementJSON] | None, me: int | None) -> float | None:
    """What the player's choices cost in a round's review (seat ``me``; None: no review)."""
    if not review or me is None:
        return None
    return float(sum(j["loss"] for j in review if j.get("player") == me))


def record_match(
    *,
    variant: str,
    target: int,
    options: Options,
    players: list[PlayerJSON],
    rounds: list[RoundRecord],
    totals: list[int],
    winner: int | None,
    me: int | None = 0,
    kind: str = "computer",
    played_at: str | None = None,
    seed: int | None = None,
    path: Path | None = None,
) -> int:
    """Stores a finished match in the history; returns its id.

    ``players``: two ``{"name", "kind" ("human"/"computer"), "level"}``; ``rounds``: one
    ``records.round_record(state, number, hints)`` per round, in order; ``me``: the seat of
    this terminal's player (None: two people at one terminal); ``kind``: "computer",
    "person" or "duel". Blocks on the disk: call it from a thread."""
    record = match_json(variant=variant, target=target, options=options, players=players,
                        rounds=rounds, totals=totals, winner=winner, me=me, kind=kind,
                        played_at=played_at, seed=seed)
    db = connect(path)
    try:
        return insert(db, record)
    finally:
        db.close()


@dataclass(frozen=True)
class MatchRow:
    id: int
    played_at: str
    variant: str
    players: tuple[str, str]
    levels: tuple[str, str]
    me: int | None
    opponent: str
    totals: tuple[int, int]
    winner: int | None
    rounds: int
    hints: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "played_at": self.played_at, "variant": self.variant,
                "players": list(self.players), "levels": list(self.levels), "me": self.me,
                "opponent": self.opponent, "totals": list(self.totals),
                "winner": self.winner, "rounds": self.rounds, "hints": self.hints}


def list_matches(db: sqlite3.Connection, variant: str | None = None,
                 opponent: str | None = None, limit: int = 500, offset: int = 0
                 ) -> tuple[list[MatchRow], int]:
    """The newest matches first (at most ``limit``), and how many match the filter."""
    where, args = _filter(variant, opponent)
    n = int(db.execute(f"SELECT count(*) FROM matches{where}", args).fetchone()[0])
    rows = db.execute(
        f"""SELECT id, played_at, variant, player0, player1, level0, level1, me, opponent,
            total0, total1, winner, rounds, hints FROM matches{where}
            ORDER BY played_at DESC, id DESC LIMIT ? OFFSET ?""", (*args, limit, offset))
    out = [MatchRow(r["id"], r["played_at"], r["variant"], (r["player0"], r["player1"]),
                    (r["level0"], r["level1"]), r["me"], r["opponent"],
                    (r["total0"], r["total1"]), r["winner"], r["rounds"], r["hints"])
           for r in rows]
    return out, n


def _filter(variant: str | None, opponent: str | None) -> tuple[str, tuple[Any, ...]]:
    clauses, args = [], []
    if variant:
        clauses.append("variant = ?")
        args.append(variant)
    if opponent:
        clauses.append("opponent = ?")
        args.append(opponent)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)


def opponents(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT DISTINCT opponent FROM matches ORDER BY 1")]


def load_match(db: sqlite3.Connection, match_id: int) -> MatchRecord | None:
    """The match as its exported record (``records.match_json``), with ``"id"``."""
    m = db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
    if m is None:
        return None
    rounds: list[RoundRecord] = []
    for r in db.execute(
            """SELECT r.*, d.leader, d.deal, d.moves, d.review FROM rounds r
               JOIN round_moves d USING (match_id, number)
               WHERE r.match_id = ? ORDER BY r.number""", (match_id,)):
        rounds.append({
            "number": r["number"], "leader": r["leader"], "deal": unpack(r["deal"]),
            "moves": unpack(r["moves"]), "points": [r["points0"], r["points1"]],
            "winner": r["winner"], "end_reason": r["end_reason"], "hints": r["hints"],
            "take_backs": r["take_backs"], "review": unpack(r["review"]),
        })
    players: list[PlayerJSON] = [
        {"name": m[f"player{i}"], "kind": m[f"kind{i}"], "level": m[f"level{i}"]}
        for i in (0, 1)]
    record = match_json(variant=m["variant"], target=m["target"],
                        options=json.loads(m["options"]), players=players, rounds=rounds,
                        totals=[m["total0"], m["total1"]], winner=m["winner"], me=m["me"],
                        kind=m["kind"], played_at=m["played_at"], seed=m["seed"])
    record["id"] = m["id"]
    return record


def save_review(db: sqlite3.Connection, match_id: int, number: int,
                review: list[JudgementJSON]) -> None:
    """Keeps the coach's judgements of a round (a second look is then instant)."""
    me = db.execute("SELECT me FROM matches WHERE id = ?", (match_id,)).fetchone()
    seat = me[0] if me is not None else None
    with transaction(db):
        db.execute("UPDATE round_moves SET review = ? WHERE match_id = ? AND number = ?",
                   (pack(review), match_id, number))
        db.execute("UPDATE rounds SET cost = ? WHERE match_id = ? AND number = ?",
                   (_cost(review, seat), match_id, number))


def stats_rows(db: sqlite3.Connection, variant: str | None = None,
               opponent: str | None = None) -> list[sqlite3.Row]:
    """Per round, oldest first: the match's id, date, seat ``me``, winner and totals, and
    the round's points, winner and the cost of the player's choices (NULL: not reviewed)."""
    where, args = _filter(variant, opponent)
    where = where.replace("variant", "m.variant").replace("opponent", "m.opponent")
    return list(db.execute(
        f"""SELECT m.id, m.played_at, m.variant, m.me, m.winner AS match_winner,
            m.total0, m.total1, r.number, r.points0, r.points1, r.winner, r.cost
            FROM matches m JOIN rounds r ON r.match_id = m.id{where}
            ORDER BY m.played_at, m.id, r.number""", args))


# A round's margin for the player at seat ``me`` (Spider's points are charged: less is better).
_MARGIN = """((CASE WHEN m.me = 0 THEN r.points0 - r.points1 ELSE r.points1 - r.points0 END)
              * (CASE WHEN m.variant = 'spider' THEN -1 ELSE 1 END))"""


def stats_summary(db: sqlite3.Connection, variant: str | None = None,
                  opponent: str | None = None) -> dict[str, Any]:
    """What the statistics need, summed by SQLite (one pass a query instead of a Python loop
    over every round): the matches in order (for the streak), the rounds' count, wins and
    margins, the best round, and the mean cost of the reviewed rounds per month (per day
    when they all fall in one month). Only the matches of one player here (``me`` known)
    with at least one round count."""
    where, args = _filter(variant, opponent)
    where = where.replace("variant", "m.variant").replace("opponent", "m.opponent")
    mine = (" AND " if where else " WHERE ") + "m.me IS NOT NULL"
    joined = f"FROM matches m JOIN rounds r ON r.match_id = m.id{where}{mine}"
    matches = [(row[0], row[1] == row[2]) for row in db.execute(
        f"""SELECT m.id, m.winner, m.me FROM matches m{where}{mine}
            AND EXISTS (SELECT 1 FROM rounds r WHERE r.match_id = m.id)
            ORDER BY m.played_at, m.id""", args)]
    count, won, margins = db.execute(
        f"""SELECT COUNT(*), TOTAL(CASE WHEN r.winner = m.me THEN 1.0
                                        WHEN r.winner IS NULL THEN 0.5 ELSE 0.0 END),
            TOTAL({_MARGIN}) {joined}""", args).fetchone()
    best = db.execute(
        f"""SELECT {_MARGIN}, m.id, r.number {joined}
            ORDER BY 1 DESC, m.played_at, m.id, r.number LIMIT 1""", args).fetchone()
    costs: list[tuple[str, float, int]] = []
    for length in (7, 10):  # by month; by day when one month holds them all
        costs = [(str(p), float(c), int(n)) for p, c, n in db.execute(
            f"""SELECT substr(m.played_at, 1, {length}), AVG(r.cost), COUNT(r.cost) {joined}
                AND r.cost IS NOT NULL GROUP BY 1 ORDER BY 1""", args)]
        if len(costs) != 1:
            break
    return {"matches": matches, "rounds": int(count), "rounds_won": float(won),
            "margin_total": int(margins), "best": None if best is None else tuple(best),
            "cost_by_period": costs}


__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "MatchRow", "connect", "db_path", "insert",
           "list_matches", "load_match", "migrate", "opponents", "record_match",
           "save_review", "stats_rows", "stats_summary", "transaction", "version"]
