"""The match history: every finished match, newest first, filtered by game and opponent; a
match's rounds, each opened for its review; a match exported as JSON.

The database is read in a thread: the screen draws at once and fills its table when the
rows are there (the newest ``PAGE`` matches of the filter; the count says how many in all).
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, OptionList, Static
from textual.widgets.option_list import Option

from tui_domino.ui.plain import plain
from tui_domino.ui.session import VARIANT_TITLES

if TYPE_CHECKING:  # the history's modules load when the screen reads it
    from tui_domino.ai.coach import JudgementJSON
    from tui_domino.history.db import MatchRow
    from tui_domino.history.records import MatchRecord

PAGE = 100
FIRST = 45  # more lines than the tallest usual terminal shows
# the columns of the list: (width, aligned right)
COLUMNS = ((16, False), (9, False), (27, False), (7, True), (9, False), (6, True))


def row_text(*cells: str) -> Text:
    """One line of the list, its cells cut and padded to the columns (plain text: names
    come from the records)."""
    out = []
    for cell, (width, right) in zip(cells, COLUMNS, strict=True):
        cell = cell[:width]
        out.append(cell.rjust(width) if right else cell.ljust(width))
    return plain(" ".join(out).rstrip())
GAMES = (None, "classic", "spider", "triominos")


class Filters:
    """The keys that choose which matches a screen counts: g the game (all, then each
    variant), o the opponent (all, then each met); both load the screen again."""

    variant: str | None
    opponent: str | None
    opponents: list[str | None]

    def reload(self) -> object:
        raise NotImplementedError

    def action_game(self) -> None:
        self.variant = GAMES[(GAMES.index(self.variant) + 1) % len(GAMES)]
        self.reload()

    def action_opponent(self) -> None:
        i = self.opponents.index(self.opponent) if self.opponent in self.opponents else 0
        self.opponent = self.opponents[(i + 1) % len(self.opponents)]
        self.reload()


def _connect() -> sqlite3.Connection:
    from tui_domino.history import db

    return db.connect()


class HistoryScreen(Filters, Screen[None]):
    BINDINGS = [
        Binding("enter", "open", "Open", key_display="⏎"),
        Binding("g", "game", "Game"),
        Binding("o", "opponent", "Opponent"),
        Binding("s", "stats", "Statistics"),
        Binding("x", "export", "Export"),
        Binding("escape", "close", "Back"),
    ]

    DEFAULT_CSS = """
    HistoryScreen #status { height: 1; padding: 0 1; }
    HistoryScreen #heads { height: 1; padding: 0 2; text-style: bold; }
    HistoryScreen #matches { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.variant: str | None = None
        self.opponent: str | None = None
        self.opponents: list[str | None] = [None]
        self.ids: list[int] = []
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield Static("Reading the history…", id="status")
        yield Static(row_text("When", "Game", "Players", "Score", "Opponent", "Rounds"),
                     id="heads")
        # one line a match, its columns aligned (a list draws far faster than a data table:
        # the screen opens at once on 10,000 matches)
        yield OptionList(id="matches")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#matches", OptionList).focus()
        self.reload()

    @work(exclusive=True, group="history", thread=True)
    def reload(self) -> None:
        from tui_domino.history import db

        try:
            con = _connect()
            try:
                rows, total = db.list_matches(con, self.variant, self.opponent, PAGE)
                opponents = db.opponents(con)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(self._failed, exc)
            return
        self.app.call_from_thread(self._fill, rows, total, opponents)

    def _failed(self, exc: Exception) -> None:
        self.query_one("#status", Static).update(plain(f"The history cannot be read: {exc}"))

    def _fill(self, rows: list[MatchRow], total: int, opponents: list[str]) -> None:
        with self.app.batch_update():  # one layout and one frame for the list and its line
            self._fill_now(rows, total, opponents)

    def _fill_now(self, rows: list[MatchRow], total: int, opponents: list[str]) -> None:
        self.opponents = [None, *opponents]
        menu = self.query_one("#matches", OptionList)
        menu.clear_options()
        self.ids = [r.id for r in rows]
        options = [Option(row_text(
            r.played_at[:16].replace("T", " "),
            VARIANT_TITLES[r.variant].split()[-1] if r.variant != "classic" else "Classic",
            f"{r.players[0][:12]} – {r.players[1][:12]}", f"{r.totals[0]}–{r.totals[1]}",
            r.opponent, str(r.rounds)), id=str(r.id)) for r in rows]
        # the lines a screen shows at once first, the rest of the page once they are drawn
        menu.add_options(options[:FIRST])
        if options[FIRST:]:
            self.call_after_refresh(menu.add_options, options[FIRST:])
        if rows:
            menu.highlighted = 0
        what = " · ".join(x for x in (self.variant, self.opponent) if x) or "all games"
        shown = f", the newest {len(rows)}" if len(rows) < total else ""
        self.query_one("#status", Static).update(plain(
            f"{total} match{'' if total == 1 else 'es'} ({what}){shown}. "
            "g: game, o: opponent."))
        self.loaded = True

    def selected_id(self) -> int | None:
        row = self.query_one("#matches", OptionList).highlighted
        if not self.ids or row is None or row >= len(self.ids):
            return None
        return self.ids[row]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "matches":
            self.action_open()

    def action_open(self) -> None:
        mid = self.selected_id()
        if mid is not None:
            self.app.push_screen(MatchScreen(mid))

    def action_stats(self) -> None:
        from tui_domino.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self.variant, self.opponent))

    def action_export(self) -> None:
        mid = self.selected_id()
        if mid is not None:
            export(self, mid)

    def action_close(self) -> None:
        self.app.pop_screen()


