"""Finding an opponent without naming one: seeks, and quick pairing.

A *seek* is a standing offer in the lobby: a game, rated or casual, and, optionally, the
range of ratings it admits. Whoever takes it (Enter on it in the lobby) starts the duel at
once, the seeker hosting. A rated seek is taken only by an account that may play the seeker
rated today (two accounts, not the same one, within the pair's daily allowance); a range is
checked against the taker's rating in that game (a guest has none, so takes only a seek
without a range).

*Quick pairing* pairs the visitors waiting for a game of the same variant in waves, every
``WAVE`` seconds: in each wave, the two whose ratings are closest are paired first (the
longer waiter first between equal gaps), then the next two, until at most one is left, who
waits for the next wave. A guest counts as a newcomer's rating. On a server with a handful
of visitors a closer opponent rarely comes along, so a wave does not hold anyone back for
one (lichess adds a bonus for time waited to the gap; with every waiting player paired at
each wave, the bonus would change nothing).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

WAVE = 2.0  # seconds between quick pairing's waves
# The move times a challenge or a seek may ask for (seconds a move: net/deadlines.py's turn
# deadline), besides the server's own default (``serve --turn-seconds``).
MOVE_TIMES = (20, 60, 300)
TURN_DEFAULT = 60
TURN_LOWEST, TURN_HIGHEST = 5, 3600  # the server's default is within these
LOWEST, HIGHEST = 0, 4000  # a range's bounds are ratings within these
VARIANTS = ("classic", "spider", "triominos")

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Seek:
    """A standing offer of a duel: ``variant``, ``rated``, and the ratings it admits
    (``low``..``high``, both included; None: any)."""

    variant: str
    rated: bool
    low: int | None = None
    high: int | None = None
    turn: int | None = None  # seconds a move (None: the server's default)

    def admits(self, rating: float | None) -> bool:
        """Whether a taker with ``rating`` in the seek's game (None: he has none) may take
        it."""
        if self.low is None or self.high is None:
            return True
        return rating is not None and self.low <= round(rating) <= self.high

    def public(self) -> dict[str, Any]:
        """As the lobby tells it to every game."""
        out: dict[str, Any] = {"variant": self.variant, "rated": self.rated}
        if self.low is not None and self.high is not None:
            out["range"] = [self.low, self.high]
        if self.turn is not None:
            out["turn"] = self.turn
        return out


def read_seek(message: dict[str, Any]) -> Seek | None:
    """The seek a game posted (``{"t": "seek", "variant": ..., "rated": ..., "range": [low,
    high]}``), read as any input from a visitor: None when it is not one."""
    variant, rated, span = message.get("variant"), message.get("rated"), message.get("range")
    turn = message.get("turn")
    if variant not in VARIANTS or not isinstance(rated, bool):
        return None
    if turn is not None and not valid_turn(turn):
        return None
    if span is None:
        return Seek(str(variant), rated, turn=turn)
    if (not isinstance(span, list) or len(span) != 2
            or not all(type(x) is int and LOWEST <= x <= HIGHEST for x in span)
            or span[0] > span[1]):
        return None
    return Seek(str(variant), rated, span[0], span[1], turn=turn)


def valid_turn(turn: object) -> bool:
    """Whether ``turn`` is a move time as a message may carry it (whole seconds, within
    ``TURN_LOWEST``..``TURN_HIGHEST``); the lobby admits only its own choices of them."""
    return type(turn) is int and TURN_LOWEST <= turn <= TURN_HIGHEST


def move_times(default: int) -> tuple[int, ...]:
    """The move times a lobby offers: ``MOVE_TIMES`` and its ``default``, shortest first."""
    return tuple(sorted({*MOVE_TIMES, default}))


def read_public_seek(raw: object) -> Seek | None:
    """A seek as the lobby told it (``Seek.public``), checked: None when it is not one."""
    if not isinstance(raw, dict):
        return None
    return read_seek(raw)


@dataclass(frozen=True)
class Waiting(Generic[K]):
    """One visitor waiting for quick pairing: who, his rating in the game, since when."""

    who: K
    rating: float
    since: float


def quick_pairs(waiting: Sequence[Waiting[K]],
                apart: Callable[[K, K], bool] | None = None) -> list[tuple[K, K]]:
    """A wave of quick pairing: pairs of ``waiting`` (all of one game), the closest ratings
    first, the longer waiter first between equal gaps; in each pair, the longer waiter first
    (he hosts). Two that are to be kept ``apart`` (one ignores the other) are never
    paired."""
    candidates = sorted(
        ((abs(a.rating - b.rating), min(a.since, b.since), i, j)
         for i, a in enumerate(waiting) for j, b in enumerate(waiting)
         if i < j and not (apart is not None and apart(a.who, b.who))),
        key=lambda c: (c[0], c[1], c[2], c[3]))
    taken: set[int] = set()
    pairs: list[tuple[K, K]] = []
    for _gap, _since, i, j in candidates:
        if i in taken or j in taken:
            continue
        taken.update((i, j))
        first, second = sorted((waiting[i], waiting[j]), key=lambda w: w.since)
        pairs.append((first.who, second.who))
    return pairs


__all__ = ["WAVE", "Seek", "Waiting", "quick_pairs", "read_public_seek", "read_seek"]
