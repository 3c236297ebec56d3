"""The game as a visitor of the SSH server sees it: the game's own app, with the lobby
on top of its menu. F2 (or "Lobby" in the command palette) comes back to the lobby."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import io
import json
import logging
import os
import re
import socket
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual import work
from textual.app import SuspendNotSupported, SystemCommand
from textual.screen import ModalScreen, Screen

from tui_domino import env
from tui_domino.community.rated import judge
from tui_domino.i18n import N_, _, ngettext
from tui_domino.logs import logged
from tui_domino.ssh.duel import LobbyDuelTable
from tui_domino.ssh.leaderboard_screen import LeaderboardScreen
from tui_domino.ssh.limits import duration_text
from tui_domino.ssh.lobby_screen import ChallengeScreen, LobbyScreen
from tui_domino.ssh.pairing import TURN_DEFAULT as MOVE_TIME
from tui_domino.ssh.pairing import Seek, valid_turn
from tui_domino.ssh.rated_report import decision_json
from tui_domino.ssh.watch_screen import WatchScreen, read_names
from tui_domino.ssh.watching import read_frame
from tui_domino.text import one_line
from tui_domino.ui import storage
from tui_domino.ui.app import DominoApp, warm_themes
from tui_domino.ui.keys import Key
from tui_domino.ui.session import VARIANT_TITLES

MAX_LINE = 256 * 1024  # a line from the lobby (a duel's frame, for a watcher, is the longest)
MAX_MUTE = 366 * 86400.0  # the longest mute a lobby's message is taken to mean


def said(words: object) -> str:
    """The server's words (a reason from the lobby, its closing word), in the language in
    use when they are a message of the game's (the server speaks English); else as they
    came."""
    text = str(words or "")
    return _(text) if text else text  # (_("") is the catalog's header)


def reason(message: dict[str, Any]) -> str:
    """A lobby message's reason in the language in use: the lobby's sentence (``said``)
    translated, its values (names) put in as they came; else its English ``why``."""
    template, values = message.get("said"), message.get("values")
    if (isinstance(template, str) and template and isinstance(values, dict)
            and all(isinstance(v, str) for v in values.values())):
        try:
            return _(template).format(**values)
        except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
            pass
    return str(message.get("why") or "")


def _css_beside(cls: type[DominoApp]) -> str:
    """The game's stylesheet, found beside the module of the app that names it."""
    return str(Path(inspect.getfile(cls)).with_name(cls.CSS_PATH))


# The palette's entries for an operator in the lobby: each opens the command line on its
# verb and the visitor highlighted (ssh/commands.py reads the line).
MODERATION = {
    # TRANSLATORS: the command palette's entry for the server's operators (its name, then
    # what it does); /mute NAME 10m REASON is typed as it is (NAME, REASON: words to put
    # in, may be translated)
    "mute": (N_("Mute"), N_("Close a visitor's chat for a while: /mute NAME 10m REASON")),
    # TRANSLATORS: the command palette's entry for the server's operators
    "unmute": (N_("Unmute"), N_("Open a muted visitor's chat again: /unmute NAME")),
    # TRANSLATORS: the command palette's entry for the server's operators
    "kick": (N_("Kick"), N_("Send a visitor off the server: /kick NAME REASON")),
    # TRANSLATORS: the command palette's entry for the server's operators; an account, a
    # key or an address can be banned
    "ban": (N_("Ban"), N_("Keep a visitor out for a while: /ban NAME 1d REASON")),
    # TRANSLATORS: the command palette's entry for the server's operators
    "unban": (N_("Unban"), N_("Let a banned visitor in again: /unban NAME")),
}

RATING = re.compile(r"\d{1,4}\??")  # how a rating reads beside a name: "1512", "1512?"
MATCH_ID = re.compile(r"[0-9a-f]{32}")  # a lobby duel's match id


