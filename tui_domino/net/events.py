"""What the duel core tells the screen (or a headless seat): small immutable values."""

from __future__ import annotations

from dataclasses import dataclass, field

from tui_domino.net.records import MatchResult
from tui_domino.rules.types import MoveJSON, StateJSON


@dataclass(frozen=True)
class Connected:
    """The handshake is done; the opponent is ``opponent`` and I am player ``seat``."""

    opponent: str
    seat: int
    variant: str
    target: int


@dataclass(frozen=True)
class ConnectionState:
    """``waiting``, ``connected``, ``reconnecting`` or ``closed``."""

    state: str
    detail: str = ""


@dataclass(frozen=True)
class RoundStarted:
    round: int
    deal: int


@dataclass(frozen=True)
class Dealt:
    """My hand of this round (and deal) is dealt: ``view()`` shows it from now on."""

    round: int
    deal: int


@dataclass(frozen=True)
class YourTurn:
    """It is my turn: ``legal_moves()`` lists the moves."""


@dataclass(frozen=True)
class Moved:
    """A public move: ``move`` is the engine's JSON form (a draw hides its tile)."""

    player: int
    move: MoveJSON


@dataclass(frozen=True)
class Drew:
    """A tile I drew (only I see it)."""

    tile: tuple[int, ...]


@dataclass(frozen=True)
class ChatLine:
    player: int
    text: str


@dataclass(frozen=True)
class RoundOver:
    """A round checked with every key revealed: ``points`` are its points, ``totals`` the
    match's; ``state`` is the engine state of the true deal, as JSON."""

    round: int
    points: list[int]
    totals: list[int]
    winner: int | None
    end_reason: str | None
    state: StateJSON = field(repr=False)


@dataclass(frozen=True)
class Verdict:
    """The match ended early: ``kind`` is ``cheat`` or ``forfeit`` and ``player`` the one
    who loses it (0 host, 1 joiner); ``error``: this side's program failed, ``player`` is
    this side, nobody is to blame and nobody wins (docs/protocol.md, sections 2 and 7)."""

    kind: str
    player: int
    reason: str


@dataclass(frozen=True)
class MatchOver:
    """``result``: variant, totals, winner, rounds, verified (and names, seat, verdict)."""

    result: MatchResult


@dataclass(frozen=True)
class ProtocolError:
    """A frame was refused (``code`` as in an error frame), or the peer sent an error."""

    code: str
    message: str
    from_peer: bool = False


@dataclass(frozen=True)
class Invitation:
    """The host's invitation code (a new one after too many wrong tries): the joiner needs
    it. ``join`` is the command that joins with it."""

    code: str
    join: str


@dataclass(frozen=True)
class Secured:
    """The match's channel is keyed: ``phrase`` is the verification phrase, the same on
    both screens unless somebody sits in the middle."""

    phrase: str


Event = (
    Connected | ConnectionState | RoundStarted | Dealt | YourTurn | Moved | Drew | ChatLine
    | RoundOver | Verdict | MatchOver | ProtocolError | Invitation | Secured
)
