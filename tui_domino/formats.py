"""The files the game keeps, as msgspec reads them: the saved match, the history's match
records and the coach's judgements in them.

Each format is described as the game writes it (``Session.to_json``, ``Match.to_json``,
``RoundState.to_json``, ``records.match_json``, ``Judgement.to_json``): a wrong type, a
number out of its range, a key missing or a game that does not exist is refused with
msgspec's words and the place in the file (``Expected `int`, got `str` - at
`$.match.round.points[0]```). What a type cannot say (a tile dealt twice, a move the rules
refuse, a round that disagrees with its history) is the rules' to check, after this.

Keys the game has written since the first version are required; the few it added later
are optional, so that older files still load: Triominos' ``leader`` (a round's free
leader), the save's ``choice``. A key the game does not know is refused where the rules
would refuse it anyway (house rules, moves, seats, a deal, a save's history, which is read
back whole against its replay), and ignored elsewhere, as it always was.

No module of the game is imported here: the rules import no msgspec, and every layer reads
these formats (the app its save, the history its records, the coach its judgements).

The annotations are not postponed (no ``from __future__ import annotations``): made when
the module loads, msgspec need not evaluate them from strings when the first save is read
(on the menu's start), which makes that reading some 2-3 ms quicker.
"""

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

Side = Literal[0, 1]  # a seat: who moves, who won, whose event
Pair = Annotated[list[int], Meta(min_length=2, max_length=2)]  # a number for each seat
Count = Annotated[int, Meta(ge=0)]
Pip = Annotated[int, Meta(ge=0, le=6)]
Domino = Annotated[list[Pip], Meta(min_length=2, max_length=2)]
Corner = Annotated[int, Meta(ge=0, le=5)]
Triomino = Annotated[list[Corner], Meta(min_length=3, max_length=3)]
AnyTile = Annotated[list[int], Meta(min_length=2, max_length=3)]  # of either set (the rules')
Hands = Annotated[list[list[AnyTile]], Meta(min_length=2, max_length=2)]
DominoHands = Annotated[list[list[Domino]], Meta(min_length=2, max_length=2)]
TriominoHands = Annotated[list[list[Triomino]], Meta(min_length=2, max_length=2)]


class Strict(Struct, forbid_unknown_fields=True, kw_only=True):
    """An object in which a key the game does not know is refused."""


class Lenient(Struct, kw_only=True):
    """An object in which a key the game does not know is ignored (and left out)."""


# -- the house rules, one set per game (rules/options.py holds their defaults and ranges) ----


class ClassicOptions(Strict):
    hand_size: int | UnsetType = UNSET
    bazaar_reserve: int | UnsetType = UNSET


class SpiderOptions(Strict):
    hand_size: int | UnsetType = UNSET
    lone_blank_double: int | UnsetType = UNSET


class TriominosOptions(Strict):
    hand_size: int | UnsetType = UNSET
    opening_bonus: list[int] | UnsetType = UNSET
    hexagon_bonus: list[int] | UnsetType = UNSET
    bridge_bonus: int | UnsetType = UNSET
    draw_penalty: int | UnsetType = UNSET
    max_draws: int | None | UnsetType = UNSET
    stuck_penalty: int | UnsetType = UNSET
    domino_bonus: int | UnsetType = UNSET
    blocked_penalty: int | UnsetType = UNSET


# -- moves and what they scored (rules/moves.py, rules/events.py) ----------------------------


class Placement(Strict):
    tile: Domino
    arm: Literal["N", "E", "S", "W", "center"]
    close: bool


class Move(Strict):
    """A move of any game; only the keys of its kind (the rules check which)."""

    kind: Literal["draw", "pass", "place"]
    placements: (Annotated[Sequence[Placement], Meta(min_length=1, max_length=4)]
                 | UnsetType) = UNSET
    tile: AnyTile | UnsetType = UNSET
    end: Literal["left", "right", "center"] | UnsetType = UNSET
    cell: Pair | UnsetType = UNSET
    corners: Triomino | UnsetType = UNSET


class ScoreEvent(Strict):
    player: Side
    points: int
    reason: str
    detail: str | UnsetType = UNSET


class HistoryRecord(Strict):
    """A move of a round's history (``tile``: a draw's tile)."""

    player: Side
    move: Move
    events: Sequence[ScoreEvent]
    tile: AnyTile | UnsetType = UNSET


# -- the saved match -------------------------------------------------------------------------


class Round(Lenient, tag_field="variant"):
    """The round in play (``RoundState.to_json``), one kind per game."""

    format: Literal[1]
    to_move: Side | None
    points: Pair
    winner: Side | None
    over: bool
    end_reason: str | None
    history: list[HistoryRecord]


class ClassicRound(Round, tag="classic"):
    options: ClassicOptions
    hands: DominoHands
    bazaar: list[Domino]
    line: list[Domino]
    ends: Annotated[list[Pip], Meta(min_length=2, max_length=2)] | None
    forced: Domino | None
    leader: Side | None
    bazaar_reserve: Count


class Arm(Lenient):
    tiles: list[Domino]
    end: Pip | None
    closed: bool


class Arms(Lenient):
    N: Arm
    E: Arm
    S: Arm
    W: Arm


