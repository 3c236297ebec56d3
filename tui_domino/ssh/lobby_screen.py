"""The lobby as a visitor sees it: who is here, a challenge, and the answer to one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.app import ComposeResult
from textual.containers import Center, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from tui_domino.i18n import N_, _, ngettext
from tui_domino.text import one_line
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_words import game_title, styled
from tui_domino.ui.session import VARIANT_TITLES

if TYPE_CHECKING:
    from textual.dom import DOMNode

VARIANTS = tuple(VARIANT_TITLES)


@runtime_checkable
class LobbyApp(Protocol):
    """What the SSH visitor's app adds to the game's app, as the lobby's screens use it:
    who is here, who this visitor is, and the challenge he has sent."""

    people: list[dict[str, Any]]
    member_id: int | None
    player_name: str
    has_account: bool

    def challenge(self, to: int, variant: str) -> None:
        """Challenge the visitor ``to`` to a duel of ``variant``."""

    def withdraw(self) -> bool:
        """Withdraw the challenge sent (False: there was none)."""

    def ask_code(self) -> None:
        """Ask the lobby for a one-time code that adds a key to this visitor's account."""


def lobby_app(node: DOMNode) -> LobbyApp:
    """The visitor's app showing ``node`` (TypeError if an app of another kind shows it)."""
    app = node.app
    if not isinstance(app, LobbyApp):
        raise TypeError(f"{type(app).__name__} is not a visitor's app")
    return app

# Where a visitor is, after his name in the lobby's list (the keys are the lobby's states).
STATE_TEXT = {
    # TRANSLATORS: where a visitor is, after his name in the lobby's list (short)
    "lobby": N_("in the lobby"),
    # TRANSLATORS: where a visitor is, after his name in the lobby's list (short)
    "menu": N_("at the menu"),
    # TRANSLATORS: where a visitor is, after his name in the lobby's list (short)
    "game": N_("playing"),
    # TRANSLATORS: where a visitor is, after his name in the lobby's list (short)
    "duel": N_("in a duel"),
}


def rating_of(person: dict[str, Any], variant: str) -> str | None:
    """A visitor's rating in ``variant`` as the lobby sent it (``1512?``), if he has one."""
    ratings = person.get("ratings")
    rating = ratings.get(variant) if isinstance(ratings, dict) else None
    if isinstance(rating, str) and 0 < len(rating) <= 6 and rating.rstrip("?").isdigit():
        return rating
    return None


def describe(person: dict[str, Any], variant: str = "classic") -> str:
    """A visitor in the lobby's list: his name (with his rating in ``variant``, or marked
    a guest), and where he is."""
    where = str(person.get("state"))
    # TRANSLATORS: where a visitor is, after his name in the lobby's list, when it is not
    # known (short)
    state = _(STATE_TEXT[where]) if where in STATE_TEXT else _("here")
    if person.get("with"):
        # TRANSLATORS: after a visitor's name in the lobby's list; {name} is his opponent's
        state = _("in a duel with {name}").format(name=person["with"])
    name = str(person.get("name", "?"))
    rating = rating_of(person, variant)
    if rating is not None:
        name = f"{name} {rating}"
    elif person.get("guest") is True:
        # TRANSLATORS: after a visitor's name in the lobby's list: he has no account (short)
        name = f"{name} · {_('guest')}"
    return f"{name:<22} {state}"


