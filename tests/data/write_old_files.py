"""How the saves and match records in this folder were written: by the game as it was at
commit fc6ec44, before saves and records were read with msgspec. They stay as they are (the
tests check that files of that version still load); running this again writes the files of
the code in use into the folder given (default: a temporary one), for comparison.

    PYTHONPATH=. python3 tests/data/write_old_files.py [folder]
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

SEATS = {
    "classic": (("Ann", "human", ""), ("Computer", "computer", "easy")),
    "spider": (("Ann", "human", ""), ("Bo", "human", "")),  # two people at one terminal
    "triominos": (("Zoë", "human", ""), ("Computer", "computer", "normal")),
}
TARGETS = {"classic": 200, "spider": 120, "triominos": 400}
RECORD_TARGETS = {"classic": 60, "spider": 60, "triominos": 150}


def write_saves(out: Path) -> None:
    from tui_domino.ui import storage
    from tui_domino.ui.session import Seat, Session

    for variant, seats in SEATS.items():
        # round 2 of a match, a few moves in, with round 1's summary and a chosen tile
        rng = random.Random(7)
        session = Session.new(variant, [Seat(*s) for s in seats], target=TARGETS[variant],
                              seed=11)
        while not session.state.is_over:
            session.play(rng.choice(session.state.legal_moves()))
        assert not session.match.is_over
        session.next_round()
        for _ in range(5):
            session.play(rng.choice(session.state.legal_moves()))
        hand = session.state.hands[session.viewer]
        session.leave(hand[0], 0)
        shutil.copy(storage.save_path(), out / f"save-{variant}-round-2.json")
    # a match just begun: no move yet, the opening tile forced
    Session.new("classic", [Seat("Ann"), Seat("Computer", "computer", "hard")], seed=3)
    shutil.copy(storage.save_path(), out / "save-classic-new.json")
    # Triominos with draws in the turn in play (no tile chosen)
    session = Session.new("triominos", [Seat("Ann"), Seat("Computer", "computer", "easy")],
                          seed=5)
    rng = random.Random(5)
    while not session.state.draws_this_turn:  # type: ignore[attr-defined]
        moves = session.state.legal_moves()
        draw = [m for m in moves if m.kind == "draw"]
        session.play(draw[0] if draw and session.state.history else rng.choice(moves))
    shutil.copy(storage.save_path(), out / "save-triominos-drawing.json")


def write_records(out: Path) -> None:
    from tests.history_helpers import played_match
    from tui_domino.ai import coach
    from tui_domino.history import db
    from tui_domino.history.records import start_of

    for variant in ("classic", "spider", "triominos"):
        kw = played_match(variant, seed=3, target=RECORD_TARGETS[variant])
        mid = db.record_match(**kw, played_at="2025-03-04T05:06:07+00:00")
        con = db.connect()
        rec = db.load_match(con, mid)
        assert rec is not None
        first = rec["rounds"][0]
        start = start_of(variant, first, rec["options"])
        judged = coach.review_round(start, first["moves"], (0,), iterations=200, ms=50)
        db.save_review(con, mid, first["number"], [j.to_json() for j in judged])
        rec = db.load_match(con, mid)  # as `tui-domino history --export` prints it
        con.close()
        (out / f"record-{variant}.json").write_text(json.dumps(rec) + "\n")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    os.environ["TUI_DOMINO_HOME"] = tempfile.mkdtemp(prefix="tui-domino-old-files-")
    write_saves(out)
    write_records(out)
    print(out)


if __name__ == "__main__":
    main()
