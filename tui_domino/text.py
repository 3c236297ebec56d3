"""Text that another person controls, made safe to show.

A name, a chat line, a reason given for leaving or for a verdict, a lobby message, an
error echoed back by the peer: any of these may hold terminal control (ANSI and OSC
escapes, C1 codes, a bell), characters that reorder or hide what follows (bidi overrides,
zero-width marks, the rest of Unicode's default-ignorable characters: fillers, variation
selectors, tags) or line breaks. ``visible`` turns each such character into a visible
escape (``\\x1b``, ``\\u202e``), so that the text reads literally wherever it is printed: on
the plain console, in a log line, in a notification. The screens show it through
``tui_domino.ui.plain``, which also keeps it from being read as markup.
"""

from __future__ import annotations

import bisect
import unicodedata

# Unicode categories that carry no glyph of their own: controls (C0, DEL, C1), format
# characters (bidi embeddings, overrides and isolates, zero-width joiners and spaces, the
# byte order mark), line and paragraph separators, surrogates, unassigned code points.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Cn"})

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters a terminal
# draws as nothing, whatever their category. Most are format characters (Cf), but not all:
# the Hangul fillers are letters (Lo), the Khmer inherent vowels, the Mongolian free
# variation selectors, the variation selectors and the combining grapheme joiner are marks
# (Mn). Ranges, first and last included, in order.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner, joiner; left-to-right, right-to-left marks
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated formats
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFEFF, 0xFEFF),  # zero-width no-break space (byte order mark)
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol beam, tie, slur and phrase controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors 17-256, reserved
)
_IGNORABLE_STARTS = [first for first, _last in DEFAULT_IGNORABLE]

# Characters that draw as a blank without being white space to Python: the braille pattern
# blank (and the Hangul fillers, default-ignorable already).
BLANKS = frozenset({"\u2800"})


def default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is one of Unicode's default-ignorable characters (drawn as nothing)."""
    code = ord(ch)
    i = bisect.bisect_right(_IGNORABLE_STARTS, code) - 1
    return i >= 0 and code <= DEFAULT_IGNORABLE[i][1]


def hidden(ch: str) -> bool:
    """Whether ``ch`` has no glyph of its own: a control, format, separator, surrogate or
    unassigned character, or a default-ignorable one."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or default_ignorable(ch)


def blank(ch: str) -> bool:
    """Whether ``ch`` draws as an empty space: white space of any kind (space separators,
    the no-break, ideographic, em and thin spaces among them) or a blank like the braille
    pattern blank."""
    return ch.isspace() or unicodedata.category(ch) == "Zs" or ch in BLANKS


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
    """``text`` with every control or invisible character (``hidden``) shown as an escape
    (line breaks kept as they are when ``lines``); at most ``limit`` characters of the
    original are kept (then an ellipsis)."""
    if limit is not None and len(text) > limit:
        text = text[:limit] + "…"
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        ch if (lines and ch == "\n") or not hidden(ch) else _escape(ch)
        for ch in text)
