"""The lobby as a visitor sees it: who is here, a challenge, and the answer to one."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, OptionList, Static
from textual.widgets.option_list import Option

from tui_domino.text import one_line
from tui_domino.ui.plain import assemble, plain
from tui_domino.ui.session import VARIANT_TITLES

VARIANTS = tuple(VARIANT_TITLES)
STATE_TEXT = {"lobby": "in the lobby", "menu": "at the menu", "game": "playing",
              "duel": "in a duel"}


def describe(person: dict[str, Any]) -> str:
    state = STATE_TEXT.get(str(person.get("state")), "here")
    if person.get("with"):
        state = f"in a duel with {person['with']}"
    return f"{str(person.get('name', '?')):<17} {state}"


class LobbyScreen(Screen[None]):
    """Everyone connected to this server; Enter challenges the highlighted visitor."""

    BINDINGS = [
        Binding("enter", "challenge", "Challenge", key_display="⏎"),
        Binding("v", "variant", "Game"),
        Binding("p", "play", "Play alone"),
        Binding("escape", "withdraw", "Withdraw", show=False),
        Binding("q", "leave", "Leave"),
    ]

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    LobbyScreen #lobby-box { width: 64; height: auto; }
    LobbyScreen #lobby-title { width: 100%; text-align: center; text-style: bold;
                               color: $accent; }
    LobbyScreen #welcome { width: 100%; text-align: center; margin-bottom: 1; }
    LobbyScreen OptionList { height: auto; max-height: 12; border: round $primary; }
    LobbyScreen #variant { margin-top: 1; }
    LobbyScreen #status { color: $warning; height: 2; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.variant = "classic"
        self.people: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static("tui-domino · lobby", id="lobby-title")
            yield Static("", id="welcome")
            yield OptionList(id="people")
            yield Static("", id="variant")
            yield Static("", id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.show_people(getattr(self.app, "people", []))
        self.show_variant()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.show_people(getattr(self.app, "people", []))

    @property
    def me(self) -> int | None:
        return getattr(self.app, "member_id", None)

    def show_people(self, people: list[dict[str, Any]]) -> None:
        if not self.is_mounted:
            return
        me = self.me
        others = [p for p in people if p.get("id") != me]
        self.people = others
        name = getattr(self.app, "player_name", "")
        self.query_one("#welcome", Static).update(assemble(
            "Welcome, ", (name, "bold"), ". ",
            (f"{len(others)} other visitor{'s' * (len(others) != 1)} here."
             if others else "Nobody else is here yet.")))
        menu = self.query_one(OptionList)
        keep = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        if others:
            menu.add_options([Option(plain(describe(p)), id=str(p["id"])) for p in others])
            ids = [str(p["id"]) for p in others]
            menu.highlighted = ids.index(keep) if keep in ids else 0
        else:
            menu.add_option(Option("Whoever connects appears here. Press p to play "
                                   "against the computer meanwhile.", disabled=True))

    def show_variant(self) -> None:
        self.query_one("#variant", Static).update(assemble(
            "A challenge is to: ", (VARIANT_TITLES[self.variant], "bold"), "  (v changes)"))

    def say(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#status", Static).update(plain(one_line(text)))  # one line

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_challenge()

    def action_challenge(self) -> None:
        menu = self.query_one(OptionList)
        option = menu.highlighted_option
        if option is None or option.id is None:
            self.say("There is nobody to challenge yet.")
            return
        person = next((p for p in self.people if str(p["id"]) == option.id), None)
        if person is None:
            return
        if person.get("state") not in ("lobby", "menu"):
            self.say(f"{person['name']} is busy; try again when they are back.")
            return
        self.app.challenge(int(person["id"]), self.variant)  # type: ignore[attr-defined]
        self.say(f"Waiting for {person['name']} to answer… (Esc withdraws)")

    def action_withdraw(self) -> None:
        if self.app.withdraw():  # type: ignore[attr-defined]
            self.say("Challenge withdrawn.")

    def action_variant(self) -> None:
        self.variant = VARIANTS[(VARIANTS.index(self.variant) + 1) % len(VARIANTS)]
        self.show_variant()

    def action_play(self) -> None:
        self.app.pop_screen()

    def action_leave(self) -> None:
        self.app.exit()


class ChallengeScreen(ModalScreen[bool]):
    """Someone challenges this visitor: accept or decline."""

    BINDINGS = [
        Binding("a", "answer(True)", "Accept"),
        Binding("y", "answer(True)", "Accept", show=False),
        Binding("d", "answer(False)", "Decline"),
        Binding("n", "answer(False)", "Decline", show=False),
        Binding("escape", "answer(False)", "Decline", show=False),
    ]

    DEFAULT_CSS = """
    ChallengeScreen { align: center middle; }
    ChallengeScreen #challenge-box { width: 52; height: auto; border: thick $accent;
                                     background: $surface; padding: 1 2; }
    ChallengeScreen #challenge-text { width: 100%; text-align: center; margin-bottom: 1; }
    ChallengeScreen Horizontal { height: auto; align-horizontal: center; }
    ChallengeScreen Button { margin: 0 1; }
    """

    def __init__(self, challenger: str, variant: str) -> None:
        super().__init__()
        self.challenger = challenger
        self.variant = variant

    def compose(self) -> ComposeResult:
        with Vertical(id="challenge-box"):
            yield Static(
                assemble((self.challenger, "bold"), " challenges you to a duel of ",
                         (VARIANT_TITLES.get(self.variant, self.variant), "bold"), "."),
                id="challenge-text",
            )
            with Center(), Horizontal():
                yield Button("Accept (a)", id="accept", variant="primary")
                yield Button("Decline (d)", id="decline")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "accept")

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)
