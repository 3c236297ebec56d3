"""The duel protocol as a sans-IO core: frames in, frames and events out.

``DuelCore`` holds no socket and reads no clock. The transport feeds it lines
(``receive``), tells it about the connection (``connection_made``/``connection_lost``),
the time (``tick(now)``, monotonic seconds: the reveal deadline and the resume window are
counted from it) and local actions (``play``, ``chat``, ``leave``, ``dispute``), and drains
``outgoing()`` (lines to write) and ``events()`` (for the screen). Given its secret seed,
the frames it accepted and the local actions (a deadline that ran out is one), it is
deterministic: the journal replays it exactly. Each deal's state is an explicit
``Lifecycle`` (net/lifecycle.py). See docs/protocol.md.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import logging
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.clocks import Stopwatch
from tui_domino.net.knowledge import ClaimRefuted, Knowledge, NotLegal, opening_order, tiles_of
from tui_domino.net.lifecycle import IN_PLAY, REVEALS, Lifecycle, Phase, Step
from tui_domino.net.referee import call_entry, judge

log = logging.getLogger(__name__)

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
    log: list[dict[str, Any]] = field(default_factory=list)
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
    reveal_waited: float = 0.0  # connected seconds spent waiting for his reveal
    reveal_clock: float | None = None  # the last tick counted into reveal_waited

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


# The codes of an error frame with which a joiner hands the match back before playing any of
# it (he refuses the welcome, or leaves before it reached him): the host offers it again.
HANDED_BACK = frozenset({"version", "mismatch", "left"})
# The reason a Leave frame gives when the player said nothing more.
LEFT = "left the match"


# How long (seconds) the peer has to send his reveal while connected, and to come back after
# the connection dropped; the transport sets its own (``--reveal-timeout``, ``--resume-window``).
REVEAL_TIMEOUT = 30.0
RESUME_WINDOW = 900.0
# How long (seconds of connected time) a side may take over one step of the match (a move,
# a draw's keys, a stage of the deal, a call) before he forfeits: stalling for ever while
# losing must cost the match (``--turn-timeout``).
TURN_TIMEOUT = 600.0


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
        # The channel's resume secret (hex), when the match began in a sealed channel: the
        # transport's business (net/channel.py); kept here so that the match log keeps it.
        self.channel_secret = ""
        if role == "host":
            self.match_id = self._hex("match", 16)
            self.token = self._hex("token", 16)
            self.peer_token = self._hex("peer_token", 16)
        self.started = False  # the handshake is done
        self.refused = ""  # the host: why the joiner refused the match it was offered
        self.connected = False
        # The connection is the peer's: he greeted (a new match) or resumed with the token.
        # Until then its game frames are refused and its acknowledgements ignored.
        self.authed = False
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
        self.internal: str | None = None  # why this side stopped with an internal error
        self.bad_frames = 0
        self.reveal_timeout = REVEAL_TIMEOUT
        self.resume_window = RESUME_WINDOW
        self.turn_timeout = TURN_TIMEOUT
        self._turn = Stopwatch()  # connected time the side to act has taken over it
        self._now: float | None = None
        self._away_since: float | None = None
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
        self.authed = False
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
        self.authed = False
        self._wire = []
        if self.started and not self.finished and not self.refused:
            self._emit(ev.ConnectionState("reconnecting"))

    def keep_channel(self, secret: str) -> None:
        """The transport's channel for this match: its resume secret, kept in the match log
        so that a restarted process can take the match up (docs/protocol.md, section 9)."""
        if secret != self.channel_secret:
            self.channel_secret = secret
            self._record({"k": "channel", "resume": secret})

    def tampered(self, message: str) -> None:
        """The transport's channel found a record altered, replayed or out of order: the
        connection ends (the match waits for a resume, as after any drop). Not a cheat:
        anybody on the path can do it. The peer is told (what this side sends still
        opens)."""
        self._events.append(ev.ProtocolError("tampered", message))
        self._send_ctl(m.Error(code="tampered", message=message[:500]))
        self.closing = True

    def peer_gone(self, reason: str = "did not come back") -> None:
        """The resume window (or the reveal deadline) ran out: the peer forfeits."""
        if self.finished or not self.started:
            self.finished = True
            return
        self._record({"k": "local", "a": "gone", "reason": reason})
        r = self.rnd
        what = "refused to reveal his keys" if r is not None and r.life.state in REVEALS \
            else reason
        self._send_ctl(m.Error(code="timeout", message=(
            f"{self.names[self.peer]} {what}: the match is over and he forfeits it")[:500]))
        self._end_by(ev.Verdict("forfeit", self.peer, f"{self.names[self.peer]} {what}"),
                     send=False)

    def tick(self, now: float) -> None:
        """The transport's clock (monotonic seconds, called often, connected or not): the
        resume window runs while the peer is away, the reveal deadline while he is here."""
        with self._guard():
            self._tick(now)

    def _tick(self, now: float) -> None:
        self._now = now
        if self.finished or not self.started:
            return
        r = self.rnd
        if not (self.connected and self.authed):
            self._turn.pause()
            if r is not None:
                r.reveal_clock = None
            if self._away_since is None:
                self._away_since = now
            elif now - self._away_since >= self.resume_window:
                self.peer_gone()
            return
        self._away_since = None
        if r is None or not self._waiting_for_reveal(r):
            if r is not None:
                r.reveal_clock = None
            self._count_turn(now, r)
            return
        if r.reveal_clock is not None:
            r.reveal_waited += max(0.0, now - r.reveal_clock)
        r.reveal_clock = now
        if r.reveal_waited >= self.reveal_timeout:
            self.peer_gone("refused to reveal his keys")

    def owes(self) -> int | None:
        """Who owes the match its next step while the match is in play (me: my move; the
        peer: his move, a draw's keys, his stage of the deal or his call), or None."""
        r = self.rnd
        if self.finished or not self.started or r is None or r.life.state not in IN_PLAY:
            return None
        return self.me if self.my_turn() else self.peer

    def turn_left(self) -> float | None:
        """Seconds of connected time left to the side that owes the next step (None when
        nobody does)."""
        if self.owes() is None or self._turn.key is None:
            return None
        return max(0.0, self.turn_timeout - self._turn.waited)

    def _count_turn(self, now: float, r: RoundCtx | None) -> None:
        owes = self.owes()
        if owes is None or r is None:
            self._turn.pause()
            self._turn.key = None
            return
        # the match moves on: a new round or deal, a move, a stage, a draw asked for
        key = (r.round, r.deal, len(r.log), r.life.state, r.awaiting_draw,
               len(r.tr.x), len(r.tr.y), len(r.tr.z), len(r.tr.w), len(r.peer_keys),
               len(r.my_tiles), r.call_ptr, owes)
        waited = self._turn.run(now, key)
        if owes == self.peer and waited >= self.turn_timeout:
            minutes = self.turn_timeout / 60
            said = (f"{minutes:g} minute{'s' * (minutes != 1)}" if self.turn_timeout >= 60
                    else f"{self.turn_timeout:g} seconds")
            self.peer_gone(f"took more than {said} over one move")

    @staticmethod
    def _waiting_for_reveal(r: RoundCtx) -> bool:
        return r.life.state in REVEALS and r.my_reveal_sent and r.peer_reveal is None

    def heartbeat(self) -> None:
        """Called by the transport when idle: a ping."""
        if self.connected:
            self._send_ctl(m.Ping(ack=self.received))

    # -- local actions --------------------------------------------------------------------------

    def my_turn(self) -> bool:
        r = self.rnd
        if r is None or self.finished or r.know is None or not r.know.started:
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
                    "finished": self.finished, "phase": r.life.state.value}
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
        with self._guard():
            self._play(r, mv)

    def dispute(self) -> None:
        """Asks for the keys now, before the round is over: both sides reveal and the referee
        replays the round so far. If it finds no cheat, this side forfeits the match."""
        r = self.rnd
        if self.finished or r is None or not r.life.in_play:
            return
        self._record({"k": "local", "a": "dispute"})
        with self._guard():
            self._dispute(r)

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
        """One line from the peer. What he sent that is wrong is answered with an error frame
        (or, when only a cheat sends it, a verdict); a failure of this program's own ends the
        match as an internal error, blaming nobody."""
        try:
            frame = m.decode(line)
        except m.FrameError as exc:
            self._refuse(exc.code, exc.message)
            if exc.code == "too_large":
                self.closing = True
            return
        with self._guard():
            if isinstance(frame, m.Game):
                self._receive_game(frame)
            else:
                self._receive_control(frame)

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Where the peer's input has been judged: a refusal, a cheat, or (anything else)
        this program's own failure."""
        try:
            yield
        except Refused as exc:
            self._refuse(exc.code, exc.message)
        except (Cheat, ClaimRefuted) as exc:
            self._caught(str(exc))
        except Exception as exc:  # a bug of ours, whatever the peer sent
            self._internal(exc)

    def _refuse(self, code: str, message: str) -> None:
        self.bad_frames += 1
        self._events.append(ev.ProtocolError(code, message))
        self._send_ctl(m.Error(code=code, message=message[:500]))

    def _internal(self, exc: Exception) -> None:
        tb = traceback.extract_tb(exc.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
        log.debug("internal error in the duel core", exc_info=exc)
        self.stop_internal(type(exc).__name__, where)

    def stop_internal(self, error: str, where: str) -> None:
        """Ends the match because this program failed (``error`` at ``where``): nobody is
        blamed and nobody wins; the peer is told, the match log keeps the entry."""
        if self.finished:
            return
        message = (f"internal error ({error} at {where}): this program stopped the match; "
                   "nobody is to blame")
        self._record({"k": "internal", "error": error, "at": where})
        self.internal = message
        self._send_ctl(m.Error(code="internal", message=message[:500]))
        self._events.append(ev.ProtocolError("internal", message))
        self._end_by(ev.Verdict("error", self.me, message), send=False)

    def _receive_control(self, f: m.Frame) -> None:
        if isinstance(f, m.Ping):
            if self.authed:
                self._acked(f.ack)
            self._send_ctl(m.Pong(ack=self.received))
        elif isinstance(f, m.Pong):
            if self.authed:
                self._acked(f.ack)
        elif isinstance(f, m.Error):
            self._on_error(f)
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

    def _on_error(self, f: m.Error) -> None:
        if self.role == "host" and self.started and not self.authed:
            return  # not from the joiner: somebody else's connection to the port
        self._events.append(ev.ProtocolError(f.code, f.message, from_peer=True))
        if f.code in ("version", "mismatch", "busy", "token", "code") and not self.started:
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
        elif f.code == "internal" and self.started and not self.finished:
            # His program stopped. From here a broken program and one that stops so as not
            # to lose look the same: it counts as his leaving.
            self._end_by(ev.Verdict("forfeit", self.peer, f"{self.names[self.peer]}'s "
                                    "program stopped the match with an internal error"),
                         send=False)
            self.closing = True

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
            self.authed = True
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
        self.authed = True
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
        self.authed = True
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
        self.authed = True
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
        self.authed = True
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
        if not self.authed:
            raise Refused("out_of_turn", "resume the match first")
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
        peer = self.names[self.peer]
        if isinstance(f, m.Chat):
            self._emit(ev.ChatLine(self.peer, f.text))
            return
        if isinstance(f, m.Leave):
            r = self.rnd
            what = ("left before revealing his keys" if r is not None
                    and r.life.state in REVEALS else LEFT)
            said = f.reason.strip()
            reason = f"{peer} {what}" + (f" ({said})" if said and said != LEFT else "")
            self._end_by(ev.Verdict("forfeit", self.peer, reason), send=False)
            self.closing = True
            return
        if isinstance(f, m.VerdictF):
            if f.player == self.me:
                # An accusation. Had his keys come first (a dispute), they would have been
                # checked already and this side would be finished, or have found no cheat and
                # gone on: the accusation is unsupported or refuted, so it counts as leaving.
                self._end_by(ev.Verdict("forfeit", self.peer, f"{peer} stopped the match with "
                                        "an accusation his keys do not bear out"), send=False)
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
        tag = str(type(f).__struct_config__.tag)
        if not r.life.accepts(tag):
            raise Refused("out_of_turn", f"no {tag} frame is expected now (the deal is at "
                                         f"{r.life.state.value})")
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
        self.rnd = RoundCtx(round_no, deal_no, n, h, secrets, leader, me=self.me)
        lo = 0 if self.peer == HOST else h
        self.rnd.peer_pos = set(range(lo, lo + h))
        self._emit(ev.RoundStarted(round_no, deal_no))
        if self.me == HOST:
            x = mp.stage1(variant, secrets)
            self.rnd.tr.x = x
            self._send(m.Shuffle(round=round_no, deal=deal_no, stage=1, deck=_hex(x)))

    # -- the deal -------------------------------------------------------------------------------

    def _deck(self, r: RoundCtx, f: m.Shuffle) -> list[bytes]:
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
        self._send(m.KeysF(round=r.round, deal=r.deal, positions=pos,
                           keys=[r.secrets.keys[j].hex() for j in pos]))

    def _open(self, r: RoundCtx, pos: int, key: bytes) -> Tile | None:
        """The tile at ``pos`` with his key; None when the point opens no tile."""
        idx = mp.open_position(self._variant(), r.tr.w[pos], r.secrets.keys[pos], key)
        if idx is None:
            return None
        tiles, _, _ = mp.encodings(self._variant())
        return tiles[idx]

    @staticmethod
    def _scalars(keys: list[str], what: str) -> list[bytes]:
        try:
            return [mp.scalar_from_hex(k) for k in keys]
        except mp.BadElement as exc:
            raise Cheat(f"{what} an invalid key ({exc})") from None

    def _on_keys(self, r: RoundCtx, f: m.KeysF) -> None:
        if len(f.positions) != len(f.keys) or len(set(f.positions)) != len(f.positions):
            raise Refused("bad_frame", "positions and keys differ")
        if r.life.state is Phase.DEALING:
            lo = 0 if self.me == HOST else r.h
            if not r.tr.w or sorted(f.positions) != list(range(lo, lo + r.h)):
                raise Refused("out_of_turn", "hand keys are not expected now")
            keys = self._scalars(f.keys, "sent")
            r.peer_keys.update(zip(f.positions, keys, strict=True))
            hand: list[Tile] = []
            for pos, key in zip(f.positions, keys, strict=True):
                t = self._open(r, pos, key)
                if t is None or t in hand:
                    # A broken deck (a key that opens no tile, a tile dealt twice): straight
                    # to the reveal, where the verification names the culprit.
                    self._dispute(r)
                    return
                r.my_tiles[pos] = t
                hand.append(t)
            assert self.settings is not None
            r.know = Knowledge(self._variant(), dict(self.settings.options or {}), self.me,
                               hand)
            self._emit(ev.Dealt(r.round, r.deal))
            if r.leader is not None:
                r.know.start(leader=r.leader)
                r.life.step(Step.DEALT_LEADER)
                self._turn_changed(r)
            else:
                r.life.step(Step.DEALT)
                self._call_step(r)
            return
        if r.awaiting_draw is None or f.positions != [r.awaiting_draw]:
            raise Refused("out_of_turn", "a key that was not asked for")
        assert r.know is not None
        [key] = self._scalars(f.keys, "sent")
        pos = r.awaiting_draw
        r.peer_keys[pos] = key
        t = self._open(r, pos, key)
        if t is None or t not in r.know.unseen():
            self._dispute(r)  # a broken deck, as above
            return
        r.my_tiles[pos] = t
        r.awaiting_draw = None
        r.draws += 1
        r.know.apply_mine(rules.DRAW, drawn=t)
        self._log(r, self.me, rules.DRAW)
        self._emit(ev.Drew(t))
        self._emit(ev.Moved(self.me, rules.DRAW.to_json()))
        self._after_move(r, self.me, rules.DRAW)

    # -- the call-down of the opening -----------------------------------------------------------

    def _run(self, r: RoundCtx) -> list[int]:
        """The ranks of the current run of answers (all by one player)."""
        order = opening_order(self._variant())
        total = 2 * len(order)
        k = r.call_ptr
        if k >= total:
            return []
        rank, p = call_entry(k)
        ranks = [rank]
        if k + 1 < total and call_entry(k + 1)[1] == p:
            ranks.append(call_entry(k + 1)[0])
        return ranks

    def _caller(self, r: RoundCtx) -> int | None:
        order = opening_order(self._variant())
        if r.call_ptr >= 2 * len(order):
            return None
        return call_entry(r.call_ptr)[1]

    def _call_step(self, r: RoundCtx) -> None:
        """Answers the call-down while it is my turn; sets the opening when found."""
        assert r.know is not None
        order = opening_order(self._variant())
        while r.life.state is Phase.CALLING and self._caller(r) == self.me:
            ranks = self._run(r)
            held = set(r.know.hand)
            mine = [k for k in ranks if order[k] in held]
            if mine:
                r.opening = (self.me, order[mine[0]])
                r.know.start(opening=r.opening)
                r.life.step(Step.OPENED)
                self._turn_changed(r)
                return
            self._send(m.Call(round=r.round, deal=r.deal, rank=ranks[-1]))
            r.call_ptr += len(ranks)
            self._maybe_void(r, self.me)

    def _maybe_void(self, r: RoundCtx, by: int) -> None:
        if r.call_ptr >= 2 * len(opening_order(self._variant())) and r.opening is None:
            r.void = True
            self._round_over(r, by)

    def _on_call(self, r: RoundCtx, f: m.Call) -> None:
        if self._caller(r) != self.peer:
            raise Refused("out_of_turn", "no call expected now")
        ranks = self._run(r)
        if f.rank != ranks[-1]:
            raise Refused("out_of_turn", f"the call is for rank {ranks[-1]}, not {f.rank}")
        r.call_ptr += len(ranks)
        self._maybe_void(r, self.peer)
        self._call_step(r)

    # -- moves ----------------------------------------------------------------------------------

    def _actor(self, r: RoundCtx) -> int | None:
        if r.life.state is Phase.CLAIM_PENDING:
            return self.peer
        if r.life.state is not Phase.PLAY or r.know is None or not r.know.started:
            return None
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
            r.life.step(Step.PASSED)
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

    def _parse_move(self, f: m.MoveF) -> rules.Move:
        try:
            return rules.move_from_json(self._variant(), f.move.to_dict())
        except rules.IllegalMove as exc:
            raise Refused("bad_frame", f"not a move: {exc}") from None

    @staticmethod
    def _theirs(work: Knowledge, mv: rules.Move) -> None:
        """Applies his move to a working copy of my knowledge (ClaimRefuted for a claim the
        unseen tiles cannot bear)."""
        try:
            work.apply_theirs(mv)
        except NotLegal as exc:
            if mv.kind == "place":
                raise Refused("bad_frame", f"an illegal move: {exc}") from None
            raise Cheat("passed while he could still draw" if mv.kind == "pass"
                        else "drew when no tile may be drawn") from None

    def _on_move(self, r: RoundCtx, f: m.MoveF) -> None:
        """His move: every check is made on a working copy of my knowledge, which replaces
        it only when the move is taken."""
        know = r.know
        assert know is not None  # the states that take a move have a hand
        if f.n != len(r.log):
            raise Refused("out_of_turn", f"move {f.n} is not move {len(r.log)}")
        mv = self._parse_move(f)
        if mv.kind != "place" and f.proofs:
            raise Refused("bad_frame", "only a placement carries proofs")
        if r.life.state is Phase.CALLING:
            self._on_opening(r, f, mv)
            return
        if self._actor(r) != self.peer or r.awaiting_draw is not None:
            raise Refused("out_of_turn", "not your turn")
        answering = r.life.state is Phase.CLAIM_PENDING
        if mv.kind == "pass":
            if answering:
                raise Refused("out_of_turn", "answer a pass with a move or a block")
            if know.block_possible() and not know.can_place(self.me):
                self._log(r, self.peer, mv)
                self._check_chain(r, f.chain)
                self._emit(ev.Moved(self.peer, mv.to_json()))
                self._block(r)
                return
            work = copy.deepcopy(know)
            self._theirs(work, mv)
            r.know = work
            self._log(r, self.peer, mv)
            self._check_chain(r, f.chain)
            self._emit(ev.Moved(self.peer, mv.to_json()))
            r.next_actor = self.me
            self._turn_changed(r)
            return
        work = copy.deepcopy(know)
        if answering:
            if know.state.is_over:
                raise Cheat("moved although the round was blocked")
            work.apply_mine(rules.PASS, their_next=mv)
        if mv.kind == "place":
            used, own = self._check_proofs(r, mv, f.proofs)
            self._theirs(work, mv)
            r.know = work
            r.used |= used
            r.peer_own_keys.update(own)
            if answering:
                r.life.step(Step.ANSWERED)
            self._log(r, self.peer, mv)
            self._check_chain(r, f.chain)
            self._after_move(r, self.peer, mv)
            return
        # A draw: give him the key of the next bazaar position, and only that one.
        if work.state.is_over or not _draw_allowed(work):
            raise Cheat("drew when no tile may be drawn")
        pos = 2 * r.h + r.draws
        if pos >= r.n:
            raise Cheat("drew from an empty bazaar")
        self._theirs(work, mv)
        r.know = work
        if answering:
            r.life.step(Step.ANSWERED)
        r.draws += 1
        r.peer_pos.add(pos)
        self._log(r, self.peer, mv)
        self._check_chain(r, f.chain)
        self._send(m.KeysF(round=r.round, deal=r.deal, positions=[pos],
                           keys=[r.secrets.keys[pos].hex()]))
        r.next_actor = self.peer
        self._emit(ev.Moved(self.peer, mv.to_json()))

    def _on_opening(self, r: RoundCtx, f: m.MoveF, mv: rules.Move) -> None:
        """The call-down: the peer opens with a tile of his run."""
        assert r.know is not None
        if self._caller(r) != self.peer or mv.kind != "place":
            raise Refused("out_of_turn", "not your turn to open")
        order = opening_order(self._variant())
        tiles = tiles_of(mv)
        if len(tiles) != 1 or tiles[0] not in [order[k] for k in self._run(r)]:
            raise Refused("out_of_turn", "that tile is not the one being called")
        work = copy.deepcopy(r.know)
        work.start(opening=(self.peer, tiles[0]))
        if mv not in work.state.legal_moves():
            raise Refused("out_of_turn", f"{mv} is not an opening move")
        used, own = self._check_proofs(r, mv, f.proofs)
        self._theirs(work, mv)
        r.know = work
        r.opening = (self.peer, tiles[0])
        r.used |= used
        r.peer_own_keys.update(own)
        r.life.step(Step.OPENED)
        self._log(r, self.peer, mv)
        self._check_chain(r, f.chain)
        self._after_move(r, self.peer, mv)

    def _check_proofs(self, r: RoundCtx, mv: rules.Move,
                      proofs: list[m.Proof]) -> tuple[set[int], dict[int, bytes]]:
        """The positions the proofs open (each the peer's, unused, holding the tile) and his
        keys for them; changes nothing."""
        tiles = tiles_of(mv)
        if len(proofs) != len(tiles):
            raise Cheat("placed a tile without proving it was dealt to him")
        tiles_all, _, _ = mp.encodings(self._variant())
        used: set[int] = set()
        own: dict[int, bytes] = {}
        for t, pr in zip(tiles, proofs, strict=True):
            name = "-".join(map(str, t))
            if pr.pos not in r.peer_pos or pr.pos in r.used or pr.pos in used:
                raise Cheat(f"placed {name} from deck position {pr.pos}, which is not his")
            [key] = self._scalars([pr.key], f"proved {name} with")
            idx = mp.open_position(self._variant(), r.tr.w[pr.pos], key, r.secrets.keys[pr.pos])
            if idx is None or tiles_all[idx] != tuple(t):
                raise Cheat(f"placed {name}, which was not dealt to him")
            used.add(pr.pos)
            own[pr.pos] = key
        return used, own

    def _check_chain(self, r: RoundCtx, chain: str) -> None:
        if chain != r.chain.hex():
            self._refuse("desync", "the two sides no longer agree on the moves played")

    def _on_block(self, r: RoundCtx, f: m.Block) -> None:
        if f.n != len(r.log):
            raise Refused("out_of_turn", "no pass to answer with a block")
        assert r.know is not None
        if not r.know.block_possible():
            raise Cheat("claimed a blocked round while tiles may still be drawn")
        self._log_block(r, self.peer)
        self._emit(ev.Moved(self.peer, {"kind": "block"}))
        self._round_over(r, self.peer)

    def _block(self, r: RoundCtx) -> None:
        n = len(r.log)
        self._log_block(r, self.me)
        self._send(m.Block(round=r.round, deal=r.deal, n=n))
        self._emit(ev.Moved(self.me, {"kind": "block"}))
        self._round_over(r, self.me)

    def _after_move(self, r: RoundCtx, player: int, mv: rules.Move) -> None:
        if mv.kind != "draw":
            self._emit(ev.Moved(player, mv.to_json()))
        r.next_actor = player if mv.kind == "draw" else 1 - player
        assert r.know is not None
        if r.know.public_end():
            self._round_over(r, player)
            return
        self._turn_changed(r)

    def _turn_changed(self, r: RoundCtx) -> None:
        if self._actor(r) == self.me and r.awaiting_draw is None:
            self._emit(ev.YourTurn())

    # -- the end of a round: reveal, dispute, verify --------------------------------------------

    def _round_over(self, r: RoundCtx, by: int) -> None:
        """The frame of ``by`` ended the round (out, every arm closed, a block, a void deal)."""
        r.life.step(Step.ROUND_END)
        if by == self.me:
            r.my_stop_seq = self.next_seq - 1
        self._send_reveal_frame(r, dispute=False)
        self._maybe_verify(r)

    def _dispute(self, r: RoundCtx) -> None:
        """I ask for the keys while the round is in play."""
        r.life.step(Step.DISPUTE)
        r.disputers.add(self.me)
        self._send_reveal_frame(r, dispute=True)
        if r.my_stop_seq is None:
            r.my_stop_seq = r.my_reveal_seq
        self._maybe_verify(r)

    def _send_reveal(self, r: RoundCtx, dispute: bool = False) -> None:
        """My reveal: a dispute when the round is still in play."""
        if dispute and r.life.in_play:
            self._dispute(r)
        elif not r.life.in_play:
            self._send_reveal_frame(r, dispute=False)
            self._maybe_verify(r)

    def _send_reveal_frame(self, r: RoundCtx, dispute: bool) -> None:
        if r.my_reveal_seq is not None:
            return
        r.my_reveal_seq = self.next_seq
        self._send(m.Reveal(round=r.round, deal=r.deal, key=r.secrets.key.hex(),
                            keys=[k.hex() for k in r.secrets.keys], dispute=dispute))

    def _on_reveal(self, r: RoundCtx, f: m.Reveal) -> None:
        if r.peer_reveal is not None:
            raise Refused("out_of_turn", "keys already revealed")
        if r.life.in_play:
            if not f.dispute:
                raise Refused("out_of_turn", "the round is not over")
            r.life.step(Step.DISPUTE)
            r.disputers.add(self.peer)
        elif f.dispute and r.my_stop_seq is not None and f.ack < r.my_stop_seq:
            # He disputed before he knew the round had ended (or of my own dispute): a
            # dispute of his all the same.
            r.disputers.add(self.peer)
        r.peer_reveal = f
        self._send_reveal_frame(r, dispute=False)
        self._maybe_verify(r)

    def _maybe_verify(self, r: RoundCtx) -> None:
        if r.my_reveal_seq is None or r.peer_reveal is None or self.finished:
            return
        cheater, reason, state = self._verify(r)
        r.life.step(Step.RULED)
        if cheater is not None:
            self._end_by(ev.Verdict("cheat", cheater, reason), send=cheater == self.peer)
            return
        if r.disputers:
            names = self.names
            if len(r.disputers) == 2:
                self._end_by(ev.Verdict("forfeit", self.peer, (
                    f"{names[HOST]} and {names[JOIN]} both disputed round {r.round} and the "
                    "keys showed no cheat: neither wins")), send=False, nobody=True)
            else:
                [p] = r.disputers
                self._end_by(ev.Verdict("forfeit", p, f"{names[p]} disputed round {r.round} "
                                        "and the keys showed no cheat"), send=False)
            return
        if r.void:
            self._new_round(r.round, r.deal + 1, None)
            return
        if state is None or not state.is_over:
            raise AssertionError("the referee's replay does not end a round both sides saw end")
        self._score(r, state)

    def _verify(self, r: RoundCtx) -> tuple[int | None, str, rules.RoundState | None]:
        """Both reveals in: (the cheater or None, why, the true round as far as it went)."""
        f = r.peer_reveal
        assert f is not None
        variant = self._variant()
        who = self.names[self.peer] or "the opponent"
        try:
            key = mp.scalar_from_hex(f.key)
            keys = [mp.scalar_from_hex(k) for k in f.keys]
        except mp.BadElement as exc:
            return self.peer, f"{who}: revealed an invalid key: {exc}", None
        if len(keys) != r.n:
            return self.peer, f"{who}: revealed {len(keys)} keys for a deck of {r.n}", None
        for pos, k in list(r.peer_keys.items()) + list(r.peer_own_keys.items()):
            if keys[pos] != k:
                return self.peer, (f"{who}: revealed a key for position {pos} other than the "
                                   "one he used"), None
        mine_key, mine_keys = r.secrets.key, r.secrets.keys
        a, ak, b, bk = ((mine_key, mine_keys, key, keys) if self.me == HOST
                        else (key, keys, mine_key, mine_keys))
        try:
            deck = mp.verify_stages(variant, r.tr, a, ak, b, bk)
        except mp.ShuffleFault as exc:
            return exc.player, f"{self.names[exc.player]}: {exc.reason}", None
        if deck is None:
            return None, "", None  # a deal cut short: its stages so far are sound
        tiles, _, _ = mp.encodings(variant)
        order = [tiles[i] for i in deck]
        if any(order[pos] != t for pos, t in r.my_tiles.items()):  # pragma: no cover
            raise AssertionError("a verified deck differs from the tiles it opened to")
        deal = {"hands": [[list(t) for t in order[: r.h]], [list(t) for t in order[r.h: 2 * r.h]]],
                "bazaar": [list(t) for t in order[2 * r.h:]]}
        assert self.settings is not None
        ruling = judge(variant, dict(self.settings.options or {}), deal, r.leader,
                       r.opening, r.log, called=r.call_ptr)
        if ruling.cheater is not None:
            return ruling.cheater, f"{self.names[ruling.cheater]} {ruling.reason}", ruling.state
        return None, "", ruling.state

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
            r.life.end()
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
        """An immediate cheat: my keys go first (so he can check the accusation), then the
        verdict; the match is over."""
        if self.finished:
            return
        r = self.rnd
        if r is not None and r.life.in_play:
            self._send_reveal_frame(r, dispute=True)
        who = self.names[self.peer] or "the opponent"
        self._end_by(ev.Verdict("cheat", self.peer, f"{who}: {reason}"), send=True)

    def _end_by(self, verdict: ev.Verdict, send: bool, nobody: bool = False) -> None:
        """The match ends early: ``verdict.player`` loses it (unless ``nobody`` wins, or
        the verdict is this side's internal error)."""
        if self.finished:
            return
        if send:
            self._send(m.VerdictF(kind=verdict.kind, player=verdict.player,  # type: ignore[arg-type]
                                  reason=verdict.reason[:500]))
        self.verdict = verdict
        self.finished = True
        self.closing = True
        if self.rnd is not None:
            self.rnd.life.end()
        self._emit(verdict)
        winner = None if nobody or verdict.kind == "error" else 1 - verdict.player
        self.result = self._result(winner, False)
        self._emit(ev.MatchOver(self.result))

    # -- frames out -----------------------------------------------------------------------------

    def _send(self, frame: m.Game) -> None:
        frame.seq = self.next_seq
        frame.ack = self.received
        self.next_seq += 1
        data = m.encode(frame)
        self.unacked.append((frame.seq, data))
        if self.connected and self.authed:
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
