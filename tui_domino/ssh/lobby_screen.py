"""The lobby as a visitor sees it: who is here, their seeks, a challenge and the answer to
one; posting a seek, quick pairing, the leaderboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Center, Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from tui_domino.i18n import N_, _, ngettext
from tui_domino.ssh.leaderboard_screen import LeaderboardScreen
from tui_domino.ssh.pairing import HIGHEST, LOWEST, Seek, read_public_seek
from tui_domino.text import one_line
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_words import game_title, styled
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.session import VARIANT_TITLES

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.timer import Timer

VARIANTS = tuple(VARIANT_TITLES)


@runtime_checkable
class LobbyApp(Protocol):
    """What the SSH visitor's app adds to the game's app, as the lobby's screens use it:
    who is here, who this visitor is, and the challenge he has sent."""

    people: list[dict[str, Any]]
    duels: list[dict[str, Any]]
    member_id: int | None
    player_name: str
    has_account: bool
    is_operator: bool
    move_times: tuple[int, ...]  # the move times the lobby offers (seconds a move)
    move_time: int  # the lobby's default
    waiting_duel: tuple[str, float] | None  # a duel of his that waits: opponent, until when
    clock: Callable[[], float]  # (``waiting_duel``'s)

    def back_to_duel(self) -> None:
        """Take up the duel that waits for this visitor."""

    def challenge(self, to: int, variant: str, turn: int | None = None) -> None:
        """Challenge the visitor ``to`` to a duel of ``variant``, ``turn`` seconds a move
        (None: the lobby's default)."""

    def withdraw(self) -> bool:
        """Withdraw the challenge sent (False: there was none)."""

    def ask_code(self) -> None:
        """Ask the lobby for a one-time code that adds a key to this visitor's account."""

    def post_seek(self, seek: Seek | None) -> None:
        """Post ``seek`` in the lobby (None: withdraw this visitor's seek)."""

    def take_seek(self, seeker: int) -> None:
        """Take the seek of the visitor ``seeker``."""

    def quick(self, variant: str | None) -> None:
        """Wait for quick pairing in ``variant`` (None: stop waiting)."""

    def ask_leaderboard(self, variant: str) -> None:
        """Ask the lobby for ``variant``'s leaderboard."""

    def watch_duel(self, duel: int) -> None:
        """Watch the live duel ``duel``."""

    def command(self, text: str) -> None:
        """Send the lobby a command line (``/ignore bob``, an operator's ``/mute bob 10m``)."""

    def toggle_ignore(self, to: int) -> None:
        """Ignore the visitor ``to``, or no longer."""

    def report_state(self) -> None:
        """Tell the lobby where this visitor is now, if it changed."""


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
    # TRANSLATORS: where a visitor is, after his name in the lobby's list (short)
    "watch": N_("watching a duel"),
}


def describe_duel(duel: dict[str, Any]) -> str | None:
    """A live duel in the lobby's list: both players with their ratings, the game, and how
    many watch; None when the lobby's entry is not one."""
    names, ratings, variant = duel.get("names"), duel.get("ratings"), duel.get("variant")
    watchers = duel.get("watchers")
    if (type(duel.get("duel")) is not int or not isinstance(names, list) or len(names) != 2
            or not all(isinstance(n, str) for n in names) or variant not in VARIANTS
            or not isinstance(ratings, list) or len(ratings) != 2):
        return None
    seats = []
    for name, rating in zip(names, ratings, strict=True):
        shown = one_line(name, 16)
        ok = isinstance(rating, str) and 0 < len(rating) <= 6 and rating.rstrip("?").isdigit()
        seats.append(f"{shown} {rating}" if ok else shown)
    line = f"{seats[0]} – {seats[1]} · {game_title(str(variant))}"
    if type(watchers) is int and watchers > 0:
        line += " · " + ngettext("{n} watching", "{n} watching", watchers).format(n=watchers)
    return line


def rating_of(person: dict[str, Any], variant: str) -> str | None:
    """A visitor's rating in ``variant`` as the lobby sent it (``1512?``), if he has one."""
    ratings = person.get("ratings")
    rating = ratings.get(variant) if isinstance(ratings, dict) else None
    if isinstance(rating, str) and 0 < len(rating) <= 6 and rating.rstrip("?").isdigit():
        return rating
    return None


