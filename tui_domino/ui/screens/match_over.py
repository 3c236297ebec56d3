"""The end of a match: the winner, the totals, every round."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from tui_domino import rules
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.plain import plain
from tui_domino.ui.session import VARIANT_TITLES, Session, agree


class MatchOverScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "again", "New match"),
        Binding("escape", "menu", "Menu"),
        Binding("q", "menu", "Menu", show=False),
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
            title.append(f"{agree(names[winner], 'wins', 'win')} the match!\n", style="bold")
        if s.variant == "spider":
            title.append(f"Points charged, limit {m.target}.\n", style=quiet)
        else:
            title.append(f"Target {m.target}.\n", style=quiet)
        table = Table(box=None, padding=(0, 2))
        table.add_column("Round", justify="left")
        for n in names:
            table.add_column(plain(n[:14]), justify="right")
        rounds = [*m.past, rules.RoundSummary(round=m.round_no, points=s.state.points,
                                              winner=s.state.winner,
                                              end_reason=s.state.end_reason)]
        for r in rounds:
            table.add_row(str(r["round"]), *(str(p) for p in r["points"]))
        table.add_row("Total", *(str(t) for t in m.totals), style="bold")
        with Vertical() as box:
            box.border_title = f"{VARIANT_TITLES[s.variant]}: match over"
            yield Static(title)
            yield Center(Static(table))
            with Horizontal(id="buttons"):
                yield Button("New match", id="again", variant="primary", compact=True)
                yield Button("Main menu", id="menu", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#again", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "again":
            self.action_again()
        else:
            self.action_menu()

    def action_again(self) -> None:
        from tui_domino.ui.screens.new_game import NewGameScreen

        self.app.switch_screen(NewGameScreen(variant=self.session.variant))

    def action_menu(self) -> None:
        self.app.pop_screen()