def export(screen: Screen[None], match_id: int) -> None:
    """Writes match ``match_id`` as JSON in the data folder's exports/ (in a thread) and
    says where."""
    from tui_domino.ui import storage

    def write() -> None:
        from tui_domino.history import db

        try:
            con = _connect()
            try:
                rec = db.load_match(con, match_id)
            finally:
                con.close()
            folder = storage.data_dir() / "exports"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"match-{match_id}.json"
            storage.write_json_atomic(path, rec)
        except Exception as exc:
            screen.app.call_from_thread(screen.notify, f"The match could not be exported: "
                                        f"{exc}", title="Export", severity="error")
            return
        screen.app.call_from_thread(screen.notify, f"Saved the match as {path}",
                                    title="Export", timeout=8)

    screen.run_worker(write, thread=True, group="export", exit_on_error=False)


class MatchScreen(Screen[None]):
    """One match of the history: its rounds; Enter reviews the chosen one."""

    BINDINGS = [
        Binding("enter", "review", "Review", key_display="⏎"),
        Binding("x", "export", "Export"),
        Binding("escape", "close", "Back"),
    ]

    DEFAULT_CSS = """
    MatchScreen #head { height: auto; padding: 0 1; }
    MatchScreen DataTable { height: 1fr; }
    """

    def __init__(self, match_id: int) -> None:
        super().__init__()
        self.match_id = match_id
        self.record: MatchRecord | None = None

    def compose(self) -> ComposeResult:
        yield Static("Reading the match…", id="head")
        table: DataTable[str | Text] = DataTable(cursor_type="row")
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    @work(exclusive=True, group="match", thread=True)
    def load(self) -> None:
        from tui_domino.history import db

        try:
            con = _connect()
            try:
                rec = db.load_match(con, self.match_id)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(self.notify, f"The match cannot be read: {exc}",
                                      severity="error")
            return
        self.app.call_from_thread(self._fill, rec)

    def _fill(self, rec: MatchRecord | None) -> None:
        if rec is None:
            self.query_one("#head", Static).update("This match is no longer in the history.")
            return
        self.record = rec
        names = [p["name"] for p in rec["players"]]
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("Round", plain(names[0][:14]), plain(names[1][:14]), "Winner",
                          "Hints", "Your choices cost")
        for r in rec["rounds"]:
            w = r.get("winner")
            review = r.get("review")
            me = rec.get("me")
            cost = ("not reviewed" if not review else
                    f"{sum(j['loss'] for j in review if j['player'] == me):.1f} points"
                    if me is not None else "reviewed")
            table.add_row(str(r["number"]), str(r["points"][0]), str(r["points"][1]),
                          plain(names[w][:14]) if w in (0, 1) else "tie", str(r["hints"]),
                          cost)
        head = (f"{VARIANT_TITLES[rec['variant']]}, {rec['played_at'][:16].replace('T', ' ')}"
                f": {names[0]} {rec['totals'][0]} – {rec['totals'][1]} {names[1]}. "
                f"Take-backs {rec['take_backs']}, hints {rec['hints']}.")
        self.query_one("#head", Static).update(plain(head))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_review()

    def action_review(self) -> None:
        rec = self.record
        if rec is None:
            return
        row = self.query_one(DataTable).cursor_row
        if row is None or not 0 <= row < len(rec["rounds"]):
            return
        rnd = rec["rounds"][row]
        from tui_domino.ui.screens.review import ReviewScreen

        def keep(review: list[JudgementJSON]) -> None:
            from tui_domino.ui.history_db import save_review

            self.run_worker(lambda: save_review(self.match_id, rnd["number"], review),
                            thread=True, group="keep", exit_on_error=False)
            self._fill(rec)

        self.app.push_screen(ReviewScreen(rec["variant"], rec["options"], rnd,
                                          [p["name"] for p in rec["players"]], rec.get("me"),
                                          keep))

    def action_export(self) -> None:
        export(self, self.match_id)

    def action_close(self) -> None:
        self.app.pop_screen()


def dumps(record: MatchRecord) -> str:
    return json.dumps(record)
