"""Visitors' names: what is shown, and when two names look alike.

The ssh user name becomes the player's name. Two names that look the same on a
terminal (``ann`` and ``аnn`` with a Cyrillic ``а``, ``ｂob`` and ``bob``, ``Il`` and
``lI``) must not both be in the lobby, or one visitor could pass for another. Names are
compared by their *skeleton*: NFKC, then every character replaced by the first (lowest)
character of its class of look-alikes, the classes taken from Unicode's confusables
data as the ``confusable_homoglyphs`` package ships it.
"""

from __future__ import annotations

import functools
import unicodedata

MAX_NAME = 16


def player_name(username: str) -> str:
    """The ssh user name made safe to show: NFKC, printable, trimmed, at most 16
    characters (invisible and control characters, bidirectional overrides among them,
    are dropped)."""
    name = unicodedata.normalize("NFKC", username)
    name = "".join(c for c in name if c.isprintable()).strip()[:MAX_NAME].strip()
    return name or "guest"


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
    """What ``name`` looks like: two names with the same skeleton look alike."""
    classes = _classes()
    return "".join(classes.get(c, c) for c in unicodedata.normalize("NFKC", name))
