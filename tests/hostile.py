"""Strings that another person may choose, to drive through every place that shows them,
and the checks that a screen showed them literally and let nothing reach the terminal."""

from __future__ import annotations

import unicodedata
from typing import Any

# Markup tags (closing nothing, unknown, styled), an OSC 8 link, a trailing backslash, ANSI
# CSI and OSC escapes with a bell, a C1 control, bidi overrides and isolates, zero-width
# characters, other characters drawn as nothing (a Hangul filler, a Khmer inherent vowel, a
# variation selector, a tag), a line break and one 500-character word.
CHAT = [
    "ok [/]",
    "boom [/x] end",
    "[link='https://evil.example/']free tiles[/link]",
    "[b]loud[/b] [red]red[/red] [@click=app.quit]quit[/]",
    "ends in a backslash \\",
    "\x1b[2J\x1b]0;pwned\x07 cleared",
    "c1 \x9b31m red \x85 next",
    "bidi \u202edesrever\u202c \u2066iso\u2069 zero\u200bwidth\ufeff filler\u3164 "
    "khmer\u17b4 selector\ufe0f tag\U000e0041",
    "two\nlines\r\tand a tab",
    "W" * 500,
]

# Names fit the places that show them (a protocol name is at most 40 characters, a panel
# shows 12); each holds something a markup parser or a terminal would act on.
NAMES = ["Ann [/x]", "x\\", "[b]Bo[/b]", "\x1b[2JEve", "\u202eollA", "[link='h']L",
         "Bo\u3164b", "Cy\u17b4"]

# What each name looks like once shown: its control and invisible characters as escapes.
SHOWN = {"Ann [/x]": "Ann [/x]", "x\\": "x\\", "[b]Bo[/b]": "[b]Bo[/b]",
         "\x1b[2JEve": "\\x1b[2JEve", "\u202eollA": "\\u202eollA", "[link='h']L": "[link='h']L",
         "Bo\u3164b": "Bo\\u3164b", "Cy\u17b4": "Cy\\u17b4"}

HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
# Default-ignorable characters of other categories (letters, marks) in the strings above.
DRAWN_AS_NOTHING = frozenset("\u3164\u1160\u17b4\ufe0f")


def hidden_characters(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in text
            if unicodedata.category(c) in HIDDEN or c in DRAWN_AS_NOTHING]


def screen_text(app: Any) -> str:
    """What the terminal is sent for the top screen (modals and notifications included),
    checked on the way: no control or invisible character, no hyperlink."""
    lines = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            assert not hidden_characters(segment.text), repr(segment.text)
            style = segment.style
            assert style is None or not style.link, (segment.text, style.link)
        lines.append(strip.text)
    return "\n".join(lines)


def toasts(app: Any) -> str:
    """The text of the notifications shown now, each on one line."""
    return "\n".join(" ".join(str(toast.render()).split())
                     for toast in app.screen.query("Toast"))
