"""The game's languages: the catalogs are complete and compiled, the language follows the
environment and the setting, plurals and numbers are the language's own."""

from __future__ import annotations

import datetime
import re
import string

import pytest

from tui_domino import i18n
from tui_domino.locale import catalogs


def test_the_template_holds_every_message_of_the_code() -> None:
    """A message added to the code without running ``extract`` and ``update`` fails here."""
    code = catalogs.keys(catalogs.extract())
    assert code, "no message is marked for translation"
    assert catalogs.keys(catalogs.read(catalogs.TEMPLATE)) == code


@pytest.mark.parametrize("language", catalogs.TRANSLATED)
def test_every_message_has_a_translation(language: str) -> None:
    catalog = catalogs.read(catalogs.po_path(language), language)
    missing = catalogs.keys(catalogs.extract()) - catalogs.keys(catalog)
    assert not missing, sorted(missing)[:10]
    bad = []
    for m in catalog:
        if not m.id:
            continue
        strings = catalogs.strings(m)
        if m.fuzzy or not all(s.strip() for s in strings):
            bad.append(m.id)
    assert not bad, bad[:10]


def _fields(text: str) -> list[str]:
    """The ``str.format`` fields of a message ("{name}", "{n}"), sorted."""
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


@pytest.mark.parametrize("language", catalogs.TRANSLATED)
def test_translations_keep_the_placeholders_and_add_no_markup(language: str) -> None:
    catalog = catalogs.read(catalogs.po_path(language), language)
    for m in catalog:
        if not m.id:
            continue
        ids = catalogs.ids(m)
        strings = catalogs.strings(m)
        for s in strings:
            # every form of a plural keeps the fields of the plural (the count may go)
            want = set(_fields(ids[-1])) | set(_fields(ids[0]))
            assert set(_fields(s)) <= want and set(_fields(s)) >= set(_fields(ids[0])) - {"n"}, (
                m.id, s)
            assert re.findall(r"\[/?[a-z@]", s) == re.findall(r"\[/?[a-z@]", ids[0]), (m.id, s)


@pytest.mark.parametrize("language", catalogs.TRANSLATED)
def test_the_compiled_catalogs_are_the_sources(language: str) -> None:
    catalog = catalogs.read(catalogs.po_path(language), language)
    assert catalogs.mo_path(language).read_bytes() == catalogs.compiled(catalog), (
        "run: python -m tui_domino.locale.catalogs compile")


@pytest.mark.parametrize(("env", "language"), [
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "bg_BG.UTF-8"}, "bg"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({}, "en"),
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "bg_BG.UTF-8"}, "bg"),
    ({"LANG": "bg_BG.UTF-8", "LC_MESSAGES": "ru_RU", "LC_ALL": "en_GB.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "ru"}, "ru"),
    ({"LANG": "ru_UA.KOI8-U@euro"}, "ru"),
])
def test_the_language_follows_the_environment(env: dict[str, str], language: str) -> None:
    assert i18n.from_environment(env) == language


def test_a_chosen_language_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert i18n.use(None) == "ru"
    assert i18n.use("bg") == "bg" and i18n.current() == "bg"
    assert i18n.use("xx") == "ru"  # not a language of the game: the environment's


@pytest.mark.parametrize(("n", "word"), [
    (1, "кость"), (2, "кости"), (5, "костей"), (11, "костей"), (21, "кость"), (22, "кости"),
    (0, "костей"), (14, "костей"), (104, "кости"), (111, "костей"),
])
def test_russian_counts_tiles_in_three_forms(n: int, word: str) -> None:
    i18n.use("ru")
    assert i18n.ngettext("{n} tile", "{n} tiles", n).format(n=n) == f"{n} {word}"


@pytest.mark.parametrize(("n", "word"), [(1, "плочка"), (2, "плочки"), (5, "плочки"),
                                         (11, "плочки"), (21, "плочки")])
def test_bulgarian_counts_tiles_in_two_forms(n: int, word: str) -> None:
    i18n.use("bg")
    assert i18n.ngettext("{n} tile", "{n} tiles", n).format(n=n) == f"{n} {word}"


def test_numbers_and_dates_are_written_the_languages_way() -> None:
    moment = datetime.datetime(2026, 12, 2, 4, 35)
    assert (i18n.decimal(3.14, sign=True), i18n.when(moment)) == ("+3.1", "2026-12-02 04:35")
    i18n.use("ru")
    assert i18n.decimal(3.14, sign=True) == "+3,1"
    assert i18n.when(moment) == "2 дек. 2026, 04:35"
    assert i18n.when(moment, short=True) == "02.12.2026 04:35"
    i18n.use("bg")
    assert i18n.decimal(-0.25, digits=2) == "-0,25"


# Plural messages whose English is the same for one and many: the number counts no English
# noun there ("Duel with Ann: Classic to 100", "5 s left", "(2 stay)"), though other
# languages decline the word after it.
SAME_IN_ENGLISH = {
    "{name} joined: {game}, limit {target}.", "{name} joined: {game}, to {target}.",
    "Duel with {name}: {game}, limit {target}.", "Duel with {name}: {game}, to {target}.",
    "{n} s left to move", "{game} limit {target}", "{game} to {target}", "({n} stay)",
    "{n} watching", "{n} min a move", "{n} s a move",
}


def test_english_counts_one_thing_in_the_singular() -> None:
    """"1 tiles", "1 visits", "1 rounds" were said; every count has its English singular."""
    same = [m.id[0] for m in catalogs.extract()
            if isinstance(m.id, tuple) and m.id[0] == m.id[1]]
    assert set(same) <= SAME_IN_ENGLISH, sorted(set(same) - SAME_IN_ENGLISH)


def test_no_words_to_translate_hide_in_an_f_string() -> None:
    """The extractor reads no call inside an f-string: ``f"{name} · {_('ignored')}"`` left
    "ignored" out of the catalogs, and English in the Russian lobby."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "tui_domino"
    hidden = re.compile(r"""\{\s*(?:_|N_|ngettext|pgettext|npgettext)\(\s*["']""")
    found = [f"{path.relative_to(package)}:{n}" for path in sorted(package.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if hidden.search(line)]
    assert not found, found
