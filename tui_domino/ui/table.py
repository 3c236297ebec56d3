"""What the game screen and its widgets need from the table they show: a local match
(``ui.session.Session``) or a duel (``ui.duel_table.DuelTable``) provides it, each in its
own way, neither inheriting from the other."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from tui_domino import rules
from tui_domino.rules.types import HistoryRecord, Options, SeatView

if TYPE_CHECKING:
    from tui_domino.ui.session import Seat


class RoundLike(Protocol):
    """The round in play, as the screen reads it (a ``rules.RoundState`` is one)."""

    @property
    def is_over(self) -> bool: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def points(self) -> list[int]: ...
    @property
    def history(self) -> list[HistoryRecord]: ...
    @property
    def options(self) -> Options: ...
    def legal_moves(self) -> list[rules.Move]: ...


class MatchLike(Protocol):
    """The match around the round: its number, target and totals."""

    @property
    def round_no(self) -> int: ...
    @property
    def target(self) -> int: ...
    @property
    def banked(self) -> list[int]: ...
    @property
    def totals(self) -> list[int]: ...
    @property
    def is_over(self) -> bool: ...


def match_scores(state: RoundLike, match: MatchLike) -> list[int]:
    """Each seat's match total: the totals once the round is over, else the totals banked
    before it with the points of the round in play."""
    if state.is_over:
        return list(match.totals)
    return [match.banked[i] + state.points[i] for i in (0, 1)]


class Table(Protocol):
    """A table the game screen can show and take moves at."""

    autosave: bool

    @property
    def variant(self) -> str: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def state(self) -> RoundLike: ...
    @property
    def match(self) -> MatchLike: ...
    @property
    def hot_seat(self) -> bool: ...
    @property
    def viewer(self) -> int: ...
    def is_human_turn(self) -> bool: ...
    def view(self) -> SeatView: ...
    def scores(self) -> list[int]: ...
    def name(self, player: int, viewer: int | None = None) -> str: ...
    def describe(self, record: HistoryRecord, viewer: int | None = None,
                 count: int = 1) -> str: ...
    def log_lines(self, records: Iterable[HistoryRecord], viewer: int | None = None,
                  describe: Callable[..., str] | None = None) -> list[str]: ...
