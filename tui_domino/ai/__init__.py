"""Computer players: functions of a view, ``choose(view, rng, budget) -> Move``.

``PLAYERS`` maps a strength's name to its choose function; ``MENU`` lists the strengths a
game offers, weakest first, with a word for each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_domino.ai.levels import LEVELS
from tui_domino.ai.simple import greedy_player, random_player

Choose = Callable[..., Any]

PLAYERS: dict[str, Choose] = {
    "random": random_player,
    "greedy": greedy_player,
    **{name: f for name, f in LEVELS.items() if name != "random"},
}

MENU: tuple[tuple[str, str], ...] = tuple(
    (name, word)
    for name, word in (
        ("random", "random moves"),
        ("easy", "easy"),
        ("greedy", "greedy: heaviest tile, best score"),
        ("normal", "normal"),
        ("hard", "hard: searches ahead"),
    )
    if name in PLAYERS
)

# Strengths whose thinking is a search: run in a separate process, never in the UI's.
SEARCHING: frozenset[str] = frozenset({"hard"})

__all__ = ["MENU", "PLAYERS", "SEARCHING", "greedy_player", "random_player"]
