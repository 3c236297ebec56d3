"""The deals of the tutorial's rounds: a fixed deal per variant, against the easy computer,
found by scripts/tutorial_deals.py so that, played as the lessons say, every lesson's moment
comes within the round (tests/ui/test_tutorial.py plays them). The round is the game's own,
so every rule holds; it is not saved, nor kept in the history."""

from __future__ import annotations

from dataclasses import dataclass

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.rules.match import round_seed
from tui_domino.ui.session import COMPUTER, YOU, Seat, Session


@dataclass(frozen=True)
class Deal:
    seed: int  # the match's seed: its first round is dealt from it
    leader: int | None = None  # who leads that round freely (None: the opening rule)
    options: rules.Options | None = None


DEALS: dict[str, Deal] = {
    "classic": Deal(296),
    "spider": Deal(180),
    # You lead freely, as a round's winner does, so that the first tile is yours to turn
    # (r turns a tile only where it lies more than one way: the opening place). A round of
    # minutes: 8 tiles each.
    "triominos": Deal(483, leader=0, options={"hand_size": 8}),
}


def tutorial_session(variant: str, deal: Deal | None = None) -> Session:
    """The tutorial's round of ``variant`` (on ``deal``, else the variant's own), you
    against the easy computer."""
    deal = deal or DEALS[variant]
    seats = [Seat(_(YOU)), Seat(_(COMPUTER), "computer", "easy")]
    session = Session.new(variant, seats, target=None, seed=deal.seed, options=deal.options,
                          autosave=False)
    if deal.leader is not None:
        match = session.match
        match.round = rules.new_round(variant, seed=round_seed(deal.seed, 1),
                                      leader=deal.leader, options=match.options)
    return session
