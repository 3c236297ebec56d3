"""The play of one deal: the call-down of the opening, my moves and their proofs, his moves
checked against what I know, the chain of moves both sides hash, claimed passes and blocks.
See docs/protocol.md, sections 6 and 8.

What ends the round (out, every arm closed, a block, a void deal) is handed to
``round_over`` (net/reveal.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.context import Cheat, Refused, RoundCtx, Seat, Tile, canon, movej
from tui_domino.net.dealing import scalars
from tui_domino.net.knowledge import Knowledge, NotLegal, opening_order, tiles_of
from tui_domino.net.lifecycle import Phase, Step
from tui_domino.net.records import ChainEntry
from tui_domino.net.referee import call_entry


def draw_allowed(know: Knowledge) -> list[rules.Move]:
    """DRAW if the bazaar allows a draw now (the public half of a draw's legality)."""
    d = know.view()
    if know.variant == "classic":
        ok = d["bazaar_size"] > d["bazaar_reserve"]
    elif know.variant == "spider":
        ok = d["bazaar_size"] > 0
    else:
        limit = d["options"]["max_draws"]
        ok = d["bazaar_size"] > 0 and (limit is None or d["draws_this_turn"] < limit)
    return [rules.DRAW] if ok else []


class Play:
    """The moves of one side's deal, from the call-down to the round's last move."""

    def __init__(self, seat: Seat, round_over: Callable[[RoundCtx, int], None]) -> None:
        self.seat = seat
        self.round_over = round_over

    # -- whose turn -----------------------------------------------------------------------------

    def actor(self, r: RoundCtx) -> int | None:
        if r.life.state is Phase.CLAIM_PENDING:
            return self.seat.peer
        if r.life.state is not Phase.PLAY or r.know is None or not r.know.started:
            return None
        s = r.know.state
        if s.is_over:
            return None if r.know.public_end() else r.next_actor
        return s.to_move

    def my_turn(self, r: RoundCtx) -> bool:
        if r.know is None or not r.know.started:
            return False
        return self.actor(r) == self.seat.me and r.awaiting_draw is None

    def turn_changed(self, r: RoundCtx) -> None:
        if self.actor(r) == self.seat.me and r.awaiting_draw is None:
            self.seat.emit(ev.YourTurn())

    # -- the deal opens -------------------------------------------------------------------------

    def dealt(self, r: RoundCtx) -> None:
        """My hand is open: the last round's winner leads, or the call-down begins."""
        assert r.know is not None
        if r.leader is not None:
            r.know.start(leader=r.leader)
            r.life.step(Step.DEALT_LEADER)
            self.turn_changed(r)
        else:
            r.life.step(Step.DEALT)
            self.call_step(r)

    def drew(self, r: RoundCtx, t: Tile) -> None:
        """The tile my draw asked for is open."""
        assert r.know is not None
        me = self.seat.me
        r.know.apply_mine(rules.DRAW, drawn=t)
        self.log(r, me, rules.DRAW)
        self.seat.emit(ev.Drew(t))
        self.seat.emit(ev.Moved(me, rules.DRAW.to_json()))
        self.after_move(r, me, rules.DRAW)

    # -- the call-down of the opening -----------------------------------------------------------

    def run(self, r: RoundCtx) -> list[int]:
        """The ranks of the current run of answers (all by one player)."""
        order = opening_order(self.seat.variant)
        total = 2 * len(order)
        k = r.call_ptr
        if k >= total:
            return []
        rank, p = call_entry(k)
        ranks = [rank]
        if k + 1 < total and call_entry(k + 1)[1] == p:
            ranks.append(call_entry(k + 1)[0])
        return ranks

    def caller(self, r: RoundCtx) -> int | None:
        order = opening_order(self.seat.variant)
        if r.call_ptr >= 2 * len(order):
            return None
        return call_entry(r.call_ptr)[1]

    def call_step(self, r: RoundCtx) -> None:
        """Answers the call-down while it is my turn; sets the opening when found."""
        assert r.know is not None
        me = self.seat.me
        order = opening_order(self.seat.variant)
        while r.life.state is Phase.CALLING and self.caller(r) == me:
            ranks = self.run(r)
            held = set(r.know.hand)
            mine = [k for k in ranks if order[k] in held]
            if mine:
                r.opening = (me, order[mine[0]])
                r.know.start(opening=r.opening)
                r.life.step(Step.OPENED)
                self.turn_changed(r)
                return
            self.seat.send(m.Call(round=r.round, deal=r.deal, rank=ranks[-1]))
            r.call_ptr += len(ranks)
            self.maybe_void(r, me)

    def maybe_void(self, r: RoundCtx, by: int) -> None:
        if r.call_ptr >= 2 * len(opening_order(self.seat.variant)) and r.opening is None:
            r.void = True
            self.round_over(r, by)

    def on_call(self, r: RoundCtx, f: m.Call) -> None:
        peer = self.seat.peer
        if self.caller(r) != peer:
            raise Refused("out_of_turn", "no call expected now")
        ranks = self.run(r)
        if f.rank != ranks[-1]:
            raise Refused("out_of_turn", f"the call is for rank {ranks[-1]}, not {f.rank}")
        r.call_ptr += len(ranks)
        self.maybe_void(r, peer)
        self.call_step(r)

    # -- the chain of moves ---------------------------------------------------------------------

    @staticmethod
    def log(r: RoundCtx, player: int, move: rules.Move) -> None:
        entry: ChainEntry = {"k": "move", "p": player, "m": move.to_json()}
        r.log.append(entry)
        r.chain = hashlib.sha256(r.chain + canon(entry)).digest()

    @staticmethod
    def log_block(r: RoundCtx, player: int) -> None:
        entry: ChainEntry = {"k": "block", "p": player}
        r.log.append(entry)
        r.chain = hashlib.sha256(r.chain + canon(entry)).digest()

    def check_chain(self, r: RoundCtx, chain: str) -> None:
        if chain != r.chain.hex():
            self.seat.refuse("desync", "the two sides no longer agree on the moves played")

    # -- my moves -------------------------------------------------------------------------------

    def play(self, r: RoundCtx, mv: rules.Move) -> None:
        assert r.know is not None
        seat, me = self.seat, self.seat.me
        n = len(r.log)
        if mv.kind == "draw":
            r.awaiting_draw = 2 * r.h + r.draws
            entry = {"k": "move", "p": me, "m": mv.to_json()}
            chain = hashlib.sha256(r.chain + canon(entry)).digest()
            seat.send(m.MoveF(round=r.round, deal=r.deal, n=n, move=movej(mv), proofs=[],
                              chain=chain.hex()))
            return
        if mv.kind == "pass":
            r.life.step(Step.PASSED)
            self.log(r, me, mv)
            seat.send(m.MoveF(round=r.round, deal=r.deal, n=n, move=movej(mv), proofs=[],
                              chain=r.chain.hex()))
            seat.emit(ev.Moved(me, mv.to_json()))
            return
        proofs = []
        for t in tiles_of(mv):
            pos = next(p for p, x in r.my_tiles.items() if x == t and p not in r.used)
            r.used.add(pos)
            proofs.append(m.Proof(pos=pos, key=r.secrets.keys[pos].hex()))
        r.know.apply_mine(mv)
        self.log(r, me, mv)
        seat.send(m.MoveF(round=r.round, deal=r.deal, n=n, move=movej(mv), proofs=proofs,
                          chain=r.chain.hex()))
        self.after_move(r, me, mv)

    def block(self, r: RoundCtx) -> None:
        me = self.seat.me
        n = len(r.log)
        self.log_block(r, me)
        self.seat.send(m.Block(round=r.round, deal=r.deal, n=n))
        self.seat.emit(ev.Moved(me, {"kind": "block"}))
        self.round_over(r, me)

    def after_move(self, r: RoundCtx, player: int, mv: rules.Move) -> None:
        if mv.kind != "draw":
            self.seat.emit(ev.Moved(player, mv.to_json()))
        r.next_actor = player if mv.kind == "draw" else 1 - player
        assert r.know is not None
        if r.know.public_end():
            self.round_over(r, player)
            return
        self.turn_changed(r)

    # -- his moves ------------------------------------------------------------------------------

    def parse_move(self, f: m.MoveF) -> rules.Move:
        try:
            return rules.move_from_json(self.seat.variant, f.move.to_dict())
        except rules.IllegalMove as exc:
            raise Refused("bad_frame", f"not a move: {exc}") from None

    @staticmethod
    def theirs(work: Knowledge, mv: rules.Move) -> None:
        """Applies his move to a working copy of my knowledge (ClaimRefuted for a claim the
        unseen tiles cannot bear)."""
        try:
            work.apply_theirs(mv)
        except NotLegal as exc:
            if mv.kind == "place":
                raise Refused("bad_frame", f"an illegal move: {exc}") from None
            raise Cheat("passed while he could still draw" if mv.kind == "pass"
                        else "drew when no tile may be drawn") from None

    def on_move(self, r: RoundCtx, f: m.MoveF) -> None:
        """His move: every check is made on a working copy of my knowledge, which replaces
        it only when the move is taken."""
        seat, me, peer = self.seat, self.seat.me, self.seat.peer
        know = r.know
        assert know is not None  # the states that take a move have a hand
        if f.n != len(r.log):
            raise Refused("out_of_turn", f"move {f.n} is not move {len(r.log)}")
        mv = self.parse_move(f)
        if mv.kind != "place" and f.proofs:
            raise Refused("bad_frame", "only a placement carries proofs")
        if r.life.state is Phase.CALLING:
            self.on_opening(r, f, mv)
            return
        if self.actor(r) != peer or r.awaiting_draw is not None:
            raise Refused("out_of_turn", "not your turn")
        answering = r.life.state is Phase.CLAIM_PENDING
        if mv.kind == "pass":
            if answering:
                raise Refused("out_of_turn", "answer a pass with a move or a block")
            if know.block_possible() and not know.can_place(me):
                self.log(r, peer, mv)
                self.check_chain(r, f.chain)
                seat.emit(ev.Moved(peer, mv.to_json()))
                self.block(r)
                return
            work = know.copy()
            self.theirs(work, mv)
            r.know = work
            self.log(r, peer, mv)
            self.check_chain(r, f.chain)
            seat.emit(ev.Moved(peer, mv.to_json()))
            r.next_actor = me
            self.turn_changed(r)
            return
        work = know.copy()
        if answering:
            if know.state.is_over:
                raise Cheat("moved although the round was blocked")
            work.apply_mine(rules.PASS, their_next=mv)
        if mv.kind == "place":
            used, own = self.check_proofs(r, mv, f.proofs)
            self.theirs(work, mv)
            r.know = work
            r.used |= used
            r.peer_own_keys.update(own)
            if answering:
                r.life.step(Step.ANSWERED)
            self.log(r, peer, mv)
            self.check_chain(r, f.chain)
            self.after_move(r, peer, mv)
            return
        # A draw: give him the key of the next bazaar position, and only that one.
        if work.state.is_over or not draw_allowed(work):
            raise Cheat("drew when no tile may be drawn")
        pos = 2 * r.h + r.draws
        if pos >= r.n:
            raise Cheat("drew from an empty bazaar")
        self.theirs(work, mv)
        r.know = work
        if answering:
            r.life.step(Step.ANSWERED)
        r.draws += 1
        r.peer_pos.add(pos)
        self.log(r, peer, mv)
        self.check_chain(r, f.chain)
        seat.send(m.KeysF(round=r.round, deal=r.deal, positions=[pos],
                          keys=[r.secrets.keys[pos].hex()]))
        r.next_actor = peer
        seat.emit(ev.Moved(peer, mv.to_json()))

    def on_opening(self, r: RoundCtx, f: m.MoveF, mv: rules.Move) -> None:
        """The call-down: the peer opens with a tile of his run."""
        assert r.know is not None
        peer = self.seat.peer
        if self.caller(r) != peer or mv.kind != "place":
            raise Refused("out_of_turn", "not your turn to open")
        order = opening_order(self.seat.variant)
        tiles = tiles_of(mv)
        if len(tiles) != 1 or tiles[0] not in [order[k] for k in self.run(r)]:
            raise Refused("out_of_turn", "that tile is not the one being called")
        work = r.know.copy()
        work.start(opening=(peer, tiles[0]))
        if mv not in work.state.legal_moves():
            raise Refused("out_of_turn", f"{mv} is not an opening move")
        used, own = self.check_proofs(r, mv, f.proofs)
        self.theirs(work, mv)
        r.know = work
        r.opening = (peer, tiles[0])
        r.used |= used
        r.peer_own_keys.update(own)
        r.life.step(Step.OPENED)
        self.log(r, peer, mv)
        self.check_chain(r, f.chain)
        self.after_move(r, peer, mv)

    def check_proofs(self, r: RoundCtx, mv: rules.Move,
                     proofs: list[m.Proof]) -> tuple[set[int], dict[int, bytes]]:
        """The positions the proofs open (each the peer's, unused, holding the tile) and his
        keys for them; changes nothing."""
        tiles = tiles_of(mv)
        if len(proofs) != len(tiles):
            raise Cheat("placed a tile without proving it was dealt to him")
        variant = self.seat.variant
        tiles_all, _, _ = mp.encodings(variant)
        used: set[int] = set()
        own: dict[int, bytes] = {}
        for t, pr in zip(tiles, proofs, strict=True):
            name = "-".join(map(str, t))
            if pr.pos not in r.peer_pos or pr.pos in r.used or pr.pos in used:
                raise Cheat(f"placed {name} from deck position {pr.pos}, which is not his")
            [key] = scalars([pr.key], f"proved {name} with")
            idx = mp.open_position(variant, r.tr.w[pr.pos], key, r.secrets.keys[pr.pos])
            if idx is None or tiles_all[idx] != tuple(t):
                raise Cheat(f"placed {name}, which was not dealt to him")
            used.add(pr.pos)
            own[pr.pos] = key
        return used, own

    def on_block(self, r: RoundCtx, f: m.Block) -> None:
        if f.n != len(r.log):
            raise Refused("out_of_turn", "no pass to answer with a block")
        assert r.know is not None
        if not r.know.block_possible():
            raise Cheat("claimed a blocked round while tiles may still be drawn")
        peer = self.seat.peer
        self.log_block(r, peer)
        self.seat.emit(ev.Moved(peer, {"kind": "block"}))
        self.round_over(r, peer)
