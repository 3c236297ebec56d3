"""The game's languages: English, Russian and Bulgarian, with stdlib ``gettext``.

Every sentence a player reads is written in English in the code, marked ``_("...")`` (or
``N_("...")`` where it is kept in a table and translated where it is shown, ``ngettext``
for a number's plural), and looked up at the moment it is shown, so that switching the
language takes effect at the next redraw. The catalogs are ``tui_domino/locale/<lang>/
LC_MESSAGES/tui_domino.po`` (the sources, with their compiled ``.mo`` beside them);
docs/i18n.md says how to extract, update and compile them.

The language comes from the environment (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``:
the first one set decides, as POSIX says), unless the player chose one in Settings.
English is the default where the environment names no language of the game.
"""

from __future__ import annotations

import datetime
import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "tui_domino"
LOCALE_DIR = Path(__file__).resolve().with_name("locale")
DEFAULT = "en"
# The languages of the game, each named in itself (as the Settings screen offers them).
LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский", "bg": "Български"}

_current = DEFAULT
_translation: gettext.NullTranslations = gettext.NullTranslations()


def supported(value: str | None) -> str | None:
    """The game's language named by a locale value ("ru_RU.UTF-8", "bg", "en_GB@euro"),
    or None when it names none of them ("C", "POSIX", "fr_FR.UTF-8", "")."""
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].split("-", 1)[0]
    code = code.strip().lower()
    return code if code in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set decides; English when it names no language of the game."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return supported(value) or DEFAULT
    return DEFAULT


def use(language: str | None) -> str:
    """Makes ``language`` the game's language (None or an unknown one: the environment's);
    returns the language now in use."""
    global _current, _translation
    code = language if language in LANGUAGES else from_environment()
    if code == DEFAULT:
        _translation = gettext.NullTranslations()
    else:
        _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code],
                                           fallback=True)
    _current = code
    return code


def current() -> str:
    """The language in use ("en", "ru" or "bg")."""
    return _current


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translation.gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for translation where it is kept (a table, a constant); it is
    translated where it is shown, with ``_``."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for the number ``n`` (Russian has three, Bulgarian two)."""
    return _translation.ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """``ngettext`` where the same English words need different translations (``context``
    tells them apart: a triomino is not called as a domino is in Russian)."""
    return _translation.npgettext(context, singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, where the same English word needs different
    translations (``context`` tells them apart)."""
    return _translation.pgettext(context, message)


def decimal(x: float, digits: int = 1, sign: bool = False) -> str:
    """A decimal number as the language writes it ("3.5" in English, "3,5" in Russian and
    Bulgarian), with its sign when ``sign``."""
    from babel.numbers import format_decimal  # lazy: start-up (the menu shows no figure)

    pattern = "0." + "0" * digits if digits > 0 else "0"
    if sign:
        pattern = f"+{pattern};-{pattern}"
    return str(format_decimal(x, format=pattern, locale=_current))


def when(moment: datetime.datetime, short: bool = False) -> str:
    """A date and time of day as the language writes them: "2026-12-02 04:35" in English,
    "2 дек. 2026, 04:35" in Russian; ``short``: in 16 columns ("02.12.2026 04:35")."""
    from babel.dates import format_datetime  # lazy: start-up (only the history shows dates)

    if _current == DEFAULT:
        pattern = "yyyy-MM-dd HH:mm"
    else:
        pattern = "dd.MM.yyyy HH:mm" if short else "d MMM y, HH:mm"
    return str(format_datetime(moment, pattern, locale=_current))


def period(key: str) -> str:
    """A month ("2026-12") or a day ("2026-12-02") of the history as the language writes it
    (as ``when`` writes dates): "2026-12" in English, "дек. 2026" in Russian; at most 10
    columns. A key of another shape is returned as it is."""
    from babel.dates import format_date  # lazy: start-up (only the history shows dates)

    try:
        day = datetime.date.fromisoformat(key if len(key) == 10 else key + "-01")
    except ValueError:
        return key
    if _current == DEFAULT:
        return key
    return str(format_date(day, "dd.MM.yyyy" if len(key) == 10 else "LLL y", locale=_current))


__all__ = ["DEFAULT", "LANGUAGES", "N_", "_", "current", "decimal", "from_environment",
           "ngettext", "period", "pgettext", "supported", "use", "when"]
