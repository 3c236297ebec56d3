"""The kept files read with msgspec (tui_domino/formats.py): the saves and match records the
game wrote before (tests/data, written by tests/data/write_old_files.py) still load and give
the same match; a wrong type, a missing key, an unknown one where the game refuses it, a
number out of range, a game that does not exist or a file that is not JSON is refused with
what is wrong and where, the save kept aside as it was, and nothing else goes wrong."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.history_helpers import played_record
from tui_domino import cli
from tui_domino.ai import coach
from tui_domino.history.records import check_match
from tui_domino.ui import storage
from tui_domino.ui.session import Session

DATA = Path(__file__).resolve().parent / "data"
SAVES = sorted(p.name for p in DATA.glob("save-*.json"))
RECORDS = sorted(p.name for p in DATA.glob("record-*.json"))


pytestmark = pytest.mark.usefixtures("home")  # (tests/conftest.py)


def old(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


# -- saves ---------------------------------------------------------------------------------


def test_the_old_files_are_those_of_every_game() -> None:
    assert {old(n)["match"]["variant"] for n in SAVES} == {"classic", "spider", "triominos"}
    assert {old(n)["variant"] for n in RECORDS} == {"classic", "spider", "triominos"}
    assert any(old(n)["match"]["past"] and "choice" in old(n) for n in SAVES)
    assert all(old(n)["rounds"][0]["review"] for n in RECORDS)


@pytest.mark.parametrize("name", SAVES)
def test_an_old_save_loads_as_the_same_match(name: str) -> None:
    written = (DATA / name).read_text(encoding="utf-8")
    storage.save_path().write_text(written, encoding="utf-8")
    session = Session.load_saved()
    assert session is not None
    assert {"kind": storage.SAVE_KIND, "format": 1, **session.to_json()} == json.loads(written)
    saved = old(name)
    assert session.left_choice() == (None if "choice" not in saved else
                                      (tuple(saved["choice"]["tile"]), saved["choice"]["place"]))
    session.save()  # saved again as this version writes it: the same file
    assert json.loads(storage.save_path().read_text(encoding="utf-8")) == saved
    assert not list(storage.save_path().parent.glob("*.unreadable-*"))


def refused_save(text: str) -> str:
    """The reason a save written as ``text`` is refused; it must have been kept aside as it
    was, and nothing left in its place."""
    path = storage.save_path()
    path.write_text(text, encoding="utf-8")
    with pytest.raises(storage.SaveError) as caught:
        Session.load_saved()
    assert not path.exists()
    kept = sorted(path.parent.glob("current-match.unreadable-*.json"))
    assert kept and kept[-1].read_text(encoding="utf-8") == text
    kept[-1].unlink()
    message = str(caught.value)
    assert message.startswith("The saved match could not be read (") and "It was kept as" in message
    return message


def changed(name: str, change: Callable[[Any], object]) -> str:
    d = old(name)
    change(d)
    return json.dumps(d)


def history(d: Any) -> list[Any]:
    return d["match"]["round"]["history"]  # type: ignore[no-any-return]


CORRUPT_SAVES: dict[str, tuple[Callable[[Any], object], str]] = {
    "a wrong type deep inside": (
        lambda d: history(d)[1]["events"].append({"player": 0, "points": "5", "reason": "x"}),
        "Expected `int`, got `str` - at `$.match.round.history[1].events[0].points`"),
    "a seat of no kind": (lambda d: d["seats"][1].update(kind="robot"),
                          "Invalid enum value 'robot' - at `$.seats[1].kind`"),
    "a missing key": (lambda d: d["match"]["round"].pop("hands"),
                      "Object missing required field `hands` - at `$.match.round`"),
    "a missing seat": (lambda d: d["seats"].pop(),
                       "Expected `array` of length >= 2 - at `$.seats`"),
    "an unknown key in a move of the history": (
        lambda d: history(d)[0].update(note="mine"),
        "Object contains unknown field `note` - at `$.match.round.history[0]`"),
    "an unknown house rule": (lambda d: d["match"]["options"].update(jokers=2),
                              "Object contains unknown field `jokers` - at `$.match.options`"),
    "a tile's number out of range": (
        lambda d: d["match"]["round"]["bazaar"][0].__setitem__(0, 10**30),
        "at `$.match.round.bazaar[0][0]`"),
    "a whole number in a decimal": (lambda d: d["match"].update(round_no=2.0),
                                    "Expected `int`, got `float` - at `$.match.round_no`"),
    "no game": (lambda d: d["match"].update(variant="chess"),
                "Invalid value 'chess' - at `$.match.variant`"),
    "a round of another game": (
        lambda d: d["match"]["round"].update(variant="spider"),
        "at `$.match.round"),
    "a future format of the round": (lambda d: d["match"]["round"].update(format=2),
                                     "at `$.match.round.format`"),
}


@pytest.mark.parametrize("case", CORRUPT_SAVES)
def test_a_corrupt_save_is_refused_saying_what_and_where(case: str) -> None:
    change, reason = CORRUPT_SAVES[case]
    assert reason in refused_save(changed("save-classic-round-2.json", change))


def test_a_save_refused_by_the_rules_says_why() -> None:
    # a round of another game, its shape right: the rules see that it is not the match's
    spider = old("save-spider-round-2.json")["match"]["round"]
    text = changed("save-classic-round-2.json", lambda d: d["match"].update(round=spider))
    assert "the round's variant differs from the match's" in refused_save(text)
    # a tile dealt twice: its shape right, the set wrong
    text = changed("save-classic-round-2.json",
                   lambda d: d["match"]["round"]["bazaar"].__setitem__(
                       0, d["match"]["round"]["hands"][0][0]))
    assert "appears twice" in refused_save(text)


def test_a_save_that_is_not_json_or_not_ours_is_refused() -> None:
    assert "JSON is malformed" in refused_save("{ this is not json")
    assert "Input data was truncated" in refused_save("")
    assert "Expected `object`, got `array`" in refused_save("[1, 2]")
    assert "it is not a tui-domino saved match" in refused_save(
        changed("save-spider-round-2.json", lambda d: d.update(kind="something-else")))
    assert "its format 2 is not one this version reads" in refused_save(
        changed("save-spider-round-2.json", lambda d: d.update(format=2)))
    assert "its format True" in refused_save(
        changed("save-spider-round-2.json", lambda d: d.update(format=True)))
    too_large = changed("save-classic-round-2.json",
                        lambda d: d["match"]["round"]["points"].__setitem__(0, "HUGE"))
    assert "Number out of range - at `$.match.round.points[0]`" in refused_save(
        too_large.replace('"HUGE"', "1e400"))
    assert "JSON is malformed" in refused_save(too_large.replace('"HUGE"', "Infinity"))
    assert "Integer value out of range - at `$.match.round_no`" in refused_save(
        changed("save-classic-round-2.json", lambda d: d["match"].update(round_no="HUGE"))
        .replace('"HUGE"', "9" * 5000))
    assert "nested too deeply" in refused_save(
        '{"kind": "tui-domino-save", "seats": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_unknown_keys_where_the_game_always_ignored_them_are_still_ignored() -> None:
    def add(d: Any) -> None:
        d["note"] = "top"
        d["match"]["note"] = "match"
        d["match"]["round"]["note"] = "round"
        d["match"]["past"][0]["note"] = "past"
        d["choice"]["note"] = "choice"

    storage.save_path().write_text(changed("save-classic-round-2.json", add), encoding="utf-8")
    session = Session.load_saved()
    assert session is not None and session.left_choice() is not None
    assert session.to_json() == {k: v for k, v in old("save-classic-round-2.json").items()
                                 if k not in ("kind", "format")}


@pytest.mark.parametrize("name", SAVES)
def test_any_value_of_an_old_save_spoilt_is_refused_or_read_never_an_error(name: str) -> None:
    """Values of every kind put at random places (seeded): the save is read, or refused and
    kept aside; no other error, whatever the place."""
    rng = random.Random(name)
    base = old(name)
    places = list(_places(base))
    junk: list[object] = [None, -1, 7, 10**30, 2.5, True, "x", [], {}, [[9, 9]]]
    for _ in range(40):
        d = copy.deepcopy(base)
        *path, key = rng.choice(places)
        node = d
        for k in path:
            node = node[k]
        if rng.random() < 0.2 and isinstance(node, dict):
            del node[key]
        else:
            node[key] = rng.choice(junk)
        storage.save_path().write_text(json.dumps(d), encoding="utf-8")
        try:
            Session.load_saved()
        except storage.SaveError:
            assert not storage.save_path().exists()


def _places(node: Any, at: tuple[Any, ...] = ()) -> Any:
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()
    for k, v in items:
        yield (*at, k)
        yield from _places(v, (*at, k))


# -- match records and the coach's judgements -------------------------------------------------


@pytest.mark.parametrize("name", RECORDS)
def test_an_old_match_record_reads_as_it_was_written(name: str) -> None:
    written = old(name)
    assert check_match(copy.deepcopy(written)) == written
    for rnd in written["rounds"]:
        for d in rnd["review"] or ():
            assert coach.Judgement.from_json(d).to_json() == d


def refused_record(change: Callable[[Any], object], name: str = "record-spider.json") -> str:
    d = old(name)
    change(d)
    with pytest.raises(ValueError) as caught:
        check_match(d)
    return str(caught.value)


def test_a_corrupt_match_record_is_refused_saying_what_and_where() -> None:
    assert refused_record(lambda d: d["rounds"][0]["moves"][3]["events"].append(
        {"player": 2, "points": 1, "reason": "tile"})) == (
        "Invalid enum value 2 - at `$.rounds[0].moves[3].events[0].player`")
    assert refused_record(lambda d: d["rounds"][0].pop("deal")) == (
        "Object missing required field `deal` - at `$.rounds[0]`")
    assert refused_record(lambda d: d["rounds"][0]["deal"].update(note=1)) == (
        "Object contains unknown field `note` - at `$.rounds[0].deal`")
    assert refused_record(lambda d: d["rounds"][0]["moves"][0]["move"].update(note=1)) == (
        "Object contains unknown field `note` - at `$.rounds[0].moves[0].move`")
    assert refused_record(lambda d: d.update(variant="chess")) == (
        "Invalid value 'chess' - at `$.variant`")
    assert refused_record(lambda d: d["rounds"][0]["review"][0].update(loss="a lot")) == (
        "Expected `float`, got `str` - at `$.rounds[0].review[0].loss`")
    assert refused_record(lambda d: d["totals"].__setitem__(0, 1e300 * 1e300)) == (
        "Expected `int`, got `float` - at `$.totals[0]`")  # Python's reading of 1e400
    assert refused_record(lambda d: d.update(rounds=[])) == (
        "Expected `array` of length >= 1 - at `$.rounds`")
    assert refused_record(lambda d: d.update(format=2)) == (
        "format 2 is not one this version reads")
    assert "round 1 does not replay" in refused_record(
        lambda d: d["rounds"][0]["moves"].insert(0, d["rounds"][0]["moves"][0]))
    assert "bad house rules: hand_size must be 1..14" in refused_record(
        lambda d: d["options"].update(hand_size=99))


def test_unknown_keys_of_a_record_are_ignored_where_they_always_were() -> None:
    d = old("record-spider.json")
    d["note"] = 1
    d["players"][0]["note"] = 1
    d["rounds"][0]["note"] = 1
    d["rounds"][0]["moves"][0]["note"] = 1  # a record's moves are replayed, not compared
    d["rounds"][0]["review"][0]["played"]["placements"][0]["note"] = 1
    assert check_match(d) == old("record-spider.json")  # read, the unknown left out


def test_a_judgement_not_as_the_coach_writes_it_is_a_value_error_saying_where() -> None:
    d = old("record-classic.json")["rounds"][0]["review"][0]
    for broken, where in (({**d, "loss": None}, "got `null` - at `$.loss`"),
                          ({**d, "index": "1"}, "got `str` - at `$.index`"),
                          ({**d, "ranked": 5}, "got `int` - at `$.ranked`"),
                          ({k: v for k, v in d.items() if k != "best"},
                           "missing required field `best`")):
        with pytest.raises(ValueError, match=re.escape(where)):
            coach.Judgement.from_json(broken)


async def test_a_review_kept_unreadable_is_made_again() -> None:
    """A round's review kept in the history that cannot be read (the file spoilt) does not
    stop the review screen: the round is reviewed again."""
    from tests.ui.conftest import make_app
    from tui_domino.ui.screens.review import ReviewScreen

    record = old("record-classic.json")
    rnd = record["rounds"][0]
    good = ReviewScreen("classic", record["options"], copy.deepcopy(rnd), ["You", "Bo"], 0)
    assert good.complete and len(good.judged) == len(rnd["review"])
    rnd["review"][0]["loss"] = "a lot"
    app = make_app()
    async with app.run_test(size=(80, 24)):
        again = ReviewScreen("classic", record["options"], rnd, ["You", "Bo"], 0)
        assert not again.complete and again.judged == {}


def test_review_of_a_record_of_a_wrong_type_says_what_and_where(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = played_record(seed=4)
    rec["rounds"][0]["points"] = ["12", 0]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(rec))
    code = cli.main(["review", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and not out and "Traceback" not in err
    assert "not a match record: Expected `int`, got `str` - at `$.rounds[0].points[0]`" in err
