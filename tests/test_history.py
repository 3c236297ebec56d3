"""The match history: the SQLite database, its migrations, its statistics, and the CLI."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.history_helpers import PLAYERS, played_match, played_record
from tui_domino import cli, i18n
from tui_domino.history import db, stats
from tui_domino.history.generate import generate
from tui_domino.history.records import check_match, replay

pytestmark = pytest.mark.usefixtures("home")  # (tests/conftest.py)


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_a_recorded_match_comes_back_whole_and_replays(variant: str, home: Path) -> None:
    kw = played_match(variant, seed=3, target=60 if variant != "triominos" else 150)
    mid = db.record_match(**kw, played_at="2025-03-04T05:06:07+00:00")
    con = db.connect()
    rec = db.load_match(con, mid)
    assert rec is not None
    assert rec["played_at"] == "2025-03-04T05:06:07+00:00"
    assert rec["players"] == PLAYERS and rec["me"] == 0 and rec["winner"] == kw["winner"]
    assert [r["moves"] for r in rec["rounds"]] == [r["moves"] for r in kw["rounds"]]
    assert rec["hints"] == sum(r["hints"] for r in kw["rounds"]) > 0
    check_match(rec)  # every round replays from its deal to its points
    for r in rec["rounds"]:
        end = replay(variant, r, rec["options"])
        assert end.is_over and end.points == r["points"]
    rows, total = db.list_matches(con)
    assert total == 1 and rows[0].opponent == "normal" and rows[0].totals == tuple(kw["totals"])


def test_the_list_filters_by_variant_and_opponent_newest_first(home: Path) -> None:
    for i, (variant, level) in enumerate([("classic", "hard"), ("spider", "hard"),
                                          ("classic", "easy"), ("classic", "hard")]):
        kw = played_match(variant, seed=i, target=30)
        kw["players"] = [PLAYERS[0], dict(PLAYERS[1], level=level)]
        db.record_match(**kw, played_at=f"2025-01-0{i + 1}T00:00:00+00:00")
    con = db.connect()
    rows, total = db.list_matches(con, "classic", "hard")
    assert total == 2 and [r.played_at[:10] for r in rows] == ["2025-01-04", "2025-01-01"]
    assert db.list_matches(con, opponent="easy")[1] == 1
    assert db.opponents(con) == ["easy", "hard"]


def test_an_old_database_is_migrated_and_keeps_its_matches(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    db.MIGRATIONS[0](old)  # the schema of version 1, as the first release wrote it
    old.execute("PRAGMA user_version = 1")
    old.close()
    con = db.connect(path)  # migrated on opening
    assert db.version(con) == db.SCHEMA_VERSION == 2
    mid = db.insert(con, played_record(seed=5))
    db.save_review(con, mid, 1, [{"player": 0, "loss": 2.5}, {"player": 1, "loss": 9.0}])
    rec = db.load_match(con, mid)
    assert rec is not None and rec["rounds"][0]["review"][0]["loss"] == 2.5
    cost = con.execute("SELECT cost FROM rounds WHERE match_id = ? AND number = 1",
                       (mid,)).fetchone()[0]
    assert cost == 2.5  # the player's (seat 0) losses only


def test_a_database_from_a_newer_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.close()
    with pytest.raises(ValueError, match="newer"):
        db.connect(path)


CRASH = """
import os, sys
from pathlib import Path
from tests.history_helpers import played_record
from tui_domino.history import db
con = db.connect(Path(sys.argv[1]))
db.insert(con, played_record(seed=7), before_commit=lambda: os._exit(9))
"""


def test_a_crash_in_the_middle_of_writing_a_match_leaves_nothing_of_it(tmp_path: Path) -> None:
    path = tmp_path / "h.sqlite3"
    con = db.connect(path)
    db.insert(con, played_record(seed=6))
    con.close()
    # the process dies with the match's rows written but not committed
    done = subprocess.run([sys.executable, "-c", CRASH, str(path)],
                          cwd=Path(__file__).parent.parent, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 9, done.stderr
    con = db.connect(path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert con.execute("SELECT count(*) FROM matches").fetchone()[0] == 1
    assert con.execute("SELECT count(*) FROM rounds").fetchone()[0] == len(
        played_record(seed=6)["rounds"])
    assert con.execute("SELECT count(*) FROM round_moves").fetchone()[0] == len(
        played_record(seed=6)["rounds"])
    db.insert(con, played_record(seed=7))  # and the next write goes through
    assert db.list_matches(con)[1] == 2


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = stats.wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_statistics_count_wins_margins_best_round_and_streak(home: Path) -> None:
    results = []
    for i in range(6):
        kw = played_match("classic", seed=20 + i, target=30)
        db.record_match(**kw, played_at=f"2025-02-{i + 1:02d}T00:00:00+00:00")
        results.append(kw)
    con = db.connect()
    st = stats.compute(con, "classic")
    wins = [kw["winner"] == 0 for kw in results]
    longest = run = 0
    for w in wins:
        run = run + 1 if w else 0
        longest = max(longest, run)
    rounds = [r for kw in results for r in kw["rounds"]]
    margins = [r["points"][0] - r["points"][1] for r in rounds]
    assert st.matches == 6 and st.matches_won == sum(wins)
    assert st.longest_streak == longest
    assert st.rounds == len(rounds)
    assert st.rounds_won == sum(1.0 if r["winner"] == 0 else 0.5 if r["winner"] is None else 0
                                for r in rounds)
    assert st.mean_margin == pytest.approx(sum(margins) / len(margins))
    assert st.best_round == max(margins)
    assert stats.compute(con, "spider").matches == 0


def test_the_cost_chart_draws_bars_in_proportion() -> None:
    lines = stats.chart([("2025-01", 8.0, 3), ("2025-02", 2.0, 5)], width=8)
    assert lines[0].startswith("2025-01    ████████ ")
    assert lines[1].split()[1] == "██" and lines[1].endswith("2.0 (5)")


def test_the_cost_chart_writes_its_months_as_the_language_writes_dates() -> None:
    try:
        i18n.use("ru")
        assert stats.chart([("2025-03", 8.0, 3)], width=8)[0].startswith("март 2025  ████")
        i18n.use("bg")
        assert stats.chart([("2025-05-04", 8.0, 3)], width=8)[0].startswith("04.05.2025 ████")
    finally:
        i18n.use("en")


def test_the_generator_makes_a_database_of_replayable_matches(tmp_path: Path) -> None:
    path = tmp_path / "big.sqlite3"
    generate(path, matches=120, seed=3, pool=4)
    con = db.connect(path)
    rows, total = db.list_matches(con, limit=5)
    assert total == 120
    rec = db.load_match(con, rows[0].id)
    assert rec is not None
    check_match(rec)
    st = stats.compute(con)
    assert st.matches == 120 and st.cost_by_period


# -- the command line ---------------------------------------------------------------------------


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_history_and_stats_commands_print_json_last(home: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    kw = played_match("spider", seed=2, target=40)
    kw["players"] = [{"name": "[bold]Ann\x1b[31m", "kind": "human", "level": ""}, PLAYERS[1]]
    mid = db.record_match(**kw)
    code, out, _ = run(["history", "--json"], capsys)
    assert code == 0
    last = json.loads(out.strip().splitlines()[-1])
    assert last["total"] == 1 and last["matches"][0]["id"] == mid
    assert "\x1b" not in out.split("\n{")[0]  # the name's escape is shown, not sent
    code, out, _ = run(["stats", "--variant", "spider", "--json"], capsys)
    last = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and last["matches"] == 1 and last["rounds"] == len(kw["rounds"])
    code, out, _ = run(["history", "--export", str(mid)], capsys)
    assert code == 0 and check_match(json.loads(out))["variant"] == "spider"
    code, _, err = run(["history", "--export", "99"], capsys)
    assert code == 2 and "no match 99" in err


def test_a_cli_on_an_unreadable_history_says_so(home: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (home / db.DB_NAME).write_bytes(b"this is not a database" * 100)
    code, _, err = run(["stats"], capsys)
    assert code == 2 and "cannot open the history" in err and "Traceback" not in err


def test_review_refuses_a_record_whose_moves_do_not_replay(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = played_record(seed=4)
    rec["rounds"][0]["moves"][1], rec["rounds"][0]["moves"][2] = (
        rec["rounds"][0]["moves"][2], rec["rounds"][0]["moves"][1])
    path = tmp_path / "m.json"
    path.write_text(json.dumps(rec))
    code, out, err = run(["review", str(path)], capsys)
    assert code == 2 and "round 1 does not replay" in err and not out


def test_the_cli_runs_as_a_program(home: Path) -> None:
    env = {**os.environ, "TUI_DOMINO_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "tui_domino", "history"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("0 matches.")


def test_a_narrow_list_marks_the_winner_in_the_score_for_want_of_the_players_column() -> None:
    from tui_domino.ui.screens.history import row_text, score_text

    cells = ("06.12.2026 14:30", "Spider", "Ann ✓ – Computer", score_text((53, 119), 0, False),
             "easy", "3")
    wide = row_text(*cells).plain
    assert "Ann ✓ – Computer" in wide and "53–119" in wide
    narrow = row_text(*cells[:3], score_text((53, 119), 0, True), *cells[4:],
                      narrow=True).plain
    assert "Ann" not in narrow and "53✓–119" in narrow  # in Spider the lower total wins
    assert len(narrow) <= 60 - 4  # (the list's padding and border)
    assert score_text((400, 120), 1, True) == "400–120✓"
    assert score_text((400, 120), None, True) == "400–120"


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
def test_no_match_won_reads_as_no_run_not_a_run_of_none(language: str) -> None:
    i18n.use(language)
    label = i18n._("Longest run")

    def run_of(st: stats.Stats) -> str:
        return next(line[len(label):].strip() for line in stats.lines(st)
                    if line.startswith(label))

    assert run_of(stats.Stats("classic", None, matches=3, rounds=9)) == "–"
    assert run_of(stats.Stats("classic", None, matches=3, matches_won=2, rounds=9,
                              longest_streak=2)).startswith("2 ")
