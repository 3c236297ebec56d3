"""The match history: every finished match, newest first, filtered by game and opponent; a
match's rounds, each opened for its review; a match exported as JSON; the statistics per game
and opponent, under the same filters.

The database is read in a thread: the screen draws at once and fills its table when the
rows are there (the newest ``PAGE`` matches of the filter; the count says how many in all).
"""

from __future__ import annotations

import datetime
import json
import sqlite3
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, OptionList, Static
from textual.widgets.option_list import Option

from tui_domino import i18n
from tui_domino.i18n import N_, _, ngettext, pgettext
from tui_domino.ui import storage
from tui_domino.ui.history_db import save_review
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.session import VARIANT_TITLES

if TYPE_CHECKING:  # the history's modules load when the screen reads it
    from tui_domino.ai.coach import JudgementJSON
    from tui_domino.history.db import MatchRow
    from tui_domino.history.records import MatchRecord
    from tui_domino.history.stats import Stats

PAGE = 100
FIRST = 45  # more lines than the tallest usual terminal shows
# the columns of the list: (width, aligned right)
COLUMNS = ((16, False), (9, False), (23, False), (7, True), (9, False), (6, True))
PLAYERS = 2  # the players' column: left out of a narrow list (the match's screen shows them)
SCORE = 3  # the score's column: in a narrow list, 9 wide, the winner's total marked
NARROW = 80  # a list narrower than this many columns is narrow


def row_text(*cells: str, narrow: bool = False) -> Text:
    """One line of the list, its cells cut and padded to the columns (plain text: names
    come from the records); ``narrow``: without the players."""
    out = []
    for column, (cell, (width, right)) in enumerate(zip(cells, COLUMNS, strict=True)):
        if narrow and column == PLAYERS:
            continue
        if narrow and column == SCORE:
            width = 9
        cell = cell[:width]
        out.append(cell.rjust(width) if right else cell.ljust(width))
    return plain(" ".join(out).rstrip())
GAMES = (None, "classic", "spider", "triominos")

# A game in the list's column of 9 (translated where shown).
SHORT_TITLES = {
    # TRANSLATORS: the history's column of the game, 9 columns: Classic dominoes, Domino
    # Spider, Triominos in a word.
    "classic": N_("Classic"),
    "spider": N_("Spider"),
    "triominos": N_("Triominos"),
}


