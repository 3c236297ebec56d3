"""The game screen's aids against the computer: the coach's hint (h) and taking a move
back (u). Neither is offered in a duel."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tui_domino import rules
from tui_domino.ai import coach, worker
from tui_domino.i18n import _
from tui_domino.ui import history_db
from tui_domino.ui.selection import Selection

if TYPE_CHECKING:
    from tui_domino.ui.screens.game import GameScreen


async def coach_hint(screen: GameScreen, turn: int) -> None:
    """The coach's best moves from the player's own view, searched in the worker process
    (in a thread if it cannot run); the best one is chosen on the board, the figures said."""
    view = screen.session.view()
    seed = coach.move_seed(len(screen.session.state.history))
    try:
        ranked = await worker.rank_in_process(view, seed)
    except Exception:  # the worker could not run: search in a thread instead
        ranked = await asyncio.to_thread(coach.rank_json, view, seed)
    if turn != screen.turn_token or not screen.is_attached or not ranked:
        return
    history_db.hint_used(screen.local)
    best = rules.move_from_json(screen.session.variant, ranked[0]["move"])
    if history_db.select_move(screen.sel, best):
        screen.redraw_choice()
    # TRANSLATORS: the title of the coach's hint: the best moves, each with the points it
    # is expected to bring
    screen.notify(coach.hint_line(ranked), title=_("Coach: expected points"), timeout=12)


def take_back(screen: GameScreen) -> None:
    """u: your last move and the computer's reply, taken back (not in duels, nor with the
    "no take-backs" setting; counted on the round summary and in the history)."""
    settings = getattr(screen.app, "settings", None)
    if settings is not None and not settings.take_backs:
        # TRANSLATORS: a notice: taking moves back is turned off in the Settings screen
        screen.notify(_("Take-backs are off (Settings)."), timeout=3)
        return
    s = screen.local
    if s.take_back_index() is None:
        screen.notify(_("There is no move of yours to take back in this round."), timeout=3)
        return
    screen.workers.cancel_group(screen, "computer")  # its reply to that move is void too
    screen.turn_token += 1
    if not s.take_back():
        screen.notify(_("This round cannot be taken back."), timeout=3)
        return
    history_db.take_back_used(s)
    screen.sel = Selection(s.variant)
    screen.thinking = False
    screen.refresh_all(follow=True)
    screen.next_step()
