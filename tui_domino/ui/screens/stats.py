"""Statistics per game and opponent, read from the history in a thread."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tui_domino.i18n import _
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.history import Filters, filter_text

if TYPE_CHECKING:
    from tui_domino.history.stats import Stats


class StatsScreen(Filters, Screen[None]):
    BINDINGS = [
        # TRANSLATORS: the statistics' footer: choose the game, the opponent; back.
        Key("g", "game", "Game"),
        Key("o", "opponent", "Opponent"),
        Key("escape", "close", "Back"),
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
        yield Static(_("Statistics"), id="title")
        with VerticalScroll():
            yield Static(_("Reading the history…"), id="body")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def relabel(self) -> None:
        """The language changed: the statistics are read and written anew in it."""
        self.reload()

    @work(exclusive=True, group="stats", thread=True)
    def reload(self) -> None:
        # lazy: worker (a thread worker: sqlite3 and the figures load off the UI)
        from tui_domino.history import db, stats

        try:
            con = db.connect()
            try:
                st = stats.compute(con, self.variant, self.opponent)
                opponents = db.opponents(con)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(
                self._show_text, _("The history cannot be read: {error}").format(error=exc))
            return
        self.app.call_from_thread(self._fill, st, opponents)

    def _show_text(self, text: str) -> None:
        self.query_one("#body", Static).update(plain(text))

    def _fill(self, st: Stats, opponents: list[str]) -> None:
        # lazy: worker (reload's thread has loaded it by now)
        from tui_domino.history import stats

        self.opponents = [None, *opponents]
        what = filter_text(self.variant, self.opponent)
        # TRANSLATORS: the statistics' title; {what} is what they count ("all games",
        # "classic · Ann"); g and o are keys.
        title = _("Statistics: {what}  (g: game, o: opponent)").format(what=what)
        self.query_one("#title", Static).update(plain(title))
        body = Text()
        if not st.matches:
            body.append(_("No match of yours here yet.") + "\n")
        for line in stats.lines(st):
            body.append_text(plain(line + "\n"))
        chart = stats.chart(st.cost_by_period, width=36)
        # TRANSLATORS: the heading of a bar chart: the points the player's choices cost, on
        # average per round the coach reviewed, month by month.
        body.append("\n" + _("What your choices cost per reviewed round") + "\n", style="bold")
        if chart:
            for line in chart:
                body.append_text(plain(line + "\n"))
        else:
            # TRANSLATORS: "Review" is the round summary's button of that name.
            body.append(_("No round reviewed yet (the round summary's Review).") + "\n")
        self.query_one("#body", Static).update(body)
        self.loaded = True

    def action_close(self) -> None:
        self.app.pop_screen()