def per_move(seconds: int) -> str:
    """A move time in words, short: "20 s a move", "1 min a move"."""
    if seconds % 60 == 0:
        n = seconds // 60
        # TRANSLATORS: a duel's move time, short: {n} minutes for each move
        return ngettext("{n} min a move", "{n} min a move", n).format(n=n)
    # TRANSLATORS: a duel's move time, short: {n} seconds for each move
    return ngettext("{n} s a move", "{n} s a move", seconds).format(n=seconds)


def move_time_rule(seconds: int) -> str:
    """The move time as a rule, said before it applies."""
    # TRANSLATORS: in a challenge's box and at a duel's start; {time} is a move time
    # ("1 min a move")
    return _("{time}: whoever runs out of time loses the match.").format(
        time=per_move(seconds))


def seek_text(seek: Seek) -> str:
    """A seek in words: its game, rated or casual, the ratings it admits, its move time."""
    kind = _("rated") if seek.rated else _("casual")
    parts = [game_title(seek.variant), kind]
    if seek.low is not None and seek.high is not None:
        parts.append(f"{seek.low}\u2013{seek.high}")
    if seek.turn is not None:
        parts.append(per_move(seek.turn))
    return " · ".join(parts)


def describe(person: dict[str, Any], variant: str = "classic") -> str:
    """A visitor in the lobby's list: his name (with his rating in ``variant``, or marked
    a guest), and where he is, or what he seeks."""
    where = str(person.get("state"))
    # TRANSLATORS: where a visitor is, after his name in the lobby's list, when it is not
    # known (short)
    state = _(STATE_TEXT[where]) if where in STATE_TEXT else _("here")
    seek = read_public_seek(person.get("seek"))
    quick = person.get("quick")
    if seek is not None:
        # TRANSLATORS: after a visitor's name in the lobby's list: the duel he offers to
        # anyone ({seek}: "Classic dominoes · rated · 1400–1600"); Enter takes it
        state = _("seeks {seek}").format(seek=seek_text(seek))
    elif quick in VARIANTS:
        # TRANSLATORS: after a visitor's name in the lobby's list: he waits for quick
        # pairing to find him an opponent in {game}
        state = _("quick pairing: {game}").format(game=game_title(str(quick)))
    if person.get("with"):
        # TRANSLATORS: after a visitor's name in the lobby's list; {name} is his opponent's
        state = _("in a duel with {name}").format(name=person["with"])
    name = str(person.get("name", "?"))
    rating = rating_of(person, variant)
    if rating is not None:
        name = f"{name} {rating}"
    elif person.get("guest") is True:
        # TRANSLATORS: after a visitor's name in the lobby's list: he has no account (short)
        name += " · " + _("guest")
    if person.get("ignored") is True:
        # TRANSLATORS: after a visitor's name in the lobby's list: this visitor ignores him
        # (short)
        name += " · " + _("ignored")
    return f"{name:<22} {state}"


class PeopleList(OptionList):
    """The visitors here: Enter challenges the one highlighted (or takes his seek), and the
    footer says so (a list's own Enter would hide the screen's from it)."""

    BINDINGS = [
        # TRANSLATORS: the footer: challenge the visitor chosen, or take his seek
        Key("enter", "select", "Challenge", key_display="⏎"),
    ]


