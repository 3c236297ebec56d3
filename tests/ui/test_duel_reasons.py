"""A duel's reasons (the protocol's English, from either program) shown in the player's
language, their names, tiles and numbers kept."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tui_domino import i18n
from tui_domino.net import events as ev
from tui_domino.ui.screens.duel_end import verdict_text
from tui_domino.ui.screens.duel_reasons import DEEDS, reason_text
from tui_domino.ui.session import Seat

SAMPLES = [
    "Bob left the match",
    "Bob left the match (my cat needs me)",
    "Bob did not come back",
    "Bob refused to reveal his keys",
    "Bob left before revealing his keys",
    "Bob stopped the match with an accusation his keys do not bear out",
    "Bob: held 6-6 but denied it when the opening was called",
    "Bob: placed 3-5 from deck position 17, which is not his",
    "Bob: placed 1-2, which was not dealt to him",
    "Bob: moved out of turn",
    "Bob: passed while he could still draw",
    "Bob: drew from an empty bazaar",
    "Ann and Bob both disputed round 3 and the keys showed no cheat: neither wins",
    "Bob disputed round 2 and the keys showed no cheat",
    "Bob's program stopped the match with an internal error",
    "Bob: sent a deck with a repeated point (a stacked shuffle)",
    "Bob: proved 2-4 with an invalid key (not a point of the group)",
    "Mary Ann left the match",
]


@pytest.mark.parametrize("language", ["ru", "bg"])
@pytest.mark.parametrize("reason", SAMPLES)
def test_a_known_reason_is_said_in_the_language_in_use(language: str, reason: str) -> None:
    i18n.use(language)
    said = reason_text(reason)
    # the player's own words stay his, and a key's fault is the group's own English
    shape = re.sub(r"\((my cat needs me|not a point of the group)\)", "", reason)
    english = {w for w in re.findall(r"[a-z]{4,}", shape)}
    assert not english & set(re.findall(r"[a-z]{4,}", said)), said
    for kept in re.findall(r"\b(?:Bob|Ann|Mary Ann|\d(?:-\d)+|\d+)\b", reason):
        assert kept in said, (kept, said)


def test_in_english_and_for_an_unknown_shape_the_reason_is_as_it_came() -> None:
    assert reason_text("Bob did not come back") == "Bob did not come back"
    i18n.use("ru")
    assert reason_text("Bob juggled the tiles") == "Bob juggled the tiles"


def test_a_forfeit_reads_in_russian_as_a_whole() -> None:
    i18n.use("ru")
    text = verdict_text(ev.Verdict("forfeit", 1, "Bob did not come back"), 0,
                        [Seat("Анна"), Seat("Bob")])
    assert "Bob" in text and not re.search(r"[a-z]{4,}", text), text


def _written_deeds() -> set[str]:
    """The plain deeds the duel's code writes into its refusals and verdicts."""
    out = set()
    for path in (Path(__file__).resolve().parents[2] / "tui_domino" / "net").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("Ruling", "Cheat", "ClaimRefuted")):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        out.add(arg.value)
    return out


def test_every_plain_deed_the_duel_writes_is_one_the_screen_translates() -> None:
    written = _written_deeds() - {"the round is not over"}  # no one is blamed for it
    assert written and written <= set(DEEDS), sorted(written - set(DEEDS))
