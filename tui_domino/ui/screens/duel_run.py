"""Running a duel on its screen, pushed on the game's app (the menu's Network duel, or the
app of its own that ``tui-domino host|join`` opens: ``ui.app.run_duel_app``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.app import App

from tui_domino.logs import logged
from tui_domino.net import events as ev
from tui_domino.net.transport import DuelSession
from tui_domino.ui.screens.duel import DuelScreen


def push_duel(app: App[None], session: DuelSession, backlog: Iterable[ev.Event] = (),
              then: Callable[[], None] | None = None) -> DuelScreen:
    """Shows the duel; the session is closed when its screen goes away."""
    screen = DuelScreen(session, backlog)

    def done(_: object = None) -> None:
        app.run_worker(_close(session), group="duel-close", exit_on_error=False)
        if then is not None:
            then()

    app.push_screen(screen, done)
    return screen


async def _close(session: DuelSession) -> None:
    with logged("closing the duel"):
        await session.close()
