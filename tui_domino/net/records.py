"""The duel's data, typed: what the core shows the table (the view with the match around it),
what a match's end says, the rounds it keeps, its chain of public moves, and the entries of
its match log (net/journal.py; docs/protocol.md, section 9)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from tui_domino.rules.types import MoveJSON, Options, RoundSummary, SeatView

RoundResult = RoundSummary  # one round of the match, counted


class DuelInfo(TypedDict):
    """``view["net"]``: where the match stands, from this seat."""

    round: int
    totals: list[int]
    names: list[str]
    my_turn: bool
    connected: bool
    finished: bool
    phase: str


class DuelView(SeatView):
    """The engine's view of my seat in the current round, with the match around it."""

    net: DuelInfo


class VerdictJSON(TypedDict):
    kind: str
    player: int
    reason: str


class MatchResult(TypedDict):
    """How the match ended: ``verified`` when every round was checked with every key
    revealed; ``verdict`` when it ended early (a cheat, a forfeit, an error)."""

    variant: str | None
    totals: list[int]
    winner: int | None
    rounds: int
    verified: bool
    seat: int
    names: list[str]
    verdict: NotRequired[VerdictJSON]


class ChainEntry(TypedDict):
    """One link of a round's chain of public moves: a move (``m``) of player ``p``, or his
    claim that the round is blocked (``k`` is "move" or "block")."""

    k: str
    p: int
    m: NotRequired[MoveJSON]


class SettingsJSON(TypedDict):
    variant: str
    target: int | None
    options: Options | None


class JournalEntry(TypedDict, total=False):
    """One line of a match log. ``k`` says which: "start" (role, name, seed, settings,
    want), "in" (a frame received), "local" (``a``: play with its move, chat with its text,
    leave, gone or timeout with a reason, dispute, claimed with the player the peer said ran
    out of time, what this side's clock said of it and the peer's words), "channel" (the
    resume secret), "internal" (an error of this program's and where)."""

    k: str
    role: str
    name: str
    seed: str
    settings: SettingsJSON | None
    want: SettingsJSON | None
    frame: str
    a: str
    move: MoveJSON
    text: str
    reason: str
    resume: str
    error: str
    at: str
    player: int
    bears_out: str | None
    said: str


__all__ = ["ChainEntry", "DuelInfo", "DuelView", "JournalEntry", "MatchResult", "RoundResult",
           "SettingsJSON", "VerdictJSON"]
