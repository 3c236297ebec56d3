"""ASCII mode for the whole screen, not only the table.

The board and the hand draw their own ASCII art (``drawing.canvas.ASCII_MAP``). What is
left — the separators, arrows and marks in the texts, Textual's borders, check boxes and
scroll bars — passes through :class:`AsciiFilter`, a line filter the app adds while the
setting is on. Every character keeps its width, so nothing moves: a character without an
ASCII twin of its own becomes its unaccented letter (``é`` → ``e``) or ``?``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from tui_domino.ui.drawing.canvas import ASCII_MAP

# In texts a middle dot separates, and "…" ends a sentence; the canvas's own map keeps
# "·" and "…" for the dots and marks of the table, which it has translated already.
TEXT_MAP = ASCII_MAP | str.maketrans(
    {
        "·": "|", "…": ".", "⏎": "<", "←": "<", "→": ">", "↑": "^", "↓": "v",
        "●": "o", "×": "x", "—": "-", "–": "-", "’": "'", "‘": "'", "“": '"', "”": '"',
        "█": "#", "▐": "|", "▌": "|", "▊": "|", "▋": "|", "▍": "|", "▎": "|", "▏": "|",
        "▕": "|", "▔": "-", "▁": "_", "▂": " ", "▃": " ", "▄": " ", "▅": " ", "▆": " ",
        "▇": " ", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "┏": "+", "┓": "+", "┗": "+",
        "┛": "+", "┣": "+", "┫": "+", "┳": "+", "┻": "+", "╋": "+",
        "🔎": "> ",  # the command palette's prompt, two cells wide
    }
)

# Keys named in texts: the footer's and the hint line's. A word where the symbol does not
# read as a key in plain ASCII.
KEY_WORDS = {"⏎": "Enter"}


def _one(ch: str) -> str:
    plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    width = cell_len(ch)
    return plain if len(plain) == width else "?" * width


@lru_cache(maxsize=4096)
def to_ascii(text: str) -> str:
    """The text with the same widths in ASCII characters only."""
    if text.isascii():
        return text
    text = text.translate(TEXT_MAP)
    if text.isascii():
        return text
    return "".join(ch if ch.isascii() else _one(ch) for ch in text)


def key_words(text: str) -> str:
    """Names the keys in a text shown in ASCII mode ("⏎ play" → "Enter play")."""
    for symbol, word in KEY_WORDS.items():
        text = text.replace(symbol, word)
    return text


class AsciiFilter(LineFilter):
    """Turns every character of the screen into ASCII, keeping the styles and widths."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            seg if seg.control or seg.text.isascii() else Segment(to_ascii(seg.text), seg.style)
            for seg in segments
        ]
