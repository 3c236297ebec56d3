"""Computer players: functions of a view, ``choose(view, rng, budget) -> Move``.

``PLAYERS`` maps a strength's name to its choose function, weakest first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_domino.ai.simple import greedy_player, random_player

Choose = Callable[..., Any]

PLAYERS: dict[str, Choose] = {
    "random": random_player,
    "greedy": greedy_player,
}

__all__ = ["PLAYERS", "greedy_player", "random_player"]
