"""Between two people on one terminal: the hand is hidden until the next player is ready."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from tui_domino.ui.plain import assemble, plain


class HandoverScreen(ModalScreen[str | None]):
    """Dismissed with None when the next player is ready, "menu" for the main menu (the
    match is saved; Continue hands over again)."""

    BINDINGS = [
        Binding("enter", "ready", "Ready", key_display="⏎"),
        Binding("escape", "menu", "Menu"),
        Binding("q", "menu", "Menu", show=False),
    ]

    DEFAULT_CSS = """
    HandoverScreen { align: center middle; }  /* opaque: app.tcss */
    HandoverScreen > Vertical {
        width: 50; height: auto; border: round $accent; padding: 1 2; background: $panel;
    }
    HandoverScreen Static { text-align: center; width: 100%; }
    HandoverScreen Button { width: 100%; margin-top: 1; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(assemble((self.player_name, "bold"), ", your turn."))
            yield Static("The other player looks away.", classes="dim")
            yield Button(plain(f"Show {self.player_name}'s hand"), variant="primary")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_menu(self) -> None:
        self.dismiss("menu")
