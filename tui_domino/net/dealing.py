"""The encrypted deal of one round: the four shuffle stages, the hand keys that open each
player's hand, and the key of each tile drawn. See docs/protocol.md, section 5.

The host shuffles first (stages 1 and 3), the joiner second (2 and 4); each then sends the
keys of the other's hand positions. A deck that does not open (a key that opens no tile, a
tile dealt twice) goes straight to the reveal, where the verification names the culprit.
"""

from __future__ import annotations

from collections.abc import Callable

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.context import HOST, JOIN, Cheat, Refused, RoundCtx, Seat, Tile, hexes
from tui_domino.net.knowledge import Knowledge
from tui_domino.net.lifecycle import Phase


def deal(seat: Seat, match_id: str, round_no: int, deal_no: int,
         leader: int | None) -> RoundCtx:
    """A new deal: its secrets come from the seed; the host sends the first stage."""
    variant = seat.variant
    n = len(rules.full_set(variant))
    h = int(seat.options["hand_size"])
    secrets = mp.DealSecrets.derive(seat.seed, f"{match_id}/r{round_no}/d{deal_no}", n)
    r = RoundCtx(round_no, deal_no, n, h, secrets, leader, me=seat.me)
    lo = 0 if seat.peer == HOST else h
    r.peer_pos = set(range(lo, lo + h))
    seat.emit(ev.RoundStarted(round_no, deal_no))
    if seat.me == HOST:
        x = mp.stage1(variant, secrets)
        r.tr.x = x
        seat.send(m.Shuffle(round=round_no, deal=deal_no, stage=1, deck=hexes(x)))
    return r


def scalars(keys: list[str], what: str) -> list[bytes]:
    """The peer's keys (a key outside the group is a cheat's)."""
    try:
        return [mp.scalar_from_hex(k) for k in keys]
    except mp.BadElement as exc:
        raise Cheat(f"{what} an invalid key ({exc})") from None


class Dealing:
    """Takes the peer's shuffle stages and keys. What follows them belongs to the play and
    the reveal: ``dealt`` (my hand is open), ``drew`` (a tile I drew is open), ``dispute``
    (the deck is broken)."""

    def __init__(self, seat: Seat, dealt: Callable[[RoundCtx], None],
                 drew: Callable[[RoundCtx, Tile], None],
                 dispute: Callable[[RoundCtx], None]) -> None:
        self.seat = seat
        self.dealt = dealt
        self.drew = drew
        self.dispute = dispute

    def deck(self, r: RoundCtx, f: m.Shuffle) -> list[bytes]:
        if len(f.deck) != r.n:
            raise Refused("bad_frame", f"a deck holds {r.n} points")
        try:
            deck = [mp.point_from_hex(p) for p in f.deck]
        except mp.BadElement as exc:
            # The frame is otherwise well formed: only a cheat (or a broken program) sends a
            # point outside the group.
            raise Cheat(f"sent an invalid point in shuffle stage {f.stage} ({exc})") from None
        if not mp.distinct(deck):
            raise Cheat("sent a deck with a repeated point (a stacked shuffle)")
        return deck

    def on_shuffle(self, r: RoundCtx, f: m.Shuffle) -> None:
        send = self.seat.send
        expect = {HOST: (2, 4), JOIN: (1, 3)}[self.seat.me]
        have = {1: r.tr.x, 2: r.tr.y, 3: r.tr.z, 4: r.tr.w}
        if f.stage not in expect or have[f.stage] or (f.stage > 1 and not have[f.stage - 1]):
            raise Refused("out_of_turn", f"shuffle stage {f.stage} is not expected now")
        deck = self.deck(r, f)
        if f.stage == 1:
            r.tr.x = deck
            r.tr.y = mp.stage2(deck, r.secrets)
            send(m.Shuffle(round=r.round, deal=r.deal, stage=2, deck=hexes(r.tr.y)))
        elif f.stage == 2:
            r.tr.y = deck
            r.tr.z = mp.stage_rekey(deck, r.secrets)
            send(m.Shuffle(round=r.round, deal=r.deal, stage=3, deck=hexes(r.tr.z)))
        elif f.stage == 3:
            r.tr.z = deck
            r.tr.w = mp.stage_rekey(deck, r.secrets)
            send(m.Shuffle(round=r.round, deal=r.deal, stage=4, deck=hexes(r.tr.w)))
            self.send_hand_keys(r)
        else:
            r.tr.w = deck
            self.send_hand_keys(r)

    def send_hand_keys(self, r: RoundCtx) -> None:
        pos = sorted(r.peer_pos)
        self.seat.send(m.KeysF(round=r.round, deal=r.deal, positions=pos,
                               keys=[r.secrets.keys[j].hex() for j in pos]))

    def open(self, r: RoundCtx, pos: int, key: bytes) -> Tile | None:
        """The tile at ``pos`` with his key; None when the point opens no tile."""
        variant = self.seat.variant
        idx = mp.open_position(variant, r.tr.w[pos], r.secrets.keys[pos], key)
        if idx is None:
            return None
        tiles, _, _ = mp.encodings(variant)
        return tiles[idx]

    def on_keys(self, r: RoundCtx, f: m.KeysF) -> None:
        """His keys: of my hand while dealing, else of the tile my draw asked for."""
        if len(f.positions) != len(f.keys) or len(set(f.positions)) != len(f.positions):
            raise Refused("bad_frame", "positions and keys differ")
        if r.life.state is Phase.DEALING:
            self.open_hand(r, f)
            return
        if r.awaiting_draw is None or f.positions != [r.awaiting_draw]:
            raise Refused("out_of_turn", "a key that was not asked for")
        assert r.know is not None
        [key] = scalars(f.keys, "sent")
        pos = r.awaiting_draw
        r.peer_keys[pos] = key
        t = self.open(r, pos, key)
        if t is None or t not in r.know.unseen():
            self.dispute(r)  # a broken deck, as above
            return
        r.my_tiles[pos] = t
        r.awaiting_draw = None
        r.draws += 1
        self.drew(r, t)

    def open_hand(self, r: RoundCtx, f: m.KeysF) -> None:
        seat = self.seat
        lo = 0 if seat.me == HOST else r.h
        if not r.tr.w or sorted(f.positions) != list(range(lo, lo + r.h)):
            raise Refused("out_of_turn", "hand keys are not expected now")
        keys = scalars(f.keys, "sent")
        r.peer_keys.update(zip(f.positions, keys, strict=True))
        hand: list[Tile] = []
        for pos, key in zip(f.positions, keys, strict=True):
            t = self.open(r, pos, key)
            if t is None or t in hand:
                # A broken deck (a key that opens no tile, a tile dealt twice): straight
                # to the reveal, where the verification names the culprit.
                self.dispute(r)
                return
            r.my_tiles[pos] = t
            hand.append(t)
        r.know = Knowledge(seat.variant, seat.options, seat.me, hand)
        seat.emit(ev.Dealt(r.round, r.deal))
        self.dealt(r)
