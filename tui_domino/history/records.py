"""A match record: what the history keeps of a finished match, and its exported JSON.

A round is kept as it was dealt and played: ``{"number", "leader", "deal": {"hands",
"bazaar"}, "moves": [history records], "points", "winner", "end_reason", "hints",
"take_backs", "review"}``. The deal is the one the round's end implies (the engine's own
reading, ``rules.round.deal_implied``), so replaying ``moves`` from it with the rules engine
gives the round move by move, and any view of it. A match is its players, variant, house
rules, target, totals, winner and rounds (``match_json``). ``check_match`` reads one from a
file strictly: each round is replayed and must agree with its points.
"""

from __future__ import annotations

import datetime as _dt
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

import msgspec

from tui_domino import formats, rules
from tui_domino.rules.round import deal_implied
from tui_domino.rules.types import DealJSON, HistoryRecord, Options, copy_json

if TYPE_CHECKING:
    from tui_domino.ai.coach import JudgementJSON

RECORD_KIND = "tui-domino-match-record"
RECORD_FORMAT = 1


class RoundPlay(TypedDict):
    """What replays a round: its deal, who led it freely (None: the opening rule), its moves."""

    deal: DealJSON
    leader: int | None
    moves: list[HistoryRecord]


class RoundRecord(RoundPlay):
    """A finished round as the history keeps it (``round_record``)."""

    number: int
    points: list[int]
    winner: int | None
    end_reason: str | None
    hints: int
    take_backs: int
    review: list[JudgementJSON] | None
    cost: NotRequired[float | None]  # what the player's choices cost, when known


class PlayerJSON(TypedDict):
    name: str
    kind: str  # "human" or "computer"
    level: str


class MatchFields(TypedDict):
    """What ``db.record_match`` is given of a finished match."""

    variant: str
    target: int
    options: Options
    players: list[PlayerJSON]
    rounds: list[RoundRecord]
    totals: list[int]
    winner: int | None
    me: int | None
    kind: str
    seed: NotRequired[int | None]


class MatchRecord(TypedDict):
    """A match as it is exported (``match_json``), with its ``id`` once in the database."""

    kind: str
    format: int
    played_at: str
    variant: str
    target: int
    options: Options
    seed: int | None
    match_kind: str
    players: list[PlayerJSON]
    me: int | None
    totals: list[int]
    winner: int | None
    hints: int
    take_backs: int
    rounds: list[RoundRecord]
    id: NotRequired[int]


def deal_of(state: rules.RoundState) -> DealJSON:
    """The deal a round started from, as the engine reads it from the round's history
    (``rules.round.deal_implied``)."""
    return deal_implied(state)


def leader_of(state: rules.RoundState) -> int | None:
    leader = state.to_json().get("leader")
    return leader if leader in (0, 1) else None


def round_record(state: rules.RoundState, number: int, hints: int = 0,
                 take_backs: int = 0) -> RoundRecord:
    """The record of a finished round ``state`` (round ``number`` of its match)."""
    return {
        "number": number,
        "leader": leader_of(state),
        "deal": deal_of(state),
        "moves": copy_json(state.history),
        "points": list(state.points),
        "winner": state.winner,
        "end_reason": state.end_reason,
        "hints": hints,
        "take_backs": take_backs,
        "review": None,
    }


def start_of(variant: str, rnd: RoundPlay, options: Options | None) -> rules.RoundState:
    """The round as dealt (ValueError for a deal the rules refuse)."""
    return rules.new_round(variant, deal=rnd["deal"], leader=rnd.get("leader"),
                           options=options)


def replay(variant: str, rnd: RoundPlay, options: Options | None,
           upto: int | None = None) -> rules.RoundState:
    """The round after its first ``upto`` moves (all of them by default)."""
    state = start_of(variant, rnd, options)
    moves = rnd["moves"] if upto is None else rnd["moves"][:upto]
    for rec in moves:
        state.apply(rec["move"])
    return state


def now_text() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def match_json(*, variant: str, target: int, options: Options, players: list[PlayerJSON],
               rounds: list[RoundRecord], totals: list[int], winner: int | None,
               me: int | None, kind: str, played_at: str | None = None,
               seed: int | None = None) -> MatchRecord:
    """The exported form of a match (also what the database is given)."""
    return {
        "kind": RECORD_KIND,
        "format": RECORD_FORMAT,
        "played_at": played_at or now_text(),
        "variant": variant,
        "target": target,
        "options": copy_json(options),
        "seed": seed,
        "match_kind": kind,
        "players": [{"name": str(p.get("name", "")), "kind": str(p.get("kind", "human")),
                     "level": str(p.get("level", ""))} for p in players],
        "me": me,
        "totals": list(totals),
        "winner": winner,
        "hints": sum(int(r.get("hints") or 0) for r in rounds),
        "take_backs": sum(int(r.get("take_backs") or 0) for r in rounds),
        "rounds": copy_json(rounds),
    }


MAX_RECORD_BYTES = 32 << 20


def check_match(raw: object) -> MatchRecord:
    """``raw`` (JSON as Python reads it) as a match record if it is one the game could have
    written, else ValueError saying why: its shape (``formats.AnyRecord``: msgspec's words
    and where), its house rules, and each round replayed with the rules from its deal must
    be legal move by move, over, and scored as the record says."""
    if not isinstance(raw, dict) or raw.get("kind") != RECORD_KIND:
        raise ValueError(f"not a tui-domino match record (its \"kind\" must be {RECORD_KIND!r})")
    if raw.get("format") != RECORD_FORMAT or isinstance(raw.get("format"), bool):
        raise ValueError(f"format {raw.get('format')!r} is not one this version reads")
    record = cast(MatchRecord, msgspec.to_builtins(msgspec.convert(raw, formats.AnyRecord)))
    variant = record["variant"]
    try:
        options = rules.resolve_options(variant, record["options"])
    except ValueError as exc:
        raise ValueError(f"bad house rules: {exc}") from None
    for n, rnd in enumerate(record["rounds"], 1):
        try:
            state = start_of(variant, rnd, options)
            for k, rec in enumerate(rnd["moves"], 1):
                if rec["player"] != state.to_move:
                    raise ValueError(f"move {k} is played out of turn")
                state.apply(rec["move"])
        except ValueError as exc:
            raise ValueError(f"round {n} does not replay: {exc}") from None
        if not state.is_over:
            raise ValueError(f"round {n} is not over after its moves")
        if rnd["points"] != list(state.points):
            raise ValueError(f"round {n}'s points are not what its moves score")
    return record


__all__ = ["RECORD_KIND", "MatchFields", "MatchRecord", "PlayerJSON", "RoundPlay", "RoundRecord",
           "check_match", "deal_of", "match_json", "replay", "round_record",
           "start_of"]
