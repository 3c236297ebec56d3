"""Running a duel on its screen: pushed on an app (the menu's Network duel) or in an app of
its own (``tui-domino host|join``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from textual.app import App

from tui_domino.logs import logged
from tui_domino.net import events as ev
from tui_domino.net.records import MatchResult
from tui_domino.net.transport import DuelSession
from tui_domino.ui import storage
from tui_domino.ui.app import DominoApp
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


async def run_duel_app(session: DuelSession) -> MatchResult | None:
    """The game's app on the duel screen (for ``tui-domino host|join``); returns the
    match's result when it ended."""
    app = DominoApp(settings=storage.Settings.load())
    app.call_later(lambda: push_duel(app, session, then=app.exit))
    await app.run_async()
    with logged("closing the duel"):
        async with asyncio.timeout(3):
            await session.close()
    return session.core.result


