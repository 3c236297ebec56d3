"""The end of a match: the winner, the totals, every round."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Static

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.keys import BUTTON_ARROWS, Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.new_game import NewGameScreen
from tui_domino.ui.session import VARIANT_TITLES, Session, is_you


class MatchOverScreen(Screen[None]):
    BINDINGS = [
        Key("n", "again", "New match"),
        # TRANSLATORS: the footer: back to the main menu
        Key("escape", "menu", "Menu"),
        Key("q", "menu", "Menu", show=False),
        *BUTTON_ARROWS,
    ]

    DEFAULT_CSS = """
    MatchOverScreen { align: center middle; }
    MatchOverScreen > Vertical {
        width: 64; max-width: 100%; height: auto; border: round $accent; padding: 1 2;
    }
    MatchOverScreen #buttons { height: auto; align-horizontal: center; margin-top: 1; }
    MatchOverScreen Button { margin: 0 1; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        m = s.match
        names = [x.name for x in s.seats]
        title = Text()
        quiet = muted_of(self, "background")
        winner = m.winner
        if winner is not None:
            name = names[winner]
            if is_you(name):
                won = _("You win the match!")
            else:
                # TRANSLATORS: {name} is a player's name as given
                won = _("{name} wins the match!").format(name=name)
            title.append(won + "\n", style="bold")
        if s.variant == "spider":
            # TRANSLATORS: Spider's points are charged (a cost); the match ends at the limit
            title.append(_("Points charged, limit {limit}.").format(limit=m.target) + "\n",
                         style=quiet)
        else:
            # TRANSLATORS: the points that win the match
            title.append(_("Target {target}.").format(target=m.target) + "\n", style=quiet)
        table = Table(box=None, padding=(0, 2))
        # TRANSLATORS: the heading of the column of round numbers
        table.add_column(_("Round"), justify="left")
        for n in names:
            table.add_column(plain(n[:14]), justify="right")
        rounds = [*m.past, rules.RoundSummary(round=m.round_no, points=s.state.points,
                                              winner=s.state.winner,
                                              end_reason=s.state.end_reason)]
        for r in rounds:
            table.add_row(str(r["round"]), *(str(p) for p in r["points"]))
        # TRANSLATORS: the row of the match's totals
        table.add_row(_("Total"), *(str(t) for t in m.totals), style="bold")
        with Vertical() as box:
            # TRANSLATORS: a box's title; {game} is the game's name, "Triominos: match over"
            box.border_title = _("{game}: match over").format(game=_(VARIANT_TITLES[s.variant]))
            yield Static(title)
            yield Center(Static(table))
            with Horizontal(id="buttons"):
                yield Button(_("New match"), id="again", variant="primary", compact=True)
                yield Button(_("Main menu"), id="menu", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#again", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "again":
            self.action_again()
        else:
            self.action_menu()

    def action_again(self) -> None:
        self.app.switch_screen(NewGameScreen(variant=self.session.variant))

    def action_menu(self) -> None:
        self.app.pop_screen()
