"""A lobby duel: the challenged visitor's game hosts on 127.0.0.1 (a free port), the
challenger's joins that port; both then play over the duel protocol like any two
players (``tui_domino.net``), with the game's own duel screen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

LOOPBACK = "127.0.0.1"
CONNECT_TIMEOUT = 30.0


class DuelUnavailable(Exception):
    """This version of the game cannot play duels (the duel layer or screen is missing)."""


def _parts() -> tuple[Any, Any, Any]:
    try:
        from tui_domino.net import DuelSession, MatchSettings
        from tui_domino.ui.screens.duel import DuelScreen
    except ImportError as exc:
        raise DuelUnavailable(f"Duels are not available in this version ({exc}).") from exc
    return DuelSession, MatchSettings, DuelScreen


async def open_duel(*, role: str, name: str, variant: str, port: int,
                    on_hosting: Callable[[int], None]) -> tuple[Any, Any]:
    """Opens this side of a lobby duel; returns (session, screen to push)."""
    duel_session, match_settings, duel_screen = _parts()
    if role == "host":
        session = await duel_session.host(port=0, addr=LOOPBACK, name=name,
                                          settings=match_settings(variant))
        on_hosting(int(session.port))
    else:
        session = await asyncio.wait_for(duel_session.join(LOOPBACK, port, name=name),
                                         CONNECT_TIMEOUT)
    return session, duel_screen(session)
