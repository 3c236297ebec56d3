"""The end of a deal: both sides reveal their keys (the round is over, or one side disputed
it), the deal and the moves are checked (net/referee.py), and the ruling is applied: a
cheat loses the match, a groundless dispute forfeits it, a void deal is dealt again, a
sound round is scored. See docs/protocol.md, section 7.
"""

from __future__ import annotations

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.context import HOST, JOIN, Refused, RoundCtx, Seat
from tui_domino.net.lifecycle import Step
from tui_domino.net.match_state import Match
from tui_domino.net.referee import judge
from tui_domino.rules.types import DealJSON


class Reveal:
    """The reveals of one side, and the referee's ruling on them."""

    def __init__(self, seat: Seat, match: Match) -> None:
        self.seat = seat
        self.match = match

    def round_over(self, r: RoundCtx, by: int) -> None:
        """The frame of ``by`` ended the round (out, every arm closed, a block, a void deal)."""
        r.life.step(Step.ROUND_END)
        if by == self.seat.me:
            r.my_stop_seq = self.seat.link.next_seq - 1
        self.send_reveal_frame(r, dispute=False)
        self.maybe_verify(r)

    def dispute(self, r: RoundCtx) -> None:
        """I ask for the keys while the round is in play."""
        r.life.step(Step.DISPUTE)
        r.disputers.add(self.seat.me)
        self.send_reveal_frame(r, dispute=True)
        if r.my_stop_seq is None:
            r.my_stop_seq = r.my_reveal_seq
        self.maybe_verify(r)

    def send_reveal(self, r: RoundCtx, dispute: bool = False) -> None:
        """My reveal: a dispute when the round is still in play."""
        if dispute and r.life.in_play:
            self.dispute(r)
        elif not r.life.in_play:
            self.send_reveal_frame(r, dispute=False)
            self.maybe_verify(r)

    def send_reveal_frame(self, r: RoundCtx, dispute: bool) -> None:
        if r.my_reveal_seq is not None:
            return
        r.my_reveal_seq = self.seat.link.next_seq
        self.seat.send(m.Reveal(round=r.round, deal=r.deal, key=r.secrets.key.hex(),
                                keys=[k.hex() for k in r.secrets.keys], dispute=dispute))

    def caught(self, reason: str) -> None:
        """An immediate cheat: my keys go first (so he can check the accusation), then the
        verdict; the match is over."""
        if self.match.finished:
            return
        r = self.match.rnd
        if r is not None and r.life.in_play:
            self.send_reveal_frame(r, dispute=True)
        who = self.seat.names[self.seat.peer] or "the opponent"
        self.match.end_by(ev.Verdict("cheat", self.seat.peer, f"{who}: {reason}"), send=True)

    def on_reveal(self, r: RoundCtx, f: m.Reveal) -> None:
        if r.peer_reveal is not None:
            raise Refused("out_of_turn", "keys already revealed")
        if r.life.in_play:
            if not f.dispute:
                raise Refused("out_of_turn", "the round is not over")
            r.life.step(Step.DISPUTE)
            r.disputers.add(self.seat.peer)
        elif f.dispute and r.my_stop_seq is not None and f.ack < r.my_stop_seq:
            # He disputed before he knew the round had ended (or of my own dispute): a
            # dispute of his all the same.
            r.disputers.add(self.seat.peer)
        r.peer_reveal = f
        self.send_reveal_frame(r, dispute=False)
        self.maybe_verify(r)

    def maybe_verify(self, r: RoundCtx) -> None:
        match = self.match
        if r.my_reveal_seq is None or r.peer_reveal is None or match.finished:
            return
        cheater, reason, state = self.verify(r)
        r.life.step(Step.RULED)
        if cheater is not None:
            match.end_by(ev.Verdict("cheat", cheater, reason), send=cheater == self.seat.peer)
            return
        if r.disputers:
            names = self.seat.names
            if len(r.disputers) == 2:
                match.end_by(ev.Verdict("forfeit", self.seat.peer, (
                    f"{names[HOST]} and {names[JOIN]} both disputed round {r.round} and the "
                    "keys showed no cheat: neither wins")), send=False, nobody=True)
            else:
                [p] = r.disputers
                match.end_by(ev.Verdict("forfeit", p, f"{names[p]} disputed round {r.round} "
                                        "and the keys showed no cheat"), send=False)
            return
        if r.void:
            match.new_round(r.round, r.deal + 1, None)
            return
        if state is None or not state.is_over:
            raise AssertionError("the referee's replay does not end a round both sides saw end")
        match.score(r, state)

    def verify(self, r: RoundCtx) -> tuple[int | None, str, rules.RoundState | None]:
        """Both reveals in: (the cheater or None, why, the true round as far as it went)."""
        f = r.peer_reveal
        assert f is not None
        seat = self.seat
        variant, peer = seat.variant, seat.peer
        who = seat.names[peer] or "the opponent"
        try:
            key = mp.scalar_from_hex(f.key)
            keys = [mp.scalar_from_hex(k) for k in f.keys]
        except mp.BadElement as exc:
            return peer, f"{who}: revealed an invalid key: {exc}", None
        if len(keys) != r.n:
            return peer, f"{who}: revealed {len(keys)} keys for a deck of {r.n}", None
        for pos, k in list(r.peer_keys.items()) + list(r.peer_own_keys.items()):
            if keys[pos] != k:
                return peer, (f"{who}: revealed a key for position {pos} other than the "
                              "one he used"), None
        mine_key, mine_keys = r.secrets.key, r.secrets.keys
        a, ak, b, bk = ((mine_key, mine_keys, key, keys) if seat.me == HOST
                        else (key, keys, mine_key, mine_keys))
        try:
            deck = mp.verify_stages(variant, r.tr, a, ak, b, bk)
        except mp.ShuffleFault as exc:
            return exc.player, f"{seat.names[exc.player]}: {exc.reason}", None
        if deck is None:
            return None, "", None  # a deal cut short: its stages so far are sound
        tiles, _, _ = mp.encodings(variant)
        order = [tiles[i] for i in deck]
        if any(order[pos] != t for pos, t in r.my_tiles.items()):  # pragma: no cover
            raise AssertionError("a verified deck differs from the tiles it opened to")
        deal: DealJSON = {
            "hands": [[list(t) for t in order[: r.h]], [list(t) for t in order[r.h: 2 * r.h]]],
            "bazaar": [list(t) for t in order[2 * r.h:]]}
        ruling = judge(variant, seat.options, deal, r.leader, r.opening, r.log,
                       called=r.call_ptr)
        if ruling.cheater is not None:
            return ruling.cheater, f"{seat.names[ruling.cheater]} {ruling.reason}", ruling.state
        return None, "", ruling.state

