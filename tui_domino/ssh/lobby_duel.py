"""A lobby duel's screen: the game's duel screen, which also tells the lobby how the match
ended, for the ratings, and offers another match at its end. Each seat's moves are counted
as the events come (``rated.Moves``); the match's result is reported once: at its end, or as
the screen goes (the visitor left the duel, or quit the game), from what the session holds
then. At the end, r asks the lobby for a rematch (seats swapped); the other side's asking
shows on the same screen."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Button, Static

from tui_domino.community.playban import ABORT, STALL, WALKAWAY
from tui_domino.community.rated import Moves
from tui_domino.i18n import _, ngettext
from tui_domino.net import events as ev
from tui_domino.net.deadlines import AWAY, TOO_LONG
from tui_domino.net.records import MatchResult
from tui_domino.net.transport import DuelSession
from tui_domino.ssh.lobby_screen import move_time_rule
from tui_domino.ssh.watching import CHAT_LINES, public_frame
from tui_domino.ui.keys import Key
from tui_domino.ui.screens.duel import DuelScreen
from tui_domino.ui.screens.duel_end import DuelOverScreen

Report = Callable[[MatchResult, bool], None]  # (the result, whether each seat moved)


def offence_of(verdict: ev.Verdict | None, me: int, moved: bool) -> str | None:
    """This side's offence in a match that ended with ``verdict`` (``community.playban``):
    a forfeit before its first move is an abort, one by the move clock a stall, one by not
    coming back a walk-away; None for anything else (a match played out, resigned after
    moving, or lost by the other)."""
    if verdict is None or verdict.kind != "forfeit" or verdict.player != me:
        return None
    if verdict.reason.endswith(AWAY):
        return WALKAWAY
    if not moved:
        return ABORT
    if TOO_LONG.search(verdict.reason):
        return STALL
    return None


class LobbyDuelOverScreen(DuelOverScreen):
    """The end of a lobby duel: the totals, the new ratings once the lobby has them, and
    *Rematch* besides *Leave the table*."""

    BINDINGS = [Key("r", "rematch", "Rematch")]

    def __init__(self, table: LobbyDuelScreen) -> None:
        assert table.result is not None
        super().__init__(table.result, table.verdict, table.table.me, table.table.seats)
        self.table = table

    def buttons(self) -> list[Button]:
        # TRANSLATORS: a button at a lobby duel's end: another match with the same
        # opponent; (r) is its key, which stays as it is
        return [*super().buttons(), Button(_("Rematch (r)"), id="rematch", compact=True,
                                           disabled=self.table.rematch_closed is not None)]

    def footnote(self) -> list[Static]:
        # TRANSLATORS: at a lobby duel's end, what the keys do before they do it; Enter,
        # Esc and r are keys' names
        return [Static(_("⏎ or Esc: back to the lobby · r: ask for a rematch")
                       if self.table.rematch_closed is None
                       else _("⏎ or Esc: back to the lobby"), id="over-keys")]

    def on_mount(self) -> None:
        super().on_mount()
        self.say(self.table.rematch_text())

    def rematch_closed(self) -> None:
        """The opponent left the table: the rematch's button turns grey, the line says
        why."""
        for button in self.query("#rematch").results(Button):
            button.disabled = True
        for keys in self.query("#over-keys").results(Static):
            keys.update(_("⏎ or Esc: back to the lobby"))
        self.say(self.table.rematch_text())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        # (Textual then calls DuelOverScreen's, which leaves the table: not for a rematch)
        if event.button.id == "rematch":
            event.prevent_default()
            self.action_rematch()

    def action_rematch(self) -> None:
        if self.table.rematch_closed is None:
            self.table.ask_rematch()
        self.say(self.table.rematch_text())


class LobbyDuelScreen(DuelScreen):
    # (Textual finds a relative stylesheet beside the module of the class that names it)
    CSS_PATH = [str(Path(inspect.getfile(DuelScreen)).with_name(name))
                for name in ("game.tcss", "duel.tcss")]

    def __init__(self, session: DuelSession, report: Report | None = None,
                 ratings: tuple[str | None, str | None] = (None, None)) -> None:
        super().__init__(session)
        self.ratings = ratings  # the seats' (0: the host), as they read: "1512?"
        self.moves = Moves()
        self._report = report
        self._reported = False
        self.rematch: Callable[[], None] | None = None  # asks the lobby for another match
        self.rematch_asked = False  # this side asked
        self.rematch_from: str | None = None  # the other side asked (his name)
        self.rematch_closed: str | None = None  # why no rematch: the other left the table
        self.rated_text = ""  # the new ratings, once the lobby settled the match
        # Watching: the host's game sends the lobby the table as anybody may see it after
        # every change (``ssh/watching.py``); both are told how many watch.
        self.send_frame: Callable[[dict[str, Any]], None] | None = None
        self.chat_lines: list[tuple[int, str]] = []
        # Why this visitor may not chat now (the lobby muted him), or None.
        self.muted: Callable[[], str | None] | None = None
        self.guest = False  # a visitor without an account: his seat ends with his connection
        # Tells the lobby the match is over, and this side's offence in it (or None).
        self.match_over: Callable[[str | None], None] | None = None
        self.peer_gone_for: float | None = None  # the opponent's seat is kept (seconds)

    def over_screen(self) -> DuelOverScreen:
        return LobbyDuelOverScreen(self) if self.rematch is not None else super().over_screen()

    def ask_rematch(self) -> None:
        if self.rematch is not None and not self.rematch_asked:
            self.rematch_asked = True
            self.rematch()

    def rematch_offered(self, name: str) -> None:
        """The other side asks for a rematch."""
        self.rematch_from = name
        self._tell_over()

    def ratings_settled(self, text: str) -> None:
        """The lobby's words on the match's ratings (``ann 1512 (+12) · bob …``)."""
        self.rated_text = text
        self._tell_over()

    def partner_left(self, why: str) -> None:
        """The opponent left the table (``why``): no rematch is offered any more."""
        self.rematch_closed = why or _("Your opponent left the table.")
        self.rematch_asked, self.rematch_from = False, None
        over = self._over()
        if over is not None:
            over.rematch_closed()

    def _over(self) -> LobbyDuelOverScreen | None:
        return next((s for s in self.app.screen_stack if isinstance(s, LobbyDuelOverScreen)
                     and s.table is self), None)

    def _tell_over(self) -> None:
        over = self._over()
        if over is not None:
            over.say(self.rematch_text())

    def rematch_text(self) -> str:
        """What the end of the match says of the ratings and of another match."""
        if self.rematch_closed is not None:
            # TRANSLATORS: at a lobby duel's end, after why ("ann left the table.")
            rematch = self.rematch_closed + " " + _("No rematch.")
        elif self.rematch_asked:
            # TRANSLATORS: {name} is the opponent's name
            rematch = _("Waiting for {name} to accept the rematch…").format(
                name=self.table.opponent)
        elif self.rematch_from is not None:
            # TRANSLATORS: {name} is the opponent's name; r is the key that accepts
            rematch = _("{name} asks for a rematch: r accepts.").format(name=self.rematch_from)
        else:
            rematch = ""
        return "\n".join(t for t in (self.rated_text, rematch) if t)


    def handle(self, e: ev.Event) -> None:
        self.moves.see(e)
        super().handle(e)
        if isinstance(e, ev.ChatLine):
            self.chat_lines = [*self.chat_lines[-(CHAT_LINES - 1):], (e.player, e.text)]
        if isinstance(e, ev.MatchOver):
            if self.match_over is not None:
                self.match_over(offence_of(self.verdict, self.duel.core.me,
                                           self.moves.moved[self.duel.core.me]))
            self.report_result(e.result)
        self.tell_watchers()

    def tell_watchers(self) -> None:
        """The host's game sends the lobby the table as it now stands, for the watchers."""
        if self.send_frame is not None and self.duel.core.me == 0:
            self.send_frame(public_frame(self.duel.core, self.ratings, self.chat_lines))

    def chat_refusal(self) -> str | None:
        return self.muted() if self.muted is not None else None

    def watched_by(self, n: int) -> None:
        """``n`` visitors watch this duel."""
        self.watchers = max(0, n)  # (its watcher draws the status line)

    def opponent_label(self) -> str:
        """The opponent's name with his rating in this game, where he has one."""
        rating = self.ratings[self.duel.core.peer] if self.duel.core.peer in (0, 1) else None
        name = super().opponent_label()
        return f"{name} {rating}" if rating else name

    def on_unmount(self) -> None:
        self.report_result()

    def handle_connection_state(self, e: ev.ConnectionState) -> None:
        if e.state == "connected":
            self.peer_gone_for = None  # (his game resumed the duel: he is back)
        super().handle_connection_state(e)

    def handle_connected(self, e: ev.Connected) -> None:
        super().handle_connected(e)
        turn = round(self.duel.core.deadlines.turn_timeout)
        self.note(lambda: move_time_rule(turn), "bold")
        if self.guest:
            # TRANSLATORS: told at the start of a lobby duel to a visitor without an
            # account (he came without an ssh key that owns his name)
            self.note(lambda: _("You play as a guest: if your connection drops, this duel "
                                "is lost. Sign in with an SSH key to keep your seat."),
                      "yellow")

    def peer_away(self, name: str, seconds: float) -> None:
        """The opponent's connection dropped; his game keeps his seat for ``seconds``."""
        self.peer_gone_for = seconds
        whole = max(1, round(seconds))

        def text() -> str:
            # TRANSLATORS: {name} is the opponent's name, {n} a number of seconds
            return ngettext("{name}'s connection is lost: his seat is kept for {n} second.",
                            "{name}'s connection is lost: his seat is kept for {n} seconds.",
                            whole).format(name=name, n=whole)

        self.note(text, "yellow")
        self.notify(text(), severity="warning", timeout=8)
        self.table_changed()

    def peer_back(self, name: str) -> None:
        """The opponent is back at the table."""
        self.peer_gone_for = None
        self.note(lambda: _("{name} is back.").format(name=name), "green")
        self.notify(_("{name} is back.").format(name=name), timeout=4)
        self.table_changed()

    def shown_phrase(self) -> str:
        # Both games run on the server, their channel keyed on the lobby's secret: there
        # is nobody between them to catch, and the phrase would only take the line's room.
        return ""

    def shown_state(self) -> str:
        return "away" if self.peer_gone_for is not None and self.result is None else self.conn

    def peer_left_for_good(self) -> None:
        """The opponent's game stopped and no new one took the match up: he forfeits."""
        self.peer_gone_for = None
        self.duel.peer_gone(AWAY)

    def abandon(self) -> None:
        """This visitor did not come back in time: his game leaves the duel, saying so."""
        self.run_worker(self._abandon(), group="duel-leave")

    async def _abandon(self) -> None:
        self._leaving = True
        await self.duel.leave(AWAY)
        self.report_result()

    def report_result(self, result: MatchResult | None = None) -> None:
        """Reports this side's result of the match (the session's when not given), once."""
        if result is None:
            result = self.duel.core.match.result
        if result is None or self._reported or self._report is None:
            return
        self._reported = True
        self._report(result, self.moves.both)


__all__ = ["LobbyDuelScreen", "Report"]
