"""A duel's table as the game screen shows it: the round and the match read from my seat's
view of a ``DuelSession`` (``ui.table.Table``, as a local ``Session`` is), the players' names
as they should read here, and a finished local ``Session`` of each verified round for the
round summary."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.net import events as ev
from tui_domino.text import visible
from tui_domino.ui.session import Seat, Session, describe_record, log_lines
from tui_domino.ui.table import match_scores

if TYPE_CHECKING:
    from tui_domino.net.records import DuelView
    from tui_domino.net.transport import DuelSession


class _LiveRound:
    """The round in play, read from my seat's view (the parts the screen needs)."""

    def __init__(self, table: DuelTable, view: DuelView | None) -> None:
        self._table = table
        self.is_over = view is None or view["over"]
        # Whose turn it is, as the duel knows it: my view alone cannot always tell (before the
        # opener has led, my seat's view has nobody to move yet).
        self.to_move: int | None = None
        if not self.is_over and view is not None:
            me = table.me
            self.to_move = me if table.duel.my_turn() else 1 - me
        self.points: list[int] = list(view["points"]) if view else [0, 0]
        self.history: list[rules.HistoryRecord] = list(view["history"]) if view else []
        self.options: rules.Options = view["options"] if view else rules.Options()

    def legal_moves(self) -> list[rules.Move]:
        return self._table.duel.legal_moves()


class _LiveMatch:
    """The match around the round: its number, target and the verified totals."""

    def __init__(self, table: DuelTable, view: DuelView | None) -> None:
        self.round_no = view["net"]["round"] if view else 0
        settings = table.duel.core.settings
        self.target = (settings.target or 0) if settings is not None else 0
        self.banked = list(view["net"]["totals"] if view else table.duel.core.match.totals)
        # While a round is being checked its points are not known for sure: the totals
        # are the verified ones.
        self.totals = list(self.banked)
        self.past = list(table.duel.core.match.past)
        self.is_over = table.duel.finished


class DuelTable:
    """The table of a ``DuelSession`` as the game screen shows it (``ui.table.Table``): my
    seat is the viewer, the other seat is the opponent's, the round and the match come from
    the session's view. Nothing is saved here: the duel keeps its own log."""

    def __init__(self, duel: DuelSession) -> None:
        self.duel = duel
        self.autosave = False
        self._fallback_variant = "classic"

    @property
    def seats(self) -> list[Seat]:
        # TRANSLATORS: the names of a duel's players who gave none: the one who hosts and
        # the one who joins
        names = [visible(n) or (_("host") if i == 0 else _("guest"))
                 for i, n in enumerate(self.duel.core.seat.names)]
        mine, theirs = self.me, 1 - self.me
        # TRANSLATORS: the name of this side's player where both players have the same name
        # (it stands where a name stands: "{name} wins the match.")
        you = _("You")
        if same_name(names[mine], names[theirs]):
            # two players of one name (both kept the default, say): mine is "You"
            names[mine] = you
        if same_name(names[theirs], "You") or same_name(names[theirs], you):
            # "You left the match" would read as me
            # TRANSLATORS: the name of the other player when his own reads as "You"
            names[theirs] = _("Opponent")
        return [Seat(name) for name in names]

    @property
    def me(self) -> int:
        return self.duel.core.me

    @property
    def opponent(self) -> str:
        if not self.duel.core.seat.names[1 - self.me]:
            # TRANSLATORS: stands for the opponent's name before it is known, in sentences
            # such as "Waiting for {name} to come back…"
            return _("your opponent")
        return self.seats[1 - self.me].name

    @property
    def variant(self) -> str:
        settings = self.duel.core.settings
        if settings is not None and settings.variant in rules.VARIANTS:
            return settings.variant
        want = self.duel.core.seat.want
        if want is not None and want.variant in rules.VARIANTS:
            return want.variant
        return self._fallback_variant

    @property
    def state(self) -> _LiveRound:
        return _LiveRound(self, self.duel.view())

    @property
    def match(self) -> _LiveMatch:
        return _LiveMatch(self, self.duel.view())

    @property
    def hot_seat(self) -> bool:
        return False

    @property
    def viewer(self) -> int:
        return self.me

    def is_human_turn(self) -> bool:
        return self.duel.my_turn()

    def view(self) -> DuelView:
        v = self.duel.view()
        if v is None:
            raise LookupError("no round is dealt yet")
        return v

    def has_view(self) -> bool:
        return self.duel.view() is not None

    def save(self) -> None:
        """Nothing to save: the duel's log is written by the session itself."""

    def scores(self) -> list[int]:
        """Each seat's match total (the verified ones: a round's points count once checked)."""
        return match_scores(self.state, self.match)

    def name(self, player: int, viewer: int | None = None) -> str:
        return self.seats[player].name

    def describe(self, record: rules.HistoryRecord, viewer: int | None = None,
                 count: int = 1) -> str:
        return describe_record(self.variant, self.name, record, viewer, count)

    def log_lines(self, records: Iterable[rules.HistoryRecord], viewer: int | None = None,
                  describe: Callable[..., str] | None = None) -> list[str]:
        return log_lines(records, viewer, describe or self.describe)


def same_name(a: str, b: str) -> bool:
    """Whether two players' names read the same (case and outer spaces aside)."""
    return a.strip().casefold() == b.strip().casefold()


def summary_session(table: DuelTable, event: ev.RoundOver, banked: list[int]) -> Session:
    """A finished local ``Session`` of the verified round, for the round summary."""
    settings = table.duel.core.settings
    assert settings is not None
    match = rules.match_from_json({
        "kind": "match", "variant": settings.variant, "target": settings.target, "seed": 0,
        "options": settings.options, "round_no": event.round, "banked": list(banked),
        "past": [p for p in table.duel.core.match.past if p.get("round") != event.round],
        "round": event.state})
    return Session(match, table.seats, autosave=False)
