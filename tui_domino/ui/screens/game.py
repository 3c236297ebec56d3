"""The game screen of a local match: the table (``TableScreen``) driven by a
``LocalTable``: the computer's turns, the hand-over between two people, the round's summary,
the coach's hint and take-backs, leaving for the menu with the choice kept."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import work

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.ui import storage
from tui_domino.ui.host import game_app, settings_of
from tui_domino.ui.local_table import LocalTable, Next
from tui_domino.ui.notices import Notices
from tui_domino.ui.screens.table_screen import TableScreen
from tui_domino.ui.selection import Selection
from tui_domino.ui.session import Session

if TYPE_CHECKING:  # the summary loads with the first round's end
    from tui_domino.ui.screens.summary import RoundSummary

# A computer's think longer than this (seconds) rings the bell when the turn comes back.
LONG_THINK = 3.0


class GameScreen(TableScreen):
    """A local match in play."""

    def __init__(self, session: Session, model: LocalTable | None = None) -> None:
        """``model`` drives ``session`` (made here when not given: one that keeps the
        match's rounds for the history)."""
        super().__init__(session)
        self.model = model or LocalTable(session)
        self.model.listen(self.table_changed)  # every change of the table, drawn (table_screen)
        self.coach_notes = Notices()  # the coach's words on this position: gone at the next move

    @property
    def local_table(self) -> LocalTable:
        """The local match played here."""
        return self.model

    @property
    def local(self) -> Session:
        """The position of the local match played here (``local_table.session``)."""
        return self.model.session

    @property
    def hands_hidden(self) -> bool:
        """Two people at the terminal: the hand of the one to move waits for him."""
        return self.model.hands_hidden

    def kept_hand(self, player: int) -> list[Sequence[int]]:
        return [tuple(t) for t in self.local.state.hands[player]]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("hint", "take_back"):
            return True
        return super().check_action(action, parameters)

    def restore_choice(self) -> None:
        """Back from the menu to the same position (Continue): the tile and place chosen
        when the player left are chosen again."""
        left = self.local.left_choice()
        if left is None:
            return
        tile, place = left
        if tile in self.sel.hand:
            self.sel.select_tile(self.sel.hand.index(tile))
            if place is not None:
                self.sel.select_place(place)
            self.redraw_choice()

    def next_step(self) -> None:
        """After any move, what the table waits for: the end of the round told, the
        computer's turn, or a hand-over (``LocalTable.next``)."""
        if self.taken_off():
            return
        table = self.local_table
        step = table.next()
        # (the table is drawn by the model's TableChanged; the score panel follows this)
        self.thinking = step is Next.COMPUTER
        if step is Next.ROUND_OVER and table.round_over():
            # The table's notices (hints, "not allowed") do not belong over the summary.
            # Only those already shown go: one raised by this last move (a failed save)
            # is still on its way to the app and arrives after the clearing.
            self.app.clear_notifications()
            self.app.push_screen(self.round_summary(), self._after_summary)
        elif step is Next.COMPUTER:
            self.computer_turn()
        elif step is Next.HAND_OVER:
            # lazy: start-up (the menu shows without this screen)
            from tui_domino.ui.screens.handover import HandoverScreen

            s = self.local
            self.app.push_screen(
                HandoverScreen(s.seats[s.state.to_move or 0].name), self._handed_over
            )

    def _handed_over(self, result: str | None = None) -> None:
        if result == "menu":  # the hand stays hidden: the next one to play hands over again
            self.action_menu()
            return
        self.local_table.handed_over()  # the hand is shown (TableChanged)

    @work(exclusive=True, group="computer")
    async def computer_turn(self) -> None:
        table = self.local_table
        delay = storage.effective_delay(settings) if (settings := settings_of(self)) else 0
        began = time.monotonic()
        told = table.searcher.failure is not None
        move = await table.computer_turn(delay)
        if not told and table.searcher.failure is not None:
            # TRANSLATORS: a notice; {error} is the name of a Python error, in English
            self.notify(_("The computer's thinking process failed ({error}); it now thinks "
                          "in the game's own process, and the screen may pause while it "
                          "does.").format(error=type(table.searcher.failure).__name__),
                        title=_("Computer"), severity="warning", timeout=8)
        if move is None or not self.is_attached:
            return
        self.after_move()
        # your turn, after a think long enough to look away: the bell
        if time.monotonic() - began > LONG_THINK and self.session.is_human_turn():
            game_app(self).ring()

    def apply_move(self, move: rules.Move) -> bool:
        try:
            self.local_table.play(move)
        except rules.IllegalMove as exc:
            # TRANSLATORS: the title of a notice that says why a move is refused
            self.notify(str(exc), title=_("Not allowed"), severity="warning")
            return False
        self.after_move()
        return True

    def on_screen_suspend(self) -> None:
        """Another screen over the table (help, the legend, the menu): the coach's words go,
        or they would stand over that screen's own text (the app shows its notices on
        whatever screen is on top). The board keeps the coach's move chosen."""
        self.coach_notes.clear(self)

    def after_move(self) -> None:
        """A move was made at the table: the coach's words on the position before it taken
        away, a failed save told, the choice cleared, what comes next begun."""
        self.coach_notes.clear(self)
        unsaved = self.local_table.take_unsaved()
        if unsaved is not None:
            # TRANSLATORS: a notice; {error} is the system's reason, in English
            self.notify(_("The match could not be saved: {error}").format(error=unsaved),
                        severity="error")
        self.sel.reset()
        self.next_step()

    def round_summary(self) -> RoundSummary:
        """The summary of the round just over (its button goes on to the next round, or to
        the match's result)."""
        # lazy: start-up (the menu shows without this screen)
        from tui_domino.ui.screens.summary import RoundSummary

        return RoundSummary(self.local)

    def _after_summary(self, result: object = None) -> None:
        s = self.local
        if result == "look":  # the final board first: Enter brings the summary back
            self.looking_back = True  # (its watcher draws the final table)
            return
        self.looking_back = False
        if s.match.is_over:
            # lazy: start-up (the menu shows without this screen)
            from tui_domino.ui.screens.match_over import MatchOverScreen

            self.app.switch_screen(MatchOverScreen(s))
            return
        self.sel = Selection(s.variant)  # (the new round's table chooses in it)
        self.local_table.next_round()  # drawn by its TableChanged, which comes first in the
        self.call_after_refresh(self.board.recentre)  # screen's queue: this follows it
        self.after_move()

    def action_play(self) -> None:
        if self.looking_back and self.session.state.is_over:
            self.app.push_screen(self.round_summary(), self._after_summary)
            return
        super().action_play()

    def action_hint(self) -> None:
        """The coach's best moves from the player's own view, searched in the worker process;
        the best one is chosen on the board."""
        if not self._my_turn():
            return
        if len(self.session.state.legal_moves()) < 2:
            self.coach_notes.say(self, _("There is only one move to make here."),
                                 title=_("Coach"), timeout=3)
            return
        self.coach_notes.say(self, _("The coach is thinking…"), title=_("Coach"), timeout=5)
        self.coach_hint()

    @work(exclusive=True, group="coach")
    async def coach_hint(self) -> None:
        # lazy: start-up (the coach's aids load with their first use)
        from tui_domino.ui.screens import aids

        await aids.coach_hint(self)

    def action_take_back(self) -> None:
        """u: your last move and the computer's reply, taken back (``aids.take_back``)."""
        # lazy: start-up (the coach's aids load with their first use)
        from tui_domino.ui.screens import aids

        aids.take_back(self)

    def action_menu(self) -> None:
        self.workers.cancel_group(self, "computer")
        try:  # Continue chooses them again
            self.local_table.leave(self.sel.current_tile(), self.sel.place_index)
        except OSError as exc:
            self.notify(_("The match could not be saved: {error}").format(error=exc),
                        severity="error")
        self.app.pop_screen()