class SpiderRound(Round, tag="spider"):
    options: SpiderOptions
    hands: DominoHands
    bazaar: list[Domino]
    center: Pip | None
    arms: Arms
    opener: Side
    opening_double: Annotated[int, Meta(ge=1, le=6)]


class BoardCell(Lenient):
    cell: Pair
    corners: Triomino
    tile: Triomino
    player: Side


class TriominosRound(Round, tag="triominos"):
    options: TriominosOptions
    hands: TriominoHands
    bazaar: list[Triomino]
    board: list[BoardCell]
    forced: Triomino | None
    draws_this_turn: Count
    leader: Side | None | UnsetType = UNSET  # not in the saves of the first version


class RoundSummary(Lenient):
    """A finished round of the match."""

    round: int
    points: Pair
    winner: Side | None
    end_reason: str | None


class Match(Lenient, tag_field="variant"):
    """The match (``Match.to_json``) and its round in play (of the match's own game: the
    rules' to check)."""

    format: Literal[1]
    kind: Literal["match"]
    target: Annotated[int, Meta(ge=1)]
    seed: int
    round_no: Annotated[int, Meta(ge=1)]
    banked: Pair
    past: list[RoundSummary]
    round: ClassicRound | SpiderRound | TriominosRound


class ClassicMatch(Match, tag="classic"):
    options: ClassicOptions


class SpiderMatch(Match, tag="spider"):
    options: SpiderOptions


class TriominosMatch(Match, tag="triominos"):
    options: TriominosOptions


class Seat(Strict):
    name: str
    kind: Literal["human", "computer"]
    level: str  # an unknown level is the app's to replace


class Choice(Lenient):
    """The tile and place chosen when the match was left, and the position they belong to."""

    round: Annotated[int, Meta(ge=0, le=10**6)]
    moves: Annotated[int, Meta(ge=0, le=10**6)]
    tile: Annotated[list[Pip], Meta(min_length=2, max_length=3)] | None
    place: Annotated[int, Meta(ge=0, le=1000)] | None


class Head(Lenient):
    """What a file says it is, read first: a file of another kind or format is refused for
    that, before its content is read."""

    kind: Any = None
    format: Any = None


class SavedMatch(Lenient):
    """A save (``Session.to_json``; its kind and format are its ``Head``). Its ``choice``
    is read on its own (``read_choice``): one that is not one is left out, the match read."""

    seats: Annotated[list[Seat], Meta(min_length=2, max_length=2)]
    match: ClassicMatch | SpiderMatch | TriominosMatch
    choice: Any = UNSET


# -- the coach's judgements (ai/coach.py) ----------------------------------------------------


class JudgedPlacement(Placement, forbid_unknown_fields=False):
    """A placement of a move the coach judged: a key the game does not know in it was
    always ignored (and is left out: the rules refuse it in a move)."""


class JudgedMove(Move, forbid_unknown_fields=False):
    """A move the coach judged (see ``JudgedPlacement``)."""

    placements: (Annotated[Sequence[JudgedPlacement], Meta(min_length=1, max_length=4)]
                 | UnsetType) = UNSET


class Ranked(Lenient):
    move: JudgedMove
    expected: float
    visits: int


class Judgement(Lenient):
    index: Count
    move_no: int
    player: Side
    played: JudgedMove
    expected: float
    best: JudgedMove
    best_expected: float
    loss: float
    mark: str
    ranked: list[Ranked]


# -- the history's match records (history/records.py) ----------------------------------------


class PlayedEvent(ScoreEvent, forbid_unknown_fields=False):
    """An event of a record's move: a record's rounds are replayed, their events not
    compared, and a key the game does not know was always ignored there."""


class PlayedMove(HistoryRecord, forbid_unknown_fields=False):
    """A move of a record's round (see ``PlayedEvent``)."""

    events: Sequence[PlayedEvent]


class Deal(Strict):
    hands: Hands
    bazaar: list[AnyTile]


class RoundRecord(Lenient):
    number: int
    leader: Side | None
    deal: Deal
    moves: list[PlayedMove]
    points: Pair
    winner: Side | None
    end_reason: str | None
    hints: Count
    take_backs: Count
    review: list[Judgement] | None
    cost: float | None | UnsetType = UNSET


class Player(Lenient):
    name: str
    kind: str
    level: str


class MatchRecord(Lenient, tag_field="variant"):
    """A match as the history exports it (``records.match_json``)."""

    kind: str  # records.RECORD_KIND, checked first (a file that is not a record)
    format: Literal[1]
    played_at: str
    target: Annotated[int, Meta(ge=1)]
    seed: int | None
    match_kind: str
    players: Annotated[list[Player], Meta(min_length=2, max_length=2)]
    me: Side | None
    totals: Pair
    winner: Side | None
    hints: Count
    take_backs: Count
    rounds: Annotated[list[RoundRecord], Meta(min_length=1)]
    id: int | UnsetType = UNSET


class ClassicRecord(MatchRecord, tag="classic", kw_only=True):
    options: ClassicOptions


class SpiderRecord(MatchRecord, tag="spider", kw_only=True):
    options: SpiderOptions


class TriominosRecord(MatchRecord, tag="triominos", kw_only=True):
    options: TriominosOptions


AnyRecord = ClassicRecord | SpiderRecord | TriominosRecord


__all__ = [
    "AnyRecord",
    "Choice",
    "Head",
    "Judgement",
    "SavedMatch",
]
