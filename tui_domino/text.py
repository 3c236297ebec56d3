"""Text that another person controls, made safe to show.

A name, a chat line, a reason given for leaving or for a verdict, a lobby message, an
error echoed back by the peer: any of these may hold terminal control (ANSI and OSC
escapes, C1 codes, a bell), characters that reorder or hide what follows (bidi overrides,
zero-width marks) or line breaks. ``visible`` turns each such character into a visible
escape (``\\x1b``, ``\\u202e``), so that the text reads literally wherever it is printed: on
the plain console, in a log line, in a notification. The screens show it through
``tui_domino.ui.plain``, which also keeps it from being read as markup.
"""

from __future__ import annotations

import unicodedata

# Unicode categories that carry no glyph of their own: controls (C0, DEL, C1), format
# characters (bidi embeddings, overrides and isolates, zero-width joiners and spaces, the
# byte order mark), line and paragraph separators, surrogates, unassigned code points.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"})


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def one_line(text: str, limit: int | None = None) -> str:
    """A chat line or a name to show on one line: its runs of white space (line breaks and
    tabs included) read as one space, then ``visible``."""
    return visible(" ".join(text.split()), limit)


def visible(text: str, limit: int | None = None, lines: bool = False) -> str:
    """``text`` with every control or invisible character shown as an escape (line breaks
    kept as they are when ``lines``); at most ``limit`` characters of the original are kept
    (then an ellipsis)."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        ch if (lines and ch == "\n") or unicodedata.category(ch) not in HIDDEN_CATEGORIES
        else _escape(ch)
        for ch in text)
