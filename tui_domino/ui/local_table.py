"""A match at this terminal as a table without a screen: what comes next, the computer's
turns, take-backs, the coach's hint, the end of a round and of the match, the save and the
history record. No Textual here: the game screen shows a view of this table and turns keys
into its requests; a test (or a spectator, or another front end) drives the same object.

    table = LocalTable(Session.new("classic", seats, seed=7, autosave=False))
    while not table.session.match.is_over:
        match table.next():
            case Next.COMPUTER: await table.computer_turn()
            case Next.PLAYER: table.play(choose(table.session.state.legal_moves()))
            case Next.HAND_OVER: table.handed_over()
            case Next.ROUND_OVER: table.round_over(); table.next_round()

Every change of the position moves ``token`` on: an answer worked out for an older position
(the computer's move, the coach's figures) is dropped when it arrives. Every change of what
the table shows (a move, a take-back, a new round, a hand shown) is told to the functions
given to ``listen``: a screen that shows the table draws it anew then.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable
from typing import TYPE_CHECKING

from tui_domino import rules
from tui_domino.ai.worker import Searcher
from tui_domino.ui.session import Session

if TYPE_CHECKING:
    from tui_domino.ai.coach import RankedJSON


class Next(enum.Enum):
    """What the table waits for."""

    PLAYER = "player"  # a person at the table moves
    COMPUTER = "computer"  # the computer moves (``computer_turn``)
    HAND_OVER = "hand over"  # two people: the other takes the keyboard (``handed_over``)
    ROUND_OVER = "round over"  # the round's end is told (``round_over``, then ``next_round``)
    MATCH_OVER = "match over"  # the match is over and told


class TakeBack(enum.Enum):
    """How a take-back request ended."""

    DONE = "done"
    OFF = "off"  # the setting forbids it
    TWO_PEOPLE = "two people"  # there is no computer at this table: nothing to undo alone
    NOTHING = "nothing"  # no move of the person's in this round yet (or the round is over)
    CANNOT = "cannot"  # a round this game did not deal (a hand-made save)


class LocalTable:
    """One local match and what drives it (``Session`` keeps the position and saves it)."""

    def __init__(self, session: Session, *, keeps_history: bool = True,
                 searcher: Searcher | None = None) -> None:
        self.session = session
        self.keeps_history = keeps_history
        self.searcher = searcher or Searcher()
        self.token = 0
        self.unsaved: OSError | None = None  # the last save that failed, until read
        # two people: whose hand was shown last (None: nobody's yet, the next one hands over)
        self.shown: int | None = None if session.hot_seat else session.viewer
        self._told_round: int | None = None  # the round whose end was told
        self._listeners: list[Callable[[], None]] = []

    def listen(self, changed: Callable[[], None]) -> None:
        """``changed()`` is called after every change of what the table shows."""
        self._listeners.append(changed)

    def _changed(self) -> None:
        for changed in self._listeners:
            changed()

    # -- what comes next -----------------------------------------------------------------------

    def next(self) -> Next:
        s = self.session
        if s.state.is_over:
            if self._told_round == s.match.round_no:
                return Next.MATCH_OVER if s.match.is_over else Next.ROUND_OVER
            return Next.ROUND_OVER
        if not s.is_human_turn():
            return Next.COMPUTER
        if s.hot_seat and self.shown != s.state.to_move:
            return Next.HAND_OVER
        return Next.PLAYER

    @property
    def hands_hidden(self) -> bool:
        """Two people: the hand of the one to move is hidden until he takes the keyboard."""
        s = self.session
        return (s.hot_seat and not s.state.is_over and s.is_human_turn()
                and self.shown != s.state.to_move)

    def handed_over(self) -> None:
        """The one to move has the keyboard: his hand may be shown."""
        self.shown = self.session.state.to_move
        self._changed()

    def hide_hands(self) -> None:
        """Two people: nobody's hand is shown (the next one to play hands over again)."""
        if self.session.hot_seat:
            self.shown = None

    # -- moves ---------------------------------------------------------------------------------

    def play(self, move: rules.Move | rules.MoveJSON) -> list[rules.ScoreEvent]:
        """The move of the one to move (``rules.IllegalMove`` if it is not legal). The move
        stands even when the save fails: the failure is kept in ``unsaved``."""
        try:
            events = self.session.state.apply(move)
        finally:
            self.token += 1
        try:
            self.session.save()
        except OSError as exc:
            self.unsaved = exc
        self._changed()
        return events

    def take_unsaved(self) -> OSError | None:
        """The save that failed since the last call (None: every save went well)."""
        exc, self.unsaved = self.unsaved, None
        return exc

    async def computer_move(self, budget_ms: float = 900.0) -> rules.Move:
        """The computer's choice for the seat to move, searched away from the caller's
        thread (the worker process, or a thread once it failed: ``searcher.failure``)."""
        s = self.session
        tm = s.state.to_move
        assert tm is not None and s.seats[tm].is_computer, "not the computer's turn"
        if s.computer_searches():
            level = s.seats[tm].level
            seed = s.ai_rng().getrandbits(32)
            return await self.searcher.choose(s.match.player_view(tm), level, budget_ms, seed)
        return await asyncio.to_thread(s.computer_move)

    async def computer_turn(self, delay: float = 0.0) -> rules.Move | None:
        """The computer's move, played after ``delay`` seconds (a third of it for a draw);
        None when the position changed meanwhile (the move was for another)."""
        token = self.token
        move = await self.computer_move()
        if delay:
            await asyncio.sleep(delay / 3 if move.kind == "draw" else delay)
        if token != self.token:
            return None
        self.play(move)
        return move

    # -- the coach and taking back -------------------------------------------------------------

    async def hint(self) -> list[RankedJSON] | None:
        """The coach's figures for every move of the one to move, best first, from his own
        view; None when the position changed before they came (or nothing was found)."""
        # lazy: start-up (the coach's search loads with its first use, in the worker)
        from tui_domino.ai import coach

        s = self.session
        token = self.token
        ranked = await self.searcher.rank(s.view(), coach.move_seed(len(s.state.history)))
        if token != self.token or not ranked:
            return None
        # lazy: start-up (the history's writer loads with its first use)
        from tui_domino.ui import history_db

        history_db.hint_used(s)
        return ranked

    def take_back(self, allowed: bool = True) -> TakeBack:
        """The person's last move and the computer's replies, taken back (``Session.take_back``)
        and counted for the round's record."""
        s = self.session
        if not allowed:
            return TakeBack.OFF
        if len(s.human_seats) != 1:
            return TakeBack.TWO_PEOPLE
        if s.take_back_index() is None:
            return TakeBack.NOTHING
        self.token += 1  # the computer's reply on its way is void too
        try:
            done = s.take_back()
        except OSError as exc:  # taken back, not saved
            self.unsaved = exc
            done = True
        if not done:
            return TakeBack.CANNOT
        self._changed()
        # lazy: start-up (the history's writer loads with its first use)
        from tui_domino.ui import history_db

        history_db.take_back_used(s)
        return TakeBack.DONE

    # -- rounds and the match ------------------------------------------------------------------

    def round_over(self) -> bool:
        """The round is over: it is kept for the history (once, in a thread) and True is
        returned the first time, when its end is to be told."""
        s = self.session
        if not s.state.is_over or self._told_round == s.match.round_no:
            return False
        self._told_round = s.match.round_no
        if self.keeps_history:
            # lazy: start-up (the history's writer loads with its first use)
            from tui_domino.ui import history_db

            history_db.round_over(s)
        return True

    def next_round(self) -> None:
        """The next round is dealt (after ``round_over``; not once the match is over)."""
        s = self.session
        assert s.state.is_over and not s.match.is_over, "the round is not over, or the match is"
        try:
            s.next_round()
        except OSError as exc:
            self.unsaved = exc
        self.token += 1
        self.shown = None if s.hot_seat else s.viewer
        self._changed()

    def leave(self, tile: tuple[int, ...] | None, place: int | None) -> None:
        """The player goes to the menu with ``tile`` and ``place`` chosen (kept for Continue,
        in the save too; OSError if it cannot be written)."""
        self.token += 1  # a computer's move on its way is for a table nobody looks at
        self.hide_hands()
        self.session.leave(tile, place)
