"""The computer players by strength: ``LEVELS[name](view, rng, budget) -> Move``.

- ``random``: any legal move, uniformly;
- ``easy``: a random legal move with a preference for doubles (Triominos: triples);
- ``normal``: a one-move heuristic (``heuristic.normal``);
- ``hard``: search under hidden information (``search.hard``).

``budget`` is None (the level's default), a ``search.Budget`` (iterations and/or milliseconds)
or a number of seconds; only ``hard`` uses it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tui_domino import rules
from tui_domino.ai.heuristic import easy, normal, uniform
from tui_domino.ai.search import Budget, BudgetLike, hard
from tui_domino.rules.types import SeatView

Choose = Callable[[SeatView, random.Random, BudgetLike], rules.Move]

LEVELS: dict[str, Choose] = {
    "random": uniform,
    "easy": easy,
    "normal": normal,
    "hard": hard,
}

# The strengths offered in the game's menus, weakest first.
MENU_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def choose(view: SeatView, level: str, rng: random.Random, budget: BudgetLike = None
           ) -> rules.Move:
    """The move of the player at ``level`` in ``view`` (the viewer must be to move)."""
    try:
        player = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}") from None
    return player(view, rng, budget)


__all__ = ["LEVELS", "MENU_LEVELS", "Budget", "choose"]
