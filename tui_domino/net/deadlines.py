"""The match's deadlines, counted from the transport's clock: the resume window (the time
the peer may be away over the whole match: his absences add up), the reveal deadline (while
he is here and owes his keys) and the turn deadline (while he is here and owes the match its
next step). Each is a count of seconds (net/clocks.py); ``tick`` says which ran out and who
loses by it. See docs/protocol.md, section 4.

Both sides count every deadline, so that one verdict ends the match on both screens: the side
that runs out of time over its own step declares it first (at the deadline itself), the
waiting side only ``CLAIM_GRACE`` seconds later (for a program that does not declare its own
lapse: a frozen or a modified one). A side told that its own time ran out takes it as the
verdict when its own count bears it out (``bears_out``, within ``CLAIM_TOLERANCE`` seconds
of the deadline); a claim its clock does not bear out counts as the claimant stopping the
match.

Because absences add up, no mix of connected and absent time holds a step longer than its
deadline plus the match's resume window: dropping and coming back starts nothing afresh.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from tui_domino.net.clocks import Stopwatch
from tui_domino.net.context import RoundCtx
from tui_domino.net.lifecycle import REVEALS

# How long (seconds) the peer has to send his reveal while connected, and to come back after
# the connection dropped; the transport sets its own (``--reveal-timeout``, ``--resume-window``).
REVEAL_TIMEOUT = 30.0
RESUME_WINDOW = 900.0  # seconds away in all, over the whole match
# How long (seconds of connected time) a side may take over one step of the match (a move,
# a draw's keys, a stage of the deal, a call) before he forfeits: stalling for ever while
# losing must cost the match (``--turn-timeout``).
TURN_TIMEOUT = 600.0

# Seconds the waiting side gives the side that owes a step to declare its own lapse, and
# how far short of a deadline a side's own count may be when told its time ran out (the two
# clocks start a step a frame's travel apart, and are read a tick apart).
CLAIM_GRACE = 3.0
CLAIM_TOLERANCE = 5.0

REFUSED_TO_REVEAL = "refused to reveal his keys"
AWAY = "did not come back"
TOO_LONG = re.compile(r"took more than \S+ (?:minutes?|seconds) over one move$")


class Lapse(NamedTuple):
    """A deadline that ran out: ``player`` loses the match by it, ``reason`` says why (the
    words after his name)."""

    player: int
    reason: str


def waiting_for_reveal(r: RoundCtx) -> bool:
    return r.life.state in REVEALS and r.my_reveal_sent and r.peer_reveal is None


def turn_key(r: RoundCtx, owes: int) -> tuple[object, ...]:
    """What moves the match on (a new round or deal, a move, a stage, a draw asked for): a
    new key starts the turn's count afresh."""
    return (r.round, r.deal, len(r.log), r.life.state, r.awaiting_draw,
            len(r.tr.x), len(r.tr.y), len(r.tr.z), len(r.tr.w), len(r.peer_keys),
            len(r.my_tiles), r.call_ptr, owes)


