"""The leaderboard as a visitor sees it in the lobby: one game's places (rank, name, rating,
RD, rated games), as the lobby sends them; v shows the next game's."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tui_domino.community.leaderboard import empty_note
from tui_domino.i18n import _, ngettext
from tui_domino.text import one_line
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_words import game_title
from tui_domino.ui.session import VARIANT_TITLES

VARIANTS = tuple(VARIANT_TITLES)
NAME_WIDTH = 16


def read_place(raw: object) -> tuple[int, str, float, float, int] | None:
    """One place as the lobby sent it (rank, name, rating, RD, games), checked: None when
    it is not one (the lobby's message is read as any other input)."""
    if not isinstance(raw, dict):
        return None
    rank, name, rating, rd, games = (raw.get(k) for k in ("rank", "name", "rating", "rd",
                                                          "games"))
    if not (type(rank) is int and isinstance(name, str) and type(games) is int
            and all(type(x) in (int, float) for x in (rating, rd))):
        return None
    assert isinstance(rating, int | float) and isinstance(rd, int | float)
    if not (0 < rank <= 1000 and games >= 0 and 0 <= rating < 10_000 and 0 <= rd < 1000):
        return None
    return rank, one_line(name, NAME_WIDTH), float(rating), float(rd), games


class LeaderboardScreen(Screen[None]):
    """One game's leaderboard; ``ask(variant)`` asks the lobby for it."""

    BINDINGS = [
        Key("v", "variant", "Game"),
        # TRANSLATORS: the footer: back to the lobby
        Key("escape", "back", "Lobby"),
        Key("q", "back", "Lobby", show=False),
        Key("l", "back", "Lobby", show=False),
    ]

    DEFAULT_CSS = """
    LeaderboardScreen { align: center middle; }
    LeaderboardScreen #board-box { width: 64; max-width: 100%; height: 1fr; max-height: 22; }
    LeaderboardScreen #board-title { width: 100%; text-align: center; text-style: bold;
                                     color: $accent; }
    LeaderboardScreen #board-note { width: 100%; color: $text-muted; margin-bottom: 1; }
    LeaderboardScreen DataTable { height: 1fr; border: round $primary; }
    """

    def __init__(self, variant: str, ask: Any, me: str = "") -> None:
        super().__init__()
        self.variant = variant if variant in VARIANTS else VARIANTS[0]
        self.ask = ask  # (variant) -> None: asks the lobby for that game's leaderboard
        self.me = me  # this visitor's name: his place shows in bold
        self.places: list[tuple[int, str, float, float, int]] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="board-box"):
            yield Static("", id="board-title")
            yield Static("", id="board-note")
            yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table: DataTable[str | Text] = self.query_one(DataTable)
        table.add_columns(_("Rank"), _("Name"), _("Rating"), _("RD"), _("Games"))
        self.show_title()
        # TRANSLATORS: while the lobby is asked for the leaderboard
        self.query_one("#board-note", Static).update(_("Asking the server…"))
        self.ask(self.variant)
        table.focus()

    def show_title(self) -> None:
        # TRANSLATORS: the leaderboard screen's title; {game} is the game's name
        self.query_one("#board-title", Static).update(
            _("Leaderboard: {game}").format(game=game_title(self.variant)))

    def show(self, message: dict[str, Any]) -> None:
        """The lobby's answer: this game's places (another game's answer is ignored)."""
        if message.get("variant") != self.variant or not self.is_mounted:
            return
        raw = message.get("players")
        places = [p for p in map(read_place, raw if isinstance(raw, list) else [])
                  if p is not None]
        self.places = places
        days, rd = message.get("days"), message.get("rd")
        days = days if type(days) is int and 0 < days < 1000 else 30
        rd = float(rd) if isinstance(rd, int | float) and 0 < rd < 1000 else 110.0
        table: DataTable[str | Text] = self.query_one(DataTable)
        table.clear()
        for rank, name, rating, dev, games in places:
            style = "bold" if name == self.me else ""
            table.add_row(Text(str(rank), style=style, justify="right"),
                          Text(name, style=style),
                          Text(f"{rating:.0f}", style=style, justify="right"),
                          Text(f"{dev:.0f}", style=style, justify="right"),
                          Text(str(games), style=style, justify="right"))
        table.display = bool(places)
        if places:
            # TRANSLATORS: under the leaderboard's title: who is on it ({rd}: 110, {days}: 30)
            note = ngettext("Players past the provisional mark (RD below {rd}) who played "
                            "rated in the last {days} day.",
                            "Players past the provisional mark (RD below {rd}) who played "
                            "rated in the last {days} days.", days)
            text = note.format(rd=f"{rd:g}", days=days)
        else:
            text = empty_note(rd, days)
        self.query_one("#board-note", Static).update(plain(text))

    def relabel(self) -> None:
        """The language changed: the screen is composed anew in it."""
        self.refresh(recompose=True)
        self.call_after_refresh(self.on_mount)

    def action_variant(self) -> None:
        self.variant = VARIANTS[(VARIANTS.index(self.variant) + 1) % len(VARIANTS)]
        self.show_title()
        self.query_one(DataTable).clear()
        self.query_one("#board-note", Static).update(_("Asking the server…"))
        self.ask(self.variant)

    def action_back(self) -> None:
        self.dismiss(None)
