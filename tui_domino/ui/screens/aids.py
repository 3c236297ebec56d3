"""The game screen's aids against the computer: the coach's hint (h) and taking a move
back (u). Neither is offered in a duel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui_domino import rules
from tui_domino.ai import coach
from tui_domino.i18n import _
from tui_domino.ui import history_db
from tui_domino.ui.host import settings_of
from tui_domino.ui.local_table import TakeBack
from tui_domino.ui.selection import Selection

if TYPE_CHECKING:
    from tui_domino.ui.screens.game import GameScreen


async def coach_hint(screen: GameScreen) -> None:
    """The coach's best moves from the player's own view (``LocalTable.hint``); the best one
    is chosen on the board, the figures said."""
    ranked = await screen.local_table.hint()
    if ranked is None or not screen.is_attached:
        return
    best = rules.move_from_json(screen.session.variant, ranked[0]["move"])
    if history_db.select_move(screen.sel, best):
        screen.sel.chosen_by = "coach"
        screen.redraw_choice()
    # the moves named as the table names them; the notice goes with the next move
    screen.coach_notes.say(screen, coach.hint_line(ranked, at=screen.local.state),
                           title=_("Coach"), timeout=30)


def take_back(screen: GameScreen) -> None:
    """u: your last move and the computer's reply, taken back (not in duels, nor with the
    "no take-backs" setting, nor between two people; counted on the round summary and in
    the history)."""
    settings = settings_of(screen)
    done = screen.local_table.take_back(allowed=settings is None or settings.take_backs)
    if done is TakeBack.OFF:
        # TRANSLATORS: a notice: taking moves back is turned off in the Settings screen
        screen.notify(_("Take-backs are off (Settings)."), timeout=3)
        return
    if done is TakeBack.TWO_PEOPLE:
        # TRANSLATORS: a notice: two people share the terminal, and a move once made stands
        screen.notify(_("Between two people a move once made stands: take-backs are for "
                        "games against the computer."), timeout=4)
        return
    if done is TakeBack.NOTHING:
        screen.notify(_("There is no move of yours to take back in this round."), timeout=3)
        return
    if done is TakeBack.CANNOT:
        screen.notify(_("This round cannot be taken back."), timeout=3)
        return
    screen.workers.cancel_group(screen, "computer")  # its reply to that move is void too
    screen.sel = Selection(screen.local.variant)  # a choice made afresh on the table taken
    screen.follow_table()  # back (which its TableChanged draws)
    screen.after_move()
