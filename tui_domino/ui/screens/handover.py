"""Between two people on one terminal: the hand is hidden until the next player is ready."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui_domino.i18n import _
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import assemble, plain


class HandoverScreen(ModalScreen[str | None]):
    """Dismissed with None when the next player is ready, "menu" for the main menu (the
    match is saved; Continue hands over again)."""

    BINDINGS = [
        # TRANSLATORS: the footer: the next player is at the keyboard
        Key("enter", "ready", "Ready", key_display="⏎"),
        # TRANSLATORS: the footer: back to the main menu
        Key("escape", "menu", "Menu"),
        Key("q", "menu", "Menu", show=False),
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
            # TRANSLATORS: {name} is the next player's name as given, shown in bold
            before, _name, after = _("{name}, your turn.").partition("{name}")
            yield Static(assemble(before, (self.player_name, "bold"), after))
            yield Static(_("The other player looks away."), classes="dim")
            # TRANSLATORS: a button; {name} is a player's name as given ("Show the hand:
            # {name}" spares declining it)
            yield Button(plain(_("Show {name}'s hand").format(name=self.player_name)),
                         variant="primary")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_button_pressed(self) -> None:
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_menu(self) -> None:
        self.dismiss("menu")
