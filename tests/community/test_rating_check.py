"""scripts/rating_check.py: its rank correlation against known answers, and a short run through
the rating code (every match rated once, the figures it prints consistent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts import load_script

check = load_script("rating_check")


def test_spearman_known_answers() -> None:
    assert check.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert check.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ties take their mean rank: (1.5, 1.5, 3.5, 3.5) against (1, 2, 3, 4) is 2/sqrt(5)
    assert check.spearman([0, 0, 1, 1], [5, 6, 7, 8]) == pytest.approx(0.894427, abs=1e-6)
    assert check.ranks([3, 1, 3, 2]) == [3.5, 1.0, 3.5, 2.0]


def test_a_short_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "community.sqlite3"
    assert check.main(["--matches", "6", "--iterations", "20", "--per-level", "1",
                       "--minutes", "600", "--db", str(db), "--json", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    data = json.loads(out[-1])
    assert data["matches"] == 6 and data["unrated"] == {}
    assert sum(a["games"] for a in data["accounts"]) == 2 * 6
    assert [a["level"] for a in data["accounts"]] == ["random", "easy", "normal", "hard"]
    assert -1 <= data["spearman"] <= 1
    assert data["spread"]["range"] == pytest.approx(
        data["spread"]["highest"] - data["spread"]["lowest"], abs=0.11)
    assert out[0] == "Leaderboard: classic"
    assert any(line.startswith("Spearman rank correlation") for line in out)
    assert db.is_file()
