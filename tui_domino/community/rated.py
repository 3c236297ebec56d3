"""What is rated: a duel's end (``net.records.MatchResult``) judged for the ratings.

Rated is a match between two accounts, offered as rated, played to its end:

- played to its end (every round checked, no verdict): the winner wins, a match without one
  is a draw;
- a forfeit (leaving, a deadline, a lost connection) is a loss for the one who forfeits,
  once each side has moved;
- a cheat verdict is a loss for the cheater, whenever it falls.

Not rated: a casual match; a guest in either seat; one account in both seats; a match this
program stopped (an internal error, the ``error`` verdict, on either side); a match abandoned
before each side has made a move (``Moves`` counts them from the duel's events); a match that
ended without a result (the connection closed before it began); and a match whose two seats
disagree about who lost it (but a cheat that one side proved stands: the cheater's own
program takes the accusation for his opponent leaving).

``judge`` reads one seat's result; ``agree`` settles the match from both seats' decisions
(or the one left, when the other's game ended without one). The decision goes to
``ratings.record`` under the match's id, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tui_domino.net.events import Event, Moved
from tui_domino.net.records import MatchResult

# How a rated match ended (``Rated.ending``).
END = "end"
FORFEIT = "forfeit"
CHEAT = "cheat"

# Why a match is not rated (``NotRated.reason``).
CASUAL = "casual"
GUEST = "guest"
SAME_ACCOUNT = "same-account"
ERROR = "error"
ABANDONED = "abandoned"
UNFINISHED = "unfinished"
DISAGREE = "disagree"


@dataclass(frozen=True)
class Rated:
    """A rated match: the accounts in seats 0 (the host) and 1, seat 0's score (1 a win,
    0.5 a draw, 0 a loss) and how it ended (``END``, ``FORFEIT``, ``CHEAT``)."""

    variant: str
    accounts: tuple[int, int]
    score: float
    ending: str


@dataclass(frozen=True)
class NotRated:
    """A match that changes no rating, and why (``CASUAL``, ``GUEST``, ...)."""

    reason: str


Decision = Rated | NotRated


@dataclass
class Moves:
    """Whether each seat has made a move in the match (a play, a draw or a pass): fed the
    duel's events, as the screen gets them."""

    moved: list[bool] = field(default_factory=lambda: [False, False])

    def see(self, event: Event) -> None:
        if isinstance(event, Moved) and event.player in (0, 1):
            self.moved[event.player] = True

    @property
    def both(self) -> bool:
        return all(self.moved)


def judge(result: MatchResult, *, rated: bool, accounts: Sequence[int | None],
          both_moved: bool) -> Decision:
    """The decision on one seat's ``result``: ``rated``: the match was offered as rated;
    ``accounts``: the account in seats 0 and 1 (None: a guest); ``both_moved``: each seat
    made a move (``Moves.both``)."""
    if not rated:
        return NotRated(CASUAL)
    first, second = accounts
    if first is None or second is None:
        return NotRated(GUEST)
    if first == second:
        return NotRated(SAME_ACCOUNT)
    variant = result.get("variant")
    verdict = result.get("verdict")
    if verdict is not None:
        kind, loser = verdict["kind"], verdict["player"]
        if kind == "error":
            return NotRated(ERROR)
        if variant is None or loser not in (0, 1) or kind not in (CHEAT, FORFEIT):
            return NotRated(UNFINISHED)
        if kind == FORFEIT and not both_moved:
            return NotRated(ABANDONED)
        return Rated(variant, (first, second), 0.0 if loser == 0 else 1.0, kind)
    if variant is None or not result.get("verified"):
        return NotRated(UNFINISHED)
    winner = result.get("winner")
    score = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
    return Rated(variant, (first, second), score, END)


def agree(decisions: Sequence[Decision]) -> Decision:
    """The match's decision from its seats' (one or two): an internal error on either side
    makes it unrated; what they agree on stands; a cheat proven on one side stands against
    what the cheater's side makes of it (his program takes the accusation for his opponent
    leaving); any other disagreement leaves the match unrated."""
    if not decisions:
        return NotRated(UNFINISHED)
    if any(isinstance(d, NotRated) and d.reason == ERROR for d in decisions):
        return NotRated(ERROR)
    first = decisions[0]
    if all(d == first for d in decisions[1:]):
        return first
    cheats = {d for d in decisions if isinstance(d, Rated) and d.ending == CHEAT}
    if len(cheats) == 1:
        return cheats.pop()
    return NotRated(DISAGREE)


__all__ = ["ABANDONED", "CASUAL", "CHEAT", "DISAGREE", "END", "ERROR", "FORFEIT", "GUEST",
           "SAME_ACCOUNT", "UNFINISHED", "Decision", "Moves", "NotRated", "Rated", "agree",
           "judge"]
