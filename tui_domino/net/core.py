"""The duel protocol as a sans-IO core: frames in, frames and events out.

``DuelCore`` holds no socket and reads no clock. The transport feeds it lines
(``receive``), tells it about the connection (``connection_made``/``connection_lost``/
``peer_gone``) and local actions (``play``, ``chat``, ``leave``), and drains ``outgoing()``
(lines to write) and ``events()`` (for the screen). Given its secret seed, the frames it
accepted and the local actions, it is deterministic: the journal replays it exactly.
See docs/protocol.md.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.knowledge import ClaimRefuted, Knowledge, opening_order, tiles_of
from tui_domino.net.referee import judge

Tile = tuple[int, ...]
HOST, JOIN = 0, 1


@dataclass
class MatchSettings:
    """What the host offers: variant, target and house rules (None: the defaults)."""

    variant: str = "classic"
    target: int | None = None
    options: dict[str, Any] | None = None

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


def _canon(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


@dataclass
class RoundCtx:
    """One deal of one round."""

    round: int
    deal: int
    n: int
    h: int
    secrets: mp.DealSecrets
    leader: int | None
    tr: mp.Transcript = field(default_factory=mp.Transcript)
    peer_keys: dict[int, bytes] = field(default_factory=dict)
    my_tiles: dict[int, Tile] = field(default_factory=dict)  # position -> tile, mine
    peer_pos: set[int] = field(default_factory=set)  # positions the peer owns
    used: set[int] = field(default_factory=set)
    draws: int = 0
    know: Knowledge | None = None
    call_ptr: int = 0
    opening: tuple[int, Tile] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    chain: bytes = b"\x00" * 32
    pending_pass: int | None = None
    awaiting_draw: int | None = None  # the position I asked to draw
    next_actor: int | None = None
    over: bool = False
    void: bool = False
    my_reveal_sent: bool = False
    peer_reveal: m.Reveal | None = None
    hand_keys_sent: bool = False
    peer_own_keys: dict[int, bytes] = field(default_factory=dict)  # from his proofs


# The codes of an error frame with which a joiner hands the match back before playing any of
# it (he refuses the welcome, or leaves before it reached him): the host offers it again.
HANDED_BACK = frozenset({"version", "mismatch", "left"})
# The reason a Leave frame gives when the player said nothing more.
LEFT = "left the match"


class DuelCore:
    """One side of a duel. ``role`` is ``"host"`` (player 0) or ``"join"`` (player 1)."""

    def __init__(
        self,
        role: str,
        name: str,
        seed: bytes,
        settings: MatchSettings | None = None,
        want: MatchSettings | None = None,
        journal: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        if role not in ("host", "join"):
            raise ValueError("role is host or join")
        if len(seed) != 32:
            raise ValueError("the seed is 32 bytes")
        self.role = role
        self.me = HOST if role == "host" else JOIN
        self.peer = 1 - self.me
        self.name = name[:40] or "player"
        self.seed = seed
        self.settings = settings.resolved() if settings is not None else None
        self.want = want
        self.journal = journal
        self.names = ["", ""]
        self.names[self.me] = self.name
        self.match_id = ""
        self.token = ""  # the joiner's secret (shown by the joiner on resume)
        self.peer_token = ""  # the host's secret (shown back by the host)
        if role == "host":
            self.match_id = self._hex("match", 16)
            self.token = self._hex("token", 16)
            self.peer_token = self._hex("peer_token", 16)
        self.started = False  # the handshake is done
        self.refused = ""  # the host: why the joiner refused the match it was offered
        self.connected = False
        self.finished = False
        self.closing = False  # the transport should close the connection
        self.next_seq = 1
        self.received = 0
        self.unacked: list[tuple[int, bytes]] = []
        self._wire: list[bytes] = []
        self._events: list[ev.Event] = []
        self.totals = [0, 0]
        self.past: list[dict[str, Any]] = []
        self.rnd: RoundCtx | None = None
        self.result: dict[str, Any] | None = None
        self.verdict: ev.Verdict | None = None
        self.bad_frames = 0
        self._record({"k": "start", "role": role, "name": self.name, "seed": seed.hex(),
                      "settings": None if settings is None else vars(settings),
                      "want": None if want is None else vars(want)})

    # -- the transport's side -------------------------------------------------------------------

    def outgoing(self) -> list[bytes]:
        out, self._wire = self._wire, []
        return out

    def events(self) -> list[ev.Event]:
        out, self._events = self._events, []
        return out

    def connection_made(self) -> None:
        """A new connection: the joiner greets (or resumes); the host waits."""
        self.connected = True
        self.closing = False
        self._wire = []
        if self.role == "join":
            if not self.started:
                w = self.want or MatchSettings(variant="", target=None)
                self._send_ctl(m.Hello(proto=m.PROTOCOL, name=self.name,
                                       variant=cast(Any, w.variant or None),
                                       target=w.target,
                                       options=None))
            else:
                self._send_ctl(m.Resume(proto=m.PROTOCOL, match=self.match_id,
                                        token=self.token, ack=self.received))

    def connection_lost(self) -> None:
        self.connected = False
        self._wire = []
        if self.started and not self.finished and not self.refused:
            self._emit(ev.ConnectionState("reconnecting"))

    def peer_gone(self, reason: str = "did not come back") -> None:
        """The resume window ran out: the peer forfeits (refusing to reveal included)."""
        if self.finished or not self.started:
            self.finished = True
            return
        r = self.rnd
        what = "refused to reveal his keys" if r is not None and r.over else reason
        self._end_by(ev.Verdict("forfeit", self.peer, f"{self.names[self.peer]} {what}"),
                     send=False)

    def tick(self) -> None:
        """Called by the transport when idle: a heartbeat."""
        if self.connected:
            self._send_ctl(m.Ping(ack=self.received))

    # -- local actions --------------------------------------------------------------------------

    def my_turn(self) -> bool:
        r = self.rnd
        if r is None or self.finished or r.over or r.know is None or not r.know.started:
            return False
        return self._actor(r) == self.me and r.awaiting_draw is None

    def legal_moves(self) -> list[rules.Move]:
        r = self.rnd
        if not self.my_turn() or r is None or r.know is None:
            return []
        return r.know.legal_moves()

    def view(self) -> dict[str, Any] | None:
        """The engine view of my seat, with the match around it."""
        r = self.rnd
        if r is None or r.know is None:
            return None
        v = r.know.view()
        v["net"] = {"round": r.round, "totals": list(self.totals), "names": list(self.names),
                    "my_turn": self.my_turn(), "connected": self.connected,
                    "finished": self.finished}
        return v

    def play(self, move: rules.Move | dict[str, Any]) -> None:
        """Plays my move; ValueError (IllegalMove) if it is not legal now."""
        r = self.rnd
        if not self.my_turn() or r is None or r.know is None:
            raise rules.IllegalMove("it is not your turn")
        variant = self._variant()
        mv = move if isinstance(move, rules.Move) else rules.move_from_json(variant, move)
        if mv not in r.know.legal_moves():
            raise rules.IllegalMove(f"{mv} is not a legal move now")
        self._record({"k": "local", "a": "play", "move": mv.to_json()})
        self._play(r, mv)

    def chat(self, text: str) -> None:
        text = " ".join(text.split())[:500]
        if not text or not self.started or self.finished:
            return
        self._record({"k": "local", "a": "chat", "text": text})
        self._send(m.Chat(text=text))
        self._emit(ev.ChatLine(self.me, text))

    def leave(self, reason: str = LEFT) -> None:
        if self.finished:
            return
        self._record({"k": "local", "a": "leave", "reason": reason})
        if self.started:
            self._send(m.Leave(reason=reason[:200]))
            self._end_by(ev.Verdict("forfeit", self.me, f"{self.name} {reason}"), send=False)
        else:
            # A joiner who greeted may be leaving before the welcome reached him, while the
            # host has already started the match: say so, or the host would wait for him
            # to come back. (_send_ctl sends nothing when there is no connection.)
            if self.role == "join":
                self._send_ctl(m.Error(code="left", message=f"{self.name} {reason}"[:500]))
            self.finished = True
        self.closing = True

    # -- frames in ------------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        """One line from the peer. Never raises for anything the peer sends."""
        try:
            frame = m.decode(line)
        except m.FrameError as exc:
            self._refuse(exc.code, exc.message)
            if exc.code == "too_large":
                self.closing = True
            return
        try:
            if isinstance(frame, m.Game):
                self._receive_game(frame)
            else:
                self._receive_control(frame)
        except Refused as exc:
            self._refuse(exc.code, exc.message)
        except Cheat as exc:
            self._caught(str(exc))
        except (mp.BadElement, ClaimRefuted) as exc:
            self._caught(str(exc))
        except (rules.IllegalMove, ValueError, KeyError, IndexError, TypeError,
                AssertionError) as exc:  # a hostile frame that got past the checks
            self._refuse("bad_frame", f"{type(exc).__name__}: {exc}"[:400])

    def _refuse(self, code: str, message: str) -> None:
        self.bad_frames += 1
        self._events.append(ev.ProtocolError(code, message))
        self._send_ctl(m.Error(code=code, message=message[:500]))

    def _receive_control(self, f: m.Frame) -> None:
        if isinstance(f, m.Ping):
            self._acked(f.ack)
            self._send_ctl(m.Pong(ack=self.received))
        elif isinstance(f, m.Pong):
            self._acked(f.ack)
        elif isinstance(f, m.Error):
            self._events.append(ev.ProtocolError(f.code, f.message, from_peer=True))
            if f.code in ("version", "mismatch", "busy", "token") and not self.started:
                self.finished = True
                self.closing = True
                self._emit(ev.ConnectionState("closed", f.message))
            elif f.code == "token" and self.role == "join" and self.started:
                # The host does not know the match this log resumes (it started afresh).
                self.finished = True
                self.closing = True
                self._emit(ev.ConnectionState("closed", f.message or "the host does not "
                                              "know this match any more"))
            elif (f.code in HANDED_BACK and self.role == "host"
                  and self.started and self.received == 0 and not self.finished):
                # The joiner refused the welcome, or left before it reached him, before
                # playing any of the match: nothing was played, so the host may offer it to
                # somebody else (the transport starts a fresh match and waits again).
                self.refused = f.message or f.code
                self.closing = True
        elif isinstance(f, m.Hello):
            self._on_hello(f)
        elif isinstance(f, m.Welcome):
            self._on_welcome(f)
        elif isinstance(f, m.Resume):
            self._on_resume(f)
        elif isinstance(f, m.Resumed):
            self._on_resumed(f)
        else:  # pragma: no cover - the union is closed
            raise Refused("bad_frame", "unexpected frame")

    def _on_hello(self, f: m.Hello) -> None:
        if self.role != "host":
            raise Refused("bad_frame", "only the host is greeted")
        if f.proto != m.PROTOCOL or f.app != m.APP:
            self._send_ctl(m.Error(code="version", message=(
                f"protocol {f.app} {f.proto} is not {m.APP} {m.PROTOCOL}: update both sides")))
            self.closing = True
            return
        if self.started and self.received == 0 and f.name == self.names[self.peer]:
            # The joiner never got the welcome (the connection dropped): greet him again.
            self._welcome()
            self._resend(0)
            self._emit(ev.ConnectionState("connected"))
            return
        if self.started:
            self._send_ctl(m.Error(code="busy", message="a match is already being played"))
            self.closing = True
            return
        assert self.settings is not None
        self._record({"k": "in", "frame": m.encode(f).decode()})
        self.names[self.peer] = f.name
        self._welcome()
        self._begin()

    def _welcome(self) -> None:
        s = self.settings
        assert s is not None
        self._send_ctl(m.Welcome(proto=m.PROTOCOL, name=self.name, variant=s.variant,  # type: ignore[arg-type]
                                 target=int(s.target or 0), options=s.options or {},
                                 match=self.match_id, token=self.token,
                                 peer_token=self.peer_token))

    def _on_welcome(self, f: m.Welcome) -> None:
        if self.role != "join" or self.started:
            raise Refused("bad_frame", "unexpected welcome")
        if f.proto != m.PROTOCOL:
            self._send_ctl(m.Error(code="version", message="protocol versions differ"))
            self.closing = True
            self.finished = True
            return
        w = self.want
        if w is not None and ((w.variant and w.variant != f.variant)
                              or (w.target is not None and w.target != f.target)):
            msg = (f"the host plays {f.variant} to {f.target}; you asked for "
                   f"{w.variant or f.variant} to {w.target or f.target}")
            self._send_ctl(m.Error(code="mismatch", message=msg))
            self._events.append(ev.ProtocolError("mismatch", msg))
            self._emit(ev.ConnectionState("closed", msg))
            self.closing = True
            self.finished = True
            return
        try:
            settings = MatchSettings(f.variant, f.target, dict(f.options)).resolved()
        except ValueError as exc:
            raise Refused("bad_frame", f"bad match settings: {exc}") from None
        self._record({"k": "in", "frame": m.encode(f).decode()})
        self.settings = settings
        self.names[self.peer] = f.name
        self.match_id, self.token, self.peer_token = f.match, f.token, f.peer_token
        self._begin()

    def _begin(self) -> None:
        assert self.settings is not None
        self.started = True
        self._emit(ev.Connected(self.names[self.peer], self.me, self.settings.variant,
                                int(self.settings.target or 0)))
        self._emit(ev.ConnectionState("connected"))
        self._new_round(1, 1, None)

    def _on_resume(self, f: m.Resume) -> None:
        if self.role != "host" or not self.started:
            raise Refused("bad_frame", "nothing to resume")
        if f.match != self.match_id or not mp.same_bytes(f.token.encode(), self.token.encode()):
            self._send_ctl(m.Error(code="token", message="wrong match or resume token"))
            self.closing = True
            return
        self._send_ctl(m.Resumed(token=self.peer_token, ack=self.received))
        self._resend(f.ack)
        self._emit(ev.ConnectionState("connected"))

    def _on_resumed(self, f: m.Resumed) -> None:
        if self.role != "join" or not self.started:
            raise Refused("bad_frame", "nothing to resume")
        if not mp.same_bytes(f.token.encode(), self.peer_token.encode()):
            self._send_ctl(m.Error(code="token", message="the host showed the wrong token"))
            self.closing = True
            return
        self._resend(f.ack)
        self._emit(ev.ConnectionState("connected"))

    def _resend(self, ack: int) -> None:
        self._acked(ack)
        for _, data in self.unacked:
            self._wire.append(data)

    def _acked(self, ack: int) -> None:
        if ack >= self.next_seq:
            return  # acknowledges frames never sent: ignore
        self.unacked = [(s, d) for s, d in self.unacked if s > ack]

    def _receive_game(self, f: m.Game) -> None:
        if not self.started:
            raise Refused("out_of_turn", "no match yet: greet first")
        self._acked(f.ack)
        if f.seq <= self.received:
            return  # a duplicate or a replayed frame
        if f.seq != self.received + 1:
            return  # out of order: it comes again after a resume
        self.received = f.seq
        self._record({"k": "in", "frame": m.encode(f).decode()})
        if self.finished:
            return
        self._handle(f)

    # -- the game -------------------------------------------------------------------------------

    def _variant(self) -> str:
        assert self.settings is not None
        return self.settings.variant

    def _handle(self, f: m.Game) -> None:
        if isinstance(f, m.Chat):
            self._emit(ev.ChatLine(self.peer, f.text))
            return
        if isinstance(f, m.Leave):
            r = self.rnd
            what = "left before revealing his keys" if r is not None and r.over else LEFT
            said = f.reason.strip()
            reason = f"{self.names[self.peer]} {what}" + (
                f" ({said})" if said and said != LEFT else "")
            self._end_by(ev.Verdict("forfeit", self.peer, reason), send=False)
            self.closing = True
            return
        if isinstance(f, m.VerdictF):
            if f.player == self.me:
                # An accusation: shown, but it makes nobody the winner.
                self._end_by(ev.Verdict("accused", self.me, f"{self.names[self.peer]} "
                                        f"stopped the match: {f.reason}"), send=False)
            else:
                self._end_by(ev.Verdict(f.kind, f.player, f.reason), send=False)
            self.closing = True
            return
        r = self.rnd
        if r is None:
            raise Refused("out_of_turn", "no round in play")
        if getattr(f, "round", None) != r.round or getattr(f, "deal", None) != r.deal:
            raise Refused("out_of_turn",
                          f"frame for another round or deal (now {r.round}.{r.deal})")
        if isinstance(f, m.Shuffle):
            self._on_shuffle(r, f)
        elif isinstance(f, m.KeysF):
            self._on_keys(r, f)
        elif isinstance(f, m.Call):
            self._on_call(r, f)
        elif isinstance(f, m.MoveF):
            self._on_move(r, f)
        elif isinstance(f, m.Block):
            self._on_block(r, f)
        elif isinstance(f, m.Reveal):
            self._on_reveal(r, f)
        else:  # pragma: no cover
            raise Refused("bad_frame", "unexpected frame")

    def _new_round(self, round_no: int, deal_no: int, leader: int | None) -> None:
        variant = self._variant()
        n = len(rules.full_set(variant))
        assert self.settings is not None and self.settings.options is not None
        h = int(self.settings.options["hand_size"])
        label = f"{self.match_id}/r{round_no}/d{deal_no}"
        secrets = mp.DealSecrets.derive(self.seed, label, n)
        self.rnd = RoundCtx(round_no, deal_no, n, h, secrets, leader)
        lo = 0 if self.peer == HOST else h
        self.rnd.peer_pos = set(range(lo, lo + h))
        self._emit(ev.RoundStarted(round_no, deal_no))
        if self.me == HOST:
            x = mp.stage1(variant, secrets)
            self.rnd.tr.x = x
            self._send(m.Shuffle(round=round_no, deal=deal_no, stage=1, deck=_hex(x)))

    def _deck(self, r: RoundCtx, f: m.Shuffle) -> list[bytes]:
        if len(f.deck) != r.n:
            raise Refused("bad_frame", f"a deck holds {r.n} points")
        deck = [mp.point_from_hex(p) for p in f.deck]
        if not mp.distinct(deck):
            raise Cheat("sent a deck with a repeated point (a stacked shuffle)")
        return deck

    def _on_shuffle(self, r: RoundCtx, f: m.Shuffle) -> None:
        expect = {HOST: (2, 4), JOIN: (1, 3)}[self.me]
        have = {1: r.tr.x, 2: r.tr.y, 3: r.tr.z, 4: r.tr.w}
        if f.stage not in expect or have[f.stage] or (f.stage > 1 and not have[f.stage - 1]):
            raise Refused("out_of_turn", f"shuffle stage {f.stage} is not expected now")
        deck = self._deck(r, f)
        if f.stage == 1:
            r.tr.x = deck
            r.tr.y = mp.stage2(deck, r.secrets)
            self._send(m.Shuffle(round=r.round, deal=r.deal, stage=2, deck=_hex(r.tr.y)))
        elif f.stage == 2:
            r.tr.y = deck
            r.tr.z = mp.stage_rekey(deck, r.secrets)
            self._send(m.Shuffle(round=r.round, deal=r.deal, stage=3, deck=_hex(r.tr.z)))
        elif f.stage == 3:
            r.tr.z = deck
            r.tr.w = mp.stage_rekey(deck, r.secrets)
            self._send(m.Shuffle(round=r.round, deal=r.deal, stage=4, deck=_hex(r.tr.w)))
            self._send_hand_keys(r)
        else:
            r.tr.w = deck
            self._send_hand_keys(r)

    def _send_hand_keys(self, r: RoundCtx) -> None:
        pos = sorted(r.peer_pos)
        r.hand_keys_sent = True
        self._send(m.KeysF(round=r.round, deal=r.deal, positions=pos,
                           keys=[r.secrets.keys[j].hex() for j in pos]))

    def _open(self, r: RoundCtx, pos: int, key: bytes) -> Tile:
        idx = mp.open_position(self._variant(), r.tr.w[pos], r.secrets.keys[pos], key)
        if idx is None:
            raise Cheat(f"gave a key that opens no tile (deck position {pos})")
        tiles, _, _ = mp.encodings(self._variant())
        return tiles[idx]

    def _on_keys(self, r: RoundCtx, f: m.KeysF) -> None:
        if len(f.positions) != len(f.keys) or len(set(f.positions)) != len(f.positions):
            raise Refused("bad_frame", "positions and keys differ")
        keys = [mp.scalar_from_hex(k) for k in f.keys]
        if r.know is None:
            lo = 0 if self.me == HOST else r.h
            if not r.tr.w or sorted(f.positions) != list(range(lo, lo + r.h)):
                raise Refused("out_of_turn", "hand keys are not expected now")
            hand: list[Tile] = []
            for pos, key in zip(f.positions, keys, strict=True):
                t = self._open(r, pos, key)
                if t in hand:
                    raise Cheat(f"the deck deals {'-'.join(map(str, t))} twice (a stacked "
                                "shuffle)")
                r.peer_keys[pos] = key
                r.my_tiles[pos] = t
                hand.append(t)
            assert self.settings is not None
            r.know = Knowledge(self._variant(), dict(self.settings.options or {}), self.me,
                               hand)
            self._emit(ev.Dealt(r.round, r.deal))
            if r.leader is not None:
                r.know.start(leader=r.leader)
                self._turn_changed(r)
            else:
                self._call_step(r)
            return
        if r.awaiting_draw is None or f.positions != [r.awaiting_draw]:
            raise Refused("out_of_turn", "a key that was not asked for")
        pos = r.awaiting_draw
        t = self._open(r, pos, keys[0])
        if t not in r.know.unseen():
            raise Cheat(f"the deck deals {'-'.join(map(str, t))} twice (a stacked shuffle)")
        r.peer_keys[pos] = keys[0]
        r.my_tiles[pos] = t
        r.awaiting_draw = None
        r.draws += 1
        r.know.apply_mine(rules.DRAW, drawn=t)
        self._log(r, self.me, rules.DRAW)
        self._emit(ev.Drew(t))
        self._emit(ev.Moved(self.me, rules.DRAW.to_json()))
        self._after_move(r, self.me, rules.DRAW)

    # -- the call-down of the opening -----------------------------------------------------------

    @staticmethod
    def _entry(k: int) -> tuple[int, int]:
        """(rank, player) of the call-down's ``k``th answer."""
        rank = k // 2
        first = rank % 2
        return rank, (first if k % 2 == 0 else 1 - first)

    def _run(self, r: RoundCtx) -> list[int]:
        """The ranks of the current run of answers (all by one player)."""
        order = opening_order(self._variant())
        total = 2 * len(order)
        k = r.call_ptr
        if k >= total:
            return []
        rank, p = self._entry(k)
        ranks = [rank]
        if k + 1 < total and self._entry(k + 1)[1] == p:
            ranks.append(self._entry(k + 1)[0])
        return ranks

    def _caller(self, r: RoundCtx) -> int | None:
        order = opening_order(self._variant())
        if r.call_ptr >= 2 * len(order):
            return None
        return self._entry(r.call_ptr)[1]

    def _call_step(self, r: RoundCtx) -> None:
        """Answers the call-down while it is my turn; sets the opening when found."""
        assert r.know is not None
        order = opening_order(self._variant())
        while r.opening is None and not r.void and self._caller(r) == self.me:
            ranks = self._run(r)
            held = set(r.know.hand)
            mine = [k for k in ranks if order[k] in held]
            if mine:
                r.opening = (self.me, order[mine[0]])
                r.know.start(opening=r.opening)
                self._turn_changed(r)
                return
            self._send(m.Call(round=r.round, deal=r.deal, rank=ranks[-1]))
            r.call_ptr += len(ranks)
            self._maybe_void(r)

    def _maybe_void(self, r: RoundCtx) -> None:
        if r.call_ptr >= 2 * len(opening_order(self._variant())) and r.opening is None:
            r.void = True
            r.over = True
            self._send_reveal(r)

    def _on_call(self, r: RoundCtx, f: m.Call) -> None:
        if r.know is None or r.opening is not None or r.void or self._caller(r) != self.peer:
            raise Refused("out_of_turn", "no call expected now")
        ranks = self._run(r)
        if f.rank != ranks[-1]:
            raise Refused("out_of_turn", f"the call is for rank {ranks[-1]}, not {f.rank}")
        r.call_ptr += len(ranks)
        self._maybe_void(r)
        if not r.void:
            self._call_step(r)

    # -- moves ----------------------------------------------------------------------------------

    def _actor(self, r: RoundCtx) -> int | None:
        if r.over or r.know is None or not r.know.started:
            return None
        if r.pending_pass is not None:
            return 1 - r.pending_pass
        s = r.know.state
        if s.is_over:
            return None if r.know.public_end() else r.next_actor
        return s.to_move

    def _log(self, r: RoundCtx, player: int, move: rules.Move) -> None:
        entry = {"k": "move", "p": player, "m": move.to_json()}
        r.log.append(entry)
        r.chain = hashlib.sha256(r.chain + _canon(entry)).digest()

    def _log_block(self, r: RoundCtx, player: int) -> None:
        entry = {"k": "block", "p": player}
        r.log.append(entry)
        r.chain = hashlib.sha256(r.chain + _canon(entry)).digest()

    def _play(self, r: RoundCtx, mv: rules.Move) -> None:
        assert r.know is not None
        n = len(r.log)
        if mv.kind == "draw":
            r.awaiting_draw = 2 * r.h + r.draws
            entry = {"k": "move", "p": self.me, "m": mv.to_json()}
            chain = hashlib.sha256(r.chain + _canon(entry)).digest()
            self._send(m.MoveF(round=r.round, deal=r.deal, n=n, move=_movej(mv), proofs=[],
                               chain=chain.hex()))
            return
        if mv.kind == "pass":
            r.pending_pass = self.me
            self._log(r, self.me, mv)
            self._send(m.MoveF(round=r.round, deal=r.deal, n=n, move=_movej(mv), proofs=[],
                               chain=r.chain.hex()))
            self._emit(ev.Moved(self.me, mv.to_json()))
            return
        proofs = []
        for t in tiles_of(mv):
            pos = next(p for p, x in r.my_tiles.items() if x == t and p not in r.used)
            r.used.add(pos)
            proofs.append(m.Proof(pos=pos, key=r.secrets.keys[pos].hex()))
        r.know.apply_mine(mv)
        self._log(r, self.me, mv)
        self._send(m.MoveF(round=r.round, deal=r.deal, n=n, move=_movej(mv), proofs=proofs,
                           chain=r.chain.hex()))
        self._after_move(r, self.me, mv)

    def _block(self, r: RoundCtx) -> None:
        n = len(r.log)
        self._log_block(r, self.me)
        self._send(m.Block(round=r.round, deal=r.deal, n=n))
        self._emit(ev.Moved(self.me, {"kind": "block"}))
        self._round_over(r)

    def _after_move(self, r: RoundCtx, player: int, mv: rules.Move) -> None:
        if mv.kind != "draw":
            self._emit(ev.Moved(player, mv.to_json()))
        r.next_actor = player if mv.kind == "draw" else 1 - player
        assert r.know is not None
        if r.know.public_end():
            self._round_over(r)
            return
        self._turn_changed(r)

    def _turn_changed(self, r: RoundCtx) -> None:
        if self._actor(r) == self.me and r.awaiting_draw is None:
            self._emit(ev.YourTurn())

    def _on_move(self, r: RoundCtx, f: m.MoveF) -> None:
        know = r.know
        if know is None:
            raise Refused("out_of_turn", "the hands are not dealt yet")
        if f.n != len(r.log):
            raise Refused("out_of_turn", f"move {f.n} is not move {len(r.log)}")
        mv = rules.move_from_json(self._variant(), f.move.to_dict())
        if mv.kind != "place" and f.proofs:
            raise Refused("bad_frame", "only a placement carries proofs")
        if not know.started:
            # The call-down: the peer opens with a tile of his run.
            if self._caller(r) != self.peer or r.void or mv.kind != "place":
                raise Refused("out_of_turn", "not your turn to open")
            order = opening_order(self._variant())
            tiles = tiles_of(mv)
            if len(tiles) != 1 or tiles[0] not in [order[k] for k in self._run(r)]:
                raise Refused("out_of_turn", "that tile is not the one being called")
            trial = copy.copy(know)
            trial.start(opening=(self.peer, tiles[0]))
            if mv not in trial.state.legal_moves():
                raise Refused("out_of_turn", f"{mv} is not an opening move")
            used = self._check_proofs(r, mv, f.proofs)
            r.opening = (self.peer, tiles[0])
            know.start(opening=r.opening)
            know.apply_theirs(mv)
            r.used |= used
            self._log(r, self.peer, mv)
            self._check_chain(r, f.chain)
            self._after_move(r, self.peer, mv)
            return
        if self._actor(r) != self.peer or r.awaiting_draw is not None:
            raise Refused("out_of_turn", "not your turn")
        if mv.kind == "pass":
            if r.pending_pass is not None:
                raise Refused("out_of_turn", "answer a pass with a move or a block")
            self._log(r, self.peer, mv)
            self._check_chain(r, f.chain)
            self._emit(ev.Moved(self.peer, mv.to_json()))
            if know.block_possible() and not know.can_place(self.me):
                self._block(r)
                return
            know.apply_theirs(mv)
            r.next_actor = self.me
            self._turn_changed(r)
            return
        if r.pending_pass == self.me:
            if know.state.is_over:
                raise Cheat("moved although the round was blocked")
            know.apply_mine(rules.PASS, their_next=mv)
            r.pending_pass = None
        if mv.kind == "place":
            used = self._check_proofs(r, mv, f.proofs)
            know.apply_theirs(mv)
            r.used |= used
            self._log(r, self.peer, mv)
            self._check_chain(r, f.chain)
            self._after_move(r, self.peer, mv)
            return
        # A draw: give him the key of the next bazaar position, and only that one.
        if know.state.is_over or not _draw_allowed(know):
            raise Cheat("drew when no tile may be drawn")
        pos = 2 * r.h + r.draws
        if pos >= r.n:
            raise Cheat("drew from an empty bazaar")
        know.apply_theirs(mv)
        r.draws += 1
        r.peer_pos.add(pos)
        self._log(r, self.peer, mv)
        self._check_chain(r, f.chain)
        self._send(m.KeysF(round=r.round, deal=r.deal, positions=[pos],
                           keys=[r.secrets.keys[pos].hex()]))
        r.next_actor = self.peer
        self._emit(ev.Moved(self.peer, mv.to_json()))

    def _check_proofs(self, r: RoundCtx, mv: rules.Move, proofs: list[m.Proof]) -> set[int]:
        """The positions the proofs open (each the peer's, unused, holding the tile)."""
        tiles = tiles_of(mv)
        if len(proofs) != len(tiles):
            raise Cheat("placed a tile without proving it was dealt to him")
        tiles_all, _, _ = mp.encodings(self._variant())
        used: set[int] = set()
        for t, pr in zip(tiles, proofs, strict=True):
            name = "-".join(map(str, t))
            if pr.pos not in r.peer_pos or pr.pos in r.used or pr.pos in used:
                raise Cheat(f"placed {name} from deck position {pr.pos}, which is not his")
            key = mp.scalar_from_hex(pr.key)
            idx = mp.open_position(self._variant(), r.tr.w[pr.pos], key, r.secrets.keys[pr.pos])
            if idx is None or tiles_all[idx] != tuple(t):
                raise Cheat(f"placed {name}, which was not dealt to him")
            used.add(pr.pos)
            r.peer_own_keys[pr.pos] = key
        return used

    def _check_chain(self, r: RoundCtx, chain: str) -> None:
        if chain != r.chain.hex():
            self._refuse("desync", "the two sides no longer agree on the moves played")

    def _on_block(self, r: RoundCtx, f: m.Block) -> None:
        if r.pending_pass != self.me or f.n != len(r.log):
            raise Refused("out_of_turn", "no pass to answer with a block")
        assert r.know is not None
        if not r.know.block_possible():
            raise Cheat("claimed a blocked round while tiles may still be drawn")
        self._log_block(r, self.peer)
        self._emit(ev.Moved(self.peer, {"kind": "block"}))
        self._round_over(r)

    # -- the end of a round ---------------------------------------------------------------------

    def _round_over(self, r: RoundCtx) -> None:
        r.over = True
        r.pending_pass = None
        self._send_reveal(r)

    def _send_reveal(self, r: RoundCtx, dispute: bool = False) -> None:
        if r.my_reveal_sent:
            return
        r.my_reveal_sent = True
        self._send(m.Reveal(round=r.round, deal=r.deal, key=r.secrets.key.hex(),
                            keys=[k.hex() for k in r.secrets.keys], dispute=dispute))
        self._maybe_verify(r)

    def _on_reveal(self, r: RoundCtx, f: m.Reveal) -> None:
        if r.peer_reveal is not None:
            raise Refused("out_of_turn", "keys already revealed")
        if not r.over:
            if not f.dispute:
                raise Refused("out_of_turn", "the round is not over")
            r.over = True
        r.peer_reveal = f
        if not r.my_reveal_sent:
            self._send_reveal(r)
        else:
            self._maybe_verify(r)

    def _maybe_verify(self, r: RoundCtx) -> None:
        if not r.my_reveal_sent or r.peer_reveal is None or self.finished:
            return
        f = r.peer_reveal
        variant = self._variant()
        try:
            key = mp.scalar_from_hex(f.key)
            if len(f.keys) != r.n:
                raise Cheat(f"revealed {len(f.keys)} keys for a deck of {r.n}")
            keys = [mp.scalar_from_hex(k) for k in f.keys]
        except mp.BadElement as exc:
            raise Cheat(f"revealed an invalid key: {exc}") from None
        for pos, k in list(r.peer_keys.items()) + list(r.peer_own_keys.items()):
            if keys[pos] != k:
                raise Cheat(f"revealed a key for position {pos} other than the one he used")
        if not (r.tr.x and r.tr.y and r.tr.z and r.tr.w):
            raise Cheat("revealed before the deal was complete")
        mine_key, mine_keys = r.secrets.key, r.secrets.keys
        a, ak, b, bk = ((mine_key, mine_keys, key, keys) if self.me == HOST
                        else (key, keys, mine_key, mine_keys))
        try:
            deck = mp.verify_deal(variant, r.tr, a, ak, b, bk)
        except mp.ShuffleFault as exc:
            raise Cheat(exc.reason) from None
        tiles, _, _ = mp.encodings(variant)
        order = [tiles[i] for i in deck]
        for pos, t in r.my_tiles.items():
            if order[pos] != t:  # pragma: no cover - implied by the key checks
                raise Cheat("the deck does not hold the tiles it showed")
        deal = {"hands": [[list(t) for t in order[: r.h]], [list(t) for t in order[r.h: 2 * r.h]]],
                "bazaar": [list(t) for t in order[2 * r.h:]]}
        assert self.settings is not None
        ruling = judge(variant, dict(self.settings.options or {}), deal, r.leader,
                       r.opening, r.log)
        if ruling.cheater is not None:
            who = self.names[ruling.cheater]
            self._end_by(ev.Verdict("cheat", ruling.cheater, f"{who} {ruling.reason}"),
                         send=ruling.cheater == self.peer)
            return
        if r.void or ruling.state is None:
            self._new_round(r.round, r.deal + 1, None)
            return
        self._score(r, ruling.state)

    def _score(self, r: RoundCtx, state: rules.RoundState) -> None:
        assert self.settings is not None
        match = rules.match_from_json({
            "kind": "match", "variant": self._variant(), "target": self.settings.target,
            "seed": 0, "options": self.settings.options, "round_no": r.round,
            "banked": list(self.totals), "past": [], "round": state.to_json()})
        self.totals = match.totals
        self.past.append({"round": r.round, "points": list(state.points),
                          "winner": state.winner, "end_reason": state.end_reason})
        self._emit(ev.RoundOver(r.round, list(state.points), list(self.totals), state.winner,
                                state.end_reason, state.to_json()))
        if match.is_over:
            self.finished = True
            self.result = self._result(match.winner, True)
            self._emit(ev.MatchOver(self.result))
            self.closing = True
            return
        self._new_round(r.round + 1, 1, match.next_leader())

    def _result(self, winner: int | None, verified: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self._variant() if self.settings else None,
            "totals": list(self.totals),
            "winner": winner,
            "rounds": len(self.past),
            "verified": verified,
            "seat": self.me,
            "names": list(self.names),
        }
        if self.verdict is not None:
            out["verdict"] = {"kind": self.verdict.kind, "player": self.verdict.player,
                              "reason": self.verdict.reason}
        return out

    def _caught(self, reason: str) -> None:
        if self.finished:
            return
        who = self.names[self.peer] or "the opponent"
        self._end_by(ev.Verdict("cheat", self.peer, f"{who}: {reason}"), send=True)

    def _end_by(self, verdict: ev.Verdict, send: bool) -> None:
        if self.finished:
            return
        if send:
            self._send(m.VerdictF(kind=verdict.kind, player=verdict.player,  # type: ignore[arg-type]
                                  reason=verdict.reason[:500]))
        self.verdict = verdict
        self.finished = True
        self.closing = True
        self._emit(verdict)
        winner = None if verdict.kind == "accused" else 1 - verdict.player
        self.result = self._result(winner, False)
        self._emit(ev.MatchOver(self.result))

    # -- frames out -----------------------------------------------------------------------------

    def _send(self, frame: m.Game) -> None:
        frame.seq = self.next_seq
        frame.ack = self.received
        self.next_seq += 1
        data = m.encode(frame)
        self.unacked.append((frame.seq, data))
        if self.connected:
            self._wire.append(data)

    def _send_ctl(self, frame: m.Frame) -> None:
        if self.connected:
            self._wire.append(m.encode(frame))

    def _emit(self, event: ev.Event) -> None:
        self._events.append(event)

    def _record(self, entry: dict[str, Any]) -> None:
        if self.journal is not None:
            self.journal(entry)

    def _hex(self, label: str, nbytes: int) -> str:
        return hashlib.sha512(self.seed + f"|{label}".encode()).digest()[:nbytes].hex()

    # -- for tests and the journal ---------------------------------------------------------------

    def public_digest(self) -> str:
        """What both sides must agree on: round, deal, the public moves, the totals."""
        r = self.rnd
        body = {"totals": self.totals, "past": self.past}
        if r is not None:
            body.update(round=r.round, deal=r.deal, chain=r.chain.hex(), log=len(r.log))
        return hashlib.sha256(_canon(body)).hexdigest()


def _hex(points: list[bytes]) -> list[str]:
    return [p.hex() for p in points]


def _movej(mv: rules.Move) -> m.MoveJ:
    import msgspec

    return msgspec.convert(mv.to_json(), m.MoveJ)


def _draw_allowed(know: Knowledge) -> list[rules.Move]:
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
