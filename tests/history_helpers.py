"""Matches played to their end at random, as records for the history and the coach."""

from __future__ import annotations

import random
from typing import Any

from tui_domino import rules
from tui_domino.history.records import match_json, round_record

PLAYERS = [{"name": "You", "kind": "human", "level": ""},
           {"name": "Computer", "kind": "computer", "level": "normal"}]


def played_match(variant: str = "classic", seed: int = 1, target: int = 50
                 ) -> dict[str, Any]:
    """A whole match of random moves, as ``record_match``'s keyword arguments."""
    rng = random.Random(seed)
    match = rules.new_match(variant, target=target, seed=seed)
    rounds = []
    while True:
        state = match.round
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
        rounds.append(round_record(state, match.round_no, hints=match.round_no % 2))
        if match.is_over:
            break
        match.next_round()
    return {"variant": variant, "target": match.target, "options": match.options,
            "players": PLAYERS, "rounds": rounds, "totals": match.totals,
            "winner": match.winner, "me": 0, "kind": "computer", "seed": seed}


def played_record(variant: str = "classic", seed: int = 1, target: int = 50
                  ) -> dict[str, Any]:
    return match_json(**played_match(variant, seed, target))