class Deadlines:
    """The three counts of one side, for the peer."""

    def __init__(self) -> None:
        self.reveal_timeout = REVEAL_TIMEOUT
        self.resume_window = RESUME_WINDOW
        self.turn_timeout = TURN_TIMEOUT
        self.turn = Stopwatch()  # connected time the side to act has taken over it
        self.reveal = Stopwatch()  # connected time spent waiting for his reveal
        self.away_since: float | None = None  # when the current absence began
        self.away_before = 0.0  # seconds of the match's earlier absences, added up
        self.seen: float | None = None  # the last tick that found him connected
        self.now = 0.0  # the last tick's time
        # Taken up from its log (a fresh process): the step under way then began at a time
        # this side does not know, so its own count of that step cannot refute a claim.
        self.replayed = False
        self.unknown_step: object = None
        self.peer_count: float | None = None  # the peer's count of that step, as he said

    def away(self, now: float) -> float:
        """Seconds the peer has been away over the match so far."""
        current = 0.0 if self.away_since is None else max(0.0, now - self.away_since)
        return self.away_before + current

    def tick(self, now: float, present: bool, r: RoundCtx | None, owes: int | None,
             me: int) -> Lapse | None:
        """One tick of a match in play (``present``: the peer is connected; ``owes``: who
        owes the next step; ``me``: this side): the deadline that ran out, or None."""
        self.now = now
        peer = 1 - me
        if not present:
            self.turn.pause()
            self.reveal.pause()
            if self.away_since is None:  # away since he was last seen (the transport
                # ticks as a connection drops, so that is the moment it dropped)
                self.away_since = now if self.seen is None else self.seen
            if self.away(now) >= self.resume_window:
                return Lapse(peer, AWAY)
            return None
        if self.away_since is not None:  # he is back: this absence joins the others
            self.away_before = self.away(now)
            self.away_since = None
        self.seen = now
        if r is None or not waiting_for_reveal(r):
            self.reveal.pause()
            return self.count_turn(now, r, owes, me)
        if self.reveal.run(now, (r.round, r.deal)) >= self.reveal_timeout + CLAIM_GRACE:
            return Lapse(peer, REFUSED_TO_REVEAL)
        return None

    def count_turn(self, now: float, r: RoundCtx | None, owes: int | None,
                   me: int) -> Lapse | None:
        if owes is None or r is None:
            self.turn.pause()
            self.turn.key = None
            return None
        key = turn_key(r, owes)
        waited = self.turn.run(now, key)
        if self.replayed:  # (the first step counted after a replay began before it: the
            # peer's count of it, when he said it as the match resumed, is the one to go by)
            self.replayed, self.unknown_step = False, key
            if self.peer_count is not None:
                self.turn.waited = waited = max(waited, self.peer_count)
            self.peer_count = None
        # (mine at the deadline; the peer's only after the grace he has to declare it)
        if waited >= self.turn_timeout + (0.0 if owes == me else CLAIM_GRACE):
            return Lapse(owes, self.too_long())
        return None

    def step_waited(self) -> float | None:
        """This side's count of the step under way, to tell a peer that resumes (None when
        it has none: no step, or a count begun at its own replay)."""
        if self.replayed or self.turn.key is None or self.turn.key == self.unknown_step:
            return None
        return round(self.turn.waited, 3)

    def peer_said(self, waited: float | None) -> None:
        """The peer's count of the step under way, as he resumed the match with this side:
        taken when this side was taken up from its log and has not counted the step yet."""
        if self.replayed and waited is not None:
            self.peer_count = min(waited, self.turn_timeout)

    def too_long(self) -> str:
        """The words of a turn that took too long (after the player's name)."""
        minutes = self.turn_timeout / 60
        said = (f"{minutes:g} minute{'s' * (minutes != 1)}" if self.turn_timeout >= 60
                else f"{self.turn_timeout:g} seconds")
        return f"took more than {said} over one move"

    def bears_out(self, me: int, r: RoundCtx | None) -> str | None:
        """Whether this side's own count bears out the peer's word that this side's time
        ran out: the words of the deadline that did (for this side's screen), or None. Its
        own reveal still unsent (a program frozen through the deadline) bears out a claim
        of the reveal's deadline."""
        owes = self.turn.key[-1] if isinstance(self.turn.key, tuple) else None
        if owes == me and (self.turn.waited >= self.turn_timeout - CLAIM_TOLERANCE
                           or self.turn.key == self.unknown_step):
            return self.too_long()
        if r is not None and r.life.state in REVEALS and not r.my_reveal_sent:
            return REFUSED_TO_REVEAL
        if self.away(self.now) >= self.resume_window - CLAIM_TOLERANCE:
            return AWAY  # (he saw this side away as long as it saw him)
        return None

    def turn_left(self, owes: int | None) -> float | None:
        """Seconds of connected time left to the side that owes the next step (None when
        nobody does)."""
        if owes is None or self.turn.key is None:
            return None
        return max(0.0, self.turn_timeout - self.turn.waited)
