"""A duel over the network: the table (``TableScreen``) of a ``DuelSession`` instead of a
local match. The board, the hand, the keys and the choice of a move are the table's own;
what differs is where the moves come from (the peer, through the session's events) and
where mine go (``session.play``), the opponent's name and connection state on a status
line, a chat line (``t``), and the verified end of every round."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import Input, Static

from tui_domino import rules
from tui_domino.history.records import RoundRecord
from tui_domino.i18n import N_, _, ngettext
from tui_domino.logs import logged
from tui_domino.net import events as ev
from tui_domino.net.core import HANDED_BACK
from tui_domino.net.records import MatchResult
from tui_domino.text import one_line, visible
from tui_domino.ui import history_db
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.duel_table import DuelTable, summary_session
from tui_domino.ui.keys import Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_end import DuelOverScreen, LeaveScreen, verdict_text
from tui_domino.ui.screens.duel_log import Note, duel_move_text, log_text
from tui_domino.ui.screens.duel_words import (
    ALARM_AT,
    WARN_AT,
    clock_text,
    game_title,
    status_text,
    waiting_text,
)
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.screens.table_screen import TableScreen
from tui_domino.ui.selection import Selection
from tui_domino.ui.widgets.hand import HandView
from tui_domino.ui.widgets.scoreboard import ScorePanel

if TYPE_CHECKING:
    from tui_domino.net.transport import DuelSession


# The hint line counts down the last seconds of the turn deadline (net/core.TURN_TIMEOUT);
# the status line's clock shows it all along.
TURN_WARNING = WARN_AT

# Refusals that end a duel before it starts, in the player's words.
PROBLEMS = {
    "version": N_("The other side runs another version of tui-domino: update both sides."),
    "mismatch": N_("The host's match is not the one you asked for."),
    "busy": N_("That host is already playing a match."),
    "token": N_("The host does not know this match any more."),
}


# -- the screen ---------------------------------------------------------------------------------


class DuelScreen(TableScreen):
    """Plays an already connected (or hosting) ``DuelSession``; dismisses itself when the
    match is over and seen, or when the player leaves."""

    CSS_PATH = ["game.tcss", "duel.tcss"]  # type: ignore[assignment]
    PALETTE_KEY = False  # a duel's keys (Leave, Chat) fill the footer at 80 columns

    BINDINGS = [
        Key("t", "chat", "Chat"),
        Key("escape", "menu", "Leave"),
    ]

    watchers = var(0, init=False)  # visitors who watch this duel (a lobby duel: the lobby says)

    def __init__(self, session: DuelSession, backlog: Iterable[ev.Event] = ()) -> None:
        self.duel = session
        self.table = DuelTable(session)
        super().__init__(self.table)
        self._backlog = list(backlog)
        self.conn = session.state
        self.conn_detail = ", ".join(session.addresses)
        self.problem = ""
        self.verdict: ev.Verdict | None = None
        self.result: MatchResult | None = None
        self.checking = False  # the round is over; the keys are being checked
        self._sending = False
        self._leaving = False
        self._summary_open = False
        self._over_shown = False
        self._banked = [0, 0]
        self._variant_class = self.table.variant  # (the screen's class from the start)
        self.notes: list[tuple[int, int, Note]] = []  # (round, moves before it, line)
        self._last_error = 0.0
        self._rounds: list[RoundRecord] = []  # the verified rounds, for the history
        self._recorded = False
        self._warned: set[tuple[object, int]] = set()  # (the turn, the mark) warned of
        self._status_shown: Text | None = None  # what the status line shows

    # -- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="net-status")
        with Vertical(id="waiting"):
            yield Static(id="waiting-text")
        yield from self.compose_table()
        yield Input(id="chat", max_length=200, compact=True, placeholder=self._chat_prompt())
        yield from self.compose_hand()

    def _chat_prompt(self) -> str:
        """The chat line's prompt: to whom, once the chat is open."""
        if self.has_class("-chatting"):
            # TRANSLATORS: the chat line's prompt; Enter and Esc are keys' names
            return _("Say something to {name} (Enter sends, Esc closes)").format(
                name=self.table.opponent)
        # TRANSLATORS: the chat line's prompt; Enter and Esc are keys' names
        return _("Say something (Enter sends, Esc closes)")

    def relabel(self) -> None:
        """The language changed: the board, the hand, the log and the chat's prompt are
        drawn anew in it (the game, the choice and the chat being typed are kept)."""
        self.refresh_all(follow=False)  # the duel's own drawing: status, waiting, log
        if self.is_mounted:
            self.query_one("#chat", Input).placeholder = self._chat_prompt()

    def on_mount(self) -> None:
        if self.taken_off():
            return
        self._use_variant()
        self.listen()
        self.set_interval(1.0, self._count_down)

    def _use_variant(self) -> None:
        variant = self.table.variant
        if variant != self._variant_class:
            if self._variant_class:
                self.remove_class(self._variant_class)
            self.add_class(variant)
            self._variant_class = variant
            self.sel = Selection(variant)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # no table yet (waiting for an opponent, or for the deal): no key of the table
        if not self.table.has_view() and (
                action in ("step", "play", "draw", "pass_turn", "rotate", "close_arm", "mark",
                           "pick", "recentre", "pan", "hint", "take_back")
                or (action == "help" and parameters == ("marks",))):
            return False
        return super().check_action(action, parameters)

    # -- the session's events -------------------------------------------------------------------

    @work(exclusive=True, group="duel-events")
    async def listen(self) -> None:
        if self.duel.resumed:
            name = self.table.opponent
            self.note(lambda: _("The match with {name} resumes.").format(name=name), "green")
            for said in self.duel.core.replayed:
                if isinstance(said, ev.ChatLine):
                    self.show_chat(said)
        if self.duel.notice:
            # TRANSLATORS: the title of a notice about the file where the match is kept
            self.app.notify(self.duel.notice, title=_("Match log"), severity="warning",
                            timeout=15)
        for e in self._backlog:
            self.handle(e)
        self._backlog = []
        self.table_changed()
        async for e in self.duel.events():
            if self.taken_off():  # the screen is going: nothing is left to show events on
                return
            self.handle(e)

    def handle(self, e: ev.Event) -> None:
        """One event from the session: its handler updates what is shown, then the table is
        drawn again (``TableChanged``; a new round's or deal's board centred)."""
        handler = self.HANDLERS.get(type(e))
        if handler is not None:
            getattr(self, handler)(e)
        self.table_changed(recentre=isinstance(e, ev.RoundStarted | ev.Dealt))

    def show_table(self, follow: bool, recentre: bool) -> None:
        """The table drawn as it now stands, then the pass it may owe played."""
        super().show_table(follow, recentre)
        self.pass_when_owed()

    def pass_when_owed(self) -> None:
        """Plays the pass that a blocked round still asks of this side (the table already
        shows the round over, and offers no key for it): else both would wait for it."""
        if self._sending or self.result is not None:
            return
        owed = self.duel.core.owed_pass()
        if owed is not None:
            self._sending = True
            self.send_move(owed)

    # one handler a kind of event (``handle`` looks them up by the event's type)
    HANDLERS: ClassVar[dict[type, str]] = {
        ev.ConnectionState: "handle_connection_state", ev.Connected: "handle_connected",
        ev.RoundStarted: "handle_round_started",
        ev.Moved: "handle_moved", ev.ChatLine: "handle_chat_line",
        ev.RoundOver: "handle_round_over", ev.Verdict: "handle_verdict",
        ev.MatchOver: "handle_match_over", ev.ProtocolError: "handle_protocol_error",
    }  # (a Dealt or a Drew needs nothing: the hand and the log show it)

    def handle_connection_state(self, e: ev.ConnectionState) -> None:
        name = self.table.opponent
        before = self.conn
        self.conn = e.state
        if e.detail:
            self.conn_detail = e.detail
        if e.state == "reconnecting":
            self.note(lambda: _("The connection to {name} is lost; waiting for it to come "
                                "back…").format(name=name), "yellow")
        elif e.state == "connected" and before == "reconnecting":
            self.note(lambda: _("{name} is back.").format(name=name), "green")
        elif e.state == "closed" and self.result is None:
            if e.detail and not self.problem:
                self.problem = visible(e.detail)
            if self.duel.core.started:
                self.note(lambda: _("The connection is closed."), "yellow")

    def handle_connected(self, e: ev.Connected) -> None:
        self.conn = "connected"
        self._use_variant()
        settings = self.duel.core.settings
        variant = e.variant
        target = settings.target if settings is not None else e.target
        name = self.table.opponent
        hosting = self.duel.core.seat.role == "host"

        def joined() -> str:
            n = target or 0
            if hosting and variant == "spider":
                # TRANSLATORS: {name} is the opponent's name, {game} the game's name,
                # {target} the score that ends a Spider match
                text = ngettext("{name} joined: {game}, limit {target}.",
                                "{name} joined: {game}, limit {target}.", n)
            elif hosting:
                # TRANSLATORS: {name} is the opponent's name, {game} the game's name,
                # {target} the match's target score
                text = ngettext("{name} joined: {game}, to {target}.",
                                "{name} joined: {game}, to {target}.", n)
            # (not "You joined …": in the SSH lobby the one who challenged is the joiner)
            elif variant == "spider":
                text = ngettext("Duel with {name}: {game}, limit {target}.",
                                "Duel with {name}: {game}, limit {target}.", n)
            else:
                text = ngettext("Duel with {name}: {game}, to {target}.",
                                "Duel with {name}: {game}, to {target}.", n)
            return text.format(name=name, game=game_title(variant), target=target)

        self.note(joined, "green")
        phrase = self.shown_phrase()
        if phrase:
            # TRANSLATORS: {phrase} is a few words both screens show alike (kept as they
            # are), {name} the opponent's name ("the opponent's ({name}) screen" avoids
            # declining it)
            self.note(lambda: _("Verification phrase: {phrase}. {name}'s screen shows the "
                                "same words; if his differ, somebody sits between you.")
                      .format(phrase=phrase, name=name))
        self.app.bell()

    def handle_round_started(self, e: ev.RoundStarted) -> None:
        self.checking = False
        self.sel = Selection(self.table.variant)
        rnd, deal = e.round, e.deal
        if deal > 1:
            # TRANSLATORS: in the log: the round's number, and the deal's when it was dealt
            # again
            self.note(lambda: _("Round {round}, deal {deal}.").format(round=rnd, deal=deal),
                      "bold")
        else:
            # TRANSLATORS: in the log: the round's number
            self.note(lambda: _("Round {round}.").format(round=rnd), "bold")

    def handle_moved(self, e: ev.Moved) -> None:
        if e.move.get("kind") == "block":
            self.note(lambda: _("Nobody can move: the round is blocked."))
        view = self.duel.view()
        if view is not None and view.get("over"):
            self.checking = True

    def handle_chat_line(self, e: ev.ChatLine) -> None:
        self.show_chat(e)
        if e.player != self.table.me:
            self.notify(e.text, title=self.table.seats[e.player].name, timeout=6)

    def show_chat(self, e: ev.ChatLine) -> None:
        """A chat line in the moves' and chat's log."""
        line = Text()
        line.append(f"<{self.table.seats[e.player].name}> ", style="bold")
        line.append(one_line(e.text), style="italic")
        self.note(line)

    def handle_round_over(self, e: ev.RoundOver) -> None:
        self.checking = False
        history_db.duel_round(self._rounds, e.round, e.state)
        self.show_summary(e)

    def handle_verdict(self, e: ev.Verdict) -> None:
        self.verdict = e
        me, seats = self.table.me, self.table.seats
        self.note(lambda: verdict_text(e, me, seats), "bold red")

    def handle_match_over(self, e: ev.MatchOver) -> None:
        self.result = e.result
        self.record(e.result)
        if not self._summary_open:
            self.show_over()

    def handle_protocol_error(self, e: ev.ProtocolError) -> None:
        # (the messages are the protocol's own words, as they came: not translated)
        if e.code == "code" and not e.from_peer:  # a wrong invitation code was tried
            self.notify(e.message, title=_("Network"), severity="warning", timeout=8)
        elif e.code in PROBLEMS and not self.duel.core.started:
            self.problem = f"{_(PROBLEMS[e.code])} ({visible(e.message)})"
        elif e.from_peer and e.code in HANDED_BACK and not self.table.has_view():
            # The session offers the match again: the screen waits again.
            said = visible(e.message)
            left = e.code == "left"

            def text() -> str:
                # TRANSLATORS: {reason} is the joiner's own words (in English)
                return (_("The joiner left before the match began: {reason}.") if left
                        else _("The joiner refused this match: {reason}.")).format(
                            reason=said)

            self.note(text, "yellow")
            self.notify(text() + " " + _("Waiting for another opponent."), title=_("Network"),
                        severity="warning", timeout=8)
        elif time.monotonic() - self._last_error > 5:
            self._last_error = time.monotonic()
            if e.from_peer:
                # TRANSLATORS: {name} is the opponent's name, {message} the protocol's
                # words (in English)
                refused = _("{name} refused a message: {message}").format(
                    name=self.table.opponent, message=e.message)
            else:
                refused = _("This side refused a message: {message}").format(message=e.message)
            self.notify(refused, title=_("Network"), severity="warning", timeout=5)

    def record(self, result: MatchResult) -> None:
        """The finished duel goes to the history (once; the disk in a thread)."""
        settings = self.duel.core.settings
        if self._recorded or settings is None or not self.duel.core.started:
            return
        self._recorded = True
        history_db.duel_over(variant=settings.variant, target=settings.target or 0,
                             options=rules.resolve_options(settings.variant,
                                                           settings.options),
                             names=list(self.duel.core.seat.names), rounds=self._rounds,
                             result=result, me=self.table.me)

    def note(self, text: str | Text | Callable[[], str], style: str = "") -> None:
        """A line in the log, where the moves are at this moment (a function that says it:
        in the language in use whenever the log is drawn)."""
        view = self.duel.view()
        rnd = int(view["net"]["round"]) if view else 0
        n = len(view["history"]) if view else 0
        self.notes.append((rnd, n, Note(text, style)))
        del self.notes[:-40]

    # -- drawing --------------------------------------------------------------------------------

    def refresh_all(self, follow: bool = True) -> None:
        if not self.is_mounted or self.taken_off():
            return
        self.follow_table()
        self.draw_table(follow)

    def follow_table(self) -> None:
        # (with no round dealt the round reads as over: nobody is thinking; the score panel
        # is drawn with the table, not by the watcher)
        self.set_reactive(DuelScreen.thinking,
                          not self.duel.my_turn() and not self.table.state.is_over)
        if not self.table.has_view():
            return
        mine = self.duel.my_turn() and not self._sending
        self.update_choice(self.table.view()["hand"], self.duel.legal_moves() if mine else [])

    def draw_table(self, follow: bool = True) -> None:
        if not self.is_mounted or self.taken_off():
            return
        self.show_status()
        waiting = not self.table.has_view()
        if waiting != self.has_class("-waiting"):
            self.set_class(waiting, "-waiting")
            self.refresh_bindings()  # the keys to play with come and go with the deal
        if waiting:
            self.query_one("#waiting-text", Static).update(self.waiting_text())
            return
        view = self.table.view()
        self.draw_board(follow)
        self.draw_hand()
        self.query_one(ScorePanel).show(self.table, self.thinking)
        self.show_log()
        self.show_hint()
        n = len(view["hand"])
        self.query_one(HandView).border_title = plain(
            # TRANSLATORS: the title of the hand's box
            ngettext("Your hand · {n} tile", "Your hand · {n} tiles", n).format(n=n))

    def show_scores(self) -> None:
        if self.table.has_view():  # (waiting, the panel is hidden and has nothing to show)
            super().show_scores()

    def watch_watchers(self) -> None:
        if self.is_mounted and not self.taken_off():
            self.show_status()

    def opponent_label(self) -> str:
        """The opponent as the status line names him."""
        return self.table.opponent

    def shown_phrase(self) -> str:
        """The channel's verification phrase as this screen shows it ("": none)."""
        return self.duel.phrase

    def shown_state(self) -> str:
        """The connection's state as the status line says it."""
        return self.conn

    def move_clock(self) -> Text | None:
        """The move's clock for the status line: the time left to the step of the side to
        play (None while nobody owes one)."""
        core = self.duel.core
        left, owes = core.turn_left(), core.owes()
        if left is None or owes is None or self.result is not None:
            return None
        return clock_text(left)

    def show_status(self) -> None:
        status = self.query_one("#net-status", Static)
        line = status_text(
            self.duel, self.opponent_label(), self.shown_state(), self.result is not None,
            muted_of(self, "panel"), width=status.content_region.width or self.app.size.width,
            watchers=self.watchers, clock=self.move_clock(), phrase=self.shown_phrase())
        if line != self._status_shown:  # (asked every second for the clock: drawn if new)
            self._status_shown = line
            status.update(line)

    def waiting_text(self) -> Text:
        return waiting_text(self.duel, self.table.opponent, self.conn, self.problem,
                            self.conn_detail, muted_of(self, "background"))

    def show_log(self) -> None:
        # TRANSLATORS: the title of the duel's log (narrow: about 30 columns)
        self.query_one("#log-title", Static).update(_("Moves and chat"))
        self.query_one("#log", Static).update(log_text(self))

    def describe_record(self, record: rules.HistoryRecord, viewer: int | None = None,
                        count: int = 1) -> str:
        """A move of the log (``count`` unseen draws alike); the end of the round's points
        wait for the check."""
        return duel_move_text(self.table, record, count)

    def hint(self) -> str:
        if not self.table.has_view():
            return ""
        if self.result is not None:
            return _("The match is over.")
        if self.conn == "reconnecting" and not self.duel.my_turn():
            return _("Waiting for {name} to come back…").format(name=self.table.opponent)
        if self.checking or self.table.state.is_over:
            return _("The round is over: checking the deal…")
        if self._sending:
            return _("Sending your move…")
        if not self.duel.my_turn():
            # TRANSLATORS: the hint line while the opponent ({name}) is to move
            return _("{name} to play…").format(name=self.table.opponent)
        left = self.duel.core.turn_left()
        if left is not None and left < TURN_WARNING:  # the turn deadline comes: say so
            seconds = int(left)
            # TRANSLATORS: the start of the hint line when the turn's time runs out (short;
            # "s" is seconds)
            return ngettext("{n} s left to move", "{n} s left to move", seconds).format(
                n=seconds) + " · " + super().hint()
        return super().hint()

    def _count_down(self) -> None:
        """Every second: the clock on the status line, the hint's count of the last
        seconds, and the warnings at ``WARN_AT`` and ``ALARM_AT`` seconds left to my move
        (the bell too, when it is on)."""
        if not self.is_mounted or self.taken_off():
            return
        core = self.duel.core
        left = core.turn_left()
        self.show_status()
        if not self.duel.my_turn() or left is None or self.result is not None:
            return
        if left < TURN_WARNING + 1:
            self.show_hint()
        turn = core.deadlines.turn.key
        for mark in (WARN_AT, ALARM_AT):
            if left <= mark and (turn, mark) not in self._warned:
                self._warned.add((turn, mark))
                if left > mark - 2:  # (not for a warning whose time is long past)
                    # TRANSLATORS: a warning when the player's time to move runs short
                    self.notify(ngettext("{n} second left to move.",
                                         "{n} seconds left to move.", mark).format(n=mark),
                                severity="warning" if mark == WARN_AT else "error",
                                timeout=4)
                    ring = getattr(self.app, "ring", None)
                    if callable(ring):
                        ring()

    def redraws_on_resume(self) -> bool:
        return True  # (the duel's own drawing too: its status, the wait, the log)

    # -- playing --------------------------------------------------------------------------------

    def next_step(self) -> None:
        # Once mounted and laid out: drawn again, the status line at its real width.
        self.table_changed()

    def _my_turn(self) -> bool:
        if not self.table.has_view() or self.result is not None or self._sending:
            return False
        if not self.duel.my_turn():
            self.notify(_("Wait for your turn: {name} is playing.").format(
                name=self.table.opponent), severity="information", timeout=2)
            return False
        return True

    def apply_move(self, move: rules.Move) -> bool:
        if move not in self.duel.legal_moves():
            self.notify(_("That move is not allowed now."), title=_("Not allowed"),
                        severity="warning")
            return False
        self._sending = True
        self.sel.reset()
        self.send_move(move)
        return True

    @work(group="duel-move")
    async def send_move(self, move: rules.Move) -> None:
        try:
            await self.duel.play(move)
        except rules.IllegalMove as exc:
            self.notify(str(exc), title=_("Not allowed"), severity="warning")
        finally:
            self._sending = False
            self.table_changed()  # my turn is over, or mine again

    # -- chat -----------------------------------------------------------------------------------

    def chat_refusal(self) -> str | None:
        """Why this player may not chat now, in words (None: he may). A duel through a
        server's lobby says so while its visitor is muted."""
        return None

    def action_chat(self) -> None:
        if not self.duel.core.started or self.duel.finished:
            self.notify(_("The chat opens when your opponent is here."), timeout=3)
            return
        refused = self.chat_refusal()
        if refused:
            self.notify(refused, severity="warning", timeout=8)
            return
        self.add_class("-chatting")
        chat = self.query_one("#chat", Input)
        chat.placeholder = self._chat_prompt()
        chat.focus()

    def close_chat(self) -> None:
        self.remove_class("-chatting")
        self.query_one("#chat", Input).value = ""
        self.query_one(HandView).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat":
            return
        event.stop()
        text = event.value.strip()
        self.close_chat()
        refused = self.chat_refusal() if text else None
        if refused:
            self.notify(refused, severity="warning", timeout=8)
        elif text:
            await self.duel.chat(text)

    # -- the end of a round and of the match ----------------------------------------------------

    def show_summary(self, e: ev.RoundOver) -> None:
        try:
            session = summary_session(self.table, e, self._banked)
        except (ValueError, KeyError, AssertionError) as exc:
            self.notify(_("The round's summary cannot be shown: {error}").format(error=exc),
                        severity="warning")
            self._banked = list(e.totals)
            return
        self._banked = list(e.totals)
        self._summary_open = True
        self.app.push_screen(RoundSummary(session), self._after_summary)

    def _after_summary(self, _: object = None) -> None:
        self._summary_open = False
        if self.result is not None:
            self.show_over()
        else:
            # the next round: the hand has the keys again, whatever had the focus as the
            # round ended (the board, or nothing while the last move was on its way)
            if not self.has_class("-chatting"):
                self.query_one(HandView).focus()
            self.table_changed()

    def show_over(self) -> None:
        if self._over_shown or self.result is None or self._leaving:
            return
        self._over_shown = True
        self.app.push_screen(self.over_screen(), lambda _=None: self.dismiss(None))

    def over_screen(self) -> DuelOverScreen:
        """The screen of the match's end (``result``)."""
        assert self.result is not None
        return DuelOverScreen(self.result, self.verdict, self.table.me, self.table.seats)

    def action_menu(self) -> None:
        if self.has_class("-chatting"):
            self.close_chat()
            return
        if self.result is not None and self._over_shown:
            self.dismiss(None)
            return
        if not self.in_play():
            self.stop()
            return

        def answer(leave: bool | None) -> None:
            if leave:
                self.stop()

        self.app.push_screen(LeaveScreen(self.table.opponent), answer)

    def action_reconnect(self) -> None:
        if not self.duel.core.started or self.duel.finished:
            return
        self.duel.drop_connection()
        self.notify(_("The connection is cut: the duel resumes when it is made again."),
                    timeout=4)

    def system_commands(self) -> Iterable[tuple[str, str, Callable[[], object]]]:
        """The command palette's entries for this screen (title, help, callback)."""
        # TRANSLATORS: the command palette's entries: a command's name, then what it does
        yield (_("Play"), _("Play the selected tile at the selected place"), self.action_play)
        yield (_("Draw"), _("Draw a tile from the bazaar"), self.action_draw)
        yield (_("Pass"), _("Pass when nothing fits"), self.action_pass_turn)
        yield (_("Chat"), _("Say something to your opponent"), self.action_chat)
        yield (_("Recentre"), _("Recentre the table on the play"), self.action_recentre)
        yield (_("Rules"), _("The rules and keys of this game"), self.action_help)
        yield (_("Reconnect"), _("Cut the connection and make it again (when it seems stuck)"),
               self.action_reconnect)
        yield (_("Leave the duel"), _("Stop playing (your opponent wins the match)"),
               self.action_menu)
        if self.table.variant == "triominos":
            yield (_("Rotate"), _("Turn the triomino"), self.action_rotate)
        if self.table.variant == "spider":
            yield (_("Close arm"), _("Close the arm with this double"), self.action_close_arm)
            yield (_("Add double"), _("Play this double with others"), self.action_mark)

    def in_play(self) -> bool:
        """Whether the match is under way: leaving now forfeits it."""
        return self.duel.core.started and not self.duel.finished and self.table.has_view()

    def quit_app(self) -> None:
        """Quitting the game (ctrl+q) during the duel: as leaving it (asked while the match
        is in play: the opponent wins it), then the game quits. The opponent is told,
        instead of waiting for a connection that will not come back."""
        if not self.in_play():
            self.stop(quit_app=True)
            return

        def answer(leave: bool | None) -> None:
            if leave:
                self.stop(quit_app=True)

        self.app.push_screen(LeaveScreen(self.table.opponent, quitting=True), answer)

    @work(group="duel-leave")
    async def stop(self, quit_app: bool = False) -> None:
        self._leaving = True  # no end-of-match screen for the one who leaves
        with logged("leaving the duel"):
            await self.duel.leave()
        if quit_app:
            self.app.exit()
        elif self.is_attached and self.app.screen is self:
            self.dismiss(None)


__all__ = ["DuelOverScreen", "DuelScreen", "DuelTable", "LeaveScreen", "verdict_text"]
