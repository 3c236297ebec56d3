"""Players' names: what is shown, and when two names look alike.

The ssh user name becomes the player's name (``tui_domino.ssh``), and a name an account
owns is protected with its look-alikes (``tui_domino.community.accounts``). Two names that
look the same on a terminal (``ann`` and ``аnn`` with a Cyrillic ``а``, ``ｂob`` and ``bob``,
``Il`` and ``lI``) must not both be in the lobby or both be owned, or one visitor could pass
for another. Names are
compared by their *skeleton*: NFKC, then every character replaced by the first (lowest)
character of its class of look-alikes, the classes taken from Unicode's confusables
data as the ``confusable_homoglyphs`` package ships it.

What does not show is no part of a name: control and format characters, every one of
Unicode's default-ignorable characters (zero-width spaces and joiners, bidi controls,
variation selectors, the Hangul fillers, tags: ``tui_domino.text.hidden``), white space and
blanks (the ideographic space, the braille pattern blank: ``tui_domino.text.blank``), and a
combining mark with nothing to sit on (at the start, or after a character left out). So
``ann`` followed by a Hangul filler is shown, and compared, as ``ann``; a name of nothing
but such characters is ``guest``.
"""

from __future__ import annotations

import functools
import unicodedata

from tui_domino.text import blank, hidden

MAX_NAME = 16


def shown(name: str) -> str:
    """What of ``name`` shows, NFKC: without control, format or default-ignorable
    characters, white space, blanks, private-use characters, nor combining marks that
    follow no character kept (a name does not start with a mark)."""
    kept: list[str] = []
    base = False  # the character before was kept: a mark may sit on it
    for c in unicodedata.normalize("NFKC", name):
        if (hidden(c) or blank(c) or not c.isprintable()
                or (unicodedata.category(c).startswith("M") and not base)):
            base = False
        else:
            kept.append(c)
            base = True
    return "".join(kept)


def player_name(username: str) -> str:
    """The ssh user name made safe to show: what of it shows (``shown``), at most 16
    characters; ``guest`` when nothing shows."""
    return shown(username)[:MAX_NAME] or "guest"


@functools.cache
def _classes() -> dict[str, str]:
    """Every character with look-alikes -> the lowest character of its class."""
    # lazy: start-up (the confusables' tables, ~50 ms, load at the first name)
    from confusable_homoglyphs.confusables import (  # type: ignore[import-untyped]
        confusables_data,
    )

    parent: dict[str, str] = {}

    def find(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, glyphs in confusables_data.items():
        if len(char) != 1:
            continue
        for glyph in glyphs:
            other = glyph.get("c", "")
            if len(other) == 1:  # look-alike sequences (rn for m) are left out
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def skeleton(name: str) -> str:
    """What ``name`` looks like: two names with the same skeleton look alike (what does
    not show counts for nothing)."""
    classes = _classes()
    return "".join(classes.get(c, c) for c in unicodedata.normalize("NFKC", shown(name)))
