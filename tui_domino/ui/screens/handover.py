"""Between two people on one terminal: the hand is hidden until the next player is ready."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui_domino.ui.plain import assemble, plain


class HandoverScreen(ModalScreen[None]):
    BINDINGS = [Binding("enter", "ready", "Ready", key_display="⏎")]

    DEFAULT_CSS = """
    HandoverScreen { align: center middle; background: $background 90%; }
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

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)
