"""Computer players: functions of a view, ``choose(view, rng, budget) -> Move``.

``PLAYERS`` maps a strength's name to its choose function; ``MENU`` lists the strengths a
game offers, weakest first, with a word for each; ``NAMES`` the strengths' names.

The players themselves load at the first use of ``PLAYERS`` (or of a player): the menu,
the settings and a saved match need only the names, and the players' modules take a good
part of the start-up time (the simulations' tables).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tui_domino.i18n import N_

Choose = Callable[..., "Move"]

# The strengths, weakest first (``PLAYERS`` has exactly these keys: a test checks it).
NAMES: tuple[str, ...] = ("random", "easy", "greedy", "normal", "hard")

# The words are marked for translation (N_) and translated where a menu shows them, _(word).
MENU: tuple[tuple[str, str], ...] = (
    # TRANSLATORS: the computer's strengths, shown after "Computer, " in New game's
    # choice of opponent.
    ("random", N_("random moves")),
    ("easy", N_("easy")),
    ("greedy", N_("greedy: heaviest tile, best score")),
    ("normal", N_("normal")),
    ("hard", N_("hard: searches ahead")),
)

# Strengths whose thinking is a search: run in a separate process, never in the UI's.
SEARCHING: frozenset[str] = frozenset({"hard"})

if TYPE_CHECKING:
    from tui_domino.ai.simple import greedy_player, random_player
    from tui_domino.rules import Move

    PLAYERS: dict[str, Choose]


def _players() -> dict[str, Choose]:
    # lazy: start-up (the players' modules and tables: the menu needs only the names)
    from tui_domino.ai.levels import LEVELS
    from tui_domino.ai.simple import greedy_player, random_player

    return {
        "random": random_player,
        "greedy": greedy_player,
        **{name: f for name, f in LEVELS.items() if name != "random"},
    }


def __getattr__(name: str) -> object:
    """``PLAYERS`` and the simple players, loaded at their first use."""
    if name == "PLAYERS":
        players = _players()
        globals()["PLAYERS"] = players
        return players
    if name in ("greedy_player", "random_player"):
        # lazy: start-up (the players' modules and tables: the menu needs only the names)
        from tui_domino.ai import simple

        return getattr(simple, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MENU", "NAMES", "PLAYERS", "SEARCHING", "greedy_player", "random_player"]