def seat_ratings(raw: object) -> tuple[str | None, str | None]:
    """The seats' ratings the lobby sent ("1512?", None for a guest), checked: anything else
    (the lobby's message is read as any other input) is no rating."""
    if not isinstance(raw, list) or len(raw) != 2:
        return (None, None)
    shown = [r if isinstance(r, str) and RATING.fullmatch(r) else None for r in raw]
    return (shown[0], shown[1])


class VisitorApp(DominoApp):
    CSS_PATH = _css_beside(DominoApp)
    BINDINGS = [Key("f2", "lobby", "Lobby", show=False)]
    NETWORK_DUELS = False  # duels go through the lobby: no port opened, no address reached

    def __init__(self, name: str, lobby_fd: int = -1, **kw: Any) -> None:
        super().__init__(**kw)
        # An error of the game's own is not printed on the visitor's terminal (its traceback
        # names the server's files): its report is the operator's (``logs.crash_report``,
        # in the server's folder), the visitor is told the game stopped.
        self.error_console = Console(file=io.StringIO(), markup=False, highlight=False)
        self.player_name = name
        self.lobby_fd = lobby_fd
        self.member_id: int | None = None
        self.has_account = False  # signed in with a key that owns his name
        self.is_operator = False  # signed in with a key of the server's operators file
        # A duel of his that waits for him to take it up (his game stopped in it): the
        # opponent's name and until when (``clock``).
        self.waiting_duel: tuple[str, float] | None = None
        # The move times the lobby offers (seconds a move), and its default.
        self.move_times: tuple[int, ...] = (MOVE_TIME,)
        self.move_time = MOVE_TIME
        # The lobby closed this visitor's chat: until then (time.monotonic), and its words.
        self.muted_until = 0.0
        self.mute_text = ""
        self.clock = time.monotonic  # (the tests' own)
        self.people: list[dict[str, Any]] = []
        self.duels: list[dict[str, Any]] = []  # the live duels, to watch
        self.challenging: int | None = None
        self.challenger: int | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._sent_state = ""
        self._challenge_screen: ChallengeScreen | None = None
        # The lobby duel being opened or played: its number, and its screen once shown.
        self._duel: Any = None
        self._duel_screen: Screen[Any] | None = None

    # -- start ---------------------------------------------------------------------------------

    def first_screen(self) -> Screen[Any]:
        # The lobby, alone: the menu is made when the visitor asks for it (LobbyScreen.
        # action_play), which spares each arrival the making of a screen he may not open.
        return LobbyScreen() if self.lobby_fd >= 0 else super().first_screen()

    def on_mount(self) -> None:
        # Textual then runs the game app's own on_mount, which shows the first screen.
        if self.lobby_fd >= 0:
            self.listen_to_lobby()
            self.set_interval(0.25, self.report_state)

    def action_lobby(self) -> None:
        if self.lobby_fd < 0 or isinstance(self.screen, LobbyScreen):
            return
        lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
        if lobby is None:
            self.push_screen(LobbyScreen())
        else:
            while self.screen is not lobby:
                self.pop_screen()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        if self.lobby_fd >= 0 and not isinstance(screen, LobbyScreen):
            # TRANSLATORS: the command palette's entry: its name, then what it does
            yield SystemCommand(_("Lobby"), _("Who else is here; challenge someone to a duel"),
                                self.action_lobby)
        if self.lobby_fd >= 0 and self.has_account:
            # TRANSLATORS: the command palette's entry: its name, then what it does
            yield SystemCommand(_("Key code"), _("A one-time code that lets another computer's "
                                                 "SSH key into your account (c in the lobby)"),
                                self.ask_code)
        if self.is_operator and isinstance(screen, LobbyScreen):  # (told so by the lobby)
            for verb, (title, does) in MODERATION.items():
                yield SystemCommand(_(title), _(does), functools.partial(screen.start_command,
                                                                         verb))
        # A screenshot would write a file on the server's disk, not the visitor's: no command
        # that takes one is offered, whatever its title in the language in use.
        takes_screenshot = self.screenshot_callbacks()
        yield from (c for c in super().get_system_commands(screen)
                    if c.callback not in takes_screenshot)

    def screenshot_callbacks(self) -> tuple[object, ...]:
        """This app's ways of taking a screenshot (each refuses, below)."""
        return (self.screenshot_soon, self.take_screenshot, self.action_screenshot,
                self.deliver_screenshot)

    # -- no screenshot: it would be saved on the server ------------------------------------------

    def refuse_screenshot(self) -> None:
        self.notify(_("No screenshots here: the file would be saved on the server, not on "
                      "your computer. Your terminal can save the screen instead."),
                    severity="warning")

    def screenshot_soon(self) -> None:
        self.refuse_screenshot()

    def take_screenshot(self) -> None:
        self.refuse_screenshot()

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.refuse_screenshot()

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        self.refuse_screenshot()
        return None

    # -- the link to the server's lobby --------------------------------------------------------

    @work(exclusive=True, group="lobby")
    async def listen_to_lobby(self) -> None:
        sock = socket.socket(fileno=self.lobby_fd)
        reader, self._writer = await asyncio.open_unix_connection(sock=sock, limit=MAX_LINE)
        while True:
            try:
                line = await reader.readline()
            except (ValueError, ConnectionError):
                break
            if not line:
                break
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if isinstance(message, dict):
                    self.on_lobby_message(message)
        self._writer = None
        self.notify(_("The lobby is gone."), severity="warning")

    @property
    def linked(self) -> bool:
        """The link to the lobby is open (the game's first moments: not yet)."""
        return self._writer is not None and not self._writer.is_closing()

    def send(self, message: dict[str, Any]) -> None:
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(json.dumps(message).encode() + b"\n")

    def current_state(self) -> str:
        base = next((s for s in reversed(self.screen_stack) if not isinstance(s, ModalScreen)),
                    None)
        if isinstance(base, LobbyScreen):
            return "lobby"
        if isinstance(base, WatchScreen):
            return "watch"
        name = type(base).__name__
        if "Duel" in name:
            return "duel"
        if name == "GameScreen":
            return "game"
        return "menu"

    def report_state(self) -> None:
        state = self.current_state()
        if state != self._sent_state and self.linked:
            self._sent_state = state
            self.send({"t": "state", "state": state})

    def lobby_screen(self) -> LobbyScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)

    def on_lobby_message(self, message: dict[str, Any]) -> None:
        kind = message.get("t")
        lobby = self.lobby_screen()
        if kind == "welcome":
            self.member_id = message.get("id")
            self.player_name = str(message.get("name", self.player_name))
            self.has_account = message.get("account") is True
            self.is_operator = message.get("operator") is True
            self.read_move_times(message.get("turns"), message.get("turn"))
            if lobby is not None:
                lobby.refresh_bindings()  # (its key for a code)
                lobby.show_title()  # (an operator's mark)
        elif kind == "people":
            people, duels = message.get("people"), message.get("duels")
            self.people = people if isinstance(people, list) else []
            self.duels = duels if isinstance(duels, list) else []
            if lobby is not None:
                lobby.show_people(self.people)
        elif kind == "challenged":
            self.challenger = message.get("by")
            turn = message.get("turn")
            self.show_challenge(ChallengeScreen(str(message.get("name", "?")),
                                                str(message.get("variant", "classic")),
                                                rated=message.get("rated") is True,
                                                turn=turn if valid_turn(turn) else None))
            self.ring()  # the bell as the player set it (off over ssh unless he turned it on)
        elif kind == "withdrawn":
            if self._challenge_screen is not None and self._challenge_screen.is_attached:
                self._challenge_screen.dismiss(None)
            self.notify(_("The challenge was withdrawn."))
        elif kind == "answered":
            self.challenging = None
            if message.get("accept"):
                text = _("Challenge accepted: the duel starts.")
            else:
                text = reason(message) or _("The challenge was declined.")
            self.notify(text)
            if lobby is not None:
                lobby.say(text)
        elif kind in ("host", "join"):
            self.leave_table()  # (a rematch: the last match's table goes first)
            self._duel, self._duel_screen = message.get("duel"), None
            self.tell_how(message)
            self.start_duel(message)
        elif kind == "cancelled":
            self.duel_cancelled(message.get("duel"), reason(message))
        elif kind == "code":
            self.show_code(message)
        elif kind == "rated":
            self.show_rated(message)
        elif kind == "leaderboard":
            board = next((s for s in self.screen_stack if isinstance(s, LeaderboardScreen)),
                         None)
            if board is not None:
                board.show(message)
        elif kind == "refused":
            text = reason(message)
            if text:
                self.notify(text, severity="warning")
                if lobby is not None:
                    lobby.say(text)
        elif kind == "rematch":
            name = message.get("name")
            screen = self._duel_screen
            if isinstance(name, str) and isinstance(screen, LobbyDuelTable):
                screen.rematch_offered(one_line(name)[:20])
                self.ring()
        elif kind == "rematch_off":
            self.rematch_off(reason(message))
        elif kind == "table_left":
            screen = self._duel_screen
            if isinstance(screen, LobbyDuelTable):
                screen.partner_left(reason(message))
        elif kind in ("watching", "frame", "wchat", "watch_over"):
            self.on_watch_message(kind, message)
        elif kind == "watchers":
            screen = self._duel_screen
            n = message.get("n")
            if isinstance(screen, LobbyDuelTable) and type(n) is int:
                screen.watched_by(n)
        elif kind == "notice":
            text = reason(message)
            if text:
                self.notify(text)
                if lobby is not None:
                    lobby.say(text)
        elif kind == "mute":
            self.mute(message)
        elif kind == "unmute":
            self.muted_until, self.mute_text = 0.0, ""
            # TRANSLATORS: an operator opened this visitor's chat again
            self.notify(_("Your chat is open again."))
        elif kind in ("away", "back", "abandon", "gone"):
            self.seat_message(kind, message)
        elif kind == "duel_waits":
            self.duel_waits(message)
        elif kind == "playban":
            self.playban(message)
        elif kind == "attached":
            self.attached()
        elif kind == "closing":
            self.notify(said(message.get("why")) or _("The server is closing."),
                        severity="warning", timeout=30)

    def seat_message(self, kind: str, message: dict[str, Any]) -> None:
        """The lobby's word on a seat (ssh/seats.py): the opponent's connection dropped
        (``away``) or he is back (``back``); this visitor did not come back (``abandon``)."""
        screen = self._duel_screen
        if not isinstance(screen, LobbyDuelTable):
            return
        name = one_line(str(message.get("name", "?")))[:20]
        seconds = message.get("seconds")
        if kind == "away" and isinstance(seconds, (int, float)) and 0 < seconds < 86400:
            screen.peer_away(name, float(seconds))
        elif kind == "back":
            screen.peer_back(name)
        elif kind == "abandon":
            screen.abandon()
        elif kind == "gone":
            screen.peer_left_for_good()

    def duel_waits(self, message: dict[str, Any]) -> None:
        """A duel of this visitor's waits for him (his game stopped in it): the lobby says
        so first, and ``b`` takes him back to it (``resume_duel``)."""
        name, seconds = message.get("name"), message.get("seconds")
        if not (isinstance(name, str) and isinstance(seconds, (int, float))
                and not isinstance(seconds, bool) and 0 <= seconds <= 86400):
            return
        self.waiting_duel = (one_line(name)[:20], self.clock() + float(seconds))
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.show_waiting()

    def back_to_duel(self) -> None:
        """Takes the duel that waits for this visitor up again."""
        if self.waiting_duel is not None:
            self.waiting_duel = None
            self.send({"t": "resume_duel"})

    def attached(self) -> None:
        """A new connection plays this game (its visitor came back, by either door): its
        terminal is set up anew (the alternate screen, the mouse, the keys' modes) and drawn
        whole."""
        with contextlib.suppress(SuspendNotSupported), self.suspend():
            pass
        self.refresh(layout=True, repaint=True)
        if isinstance(self._duel_screen, LobbyDuelTable):
            # TRANSLATORS: told to a visitor whose connection dropped, as he comes back
            self.notify(_("Welcome back: your seat was kept."), timeout=5)

    def read_move_times(self, turns: object, turn: object) -> None:
        """The lobby's move times and its default, as its welcome says them (checked)."""
        if valid_turn(turn):
            assert isinstance(turn, int)
            self.move_time = turn
        if isinstance(turns, list) and 0 < len(turns) <= 8 and all(map(valid_turn, turns)):
            self.move_times = tuple(sorted(set(turns) | {self.move_time}))
        else:
            self.move_times = (self.move_time,)

    def mute(self, message: dict[str, Any]) -> None:
        """The lobby closed this visitor's chat for ``seconds``: his duel chat refuses, in
        the lobby's words, until then."""
        seconds = message.get("seconds")
        if not (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                and 0 < seconds <= MAX_MUTE):
            return
        self.muted_until = self.clock() + float(seconds)
        self.mute_text = one_line(reason(message))[:300]
        self.notify(self.mute_text, severity="warning", timeout=15)
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.say(self.mute_text)

    def chat_refusal(self) -> str | None:
        """Why this visitor may not chat now (the lobby muted him), or None."""
        if self.clock() < self.muted_until:
            # TRANSLATORS: the words when a muted player tries to chat (the lobby's, as
            # "An operator closed your chat until …", are shown when it is not known)
            return self.mute_text or _("Your chat is closed for now.")
        return None

    def command(self, text: str) -> None:
        self.send({"t": "command", "text": text[:300]})

    def toggle_ignore(self, to: int) -> None:
        self.send({"t": "ignore", "to": to})

    def show_challenge(self, screen: ChallengeScreen) -> None:
        self._challenge_screen = screen
        super().push_screen(screen, self.answer)

    def push_screen(self, screen: Screen[Any] | str, callback: Any = None,
                    wait_for_dismiss: bool = False, *, mode: str | None = None) -> Any:
        """Textual's push_screen, except that a challenge waiting for an answer stays on
        top: a screen that comes meanwhile (the lobby as the visitor arrives, a round's
        summary) goes under it, or the box would lie hidden and the challenger wait."""
        box = self._challenge_screen
        if box is None or screen is box or self.screen is not box:
            return super().push_screen(screen, callback, wait_for_dismiss, mode=mode)
        self.pop_screen()  # the box (its answer still to come from the new one)
        pushed = super().push_screen(screen, callback, wait_for_dismiss, mode=mode)
        self.show_challenge(ChallengeScreen(box.challenger, box.variant, rated=box.rated,
                                            turn=box.turn))
        return pushed

    def ask_code(self) -> None:
        self.send({"t": "code"})

    def show_code(self, message: dict[str, Any]) -> None:
        """The one-time code for this account's next key, as the lobby sent it."""
        code, name, minutes = message.get("code"), message.get("name"), message.get("minutes")
        if not (isinstance(code, str) and isinstance(name, str) and isinstance(minutes, int)):
            return
        # TRANSLATORS: {login} is what to type as the user name ("ann+ABCD-EFGH"), kept as
        # it is; {minutes}: how long the code is valid (10)
        text = ngettext("Another key: connect once with it as {login} within {minutes} "
                        "minute.",
                        "Another key: connect once with it as {login} within {minutes} "
                        "minutes.", minutes).format(login=f"{name}+{code}", minutes=minutes)
        if message.get("web") is True:
            # TRANSLATORS: after the line on another key; {name}: the account's name,
            # {code}: the code ("ABCD-EFGH")
            text += " " + _("Or in a browser: sign in as {name} with the code {code}.").format(
                name=name, code=code)
        self.notify(text, timeout=60)
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.say(text)

    def post_seek(self, seek: Seek | None) -> None:
        if seek is None:
            self.send({"t": "unseek"})
        else:
            self.send({"t": "seek", **seek.public()})

    def take_seek(self, seeker: int) -> None:
        self.send({"t": "take", "seek": seeker})

    def quick(self, variant: str | None) -> None:
        self.send({"t": "quick", "variant": variant} if variant else {"t": "unquick"})

    def ask_leaderboard(self, variant: str) -> None:
        self.send({"t": "leaderboard", "variant": variant})

    def watch_duel(self, duel: int) -> None:
        self.send({"t": "watch", "duel": duel})

    def watch_screen(self) -> WatchScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, WatchScreen)), None)

    def on_watch_message(self, kind: str, message: dict[str, Any]) -> None:
        """Watching a duel: the lobby's messages about it (``ssh/lobby.py``)."""
        screen = self.watch_screen()
        duel = message.get("duel")
        if kind == "watching" and type(duel) is int:
            names = read_names(message.get("names"))
            variant = message.get("variant")
            variant = variant if variant in VARIANT_TITLES else "classic"
            if screen is not None:  # a rematch: the same screen follows it
                screen.follow(duel, names, str(variant))
                return
            chat = [(str(c[0]), str(c[1])) for c in message.get("chat") or []
                    if isinstance(c, list) and len(c) == 2]
            self.push_screen(WatchScreen(duel, names, str(variant), self.watch_say, chat),
                             lambda _=None: self.send({"t": "unwatch"}))
            return
        if screen is None or duel not in (None, screen.duel):
            return
        if kind == "frame":
            frame = read_frame(message.get("frame"))
            watchers = message.get("watchers")
            if frame is not None:
                screen.show_frame(frame, watchers if type(watchers) is int else 0)
        elif kind == "wchat":
            name, text = message.get("name"), message.get("text")
            if isinstance(name, str) and isinstance(text, str):
                screen.chat_line(name, text)
        elif kind == "watch_over":
            screen.duel_over()

    def watch_say(self, text: str) -> None:
        refused = self.chat_refusal()
        if refused:  # (the lobby would refuse it too, in the same words)
            self.notify(refused, severity="warning", timeout=8)
            return
        self.send({"t": "wchat", "text": text})

    def challenge(self, to: int, variant: str, turn: int | None = None) -> None:
        self.challenging = to
        self.send({"t": "challenge", "to": to, "variant": variant,
                   **({"turn": turn} if turn is not None else {})})

    def withdraw(self) -> bool:
        if self.challenging is None:
            return False
        self.challenging = None
        self.send({"t": "withdraw"})
        return True

    def answer(self, accept: bool | None) -> None:
        self._challenge_screen = None
        if accept is None or self.challenger is None:
            return
        self.send({"t": "answer", "to": self.challenger, "accept": bool(accept)})
        self.challenger = None

    # -- duels -----------------------------------------------------------------------------------

    @work(exclusive=True, group="duel")
    async def start_duel(self, message: dict[str, Any]) -> None:
        # lazy: start-up (the duel's modules load with the first duel)
        from tui_domino.ssh.duel import DuelUnavailable, open_duel, valid_target, valid_window

        try:
            session, screen = await open_duel(
                role=str(message["t"]), name=self.player_name,
                variant=str(message.get("variant", "classic")),
                port=int(message.get("port", 0)), secret=message.get("secret"),
                on_hosting=lambda port: self.send(
                    {"t": "hosting", "duel": message.get("duel"), "port": port}),
                report=self.reporter(message),
                ratings=seat_ratings(message.get("ratings")),
                target=valid_target(message.get("target")),
                turn=float(self.duel_turn(message)),
                window=valid_window(message.get("window")),
                journal=self.duel_log(message),
            )
        except DuelUnavailable as exc:
            self.notify(str(exc), severity="error", timeout=10)
            self.send({"t": "duel_failed", "duel": message.get("duel")})
            return
        except (TimeoutError, OSError) as exc:
            # TRANSLATORS: {error} is the system's own words (in English)
            self.notify(_("The duel could not start: {error}").format(error=exc),
                        severity="error", timeout=10)
            self.send({"t": "duel_failed", "duel": message.get("duel")})
            return
        duel = message.get("duel")
        if duel != self._duel:  # cancelled while it was being opened
            await _close(session)
            return
        self._duel_screen = screen
        if isinstance(screen, LobbyDuelTable):
            screen.guest = not self.has_account
            screen.match_over = lambda offence: self.match_over(duel, offence)
            screen.rematch = lambda: self.send({"t": "rematch", "accept": True})
            screen.muted = self.chat_refusal
            screen.send_frame = lambda frame: self.send({"t": "frame", "duel": duel,
                                                         "frame": frame})
        self.push_screen(screen, lambda _result: self._duel_over(session, screen))
        # The lobby keeps the duel on until this report: say which duel is open.
        self._sent_state = "duel"
        self.send({"t": "state", "state": "duel", "duel": duel})

    def duel_log(self, message: dict[str, Any]) -> Path | None:
        """Where an account's game logs a lobby duel's match (in his folder, which is kept:
        a fresh game of his takes the match up from it); None for a guest. Other duels'
        logs go as this one starts."""
        match = message.get("match")
        if not self.has_account or not isinstance(match, str) or not MATCH_ID.fullmatch(match):
            return None
        folder = Path(os.environ.get(env.HOME) or ".") / "duels"
        path = folder / f"{match}.jsonl"
        with contextlib.suppress(OSError):
            for old in folder.glob("*.jsonl"):
                if old != path:
                    old.unlink()
        return path

    def duel_turn(self, message: dict[str, Any]) -> int:
        """A duel's seconds a move, as the lobby's ``host`` or ``join`` says (checked)."""
        turn = message.get("turn")
        return turn if isinstance(turn, int) and valid_turn(turn) else self.move_time

    def match_over(self, duel: Any, offence: str | None) -> None:
        """The lobby duel's match is over: the lobby is told, with this visitor's offence in
        it (``community.playban``), if any."""
        self.send({"t": "over", "duel": duel})
        if offence is not None:
            self.send({"t": "conduct", "duel": duel, "offence": offence})

    def playban(self, message: dict[str, Any]) -> None:
        """The lobby closed pairing to this visitor for ``seconds``: why, and how long."""
        seconds, n = message.get("seconds"), message.get("offences")
        if not (isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                and 0 < seconds <= MAX_MUTE and type(n) is int and 0 < n < 1000):
            return
        # TRANSLATORS: {n}: how many duels this visitor left or stalled within a day;
        # {time}: how long challenges, seeks and rated games stay closed to him ("10
        # minutes")
        text = ngettext("You left or stalled {n} duel within a day: challenges, seeks and "
                        "rated games are closed to you for {time}.",
                        "You left or stalled {n} duels within a day: challenges, seeks and "
                        "rated games are closed to you for {time}.", n).format(
            n=n, time=duration_text(seconds, ngettext))
        self.challenging = None
        self.notify(text, severity="warning", timeout=20)
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.say(text)

    def reporter(self, message: dict[str, Any]) -> Any:
        """What reports a rated lobby duel's end to the lobby (None for a casual one): this
        side's decision on the match (``community.rated.judge``), under its match id."""
        match, accounts = message.get("match"), message.get("accounts")
        if (message.get("rated") is not True or not isinstance(match, str)
                or not isinstance(accounts, list) or len(accounts) != 2
                or not all(a is None or type(a) is int for a in accounts)):
            return None

        def report(result: Any, both_moved: bool) -> None:
            decision = judge(result, rated=True, accounts=accounts, both_moved=both_moved)
            self.send({"t": "result", "match": match, "decision": decision_json(decision)})

        return report

    def show_rated(self, message: dict[str, Any]) -> None:
        """The lobby settled the duel: the new ratings (``ann 1512 (+12) · bob 1488
        (−12)``), or that it changes none."""
        text = message.get("text")
        if message.get("rated") is True and isinstance(text, str):
            text = one_line(text)[:120]
        else:
            text = reason(message)
        if not text:
            return
        # TRANSLATORS: the title of the notice of a lobby duel's new ratings
        self.notify(text, title=_("Ratings"), timeout=30)
        if isinstance(self._duel_screen, LobbyDuelTable):
            self._duel_screen.ratings_settled(text)
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.say(text)

    def _duel_over(self, session: Any, screen: Screen[Any]) -> None:
        if isinstance(screen, LobbyDuelTable):
            # (before this side's next state report: the lobby waits for it)
            screen.report_result()
        if self._duel_screen is screen:  # (not when a rematch's duel is under way already)
            self._duel = self._duel_screen = None
        self.run_worker(_close(session), group="duel-close")

    def leave_table(self) -> None:
        """Back from the duel's table to the lobby (its match is over)."""
        screen = self._duel_screen
        if screen is None or not screen.is_attached:
            return
        while self.screen is not screen and len(self.screen_stack) > 1:
            self.pop_screen()
        screen.dismiss(None)

    def rematch_off(self, why: str) -> None:
        """The rematch is off (declined, or not answered in time): back to the lobby."""
        self.leave_table()
        text = why or _("There is no rematch.")
        self.notify(text)
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.say(text)

    def tell_how(self, message: dict[str, Any]) -> None:
        """How a duel about to start came about, when it was not by a challenge (which
        the visitor answered or was answered)."""
        how, name = message.get("how"), one_line(str(message.get("opponent", "?")))[:20]
        if how == "seek" and message.get("t") == "host":
            # TRANSLATORS: {name} took the seek this visitor posted in the lobby
            text = _("{name} took your seek: the duel starts.").format(name=name)
        elif how == "quick":
            # TRANSLATORS: quick pairing found this visitor an opponent, {name}
            text = _("Quick pairing: you play {name}.").format(name=name)
        elif how == "rematch":
            # TRANSLATORS: both accepted another match; the one who joined now hosts
            text = _("The rematch starts, seats swapped.")
        else:
            return
        self.notify(text)

    def duel_cancelled(self, duel: Any, why: str) -> None:
        """The lobby cancelled a duel that never started (the other side failed or left)."""
        if duel is None or duel != self._duel:
            return
        # TRANSLATORS: {reason} is why, a sentence of its own ("Bob left.")
        text = _("The duel is off: {reason}").format(reason=why) if why else _("The duel is off.")
        screen = self._duel_screen
        session = getattr(screen, "duel", None)
        if screen is None:
            self._duel = None
            self.workers.cancel_group(self, "duel")  # still connecting: stop
        elif session is not None and not session.core.started and screen.is_attached:
            while self.screen is not screen and len(self.screen_stack) > 1:
                self.pop_screen()
            screen.dismiss(None)
        else:
            return  # the two have met: the duel itself tells how it goes
        self.notify(text, severity="warning")
        lobby = self.lobby_screen()
        if lobby is not None:
            lobby.say(text)


async def _close(session: Any) -> None:
    with logged("closing a lobby duel"):
        await session.close()


def prewarm() -> None:
    """What every visitor's game would otherwise work out afresh as it starts, worked out
    once by the fork server before its first fork: the default theme's colours."""
    warm_themes([storage.Settings().theme])


def quiet_log() -> None:
    """The game's log says nothing on the visitor's terminal (Python prints the words of a
    logger with no handler there: a crash report's path, the server's, among them)."""
    game_log = logging.getLogger("tui_domino")
    if not game_log.handlers:
        game_log.addHandler(logging.NullHandler())


def run_visitor(name: str, lobby_fd: int) -> int:
    """Runs the game for one visitor; the name becomes the player's name."""
    quiet_log()
    settings, problem = storage.load_settings()
    settings.name = name
    with contextlib.suppress(OSError):
        settings.save()
    app = VisitorApp(name, lobby_fd, settings=settings, settings_problem=problem,
                     seed=env.whole(env.SEED))
    app.run()
    return app.return_code or 0