# The opponent as the history keeps it: a computer's level, "person" or "duel".
OPPONENT_WORDS = {
    # TRANSLATORS: the history's opponent column (9 columns) and filter: a person at the
    # same terminal, a network duel, or the computer's level
    "person": N_("person"),
    "duel": N_("duel"),
    "computer": N_("computer"),
    "random": N_("random"),
    "easy": N_("easy"),
    "greedy": N_("greedy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
}


def opponent_word(key: str) -> str:
    """The history's opponent in the language in use."""
    return _(OPPONENT_WORDS[key]) if key in OPPONENT_WORDS else key


def filter_text(variant: str | None, opponent: str | None) -> str:
    """What a filter counts: "Classic dominoes · Ann", "all games"."""
    shown = [_(VARIANT_TITLES[variant]) if variant in VARIANT_TITLES else variant or "",
             opponent_word(opponent) if opponent else ""]
    return " · ".join(x for x in shown if x) or _("all games")


def players_text(players: tuple[str, str], winner: int | None) -> str:
    """The list's players, the winner marked (in Spider the lower score wins, so the score
    alone does not say it): "Ann ✓ – Computer"."""
    return " – ".join(name[:10] + (" ✓" if winner == i else "")
                      for i, name in enumerate(players))


def score_text(totals: tuple[int, int] | list[int], winner: int | None, mark: bool) -> str:
    """The totals, "119–53"; ``mark``: the winner's marked, "119–53 ✓" (a narrow list
    has no players' column to mark him in)."""
    if not mark:
        return f"{totals[0]}–{totals[1]}"
    return "–".join(f"{t}✓" if winner == i else str(t) for i, t in enumerate(totals))


def when_text(played_at: str, short: bool = False) -> str:
    """When a match was played (its record's time, UTC), as the language writes it
    (``short``: in the list's 16 columns)."""
    try:
        return i18n.when(datetime.datetime.fromisoformat(played_at), short)
    except ValueError:
        return played_at[:16].replace("T", " ")


class Filters:
    """The keys that choose which matches a screen counts: g the game (all, then each
    variant), o the opponent (all, then each met); both load the screen again."""

    variant: str | None
    opponent: str | None
    opponents: list[str | None]
    loaded: bool  # what is shown is what the filter counts

    def reload(self) -> object:
        raise NotImplementedError

    def wanted(self) -> tuple[str | None, str | None]:
        """The filter now: the game and the opponent (None: all)."""
        return self.variant, self.opponent

    def action_game(self) -> None:
        self.variant = GAMES[(GAMES.index(self.variant) + 1) % len(GAMES)]
        self.loaded = False
        self.reload()

    def action_opponent(self) -> None:
        i = self.opponents.index(self.opponent) if self.opponent in self.opponents else 0
        self.opponent = self.opponents[(i + 1) % len(self.opponents)]
        self.loaded = False
        self.reload()


def _connect() -> sqlite3.Connection:
    # lazy: worker (called in the screen's threads: sqlite3 loads off the UI)
    from tui_domino.history import db

    return db.connect()


class HistoryScreen(Filters, Screen[None]):
    BINDINGS = [
        # TRANSLATORS: the history's footer, a short word under each key: open the match,
        # choose the game, the opponent, the statistics, save the match as a file, back.
        # (before the list's own Enter, which the footer does not show)
        Key("enter", "open", "Open", key_display="⏎", priority=True),
        Key("g", "game", "Game"),
        Key("o", "opponent", "Opponent"),
        Key("s", "stats", "Statistics"),
        Key("x", "export", "Export"),
        Key("escape", "close", "Back"),
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
        self._keep: int | None = None  # the match to choose again when the list is read
        self.loaded = False
        self.narrow = False  # the list without the players (a terminal under 80 columns)
        self._shown: tuple[list[MatchRow], int, list[str]] | None = None  # the page read
        self._fills = 0  # pages shown so far

    def compose(self) -> ComposeResult:
        self.narrow = self.app.size.width < NARROW
        yield Static(_("Reading the history…"), id="status")
        yield Static(self.heads(), id="heads")
        # one line a match, its columns aligned (a list draws far faster than a data table:
        # the screen opens at once on 10,000 matches)
        yield OptionList(id="matches")
        yield Footer()

    def heads(self) -> Text:
        # TRANSLATORS: the heads of the history's columns, cut to 16, 9, 23, 7, 9 and 6
        # columns: when the match was played, the game, the players, the score, the
        # opponent, the number of rounds.
        return row_text(_("When"), _("Game"), _("Players"), _("Score"), _("Opponent"),
                        _("Rounds"), narrow=self.narrow)

    def on_resize(self) -> None:
        narrow = self.app.size.width < NARROW
        if narrow != self.narrow:  # the list with its players' column, or without
            self.narrow = narrow
            self.query_one("#heads", Static).update(self.heads())
            if self._shown is not None:
                self._keep = self.selected_id()
                self.fill(*self._shown, self.wanted())

    def on_mount(self) -> None:
        self.query_one("#matches", OptionList).focus()
        self.reload()

    def relabel(self) -> None:
        """The language changed: the heads anew, and the list read again in it (the same
        match chosen)."""
        self.query_one("#heads", Static).update(self.heads())
        self._keep = self.selected_id()
        self.reload()

    @work(exclusive=True, group="history", thread=True)
    def reload(self) -> None:
        # lazy: worker (a thread worker: sqlite3 loads off the UI)
        from tui_domino.history import db

        wanted = self.wanted()
        try:
            con = _connect()
            try:
                rows, total = db.list_matches(con, *wanted, PAGE)
                opponents = db.opponents(con)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(self._failed, exc)
            return
        self.app.call_from_thread(self.fill, rows, total, opponents, wanted)

    def _failed(self, exc: Exception) -> None:
        self.query_one("#status", Static).update(plain(
            _("The history cannot be read: {error}").format(error=exc)))

    def fill(self, rows: list[MatchRow], total: int, opponents: list[str],
             wanted: tuple[str | None, str | None]) -> None:
        """Shows a page of the history read for the filter ``wanted`` (game, opponent): a
        page read for a filter since changed (g pressed again while it was read) is left
        out, the newer one on its way."""
        if wanted != self.wanted():
            return
        with self.app.batch_update():  # one layout and one frame for the list and its line
            self._fill_now(rows, total, opponents)

    def _fill_now(self, rows: list[MatchRow], total: int, opponents: list[str]) -> None:
        self._shown = (rows, total, opponents)
        self.opponents = [None, *opponents]
        menu = self.query_one("#matches", OptionList)
        menu.clear_options()
        self.ids = [r.id for r in rows]
        options = [Option(row_text(
            when_text(r.played_at, short=True),
            _(SHORT_TITLES.get(r.variant, r.variant)),
            players_text(r.players, r.winner), score_text(r.totals, r.winner, self.narrow),
            opponent_word(r.opponent), str(r.rounds), narrow=self.narrow), id=str(r.id))
            for r in rows]
        # the lines a screen shows at once first, the rest of the page once they are drawn
        # (unless another page is shown by then)
        self._fills += 1
        fill = self._fills

        def rest() -> None:
            if fill == self._fills:
                menu.add_options(options[FIRST:])

        def choose(row: int) -> None:
            if fill == self._fills:
                menu.highlighted = row

        menu.add_options(options[:FIRST])
        if options[FIRST:]:
            self.call_after_refresh(rest)
        if rows:
            keep = self.ids.index(self._keep) if self._keep in self.ids else 0
            if keep < FIRST:
                menu.highlighted = keep
            else:  # once its line is there
                menu.highlighted = 0
                self.call_after_refresh(choose, keep)
        self._keep = None
        what = filter_text(self.variant, self.opponent)
        if len(rows) < total:
            # TRANSLATORS: the history's first line: how many matches the filter counts
            # ({what}: "all games", "classic · Ann"), of which the list shows the newest
            # {shown}; g and o are keys.
            status = ngettext("{n} match ({what}), the newest {shown}. g: game, o: opponent.",
                              "{n} matches ({what}), the newest {shown}. g: game, o: opponent.",
                              total).format(n=total, what=what, shown=len(rows))
        else:
            # TRANSLATORS: the history's first line: how many matches the filter counts
            # ({what}: "all games", "classic · Ann"); g and o are keys.
            status = ngettext("{n} match ({what}). g: game, o: opponent.",
                              "{n} matches ({what}). g: game, o: opponent.",
                              total).format(n=total, what=what)
        self.query_one("#status", Static).update(plain(status))
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

    def write() -> None:
        # lazy: worker (a thread worker: sqlite3 loads off the UI)
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
            screen.app.call_from_thread(
                screen.notify, _("The match could not be exported: {error}").format(error=exc),
                title=_("Export"), severity="error")
            return
        # TRANSLATORS: {path} is the file the match was written to.
        screen.app.call_from_thread(screen.notify,
                                    _("Saved the match as {path}").format(path=path),
                                    title=_("Export"), timeout=8)

    screen.run_worker(write, thread=True, group="export", exit_on_error=False)


class MatchScreen(Screen[None]):
    """One match of the history: its rounds; Enter reviews the chosen one."""

    BINDINGS = [
        # TRANSLATORS: the footer's key word: the coach's review of the chosen round.
        # (before the table's own Enter, which the footer does not show)
        Key("enter", "review", "Review", key_display="⏎", priority=True),
        Key("x", "export", "Export"),
        Key("escape", "close", "Back"),
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
        yield Static(_("Reading the match…"), id="head")
        table: DataTable[str | Text] = DataTable(cursor_type="row")
        yield table
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.load()

    def relabel(self) -> None:
        """The language changed: the match's words anew, the same round chosen."""
        if self.record is None:
            return  # still reading: its words come in the language in use
        table = self.query_one(DataTable)
        row = table.cursor_row
        self._fill(self.record)
        table.move_cursor(row=row)

    @work(exclusive=True, group="match", thread=True)
    def load(self) -> None:
        # lazy: worker (a thread worker: sqlite3 loads off the UI)
        from tui_domino.history import db

        try:
            con = _connect()
            try:
                rec = db.load_match(con, self.match_id)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(
                self.notify, _("The match cannot be read: {error}").format(error=exc),
                severity="error")
            return
        self.app.call_from_thread(self._fill, rec)

    def _fill(self, rec: MatchRecord | None) -> None:
        if rec is None:
            self.query_one("#head", Static).update(_("This match is no longer in the history."))
            return
        self.record = rec
        names = [p["name"] for p in rec["players"]]
        table = self.query_one(DataTable)
        table.clear(columns=True)
        # TRANSLATORS: the heads of a match's table of rounds (between them, the two players'
        # names): the round's number, its winner, the hints asked, what the player's choices
        # cost by the coach's review.
        table.add_columns(_("Round"), plain(names[0][:14]), plain(names[1][:14]), _("Winner"),
                          _("Hints"), _("Your choices cost"))
        for r in rec["rounds"]:
            w = r.get("winner")
            review = r.get("review")
            me = rec.get("me")
            if not review:
                # TRANSLATORS: a round the coach has not reviewed (yet).
                cost = _("not reviewed")
            elif me is not None:
                # TRANSLATORS: {points} is a decimal number ("3.5"): the points the player's
                # choices cost in the round.
                cost = _("{points} points").format(points=i18n.decimal(
                    sum(j["loss"] for j in review if j["player"] == me)))
            else:  # two people at one terminal: no "your"
                cost = _("reviewed")
            # TRANSLATORS: the winner of a tied round (in the Winner column).
            winner: str | Text = pgettext("winner", "tie")
            if w in (0, 1):
                winner = plain(names[w][:14])
            table.add_row(str(r["number"]), str(r["points"][0]), str(r["points"][1]),
                          winner, str(r["hints"]), cost)
        # TRANSLATORS: the head of a match in the history: the game, when it was played, the
        # players and their totals ("Ann 120 – 95 Computer"), the take-backs and hints used.
        head = _("{game}, {when}: {first} {first_total} – {second_total} {second}. "
                 "Take-backs {take_backs}, hints {hints}.").format(
            game=_(VARIANT_TITLES[rec["variant"]]), when=when_text(rec["played_at"]),
            first=names[0], first_total=rec["totals"][0], second_total=rec["totals"][1],
            second=names[1], take_backs=rec["take_backs"], hints=rec["hints"])
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
        # lazy: on demand (the review's coach and search, ~160 ms, load when a round is reviewed)
        from tui_domino.ui.screens.review import ReviewScreen

        def keep(review: list[JudgementJSON]) -> None:
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

        wanted = self.wanted()
        try:
            con = db.connect()
            try:
                st = stats.compute(con, *wanted)
                opponents = db.opponents(con)
            finally:
                con.close()
        except Exception as exc:
            self.app.call_from_thread(
                self._show_text, _("The history cannot be read: {error}").format(error=exc))
            return
        self.app.call_from_thread(self.fill, st, opponents, wanted)

    def _show_text(self, text: str) -> None:
        self.query_one("#body", Static).update(plain(text))

    def fill(self, st: Stats, opponents: list[str],
             wanted: tuple[str | None, str | None]) -> None:
        """Shows the figures read for the filter ``wanted`` (game, opponent); figures read
        for a filter since changed are left out, the newer ones on their way."""
        if wanted != self.wanted():
            return
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
