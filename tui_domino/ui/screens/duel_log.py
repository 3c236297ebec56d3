"""The duel's log: the moves of the round and the match's notes (who came and went, what was
checked, the chat), newest first, each in the language in use whenever it is drawn."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text

from tui_domino import rules
from tui_domino.i18n import _, pgettext
from tui_domino.ui.session import fold
from tui_domino.ui.widgets.scoreboard import LOG_WIDTH

if TYPE_CHECKING:  # the screen imports this module
    from tui_domino.ui.duel_table import DuelTable
    from tui_domino.ui.screens.duel import DuelScreen


class Note:
    """A line of the duel's log, in the language in use whenever it is shown: ``words``
    is a ``Text`` kept as it is (a chat line: the player's own words) or a function that
    says it anew (``lambda: _("{name} is back.").format(name=name)``)."""

    def __init__(self, words: str | Text | Callable[[], str], style: str = "") -> None:
        self.words = words
        self.style = style

    def text(self) -> Text:
        words = self.words
        if isinstance(words, Text):
            return words
        return Text(words() if callable(words) else words, style=self.style)

    def __str__(self) -> str:
        return str(self.text())


def duel_move_text(table: DuelTable, record: rules.HistoryRecord, count: int = 1) -> str:
    """A move of the duel's log (``count`` unseen draws alike); the points of the round's
    end wait for the check."""
    reasons = {e["reason"] for e in record["events"]}
    kept = [e for e in record["events"] if e["reason"] not in ("domino", "blocked")]
    text = table.describe(rules.HistoryRecord(**{**record, "events": kept}),
                               table.me, count)
    if "domino" in reasons:
        # TRANSLATORS: in the log, after the move of a player who went out (short)
        text += " · " + _("out")
    elif "blocked" in reasons and table.variant == "spider":
        text += " · " + pgettext("log", "fish")  # Spider's blocked round (as a local game's)
    elif "blocked" in reasons:
        # TRANSLATORS: in the log, after the move that blocked the round (short)
        text += " · " + _("blocked")
    return text


def log_text(screen: DuelScreen) -> Text:
    """The log of ``screen``'s duel: the round's moves cut by the notes made between them,
    after the notes of the rounds before, newest first (40 lines at most)."""
    view = screen.table.view()
    rnd = int(view["net"]["round"])
    history = view["history"]
    entries: list[list[Text]] = []
    notes = sorted(((r, n, i, line) for i, (r, n, line) in enumerate(screen.notes)),
                   key=lambda x: (x[0], x[1], x[2]))
    old = [note.text() for r, n, _i, note in notes if r < rnd]
    here = [(n, note.text()) for r, n, _i, note in notes if r >= rnd]
    entries.extend([line] for line in old)
    width = LOG_WIDTH
    # The notes cut the moves into runs (a run's unseen draws read as one line); a note
    # stamped past the last move comes after it.
    end = len(history)
    start = 0
    for cut in sorted({min(n, end) for n, _line in here} | {end}):
        moves = screen.table.log_lines(history[start:cut], screen.table.me, screen.describe_record)
        entries.extend([Text(part) for part in fold(line, width)] for line in moves)
        entries.extend([line] for n, line in here if min(n, end) == cut)
        start = cut
    out = Text()
    lines: list[Text] = []
    for entry in reversed(entries):
        for line in entry:
            lines.extend(line.wrap(screen.app.console, width) if len(line) > width else [line])
    for line in lines[:40]:
        out.append_text(line)
        out.append("\n")
    if not lines:
        out.append(_("(no moves yet)"))
    return out
