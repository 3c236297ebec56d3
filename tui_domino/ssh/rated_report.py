"""A lobby duel's end as each visitor's game reports it to the lobby, for the ratings.

The lobby pairs the two games and gives the match an id, whether it is rated, its variant
and the accounts in seats 0 (the host: the challenged) and 1. At the duel's end each game
judges its own ``MatchResult`` (``community.rated.judge``, with whether each seat moved) and
sends the decision (``decision_json``); the lobby reads it as hostile input
(``read_decision``: it must name this match's variant and accounts, a score and an ending
that exist, or a reason that does), and settles the match once from both decisions, or one
and the other side's departure (``community.rated.agree``, ``community.ratings.record``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui_domino.community import rated
from tui_domino.community.rated import Decision, NotRated, Rated

ENDINGS = (rated.END, rated.FORFEIT, rated.CHEAT)
REASONS = (rated.CASUAL, rated.GUEST, rated.SAME_ACCOUNT, rated.ERROR, rated.ABANDONED,
           rated.UNFINISHED, rated.DISAGREE)
SCORES = (0.0, 0.5, 1.0)


def decision_json(decision: Decision) -> dict[str, Any]:
    if isinstance(decision, Rated):
        return {"rated": True, "variant": decision.variant,
                "accounts": list(decision.accounts), "score": decision.score,
                "ending": decision.ending}
    return {"rated": False, "reason": decision.reason}


def read_decision(data: object, variant: str,
                  accounts: Sequence[int | None]) -> Decision | None:
    """A game's reported decision on the match of ``variant`` between ``accounts``, or
    None when it is not one (anything malformed, or about another match)."""
    if not isinstance(data, dict):
        return None
    if data.get("rated") is False:
        reason = data.get("reason")
        return NotRated(reason) if isinstance(reason, str) and reason in REASONS else None
    if data.get("rated") is not True:
        return None
    first, second = accounts
    score, ending = data.get("score"), data.get("ending")
    if (first is None or second is None or data.get("variant") != variant
            or data.get("accounts") != [first, second]
            or isinstance(score, bool) or not isinstance(score, (int, float))
            or float(score) not in SCORES or not isinstance(ending, str)
            or ending not in ENDINGS):
        return None
    return Rated(variant, (first, second), float(score), ending)


__all__ = ["decision_json", "read_decision"]
