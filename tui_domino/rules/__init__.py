"""The pure rules engine: classic dominoes, Domino Spider duel and Triominos.

No I/O and no user interface: everything else drives the game through this package.
See docs/engine.md.
"""

from tui_domino.rules.errors import IllegalMove
from tui_domino.rules.events import ScoreEvent
from tui_domino.rules.match import Match, match_from_json, new_match
from tui_domino.rules.moves import DRAW, PASS, VARIANTS, Move, Placement, move_from_json
from tui_domino.rules.options import DEFAULT_TARGET, DEFAULTS, TARGETS, resolve_options
from tui_domino.rules.round import (
    board_tiles,
    determinize,
    full_set,
    new_round,
    state_from_json,
    unseen_tiles,
)
from tui_domino.rules.state import RoundState
from tui_domino.rules.types import (
    ArmJSON,
    BoardCellJSON,
    DealJSON,
    HistoryRecord,
    MatchContext,
    MatchJSON,
    MoveJSON,
    Options,
    PlacementJSON,
    RoundSummary,
    ScoreEventJSON,
    SeatView,
    StateJSON,
)

__all__ = [
    "DEFAULTS",
    "DEFAULT_TARGET",
    "DRAW",
    "PASS",
    "TARGETS",
    "VARIANTS",
    "ArmJSON",
    "BoardCellJSON",
    "DealJSON",
    "HistoryRecord",
    "IllegalMove",
    "Match",
    "MatchContext",
    "MatchJSON",
    "Move",
    "MoveJSON",
    "Options",
    "Placement",
    "PlacementJSON",
    "RoundSummary",
    "RoundState",
    "ScoreEvent",
    "ScoreEventJSON",
    "SeatView",
    "StateJSON",
    "board_tiles",
    "determinize",
    "full_set",
    "match_from_json",
    "move_from_json",
    "new_match",
    "new_round",
    "resolve_options",
    "state_from_json",
    "unseen_tiles",
]