class LobbyScreen(Screen[None]):
    """Everyone connected to this server; Enter challenges the highlighted visitor."""

    BINDINGS = [
        Key("enter", "challenge", "Challenge", key_display="⏎"),
        Key("v", "variant", "Game"),
        Key("p", "play", "Play alone"),
        Key("c", "code", "Key code"),
        Key("escape", "withdraw", "Withdraw", show=False),
        Key("q", "leave", "Leave"),
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
            yield Static(self._title(), id="lobby-title")
            yield Static("", id="welcome")
            yield OptionList(id="people")
            yield Static("", id="variant")
            yield Static("", id="status")
        yield Footer()

    @staticmethod
    def _title() -> str:
        # TRANSLATORS: the lobby's title; tui-domino is the game's name, kept as it is
        return _("tui-domino · lobby")

    def on_mount(self) -> None:
        self.show_people(lobby_app(self).people)
        self.show_variant()
        self.query_one(OptionList).focus()

    def relabel(self) -> None:
        """The language changed: the lobby's words anew (the highlighted visitor, the game
        chosen and the last answer are kept)."""
        self.query_one("#lobby-title", Static).update(self._title())
        self.show_people(lobby_app(self).people)
        self.show_variant()

    def on_screen_resume(self) -> None:
        self.show_people(lobby_app(self).people)

    @property
    def me(self) -> int | None:
        return lobby_app(self).member_id

    def show_people(self, people: list[dict[str, Any]]) -> None:
        if not self.is_mounted:
            return
        me = self.me
        others = [p for p in people if p.get("id") != me]
        self.people = others
        name = lobby_app(self).player_name
        n = len(others)
        welcome = styled(_("Welcome, {name}."), name=(name, "bold"))
        welcome.append_text(plain(" " + (ngettext("{n} other visitor here.",
                                                  "{n} other visitors here.", n).format(n=n)
                                         if others else _("Nobody else is here yet."))))
        self.query_one("#welcome", Static).update(welcome)
        menu = self.query_one(OptionList)
        keep = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        if others:
            menu.add_options([Option(plain(describe(p, self.variant)), id=str(p["id"]))
                              for p in others])
            ids = [str(p["id"]) for p in others]
            menu.highlighted = ids.index(keep) if keep in ids else 0
        else:
            # TRANSLATORS: in the lobby's empty list; p is the key that starts a game alone
            menu.add_option(Option(_("Whoever connects appears here. Press p to play "
                                     "against the computer meanwhile."), disabled=True))

    def show_variant(self) -> None:
        # TRANSLATORS: under the lobby's list: the game a challenge is to ({game}, in bold);
        # v is the key that changes it
        self.query_one("#variant", Static).update(styled(
            _("A challenge is to: {game}  (v changes)"),
            game=(game_title(self.variant), "bold")))

    def say(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#status", Static).update(plain(one_line(text)))  # one line

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_challenge()

    def action_challenge(self) -> None:
        menu = self.query_one(OptionList)
        option = menu.highlighted_option
        if option is None or option.id is None:
            self.say(_("There is nobody to challenge yet."))
            return
        person = next((p for p in self.people if str(p["id"]) == option.id), None)
        if person is None:
            return
        if person.get("state") not in ("lobby", "menu"):
            self.say(_("{name} is busy; try again when they are back.").format(
                name=person["name"]))
            return
        lobby_app(self).challenge(int(person["id"]), self.variant)
        # TRANSLATORS: {name} is the challenged visitor's; Esc is the key's name
        self.say(_("Waiting for {name} to answer… (Esc withdraws)").format(
            name=person["name"]))

    def action_withdraw(self) -> None:
        if lobby_app(self).withdraw():
            self.say(_("Challenge withdrawn."))

    def action_variant(self) -> None:
        self.variant = VARIANTS[(VARIANTS.index(self.variant) + 1) % len(VARIANTS)]
        self.show_variant()
        self.show_people(lobby_app(self).people)  # their ratings in this game

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a code for another key: only an account's owner has keys to add to
        return action != "code" or lobby_app(self).has_account

    def action_code(self) -> None:
        lobby_app(self).ask_code()

    def action_play(self) -> None:
        self.app.pop_screen()

    def action_leave(self) -> None:
        self.app.exit()


class ChallengeScreen(ModalScreen[bool]):
    """Someone challenges this visitor: accept or decline."""

    BINDINGS = [
        Key("a", "answer(True)", "Accept"),
        Key("y", "answer(True)", "Accept", show=False),
        Key("d", "answer(False)", "Decline"),
        Key("n", "answer(False)", "Decline", show=False),
        Key("escape", "answer(False)", "Decline", show=False),
    ]

    DEFAULT_CSS = """
    ChallengeScreen { align: center middle; }
    ChallengeScreen #challenge-box { width: 52; height: auto; border: thick $accent;
                                     background: $surface; padding: 1 2; }
    ChallengeScreen #challenge-text { width: 100%; text-align: center; margin-bottom: 1; }
    ChallengeScreen #challenge-rated { width: 100%; text-align: center; margin-bottom: 1;
                                       color: $accent; }
    ChallengeScreen Horizontal { height: auto; align-horizontal: center; }
    ChallengeScreen Button { margin: 0 1; }
    """

    def __init__(self, challenger: str, variant: str, rated: bool = False) -> None:
        super().__init__()
        self.challenger = challenger
        self.variant = variant
        self.rated = rated

    def compose(self) -> ComposeResult:
        with Vertical(id="challenge-box"):
            yield Static(
                # TRANSLATORS: {name} is the challenger's name, {game} the game's (both in
                # bold)
                styled(_("{name} challenges you to a duel of {game}."),
                       name=(self.challenger, "bold"),
                       game=(game_title(self.variant), "bold")),
                id="challenge-text",
            )
            if self.rated:
                # TRANSLATORS: in the box of a challenge between two accounts
                yield Static(_("Rated: the result changes both your ratings."),
                             id="challenge-rated")
            with Center(), Horizontal():
                # TRANSLATORS: buttons; (a) and (d) are their keys, which stay as they are
                yield Button(_("Accept (a)"), id="accept", variant="primary")
                yield Button(_("Decline (d)"), id="decline")

    def relabel(self) -> None:
        """The language changed: the question is composed anew in it."""
        self.refresh(recompose=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "accept")

    def action_answer(self, accept: bool) -> None:
        self.dismiss(accept)
