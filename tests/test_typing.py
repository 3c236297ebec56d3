"""The data between the layers is typed: a view, a move, a record read with a wrong key is a
type error, not a KeyError at run time; and the layers above the rules keep ``Any`` rare."""

from __future__ import annotations

import re
from pathlib import Path

from mypy import api

PACKAGE = Path(__file__).resolve().parents[1] / "tui_domino"


def test_the_layers_above_the_rules_use_any_at_most_65_times() -> None:
    """Counted as ``grep -o '\\bAny\\b' -r tui_domino/{ai,net,ui} --include=*.py | wc -l``."""
    uses = {}
    for layer in ("ai", "net", "ui"):
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            n = len(re.findall(r"\bAny\b", path.read_text(encoding="utf-8")))
            if n:
                uses[str(path.relative_to(PACKAGE))] = n
    assert sum(uses.values()) <= 65, uses


MISSPELLED = '''
from tui_domino.net.records import DuelView, MatchResult
from tui_domino.rules.types import HistoryRecord, SeatView


def bazaar(view: SeatView) -> int:
    return view["bazar_size"]


def scored(record: HistoryRecord) -> int:
    return sum(e["point"] for e in record["events"])


def winner(result: MatchResult) -> int | None:
    return result["winer"]


def my_turn(view: DuelView) -> bool:
    return view["net"]["myturn"]
'''


def test_a_misspelled_key_of_the_shared_data_is_a_type_error(tmp_path: Path) -> None:
    src = tmp_path / "misspelled.py"
    src.write_text(MISSPELLED, encoding="utf-8")
    out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir",
                                str(tmp_path / "cache"), str(src)])
    assert status == 1, out + err
    for key in ("bazar_size", "point", "winer", "myturn"):
        assert re.search(rf'has no key "{key}"', out), out
