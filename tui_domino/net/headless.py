"""A computer player in a networked seat, without the user interface.

It plays every turn with a bot of the requested level and returns the match's result:
``{"variant", "totals", "winner", "rounds", "verified"}`` (plus the names, the seat and a
verdict when the match ended early).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from tui_domino import rules
from tui_domino.ai import PLAYERS
from tui_domino.net import events as ev
from tui_domino.net.records import MatchResult
from tui_domino.net.transport import DuelSession

Choose = Callable[..., rules.Move]  # (view, rng, budget) -> move


def bot_levels() -> dict[str, Choose]:
    """The computer players by name: the strong levels when present, the simple ones
    always."""
    levels: dict[str, Choose] = dict(PLAYERS)
    try:
        # lazy: optional (the strong levels when present: ImportError guarded)
        from tui_domino.ai.levels import LEVELS  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        pass
    else:
        levels.update(LEVELS)
    return levels


def choose(level: str) -> Choose:
    levels = bot_levels()
    if level not in levels:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(levels)}")
    return levels[level]


async def run_bot(
    session: DuelSession,
    level: str = "greedy",
    seed: int | None = None,
    budget: float | None = None,
    on_event: Callable[[ev.Event], None] | None = None,
    in_thread: bool = True,
) -> MatchResult:
    """Plays the session's seat until the match ends; returns its result."""
    bot = choose(level)
    rng = random.Random(seed)
    try:
        async for e in session.events():
            if on_event is not None:
                on_event(e)
            if isinstance(e, ev.MatchOver):
                break
            while session.my_turn():
                legal = session.legal_moves()
                if len(legal) == 1:
                    move: rules.Move = legal[0]
                else:
                    view = session.view()
                    if in_thread:
                        move = await asyncio.to_thread(bot, view, rng, budget)
                    else:
                        move = bot(view, rng, budget)
                    if move not in legal:  # a bot's mistake never costs the match
                        move = rng.choice(legal)
                await session.play(move)
    finally:
        await session.close()
    result = session.core.match.result
    if result is None:
        result = session.core.result_of(None, False)
        if session.core.started:  # (before it began nobody forfeits: nothing was played)
            result["verdict"] = {"kind": "forfeit", "player": session.core.peer,
                                 "reason": "the connection ended before the match did"}
    return result
