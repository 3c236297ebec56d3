"""Two cores through a hostile network: deliver, drop, duplicate, reorder, corrupt,
disconnect-and-resume. They always end up agreeing, and no hidden tile ever leaves a side."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tests.net.duel import bot_move, pair, run
from tui_domino.net import events as ev
from tui_domino.net import messages as m


class Network(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.cores = []
        self.wire: list[list[bytes]] = [[], []]  # frames in flight from side i
        self.events: list[list] = [[], []]
        self.rng = random.Random(0)
        self.up = True

    @rule(variant=st.sampled_from(["classic", "spider", "triominos"]),
          seed=st.integers(0, 10_000))
    @precondition(lambda self: not self.cores)
    def start(self, variant, seed):
        self.cores = pair(variant, 50 if variant != "triominos" else 200, seed=seed)
        self.rng = random.Random(seed)
        self.collect()

    def collect(self) -> None:
        for i, c in enumerate(self.cores):
            for line in c.outgoing():
                self.check_private(i, line)
                if self.up:
                    self.wire[i].append(line)
            self.events[i] += c.events()

    def check_private(self, i: int, line: bytes) -> None:
        """A key leaves side i only for a position the peer owns or that i just played,
        and all of them only once the round is over."""
        f = m.decode(line.rstrip(b"\n"))
        r = self.cores[i].match.rnd
        if r is not None and hasattr(f, "round") and (f.round, f.deal) < (r.round, r.deal):
            return  # sent again after a resume; checked when it was first sent
        if isinstance(f, m.KeysF):
            assert r is not None and set(f.positions) <= r.peer_pos
        elif isinstance(f, m.MoveF):
            assert r is not None and all(p.pos in r.used and p.pos in r.my_tiles
                                         for p in f.proofs)
        elif isinstance(f, m.Reveal):
            assert r is not None and r.over

    @rule(side=st.integers(0, 1), k=st.integers(1, 4))
    @precondition(lambda self: self.cores and self.up)
    def deliver(self, side, k):
        for _ in range(k):
            if self.wire[side]:
                self.cores[1 - side].receive(self.wire[side].pop(0).rstrip(b"\n"))
        self.collect()

    @rule(side=st.integers(0, 1))
    @precondition(lambda self: self.cores and self.up)
    def drop(self, side):
        if self.wire[side]:
            self.wire[side].pop(0)

    @rule(side=st.integers(0, 1))
    @precondition(lambda self: self.cores and self.up)
    def duplicate(self, side):
        if self.wire[side]:
            self.wire[side].insert(0, self.wire[side][0])

    @rule(side=st.integers(0, 1))
    @precondition(lambda self: self.cores and self.up)
    def reorder(self, side):
        w = self.wire[side]
        if len(w) >= 2:
            w[0], w[1] = w[1], w[0]

    @rule(side=st.integers(0, 1), cut=st.integers(1, 200))
    @precondition(lambda self: self.cores and self.up)
    def corrupt(self, side, cut):
        if self.wire[side]:
            line = self.wire[side][0]
            self.wire[side][0] = line[: min(cut, len(line) - 2)] + b"\x00#"

    @rule()
    @precondition(lambda self: self.cores and self.up)
    def disconnect(self):
        self.up = False
        self.wire = [[], []]
        for c in self.cores:
            c.connection_lost()

    @rule()
    @precondition(lambda self: self.cores and not self.up)
    def resume(self):
        self.up = True
        host, join = self.cores
        host.connection_made()
        join.connection_made()  # the joiner sends resume (or hello again)
        self.collect()

    @rule()
    @precondition(lambda self: self.cores)
    def move(self):
        for c in self.cores:
            if c.my_turn():
                c.play(bot_move(c, self.rng))
        self.collect()

    @invariant()
    def honest_peers_are_never_accused(self):
        for evs in self.events:
            assert not [e for e in evs if isinstance(e, ev.Verdict)]

    def teardown(self):
        if not self.cores:
            return
        # Heal: a last reconnection, then a clean network until the match ends.
        if self.up:
            self.disconnect()
        self.resume()
        while self.wire[0] or self.wire[1]:
            self.deliver(0, 4)
            self.deliver(1, 4)
        seen = run(self.cores, seed=1,
                   tap=lambda i, line: (self.check_private(i, line), line)[1])
        for i in (0, 1):
            self.events[i] += seen[i]
        self.honest_peers_are_never_accused()
        a, b = self.cores
        assert a.public_digest() == b.public_digest()
        assert a.finished and b.finished
        assert a.match.result["verified"] and b.match.result["verified"]
        assert a.match.result["totals"] == b.match.result["totals"]


Network.TestCase.settings = settings(
    max_examples=15, stateful_step_count=40, deadline=None,
    suppress_health_check=list(HealthCheck))
TestNetwork = Network.TestCase
