"""Statistics per game and opponent, read from the history in a thread."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from tui_domino.ui.plain import plain
from tui_domino.ui.screens.history import Filters

if TYPE_CHECKING:
    from tui_domino.history.stats import Stats


class StatsScreen(Filters, Screen[None]):
    BINDINGS = [
        Binding("g", "game", "Game"),
        Binding("o", "opponent", "Opponent"),
        Binding("escape", "close", "Back"),
    ]

    DEFAULT_CSS = """
    StatsScreen #title { height: 1; padding: 0 1; text-style: bold; }
    StatsScreen VerticalScroll { height: 1fr; padding: 0 1; }
    """

    def __init__(self, variant: str | None = None, opponent: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.opponent = opponent
        self.opponents: list[str | None] = [None]
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield Static("Statistics", id="title")
        with VerticalScroll():
            yield Static("Reading the history…", id="body")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    @work(exclusive=True, group="stats", thread=True)
    def reload(self) -> None:
        from tui_domino.history import db, stats

        try:
            con = db.connect()
            try:
                st = stats.compute(con, self.variant, self.opponent)
                opponents = db.opponents(con)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(self._show_text, f"The history cannot be read: {exc}")
            return
        self.app.call_from_thread(self._fill, st, opponents)

    def _show_text(self, text: str) -> None:
        self.query_one("#body", Static).update(plain(text))

    def _fill(self, st: Stats, opponents: list[str]) -> None:
        from tui_domino.history import stats

        self.opponents = [None, *opponents]
        what = " · ".join(x for x in (self.variant, self.opponent) if x) or "all games"
        self.query_one("#title", Static).update(plain(
            f"Statistics: {what}  (g: game, o: opponent)"))
        body = Text()
        if not st.matches:
            body.append("No match of yours here yet.\n")
        for line in stats.lines(st):
            body.append_text(plain(line + "\n"))
        chart = stats.chart(st.cost_by_period, width=36)
        body.append("\nWhat your choices cost per reviewed round\n", style="bold")
        if chart:
            for line in chart:
                body.append_text(plain(line + "\n"))
        else:
            body.append("No round reviewed yet (the round summary's Review).\n")
        self.query_one("#body", Static).update(body)
        self.loaded = True

    def action_close(self) -> None:
        self.app.pop_screen()
