"""The message catalogs, with Babel: the template extracted from the code, the Russian and
Bulgarian sources updated from it, and their compiled ``.mo``.

    python -m tui_domino.locale.catalogs extract   # tui_domino/locale/tui_domino.pot
    python -m tui_domino.locale.catalogs update    # merge it into each .po (new: fuzzy/empty)
    python -m tui_domino.locale.catalogs compile   # each .po to its .mo
    python -m tui_domino.locale.catalogs check     # what is missing, fuzzy or out of date

The tests run the same checks (tests/test_i18n.py); docs/i18n.md is the translators' guide.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from tui_domino.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE = LOCALE_DIR.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")
# The functions whose arguments are messages: Babel's own, and the key bindings' words
# (``Key(key, action, description)``).
KEYWORDS: dict[str, tuple[int, ...] | None | tuple[tuple[int, str] | int, ...]] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "Key": (3,),
}
METHODS = [("**.py", "python")]


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def extract() -> Catalog:
    """Every message of the code, with where it is."""
    catalog = Catalog(project="tui-domino", domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(str(PACKAGE), METHODS, keywords=KEYWORDS,
                             comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        where = f"tui_domino/{filename}"
        catalog.add(message, None, [(where, lineno)], auto_comments=comments,
                    context=context)
    return catalog


def read(path: Path, language: str | None = None) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f, locale=language)


def write(path: Path, catalog: Catalog) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, sort_by_file=False, omit_header=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def compiled(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def update() -> None:
    template = read(TEMPLATE)
    for language in TRANSLATED:
        path = po_path(language)
        if path.exists():
            catalog = read(path, language)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project="tui-domino",
                              charset="utf-8")
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        catalog.fuzzy = False  # the header: its plural forms are Babel's, for the language
        write(path, catalog)


def compile_all() -> None:
    for language in TRANSLATED:
        mo_path(language).write_bytes(compiled(read(po_path(language), language)))


def keys(catalog: Catalog) -> set[tuple[str, str | None]]:
    return {(_id(m), m.context) for m in catalog if m.id}


def _id(m: Message) -> str:
    return ids(m)[0]


def ids(m: Message) -> tuple[str, ...]:
    """A message's English: its text, or its singular and plural."""
    return tuple(m.id) if isinstance(m.id, tuple) else (str(m.id),)


def strings(m: Message) -> tuple[str, ...]:
    """A message's translation: its text, or its plural forms."""
    return tuple(m.string) if isinstance(m.string, tuple) else (str(m.string or ""),)


def problems() -> Iterator[str]:
    """What is wrong with the catalogs, one line each (nothing when they are complete)."""
    code = extract()
    if not TEMPLATE.exists() or keys(read(TEMPLATE)) != keys(code):
        yield f"{TEMPLATE.name} is not the code's messages: run extract and update"
    for language in TRANSLATED:
        path = po_path(language)
        if not path.exists():
            yield f"{language}: no catalog"
            continue
        catalog = read(path, language)
        missing = keys(code) - keys(catalog)
        if missing:
            yield f"{language}: {len(missing)} messages not in the catalog"
        for m in catalog:
            if not m.id:
                continue
            if m.fuzzy or not all(strings(m)):
                yield f"{language}: untranslated or fuzzy: {_id(m)!r}"
        if not mo_path(language).exists() or mo_path(language).read_bytes() != compiled(catalog):
            yield f"{language}: {mo_path(language).name} is not compiled from the catalog"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui_domino.locale.catalogs")
    parser.add_argument("command", choices=("extract", "update", "compile", "check"))
    args = parser.parse_args(argv)
    if args.command == "extract":
        write(TEMPLATE, extract())
    elif args.command == "update":
        update()
    elif args.command == "compile":
        compile_all()
    else:
        found = list(problems())
        for line in found:
            print(line)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
