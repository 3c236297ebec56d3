"""The side panel: round, target, both scores, whose turn, hand and bazaar sizes, and a
short log of recent moves."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui_domino.ui.contrast import muted_of
from tui_domino.ui.session import VARIANT_TITLES, fold
from tui_domino.ui.table import Table

LOG_WIDTH = 24  # the panel's width (26, the game's .tcss) less its padding


class ScorePanel(Vertical):
    DEFAULT_CSS = """
    ScorePanel { padding: 0 1; background: $panel; }  /* its width: the game's .tcss */
    ScorePanel #score { height: auto; }
    ScorePanel #log-title { color: $text-muted; margin-top: 1; }
    ScorePanel #log { height: 1fr; color: $text-muted; }
    """

    _score_lines = -1

    def compose(self) -> ComposeResult:
        yield Static(id="score")
        yield Static("Recent moves", id="log-title")
        yield Static(id="log")

    def show(self, session: Table, thinking: bool = False) -> None:
        state = session.state
        view = session.view()
        match = session.match
        spider = session.variant == "spider"
        quiet = muted_of(self, "panel")
        t = Text()
        t.append(f"{VARIANT_TITLES[session.variant]}\n", style="bold")
        word = "limit" if spider else "target"
        t.append(f"Round {match.round_no} · {word} {match.target}\n", style=quiet)
        totals = session.scores()
        for p in (0, 1):
            mark = "▶ " if state.to_move == p else "  "
            name = session.seats[p].name[:13]
            t.append(mark, style="bold")
            t.append(f"{name:<13}", style="bold" if state.to_move == p else "")
            t.append(f"{totals[p]:>5}\n", style="bold")
        if spider:
            t.append("  (points charged)\n", style=quiet)
        sizes = view["hand_sizes"]
        other = 1 - session.viewer
        n = sizes[other]
        t.append(f"{session.seats[other].name[:12]}: {n} tile{'' if n == 1 else 's'}\n")
        bazaar = view["bazaar_size"]
        reserve = view.get("bazaar_reserve") or 0
        t.append(f"Bazaar: {bazaar}")
        if reserve:
            t.append(f"  ({reserve} stay)", style=quiet)
        t.append("\n")
        if state.is_over:
            t.append("Round over", style="bold")
        elif thinking:
            t.append(f"{session.seats[state.to_move or 0].name} is thinking…", style="italic")
        elif session.is_human_turn():
            t.append("Your turn" if not session.hot_seat else
                     f"{session.seats[state.to_move or 0].name} to play", style="bold reverse")
        # The panel's lines rarely change in number: then no layout pass is needed (a layout
        # of the whole screen costs more than everything else a move redraws).
        score_lines = t.plain.count("\n")
        self.query_one("#score", Static).update(t, layout=score_lines != self._score_lines)
        self._score_lines = score_lines
        # 40 records make more than 12 lines: at most a bazaar (24 tiles) is drawn in a round,
        # and every other record is a line of its own
        lines = session.log_lines(state.history[-40:], session.viewer)[-12:]
        log = Text()
        for line in reversed(lines):
            for part in fold(line, LOG_WIDTH):
                log.append(part + "\n")
        if not lines:
            log.append("(no moves yet)")
        self.query_one("#log", Static).update(log, layout=False)  # its size is fixed
