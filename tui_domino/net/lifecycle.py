"""The lifecycle of one deal of a round: named states, the transitions between them, and the
game frames each state accepts.

Modelled on h11's ``_state.py``: the state is one value, not a combination of flags; a
transition the table does not list is a ``LifecycleError`` (a bug of this program, never
the peer's doing: the core checks the peer's frames against ``accepts`` before it moves the
state on). See docs/protocol.md, sections 5 to 7.

::

    DEALING ──dealt──▶ CALLING ──opened──▶ PLAY ◀──answered── CLAIM_PENDING
       │     └─dealt(leader)─────────────▶  │  ──passed──────────▶  │
       │                 │ void             │ round end             │ block
       │                 ▼                  ▼                       ▼
       │              REVEALING ◀───────────┴───────────────────────┘
       │                 │ ruled
       └──dispute──▶ DISPUTED ──ruled──▶ VERIFIED     (any state) ──match end──▶ ENDED

A dispute may come from DEALING, CALLING, PLAY or CLAIM_PENDING.
"""

from __future__ import annotations

from enum import Enum


class Phase(Enum):
    DEALING = "dealing"  # the four shuffle stages and the hand keys
    CALLING = "calling"  # the call-down of the opening
    PLAY = "play"  # moves (and the keys of a draw)
    CLAIM_PENDING = "claim pending"  # I claimed a pass: his move or his block answers it
    REVEALING = "revealing"  # the round is over: both sides reveal their keys
    DISPUTED = "disputed"  # a dispute: both reveal, the referee replays the round so far
    VERIFIED = "verified"  # the referee has ruled and the round is scored (or dealt again)
    ENDED = "ended"  # the match is over


class Step(Enum):
    DEALT = "dealt"  # my hand is open; an opening to call down
    DEALT_LEADER = "dealt, with a leader"  # my hand is open; the last round's winner leads
    OPENED = "opened"  # the call-down found the opening
    PASSED = "passed"  # I claimed a pass
    ANSWERED = "answered"  # the peer answered my pass with a move
    ROUND_END = "round end"  # out, every arm closed, a block, or a void deal
    DISPUTE = "dispute"  # either side asked for the keys before the round was over
    RULED = "ruled"  # both reveals are in and the referee has ruled
    MATCH_END = "match end"


IN_PLAY = frozenset({Phase.DEALING, Phase.CALLING, Phase.PLAY, Phase.CLAIM_PENDING})
REVEALS = frozenset({Phase.REVEALING, Phase.DISPUTED})

TRANSITIONS: dict[tuple[Phase, Step], Phase] = {
    (Phase.DEALING, Step.DEALT): Phase.CALLING,
    (Phase.DEALING, Step.DEALT_LEADER): Phase.PLAY,
    (Phase.CALLING, Step.OPENED): Phase.PLAY,
    (Phase.CALLING, Step.ROUND_END): Phase.REVEALING,  # every rank denied: a void deal
    (Phase.PLAY, Step.PASSED): Phase.CLAIM_PENDING,
    (Phase.PLAY, Step.ROUND_END): Phase.REVEALING,
    (Phase.CLAIM_PENDING, Step.ANSWERED): Phase.PLAY,
    (Phase.CLAIM_PENDING, Step.ROUND_END): Phase.REVEALING,
    **{(p, Step.DISPUTE): Phase.DISPUTED for p in IN_PLAY},
    (Phase.REVEALING, Step.RULED): Phase.VERIFIED,
    (Phase.DISPUTED, Step.RULED): Phase.VERIFIED,
    **{(p, Step.MATCH_END): Phase.ENDED for p in Phase if p is not Phase.ENDED},
}

# The round's game frames each state takes from the peer (chat, leave and verdict belong to
# the match and are taken in every state). A reveal while the round is in play must be a
# dispute; the keys of PLAY must be the ones a draw of mine asked for: the core checks both.
ACCEPTS: dict[Phase, frozenset[str]] = {
    Phase.DEALING: frozenset({"shuffle", "keys", "reveal"}),
    Phase.CALLING: frozenset({"call", "move", "reveal"}),
    Phase.PLAY: frozenset({"move", "keys", "reveal"}),
    Phase.CLAIM_PENDING: frozenset({"move", "block", "reveal"}),
    Phase.REVEALING: frozenset({"reveal"}),
    Phase.DISPUTED: frozenset({"reveal"}),
    Phase.VERIFIED: frozenset(),
    Phase.ENDED: frozenset(),
}


class LifecycleError(Exception):
    """A transition the protocol does not have: a bug of this program."""


class Lifecycle:
    """The state of one deal; ``step`` moves it on, ``accepts`` says what the peer may send."""

    def __init__(self) -> None:
        self.state = Phase.DEALING

    def __repr__(self) -> str:
        return f"Lifecycle({self.state.name})"

    def step(self, step: Step) -> Phase:
        new = TRANSITIONS.get((self.state, step))
        if new is None:
            raise LifecycleError(f"no {step.value!r} step from the {self.state.value!r} state")
        self.state = new
        return new

    def end(self) -> None:
        """The match is over (from any state; ENDED stays ENDED)."""
        if self.state is not Phase.ENDED:
            self.step(Step.MATCH_END)

    def accepts(self, frame_type: str) -> bool:
        return frame_type in ACCEPTS[self.state]

    @property
    def in_play(self) -> bool:
        return self.state in IN_PLAY

    @property
    def over(self) -> bool:
        """The round is no longer in play (revealing, disputed, ruled, or the match over)."""
        return self.state not in IN_PLAY
