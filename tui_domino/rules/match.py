"""A match: rounds until the target decides it."""

from __future__ import annotations

import random
from collections.abc import Mapping

from tui_domino.rules.options import check_target, resolve_options
from tui_domino.rules.round import check_history, new_round, state_from_json
from tui_domino.rules.state import RoundState
from tui_domino.rules.types import MatchJSON, RoundSummary, SeatView, copy_json


def round_seed(seed: int, number: int) -> int:
    """The deal seed of round ``number`` (1-based) of a match seeded with ``seed``."""
    return random.Random(f"tui-domino/{seed}/{number}").getrandbits(63)


class Match:
    """Rounds of one variant until the target decides the match.

    ``totals`` include the current round once it is over. In Domino Spider the totals are
    the points charged, and the player who reaches the target loses.
    """

    def __init__(
        self,
        variant: str,
        target: int | None = None,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        *,
        _start: bool = True,
    ) -> None:
        self.variant = variant
        self.options = resolve_options(variant, options)
        self.target = check_target(variant, target)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed must be a whole number")
        self.seed = seed
        self.round_no = 1
        self.banked = [0, 0]
        # One summary per finished round: {"round", "points", "winner", "end_reason", "leader"}.
        self.past: list[RoundSummary] = []
        if _start:
            self.round: RoundState = new_round(
                variant, seed=round_seed(seed, 1), options=self.options
            )

    @property
    def totals(self) -> list[int]:
        if self.round.is_over:
            return [self.banked[0] + self.round.points[0], self.banked[1] + self.round.points[1]]
        return list(self.banked)

    @property
    def winner(self) -> int | None:
        if not self.round.is_over:
            return None
        t = self.totals
        if self.variant == "spider":
            for p in (0, 1):
                if t[p] >= self.target:
                    return 1 - p
            return None
        if max(t) >= self.target and t[0] != t[1]:
            return 0 if t[0] > t[1] else 1
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def player_view(self, player: int) -> SeatView:
        """What a computer player sees: the round's view for ``player`` with the match
        context, ``view["match"] = {"totals": banked before this round, "target"}``, so that
        it can play for the match."""
        view = self.round.view(player)
        view["match"] = {"totals": list(self.banked), "target": self.target}
        return view

    def next_leader(self) -> int | None:
        """Who leads the next round freely: the last round's winner (not in Spider)."""
        if self.variant == "spider":
            return None
        return self.round.winner

    def next_round(self) -> RoundState:
        """Deals the next round once the current one is over and the match is not."""
        if not self.round.is_over:
            raise ValueError("the round is not over yet")
        if self.is_over:
            raise ValueError("the match is over")
        leader = self.next_leader()
        self.past.append(
            {
                "round": self.round_no,
                "points": list(self.round.points),
                "winner": self.round.winner,
                "end_reason": self.round.end_reason,
            }
        )
        self.banked = self.totals
        self.round_no += 1
        self.round = new_round(
            self.variant,
            seed=round_seed(self.seed, self.round_no),
            leader=leader,
            options=self.options,
        )
        return self.round

    def to_json(self) -> MatchJSON:
        return {
            "format": 1,
            "kind": "match",
            "variant": self.variant,
            "target": self.target,
            "seed": self.seed,
            "options": copy_json(self.options),
            "round_no": self.round_no,
            "banked": list(self.banked),
            "past": copy_json(self.past),
            "round": self.round.to_json(),
        }


def new_match(
    variant: str,
    target: int | None = None,
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
) -> Match:
    return Match(variant, target=target, seed=seed, options=options)


def match_from_json(d: object) -> Match:
    """Reads back ``Match.to_json()``; ValueError on anything malformed."""
    if not isinstance(d, dict) or d.get("kind") != "match":
        raise ValueError("not a saved match")
    try:
        m = Match(d["variant"], d["target"], d["seed"], d["options"], _start=False)
        m.round_no = int(d["round_no"])
        banked = d["banked"]
        if not (isinstance(banked, list) and len(banked) == 2):
            raise ValueError("banked must be two numbers")
        m.banked = [int(banked[0]), int(banked[1])]
        past = d["past"]
        if not isinstance(past, list) or not all(_is_past_round(r) for r in past):
            raise ValueError("past must be a list of rounds, each with its number and points")
        m.past = copy_json(past)
        m.round = state_from_json(d["round"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed match: {exc!r}") from exc
    if m.round.variant != m.variant:
        raise ValueError("the round's variant differs from the match's")
    check_history(m.round)
    return m


def _is_past_round(r: object) -> bool:
    """Whether ``r`` is a finished round's summary: its number and both players' points."""
    if not isinstance(r, dict):
        return False
    number, points = r.get("round"), r.get("points")
    return (
        isinstance(number, int)
        and isinstance(points, list)
        and len(points) == 2
        and all(isinstance(p, int) and not isinstance(p, bool) for p in points)
    )
