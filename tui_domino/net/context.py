"""What the parts of the duel core share: the match settings, the two exceptions that judge
the peer's input, one side's seat (who plays it, the frames and events it puts out, the
match log), one deal's record, and the small encodings the frames use."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.clocks import Bucket
from tui_domino.net.knowledge import Knowledge
from tui_domino.net.lifecycle import Lifecycle, Phase
from tui_domino.net.records import ChainEntry, JournalEntry, SettingsJSON
from tui_domino.net.sequencing import Link
from tui_domino.rules.types import Options

Tile = tuple[int, ...]
HOST, JOIN = 0, 1

# The codes of an error frame with which a joiner hands the match back before playing any of
# it (he refuses the welcome, or leaves before it reached him): the host offers it again.
HANDED_BACK = frozenset({"version", "mismatch", "left"})
# The reason a Leave frame gives when the player said nothing more.
LEFT = "left the match"


@dataclass
class MatchSettings:
    """What the host offers: variant, target and house rules (None: the defaults)."""

    variant: str = "classic"
    target: int | None = None
    options: Options | None = None

    def to_json(self) -> SettingsJSON:
        return {"variant": self.variant, "target": self.target, "options": self.options}

    def resolved(self) -> MatchSettings:
        opts = rules.resolve_options(self.variant, self.options)
        m0 = rules.new_match(self.variant, target=self.target, seed=0, options=opts)
        return MatchSettings(self.variant, m0.target, opts)


class Cheat(Exception):
    """The peer broke the protocol in a way only a cheat (or a broken program) can."""


class Refused(Exception):
    """A frame that cannot be taken now: answered with an error frame and ignored."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Seat:
    """One side of a duel as every part sees it: who plays it, what was agreed, and where
    its frames (through the ``link``), events and match log entries go."""

    role: str
    name: str
    seed: bytes
    link: Link
    settings: MatchSettings | None = None
    want: MatchSettings | None = None
    journal: Callable[[JournalEntry], None] | None = None
    names: list[str] = field(default_factory=lambda: ["", ""])
    events: list[ev.Event] = field(default_factory=list)
    bad_frames: int = 0
    # What the peer's faults may make this side say (a refused frame, his error frames):
    # ten at once, then one every 2 s on the transport's clock; the rest are only counted.
    noise: Bucket = field(default_factory=lambda: Bucket(10, 2.0))
    unsaid: int = 0

    def __post_init__(self) -> None:
        if self.role not in ("host", "join"):
            raise ValueError("role is host or join")
        if len(self.seed) != 32:
            raise ValueError("the seed is 32 bytes")
        self.names[self.me] = self.name

    @property
    def me(self) -> int:
        return HOST if self.role == "host" else JOIN

    @property
    def peer(self) -> int:
        return 1 - self.me

    @property
    def variant(self) -> str:
        assert self.settings is not None
        return self.settings.variant

    @property
    def options(self) -> Options:
        assert self.settings is not None
        return Options(**(self.settings.options or {}))

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)

    def drain(self) -> list[ev.Event]:
        out, self.events = self.events, []
        return out

    def record(self, entry: JournalEntry) -> None:
        if self.journal is not None:
            self.journal(entry)

    def send(self, frame: m.Game) -> None:
        self.link.send(frame)

    def send_ctl(self, frame: m.Frame) -> None:
        self.link.send_ctl(frame)

    def refuse(self, code: str, message: str) -> None:
        """A frame of the peer's is refused: he is told, and it is counted (and said, as
        ``noisy`` allows)."""
        self.bad_frames += 1
        self.noisy(ev.ProtocolError(code, message))
        self.send_ctl(m.Error(code=code, message=message[:500]))

    def noisy(self, event: ev.ProtocolError) -> None:
        """Says what the peer's fault was, within the rate of ``noise``: a peer who sends
        garbage without end cannot make this side's screen or output grow without end."""
        if self.noise.take():
            if self.unsaid:
                event = ev.ProtocolError(event.code, f"{event.message} (and {self.unsaid} "
                                         "more not shown)", event.from_peer)
                self.unsaid = 0
            self.events.append(event)
        else:
            self.unsaid += 1


@dataclass
class RoundCtx:
    """One deal of one round. Where the deal stands is ``life`` (net/lifecycle.py); the
    fields hold what has been dealt, played and revealed."""

    round: int
    deal: int
    n: int
    h: int
    secrets: mp.DealSecrets
    leader: int | None
    me: int = HOST
    life: Lifecycle = field(default_factory=Lifecycle)
    tr: mp.Transcript = field(default_factory=mp.Transcript)
    peer_keys: dict[int, bytes] = field(default_factory=dict)
    my_tiles: dict[int, Tile] = field(default_factory=dict)  # position -> tile, mine
    peer_pos: set[int] = field(default_factory=set)  # positions the peer owns
    used: set[int] = field(default_factory=set)
    draws: int = 0
    know: Knowledge | None = None
    call_ptr: int = 0
    opening: tuple[int, Tile] | None = None
    log: list[ChainEntry] = field(default_factory=list)
    chain: bytes = b"\x00" * 32
    awaiting_draw: int | None = None  # the position I asked to draw
    next_actor: int | None = None
    void: bool = False  # the call-down ended with every rank denied
    my_reveal_seq: int | None = None
    # The seq of my first frame that told the peer the round is no longer in play (the move,
    # block or call that ended it, or my dispute): a dispute of his that does not acknowledge
    # it was sent before he knew.
    my_stop_seq: int | None = None
    peer_reveal: m.Reveal | None = None
    disputers: set[int] = field(default_factory=set)
    peer_own_keys: dict[int, bytes] = field(default_factory=dict)  # from his proofs

    @property
    def over(self) -> bool:
        return self.life.over

    @property
    def my_reveal_sent(self) -> bool:
        return self.my_reveal_seq is not None

    @property
    def pending_pass(self) -> int | None:
        """Who claimed a pass that is waiting for its answer (only ever this side)."""
        return self.me if self.life.state is Phase.CLAIM_PENDING else None


def canon(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def hexes(points: list[bytes]) -> list[str]:
    return [p.hex() for p in points]


def movej(mv: rules.Move) -> m.MoveJ:
    return msgspec.convert(mv.to_json(), m.MoveJ)
