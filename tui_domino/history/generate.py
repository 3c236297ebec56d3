"""A history database of many matches, for the benchmarks and the tests.

``generate(path, matches, seed)`` fills a database with ``matches`` matches over the past
year: each match is made of real rounds (played at random by the engine, so they replay
and can be reviewed), drawn from a pool per variant, between "You" and a computer at some
level or a person. About a third of the rounds carry what the player's choices cost (as a
review would have set it), for the statistics' chart. Written in one transaction, without
waiting for the disk, since nothing is lost if it fails.

    python -m tui_domino.history.generate PATH --matches 10000
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sqlite3
from pathlib import Path

from tui_domino import rules
from tui_domino.history import db as hdb
from tui_domino.history.records import (
    MatchRecord,
    PlayerJSON,
    RoundRecord,
    match_json,
    round_record,
)

OPPONENTS = ("easy", "normal", "hard", "person")


def random_round(variant: str, rng: random.Random, number: int) -> RoundRecord:
    state = rules.new_round(variant, seed=rng.getrandbits(48))
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    return round_record(state, number, hints=rng.choice((0, 0, 0, 1, 2)))


def generate(path: Path, matches: int = 10_000, seed: int = 1, pool: int = 40) -> None:
    rng = random.Random(seed)
    pools = {v: [random_round(v, rng, 1) for _ in range(pool)] for v in rules.VARIANTS}
    packed = {id(r["moves"]): (hdb.pack(r["deal"]), hdb.pack(r["moves"]))
              for rs in pools.values() for r in rs}
    db = hdb.connect(path)
    try:
        db.execute("PRAGMA synchronous=OFF")
        start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
        with hdb.transaction(db):
            for i in range(matches):
                variant = rng.choice(rules.VARIANTS)
                opp = rng.choice(OPPONENTS)
                rounds: list[RoundRecord] = []
                for n in range(1, rng.randint(2, 8) + 1):
                    r = RoundRecord(**rng.choice(pools[variant]))  # its moves shared
                    r["number"] = n
                    rounds.append(r)
                totals = [sum(r["points"][p] for r in rounds) for p in (0, 1)]
                if variant == "spider":
                    winner = 0 if totals[0] < totals[1] else 1
                else:
                    winner = 0 if totals[0] >= totals[1] else 1
                when = start + dt.timedelta(minutes=i * 525_600 // max(1, matches))
                players: list[PlayerJSON] = [{"name": "You", "kind": "human", "level": ""},
                           {"name": "Ann", "kind": "human", "level": ""} if opp == "person"
                           else {"name": "Computer", "kind": "computer", "level": opp}]
                record = match_json(variant=variant, target=rules.DEFAULT_TARGET[variant],
                                    options=rules.resolve_options(variant, None),
                                    players=players,
                                    rounds=[], totals=totals, winner=winner, me=0,
                                    kind="person" if opp == "person" else "computer",
                                    played_at=when.replace(microsecond=0).isoformat())
                record["rounds"] = rounds  # not copies: their moves are packed once
                record["hints"] = sum(r["hints"] for r in rounds)
                _insert_fast(db, record, rng, packed)
    finally:
        db.close()


def _insert_fast(db: sqlite3.Connection, record: MatchRecord, rng: random.Random,
                 packed: dict[int, tuple[bytes, bytes]]) -> None:
    """``db.insert`` inside the caller's transaction, a cost on some rounds."""
    p = record["players"]
    cur = db.execute(
        """INSERT INTO matches (played_at, variant, target, options, seed, kind,
           player0, kind0, level0, player1, kind1, level1, me, opponent,
           total0, total1, winner, rounds, hints, take_backs)
           VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""",
        (record["played_at"], record["variant"], record["target"],
         json.dumps(record["options"]), None, record["match_kind"],
         p[0]["name"], p[0]["kind"], p[0]["level"], p[1]["name"], p[1]["kind"], p[1]["level"],
         0, hdb.opponent_of(p, 0, record["match_kind"]), record["totals"][0],
         record["totals"][1], record["winner"], len(record["rounds"]), record["hints"], 0))
    rounds = record["rounds"]
    for r in rounds:
        r["cost"] = round(rng.expovariate(1 / 6), 1) if rng.random() < 0.35 else None
    hdb.insert_rounds(db, int(cur.lastrowid or 0), rounds, 0,
                      [packed[id(r["moves"])] for r in rounds])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="make a history database of many matches")
    ap.add_argument("path", type=Path)
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    generate(args.path, args.matches, args.seed)
    print(f"{args.matches} matches in {args.path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