class LobbyScreen(Screen[None]):
    """Everyone connected to this server; Enter challenges the highlighted visitor."""

    BINDINGS = [
        # TRANSLATORS: the footer: challenge the visitor chosen, or take his seek
        Key("enter", "challenge", "Challenge", key_display="⏎"),
        Key("v", "variant", "Game", show=False),  # (the line under the list says so)
        Key("m", "move_time", "Move time", show=False),  # (the same line says so)
        Key("b", "back_to_duel", "Your duel"),  # (only while one waits)
        # TRANSLATORS: the footer: post (or withdraw) a seek, an offer of a duel to anyone
        Key("s", "seek", "Seek"),
        # TRANSLATORS: the footer: wait for the server to pair this visitor with another
        Key("k", "quick", "Quick"),
        # TRANSLATORS: the footer: the leaderboard
        Key("l", "leaderboard", "Leaders"),
        Key("p", "play", "Play alone"),
        Key("c", "code", "Key code", show=False),  # (in the command palette too)
        # TRANSLATORS: the footer: ignore the visitor chosen (or no longer)
        Key("i", "ignore", "Ignore", show=False),
        # TRANSLATORS: the footer: open the lobby's command line (/ignore NAME, /help)
        Key("slash", "command_line", "Command", key_display="/"),
        Key("colon", "command_line", "Command", show=False),
        Key("escape", "withdraw", "Withdraw", show=False),
        Key("q", "leave", "Leave"),
    ]

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    LobbyScreen #lobby-box { width: 64; max-width: 100%; height: auto; }
    LobbyScreen #lobby-title { width: 100%; text-align: center; text-style: bold;
                               color: $accent; }
    LobbyScreen #welcome { width: 100%; text-align: center; margin-bottom: 1; }
    LobbyScreen #duel-waits { width: 100%; text-align: center; margin-bottom: 1;
                              color: $warning; text-style: bold; display: none; }
    LobbyScreen #duel-waits.-shown { display: block; }
    LobbyScreen OptionList { height: auto; max-height: 12; border: round $primary; }
    LobbyScreen #duels { max-height: 7; }
    LobbyScreen #duels-title { color: $text-muted; margin-top: 1; }
    LobbyScreen #variant { margin-top: 1; }
    LobbyScreen #mine { color: $accent; }
    LobbyScreen #status { color: $warning; height: 2; }
    LobbyScreen #command { display: none; }
    LobbyScreen.-commanding #command { display: block; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.variant = "classic"
        self.turn: int | None = None  # the move time of a challenge (None: the lobby's)
        self._waiting_timer: Timer | None = None  # counts a waiting duel's seconds down
        self.people: list[dict[str, Any]] = []
        self.my_seek: Seek | None = None
        self.my_quick: str | None = None
        self._shown: dict[str, object] = {}  # what each line and list shows (``put``)

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(self._title(), id="lobby-title")
            yield Static("", id="welcome")
            yield Static("", id="duel-waits")
            yield PeopleList(id="people")
            # TRANSLATORS: above the lobby's list of duels being played
            yield Static(_("Live duels: ⏎ watches"), id="duels-title")
            yield OptionList(id="duels")
            yield Static("", id="variant")
            yield Static("", id="mine")
            yield Static("", id="status")
            # TRANSLATORS: the placeholder of the lobby's command line; /help, /ignore NAME
            # and Esc are typed as they are
            yield Input(id="command", max_length=300, compact=True, select_on_focus=False,
                        placeholder=_("/help lists the commands; /ignore NAME; Esc closes"))
        yield Footer(compact=True)  # (eight keys and the palette in 80 columns)

    def _title(self) -> str:
        # TRANSLATORS: the lobby's title; tui-domino is the game's name, kept as it is
        title = _("tui-domino · lobby")
        if isinstance(self.app, LobbyApp) and self.app.is_operator:
            # TRANSLATORS: after the lobby's title, for one of the server's operators (only
            # he sees it)
            title += " · " + _("operator")
        return title

    def show_title(self) -> None:
        for title in self.query("#lobby-title").results(Static):  # (none before compose)
            title.update(self._title())

    def show_waiting(self) -> None:
        """The duel that waits for this visitor, first thing (``b`` takes him back), with
        the seconds it still waits; counted down every second while it waits."""
        if not self.is_mounted:
            return
        app = lobby_app(self)
        line = self.query_one("#duel-waits", Static)
        waiting = app.waiting_duel
        left = int(waiting[1] - app.clock()) if waiting is not None else -1
        if waiting is None or left <= 0:
            line.remove_class("-shown")
            if self._waiting_timer is not None:
                self._waiting_timer.stop()
                self._waiting_timer = None
            self.refresh_bindings()
            return
        # TRANSLATORS: first in the lobby when this visitor's game stopped in the middle of
        # a duel; {name} is the opponent's, b the key that goes back, {n} seconds left
        line.update(plain(ngettext("Your duel with {name} waits for you: b takes you back "
                                   "({n} second left).",
                                   "Your duel with {name} waits for you: b takes you back "
                                   "({n} seconds left).", left).format(name=waiting[0], n=left)))
        line.add_class("-shown")
        self.refresh_bindings()
        if self._waiting_timer is None:
            self._waiting_timer = self.set_interval(1.0, self.show_waiting)

    def action_back_to_duel(self) -> None:
        if lobby_app(self).waiting_duel is not None:
            lobby_app(self).back_to_duel()
            self.show_waiting()
            # TRANSLATORS: the lobby, as this visitor goes back to the duel that waited
            self.say(_("Back to your duel…"))

    def on_mount(self) -> None:
        self.call_after_refresh(self.show_waiting)  # (mounted then: a duel that waits)
        self.show_title()  # (the lobby's welcome may have come between compose and now)
        self.show_people(lobby_app(self).people)
        self.show_variant()
        self.query_one("#people", OptionList).focus()
        # Drawn: the lobby hears it at once (the server lets the next arrival's game start).
        self.call_after_refresh(lobby_app(self).report_state)

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
        self.show_mine(next((p for p in people if p.get("id") == me), None))
        name = lobby_app(self).player_name
        n = len(others)
        welcome = styled(_("Welcome, {name}."), name=(name, "bold"))
        welcome.append_text(plain(" " + (ngettext("{n} other visitor here.",
                                                  "{n} other visitors here.", n).format(n=n)
                                         if others else _("Nobody else is here yet."))))
        self.put("#welcome", welcome)
        self.show_duels(lobby_app(self).duels)
        rows = [(str(p["id"]), describe(p, self.variant)) for p in others]
        if rows == self._shown.get("#people"):
            return  # (a list sent for others' sake: nothing to redraw here)
        before = self._shown.get("#people")
        self._shown["#people"] = rows
        self.refresh_bindings()  # (the leaderboard's key shows once someone has a rating)
        menu = self.query_one("#people", OptionList)
        if isinstance(before, list) and before and rows[:len(before)] == before:
            # Newcomers at the end of the list (a crowd arriving): only their lines are new.
            menu.add_options([Option(plain(text), id=key) for key, text in rows[len(before):]])
            return
        keep = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        if others:
            menu.add_options([Option(plain(text), id=key) for key, text in rows])
            ids = [key for key, _text in rows]
            menu.highlighted = ids.index(keep) if keep in ids else 0
        else:
            # TRANSLATORS: in the lobby's empty list; p is the key that starts a game alone
            menu.add_option(Option(_("Whoever connects appears here. Press p to play "
                                     "against the computer meanwhile."), disabled=True))

    def chosen_turn(self) -> int:
        """The move time a challenge from here asks for."""
        app = lobby_app(self)
        return self.turn if self.turn in app.move_times else app.move_time

    def show_variant(self) -> None:
        # TRANSLATORS: under the lobby's list (at most 60 columns): the game a challenge
        # from here is to ({game}, in bold) and its move time ({time}: "1 min a move"); v
        # and m are the keys that change them
        self.query_one("#variant", Static).update(styled(
            _("Challenges: {game} · {time}  (v, m change)"),
            game=(game_title(self.variant), "bold"), time=per_move(self.chosen_turn())))

    def put(self, selector: str, content: Text) -> None:
        """Shows ``content`` in the ``Static`` at ``selector`` unless it is there already:
        the lobby sends its lists for everyone's sake, and a line that does not change
        costs no redraw (nor, while it keeps to one line, a new layout of the screen)."""
        if self._shown.get(selector) == content:
            return
        self._shown[selector] = content
        widget = self.query_one(selector, Static)
        width = widget.content_region.width
        one_line = widget.content_region.height == 1 and 0 < content.cell_len <= width
        widget.update(content, layout=not one_line)

    def show_duels(self, duels: list[dict[str, Any]]) -> None:
        """The duels being played, the highest rated first (as the lobby lists them)."""
        listed = [(d["duel"], text) for d in duels if isinstance(d, dict)
                  and (text := describe_duel(d)) is not None]
        if listed == self._shown.get("#duels"):
            return
        self._shown["#duels"] = listed
        menu = self.query_one("#duels", OptionList)
        keep = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        menu.add_options([Option(plain(text), id=f"duel-{duel}") for duel, text in listed])
        ids = [f"duel-{duel}" for duel, _text in listed]
        if ids:
            menu.highlighted = ids.index(keep) if keep in ids else 0
        for widget in (menu, self.query_one("#duels-title")):
            widget.display = bool(listed)

    def show_mine(self, mine: dict[str, Any] | None) -> None:
        """This visitor's own seek, or his wait for quick pairing, as the lobby has it."""
        seek = read_public_seek(mine.get("seek")) if mine is not None else None
        quick = mine.get("quick") if mine is not None else None
        self.my_seek = seek
        self.my_quick = quick if quick in VARIANTS else None
        if seek is not None:
            # TRANSLATORS: under the lobby's list: this visitor's seek; s withdraws it
            text = _("You seek {seek}  (s withdraws)").format(seek=seek_text(seek))
        elif self.my_quick is not None:
            # TRANSLATORS: under the lobby's list: this visitor waits to be paired; k stops
            text = _("Quick pairing: waiting for a {game} opponent…  (k stops)").format(
                game=game_title(self.my_quick))
        elif lobby_app(self).has_account:
            # TRANSLATORS: under the lobby's list, for a visitor signed in with his key
            text = _("c: a one-time code to add another computer's key")
        else:
            text = ""
        self.put("#mine", plain(text))

    def say(self, text: str) -> None:
        if self.is_mounted:
            self.query_one("#status", Static).update(plain(one_line(text)))  # one line

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "duels":
            option = event.option.id or ""
            if option.startswith("duel-") and option[5:].isdigit():
                lobby_app(self).watch_duel(int(option[5:]))
            return
        self.action_challenge()

    def action_challenge(self) -> None:
        if isinstance(self.focused, OptionList) and self.focused.id == "duels":
            option = self.focused.highlighted_option
            if option is not None and option.id and option.id[5:].isdigit():
                lobby_app(self).watch_duel(int(option.id[5:]))
            return
        menu = self.query_one("#people", OptionList)
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
        if read_public_seek(person.get("seek")) is not None:
            lobby_app(self).take_seek(int(person["id"]))
            # TRANSLATORS: {name} is the seeker's
            self.say(_("Taking {name}'s seek…").format(name=person["name"]))
            return
        lobby_app(self).challenge(int(person["id"]), self.variant, self.chosen_turn())
        # TRANSLATORS: {name} is the challenged visitor's; Esc is the key's name
        self.say(_("Waiting for {name} to answer… (Esc withdraws)").format(
            name=person["name"]))

    def action_command_line(self) -> None:
        self.add_class("-commanding")
        self.query_one("#command", Input).focus()

    def start_command(self, verb: str) -> None:
        """Opens the command line on ``/VERB NAME ``, NAME the visitor highlighted (the
        palette's moderation entries): what is left to type is the rest."""
        option = self.query_one("#people", OptionList).highlighted_option
        person = next((p for p in self.people if option is not None
                       and str(p.get("id")) == option.id), None)
        name = str(person.get("name", "")) if person is not None else ""
        line = self.query_one("#command", Input)
        line.value = f"/{verb} {name} " if name else f"/{verb} "
        self.action_command_line()
        line.cursor_position = len(line.value)

    def close_command_line(self) -> None:
        self.remove_class("-commanding")
        self.query_one("#command", Input).value = ""
        self.query_one("#people", OptionList).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "command":
            return
        event.stop()
        text = event.value.strip()
        self.close_command_line()
        if text.lstrip("/:"):
            lobby_app(self).command(text if text[0] in "/:" else "/" + text)

    def action_ignore(self) -> None:
        option = self.query_one("#people", OptionList).highlighted_option
        person = next((p for p in self.people if option is not None
                       and str(p.get("id")) == option.id), None)
        if person is not None and type(person.get("id")) is int:
            lobby_app(self).toggle_ignore(int(person["id"]))

    def action_withdraw(self) -> None:
        if self.has_class("-commanding"):
            self.close_command_line()
            return
        if lobby_app(self).withdraw():
            self.say(_("Challenge withdrawn."))

    def action_move_time(self) -> None:
        times = lobby_app(self).move_times
        now = self.chosen_turn()
        self.turn = times[(times.index(now) + 1) % len(times)] if now in times else times[0]
        self.show_variant()

    def action_variant(self) -> None:
        self.variant = VARIANTS[(VARIANTS.index(self.variant) + 1) % len(VARIANTS)]
        self.show_variant()
        self.show_people(lobby_app(self).people)  # their ratings in this game

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a code for another key: only an account's owner has keys to add to; the
        # leaderboard: only a server with accounts has one
        if action == "code":
            return lobby_app(self).has_account
        if action == "back_to_duel":
            return lobby_app(self).waiting_duel is not None
        if action == "leaderboard":
            return any("ratings" in p or p.get("guest") is True
                       for p in lobby_app(self).people) or lobby_app(self).has_account
        return True

    def action_code(self) -> None:
        lobby_app(self).ask_code()

    def action_seek(self) -> None:
        app = lobby_app(self)
        if self.my_seek is not None:
            app.post_seek(None)
            # TRANSLATORS: the visitor withdrew his seek
            self.say(_("Seek withdrawn."))
            return
        mine = next((p for p in app.people if p.get("id") == self.me), {})

        def post(seek: Seek | None) -> None:
            if seek is not None:
                app.post_seek(seek)

        self.app.push_screen(SeekScreen(self.variant, app.has_account, mine,
                                        app.move_times, self.chosen_turn()), post)

    def action_quick(self) -> None:
        app = lobby_app(self)
        if self.my_quick is not None:
            app.quick(None)
            # TRANSLATORS: the visitor stopped waiting for quick pairing
            self.say(_("No longer waiting for quick pairing."))
            return
        app.quick(self.variant)

    def action_leaderboard(self) -> None:
        app = lobby_app(self)
        self.app.push_screen(LeaderboardScreen(self.variant, app.ask_leaderboard,
                                               app.player_name))

    def action_play(self) -> None:
        """To the game's menu: the one beneath the lobby, else a new one in its place (the
        visit opens on the lobby alone)."""
        if any(isinstance(s, MenuScreen) for s in self.app.screen_stack):
            self.app.pop_screen()
        else:
            self.app.switch_screen(MenuScreen())

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
    ChallengeScreen #challenge-turn { width: 100%; text-align: center; margin-bottom: 1; }
    ChallengeScreen Horizontal { height: auto; align-horizontal: center; }
    ChallengeScreen Button { margin: 0 1; }
    """

    def __init__(self, challenger: str, variant: str, rated: bool = False,
                 turn: int | None = None) -> None:
        super().__init__()
        self.challenger = challenger
        self.variant = variant
        self.rated = rated
        self.turn = turn  # seconds a move

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
            if self.turn is not None:
                yield Static(move_time_rule(self.turn), id="challenge-turn")
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


# The ranges of ratings a seek may admit, around the seeker's own: (its width either side,
# None for any).
RANGES = (None, 100, 200, 400)


class SeekScreen(ModalScreen[Seek | None]):
    """Posting a seek: the game, rated or casual (rated only for an account), and whom it
    admits (any rating, or a range around the seeker's own)."""

    BINDINGS = [
        Key("escape", "cancel", "Cancel"),
        # TRANSLATORS: the footer: post the seek
        Key("f5", "post", "Post"),
    ]

    DEFAULT_CSS = """
    SeekScreen { align: center middle; }
    SeekScreen #seek-box { width: 56; height: auto; border: thick $accent;
                           background: $surface; padding: 1 2; }
    SeekScreen Grid { grid-size: 2; grid-columns: 18 1fr; grid-rows: 1; grid-gutter: 1 1;
                      height: auto; }
    SeekScreen Label { width: 100%; }
    SeekScreen #seek-note { color: $text-muted; margin-top: 1; }
    SeekScreen #seek-buttons { height: auto; align-horizontal: center; margin-top: 1; }
    SeekScreen Button { margin: 0 1; }
    """

    def __init__(self, variant: str, has_account: bool, mine: dict[str, Any],
                 turns: tuple[int, ...] = (), turn: int | None = None) -> None:
        super().__init__()
        self.variant = variant if variant in VARIANTS else "classic"
        self.has_account = has_account
        self.mine = mine  # this visitor in the lobby's list (his ratings)
        self.turns = turns  # the move times the lobby offers
        self.turn = turn if turn in turns else (turns[0] if turns else None)

    def compose(self) -> ComposeResult:
        with Vertical(id="seek-box") as box:
            # TRANSLATORS: the title of the box that posts a seek (an offer of a duel to
            # anyone in the lobby)
            box.border_title = _("Seek a duel")
            with Grid():
                # TRANSLATORS: the seek box's labels, at most 18 columns
                yield Label(_("Game"))
                yield Select([(game_title(v), v) for v in VARIANTS], value=self.variant,
                             allow_blank=False, id="seek-variant", compact=True)
                yield Label(_("Kind"))
                kinds = [(_("casual"), "casual")]
                if self.has_account:
                    kinds.insert(0, (_("rated"), "rated"))
                yield Select(kinds, value=kinds[0][1], allow_blank=False, id="seek-kind",
                             compact=True)
                yield Label(_("Opponents"))
                yield Select(self.range_choices(), value="any", allow_blank=False,
                             id="seek-range", compact=True)
                if self.turn is not None:
                    # TRANSLATORS: the seek box's label: the time each move may take
                    yield Label(_("Move time"))
                    yield Select([(per_move(t), str(t)) for t in self.turns],
                                 value=str(self.turn), allow_blank=False, id="seek-turn",
                                 compact=True)
            # TRANSLATORS: under the seek box's choices; F5 and Esc are keys' names
            yield Static(_("Whoever takes it plays you at once. F5 posts, Esc cancels."),
                         id="seek-note")
            with Horizontal(id="seek-buttons"):
                # TRANSLATORS: buttons of the seek box
                yield Button(_("Post"), id="post", variant="primary", compact=True)
                yield Button(_("Cancel"), id="cancel", compact=True)

    def rating(self, variant: str) -> int | None:
        """This visitor's rating in ``variant`` (None: none, a guest)."""
        shown = rating_of(self.mine, variant)
        return int(shown.rstrip("?")) if shown is not None else None

    def range_choices(self) -> list[tuple[str, str]]:
        # TRANSLATORS: the seek box: a seek open to players of any rating
        out = [(_("any rating"), "any")]
        if self.rating(self.variant) is not None:
            # TRANSLATORS: the seek box: players whose rating is within {n} of yours
            out += [(_("within {n} of mine").format(n=n), str(n)) for n in RANGES if n]
        return out

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "seek-variant" and isinstance(event.value, str):
            self.variant = event.value
            ranges = self.query_one("#seek-range", Select)
            ranges.set_options(self.range_choices())
            ranges.value = "any"

    def seek(self) -> Seek:
        kind = self.query_one("#seek-kind", Select).value
        width = self.query_one("#seek-range", Select).value
        turns = self.query("#seek-turn").results(Select)
        chosen = next((t.value for t in turns), None)
        turn = int(chosen) if isinstance(chosen, str) and chosen.isdigit() else None
        mine = self.rating(self.variant)
        if isinstance(width, str) and width.isdigit() and mine is not None:
            n = int(width)
            return Seek(self.variant, kind == "rated", max(LOWEST, mine - n),
                        min(HIGHEST, mine + n), turn=turn)
        return Seek(self.variant, kind == "rated", turn=turn)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "post":
            self.action_post()
        else:
            self.action_cancel()

    def action_post(self) -> None:
        self.dismiss(self.seek())

    def action_cancel(self) -> None:
        self.dismiss(None)
