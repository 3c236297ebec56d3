"""Sequencing and resume: the numbers on the game frames, what the peer has not yet
acknowledged, the frames written to the connection, and the match's resume tokens.

Every game frame carries ``seq`` (1, 2, 3, ... per sender, for the whole match) and ``ack``
(the highest ``seq`` received so far); control frames carry neither. A game frame stays in
``unacked`` until the peer's ``ack`` covers it, and is written again after a resume. Game
frames go out only on a connection that is the peer's (``authed``); control frames on any.
See docs/protocol.md, sections 2 and 4.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from tui_domino.net import messages as m


@dataclass
class Link:
    """One side's end of the frame stream, across the connections of one match."""

    connected: bool = False
    # The connection is the peer's: he greeted (a new match) or resumed with the token.
    # Until then its game frames are refused and its acknowledgements ignored.
    authed: bool = False
    closing: bool = False  # the transport should close the connection
    next_seq: int = 1
    received: int = 0
    unacked: list[tuple[int, bytes]] = field(default_factory=list)
    wire: list[bytes] = field(default_factory=list)

    def outgoing(self) -> list[bytes]:
        out, self.wire = self.wire, []
        return out

    def made(self) -> None:
        """A new connection, not yet the peer's."""
        self.connected = True
        self.authed = False
        self.closing = False
        self.wire = []

    def lost(self) -> None:
        self.connected = False
        self.authed = False
        self.wire = []

    @property
    def up(self) -> bool:
        """Connected, to the peer."""
        return self.connected and self.authed

    def send(self, frame: m.Game) -> None:
        """Numbers a game frame and keeps it until acknowledged; writes it when up."""
        frame.seq = self.next_seq
        frame.ack = self.received
        self.next_seq += 1
        data = m.encode(frame)
        self.unacked.append((frame.seq, data))
        if self.up:
            self.wire.append(data)

    def send_ctl(self, frame: m.Frame) -> None:
        """A control frame: written on any connection, never kept."""
        if self.connected:
            self.wire.append(m.encode(frame))

    def acked(self, ack: int) -> None:
        if ack >= self.next_seq:
            return  # acknowledges frames never sent: ignore
        self.unacked = [(s, d) for s, d in self.unacked if s > ack]

    def resend(self, ack: int) -> None:
        """After a resume: the frames the peer's ``ack`` does not cover, again."""
        self.acked(ack)
        for _, data in self.unacked:
            self.wire.append(data)

    def take(self, frame: m.Game) -> bool:
        """The peer's game frame: True when it comes after the last one taken (a duplicate
        or a replayed frame is dropped). One further on than the next is taken too: the
        peer sends his frames in order and resends from this side's acknowledgement, so a
        gap is frames he chose not to send, or chat lines this side took but kept out of
        its match log (a flood of them: ``Match.hear``), which a replay of the log skips."""
        self.acked(frame.ack)
        if frame.seq <= self.received:
            return False
        self.received = frame.seq
        return True


@dataclass
class Tokens:
    """The match's name and resume secrets. The host makes them (from its seed) and gives
    them to the joiner in the welcome; a resume shows them again."""

    match_id: str = ""
    token: str = ""  # the joiner's secret (shown by the joiner on resume)
    peer_token: str = ""  # the host's secret (shown back by the host)
    # The channel's resume secret (hex), when the match began in a sealed channel: the
    # transport's business (net/channel.py); kept here so that the match log keeps it.
    channel_secret: str = ""

    @classmethod
    def for_host(cls, seed: bytes) -> Tokens:
        return cls(derive(seed, "match", 16), derive(seed, "token", 16),
                   derive(seed, "peer_token", 16))


def derive(seed: bytes, label: str, nbytes: int) -> str:
    """Hex bytes drawn from the seed for ``label``."""
    return hashlib.sha512(seed + f"|{label}".encode()).digest()[:nbytes].hex()
