"""The lifecycle of a whole match, and what it keeps: the totals, the rounds past, the
verdict and the result.

Like net/lifecycle.py (one deal) this is modelled on h11's ``_state.py``: the state is one
value, a transition the table does not list is a ``MatchError`` (a bug of this program).

::

    GREETING ──begin──▶ PLAYING ──finish──▶ OVER
        │
        └──finish──▶ CLOSED        (refused, left or given up before the match began)

``started`` is PLAYING or OVER, ``finished`` OVER or CLOSED. See docs/protocol.md,
sections 3 and 7.
"""

from __future__ import annotations

import hashlib
import logging
import traceback
from collections.abc import Callable
from enum import Enum
from pathlib import Path

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import messages as m
from tui_domino.net.clocks import Bucket
from tui_domino.net.context import LEFT, RoundCtx, Seat, canon
from tui_domino.net.lifecycle import REVEALS
from tui_domino.net.records import DuelInfo, DuelView, MatchResult, RoundResult
from tui_domino.net.sequencing import Tokens

log = logging.getLogger("tui_domino.net.core")


class MatchPhase(Enum):
    GREETING = "greeting"  # the handshake: no match yet
    PLAYING = "playing"  # the handshake is done: rounds are dealt and played
    OVER = "over"  # the match ended: scored out, a verdict, a leave, an error
    CLOSED = "closed"  # it ended before it began (refused, left, or the peer never came)


class MatchStep(Enum):
    BEGIN = "begin"  # the welcome was sent or taken
    FINISH = "finish"


MATCH_TRANSITIONS: dict[tuple[MatchPhase, MatchStep], MatchPhase] = {
    (MatchPhase.GREETING, MatchStep.BEGIN): MatchPhase.PLAYING,
    (MatchPhase.GREETING, MatchStep.FINISH): MatchPhase.CLOSED,
    (MatchPhase.PLAYING, MatchStep.FINISH): MatchPhase.OVER,
}
# The peer's chat: lines shown at once, then one every this many seconds (the rest are not
# shown), and the characters of it kept in the match log.
CHAT_BURST = 10
CHAT_EVERY = 2.0
CHAT_LOG = 64_000

STARTED = frozenset({MatchPhase.PLAYING, MatchPhase.OVER})
FINISHED = frozenset({MatchPhase.OVER, MatchPhase.CLOSED})


class MatchError(Exception):
    """A transition the match does not have: a bug of this program."""


class MatchLifecycle:
    """The state of the match; ``step`` moves it on."""

    def __init__(self) -> None:
        self.state = MatchPhase.GREETING

    def __repr__(self) -> str:
        return f"MatchLifecycle({self.state.name})"

    def step(self, step: MatchStep) -> MatchPhase:
        new = MATCH_TRANSITIONS.get((self.state, step))
        if new is None:
            raise MatchError(f"no {step.value!r} step from the {self.state.value!r} state")
        self.state = new
        return new

    def finish(self) -> None:
        """The match is over (from any state; a finished match stays as it is)."""
        if self.state not in FINISHED:
            self.step(MatchStep.FINISH)

    @property
    def started(self) -> bool:
        return self.state in STARTED

    @property
    def finished(self) -> bool:
        return self.state in FINISHED


Deal = Callable[[Seat, str, int, int, int | None], RoundCtx]


class Match:
    """The match around the rounds: it begins them, scores them and ends the match."""

    def __init__(self, seat: Seat, tokens: Tokens, deal: Deal) -> None:
        self.seat = seat
        self.tokens = tokens
        self.deal = deal  # deals a round (net/dealing.py)
        self.life = MatchLifecycle()
        self.totals = [0, 0]
        self.past: list[RoundResult] = []
        self.rnd: RoundCtx | None = None
        self.result: MatchResult | None = None
        self.verdict: ev.Verdict | None = None
        self.internal: str | None = None  # why this side stopped with an internal error
        self.refused = ""  # the host: why the joiner refused the match it was offered
        self.chat_rate = Bucket(CHAT_BURST, CHAT_EVERY)  # the peer's chat lines shown
        self.chat_logged = 0  # characters of the peer's chat kept in the match log
        self.chat_muted = 0  # the peer's chat lines not shown since the last one shown

    @property
    def started(self) -> bool:
        return self.life.started

    @property
    def finished(self) -> bool:
        return self.life.finished

    @finished.setter
    def finished(self, value: bool) -> None:
        if value:
            self.life.finish()
        elif self.life.finished:
            raise MatchError("a finished match does not start again")

    def begin(self) -> None:
        """The handshake is done: the first round is dealt."""
        s = self.seat
        assert s.settings is not None
        self.life.step(MatchStep.BEGIN)
        s.emit(ev.Connected(s.names[s.peer], s.me, s.variant, int(s.settings.target or 0)))
        s.emit(ev.ConnectionState("connected"))
        self.new_round(1, 1, None)

    def new_round(self, round_no: int, deal_no: int, leader: int | None) -> None:
        self.rnd = self.deal(self.seat, self.tokens.match_id, round_no, deal_no, leader)

    def score(self, r: RoundCtx, state: rules.RoundState) -> None:
        """The referee found the round sound: it counts, and the next one is dealt."""
        s = self.seat
        assert s.settings is not None
        match = rules.match_from_json({
            "kind": "match", "variant": s.variant, "target": s.settings.target,
            "seed": 0, "options": s.settings.options, "round_no": r.round,
            "banked": list(self.totals), "past": [], "round": state.to_json()})
        self.totals = match.totals
        self.past.append({"round": r.round, "points": list(state.points),
                          "winner": state.winner, "end_reason": state.end_reason})
        s.emit(ev.RoundOver(r.round, list(state.points), list(self.totals), state.winner,
                            state.end_reason, state.to_json()))
        if match.is_over:
            self.finished = True
            r.life.end()
            self.result = self.result_of(match.winner, True)
            s.emit(ev.MatchOver(self.result))
            s.link.closing = True
            return
        self.new_round(r.round + 1, 1, match.next_leader())

    def result_of(self, winner: int | None, verified: bool) -> MatchResult:
        s = self.seat
        out: MatchResult = {
            "variant": s.variant if s.settings else None,
            "totals": list(self.totals),
            "winner": winner,
            "rounds": len(self.past),
            "verified": verified,
            "seat": s.me,
            "names": list(s.names),
        }
        if self.verdict is not None:
            out["verdict"] = {"kind": self.verdict.kind, "player": self.verdict.player,
                              "reason": self.verdict.reason}
        return out

    def end_by(self, verdict: ev.Verdict, send: bool, nobody: bool = False) -> None:
        """The match ends early: ``verdict.player`` loses it (unless ``nobody`` wins, or
        the verdict is this side's internal error)."""
        if self.finished:
            return
        s = self.seat
        if send:
            s.send(m.VerdictF(kind=verdict.kind, player=verdict.player,  # type: ignore[arg-type]
                              reason=verdict.reason[:500]))
        self.verdict = verdict
        self.finished = True
        s.link.closing = True
        if self.rnd is not None:
            self.rnd.life.end()
        s.emit(verdict)
        winner = None if nobody or verdict.kind == "error" else 1 - verdict.player
        self.result = self.result_of(winner, False)
        s.emit(ev.MatchOver(self.result))

    def peer_gone(self, reason: str) -> None:
        """The resume window (or a deadline) ran out: the peer forfeits. He is told by a
        ``timeout`` verdict (a numbered frame: sent again when he resumes), which his
        program takes as the verdict when its own clock bears it out."""
        if self.finished or not self.started:
            self.finished = True
            return
        s = self.seat
        s.record({"k": "local", "a": "gone", "reason": reason})
        r = self.rnd
        what = "refused to reveal his keys" if r is not None and r.life.state in REVEALS \
            else reason
        self.end_by(ev.Verdict("forfeit", s.peer, f"{s.names[s.peer]} {what}"), send=False)
        s.send(m.VerdictF(kind="timeout", player=s.peer,
                          reason=f"{s.names[s.peer]} {what}"[:500]))

    def out_of_time(self, reason: str) -> None:
        """This side's own time ran out over its step (``reason``): it forfeits, and says
        so to the peer, whose screen then shows the same verdict."""
        if self.finished or not self.started:
            return
        s = self.seat
        s.record({"k": "local", "a": "timeout", "reason": reason})
        self.end_by(ev.Verdict("forfeit", s.me, f"{s.name} {reason}"), send=True)

    def claimed(self, player: int, bears_out: str | None, said: str) -> None:
        """The peer says ``player``'s time ran out (a ``timeout`` verdict, or an error
        ``timeout`` of an older program; ``said``: his words). Of this side: ``bears_out``
        is what this side's own count of that deadline says (its words), or None when it
        does not bear it out: then it is his stopping of the match, and he forfeits it."""
        if self.finished or not self.started:
            return
        s = self.seat
        s.record({"k": "local", "a": "claimed", "player": player, "bears_out": bears_out,
                  "said": said})
        peer = s.names[s.peer]
        if player == s.me and bears_out is not None:
            verdict = ev.Verdict("forfeit", s.me, f"{s.name} {bears_out}")
        elif player == s.me:
            verdict = ev.Verdict("forfeit", s.peer, f"{peer} stopped the match saying time "
                                 "ran out, which this side's clock does not bear out")
        else:  # (his own time, in his words: he forfeits)
            verdict = ev.Verdict("forfeit", s.peer, f"{peer} ran out of time")
        self.end_by(verdict, send=False)
        s.link.closing = True

    def failed(self, exc: Exception) -> None:
        """A bug of this program's, whatever the peer sent: the match stops."""
        tb = traceback.extract_tb(exc.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else "?"
        log.debug("internal error in the duel core", exc_info=exc)
        self.stop_internal(type(exc).__name__, where)

    def stop_internal(self, error: str, where: str) -> None:
        """Ends the match because this program failed (``error`` at ``where``): nobody is
        blamed and nobody wins; the peer is told, the match log keeps the entry."""
        if self.finished:
            return
        s = self.seat
        message = (f"internal error ({error} at {where}): this program stopped the match; "
                   "nobody is to blame")
        s.record({"k": "internal", "error": error, "at": where})
        self.internal = message
        s.send_ctl(m.Error(code="internal", message=message[:500]))
        s.events.append(ev.ProtocolError("internal", message))
        self.end_by(ev.Verdict("error", s.me, message), send=False)

    def view(self, my_turn: bool) -> DuelView | None:
        """The engine view of my seat, with the match around it."""
        r = self.rnd
        if r is None or r.know is None:
            return None
        net: DuelInfo = {"round": r.round, "totals": list(self.totals),
                         "names": list(self.seat.names), "my_turn": my_turn,
                         "connected": self.seat.link.connected, "finished": self.finished,
                         "phase": r.life.state.value}
        return DuelView(**r.know.view(), net=net)

    def digest(self) -> str:
        """What both sides must agree on: round, deal, the public moves, the totals."""
        r = self.rnd
        body: dict[str, object] = {"totals": self.totals, "past": self.past}
        if r is not None:
            body.update(round=r.round, deal=r.deal, chain=r.chain.hex(), log=len(r.log))
        return hashlib.sha256(canon(body)).hexdigest()

    # -- the match's own frames and actions -----------------------------------------------------

    def chat(self, text: str) -> None:
        text = " ".join(text.split())[:500]
        if not text or not self.started or self.finished:
            return
        s = self.seat
        s.record({"k": "local", "a": "chat", "text": text})
        s.send(m.Chat(text=text))
        s.emit(ev.ChatLine(s.me, text))

    def leave(self, reason: str) -> None:
        if self.finished:
            return
        s = self.seat
        s.record({"k": "local", "a": "leave", "reason": reason})
        if self.started:
            s.send(m.Leave(reason=reason[:200]))
            self.end_by(ev.Verdict("forfeit", s.me, f"{s.name} {reason}"), send=False)
        else:
            # A joiner who greeted may be leaving before the welcome reached him, while the
            # host has already started the match: say so, or the host would wait for him
            # to come back. (send_ctl sends nothing when there is no connection.)
            if s.role == "join":
                s.send_ctl(m.Error(code="left", message=f"{s.name} {reason}"[:500]))
            self.finished = True
        s.link.closing = True

    def hear(self, f: m.Chat) -> bool:
        """The peer's chat line: whether it goes in the match log. Within the rate
        (``CHAT_BURST`` lines at once, then one every ``CHAT_EVERY`` seconds) it is shown,
        and logged while the log's share of chat (``CHAT_LOG`` characters) lasts; beyond
        the rate it is neither (the first line not shown says so, once until one is shown
        again). A line kept out of the log is a gap in the peer's numbered frames that a
        replay steps over (``Link.take``), so a flood cannot grow the log."""
        s = self.seat
        if not self.chat_rate.take():
            if self.chat_muted == 0:
                s.emit(ev.ProtocolError("chat", f"{s.names[s.peer]} sends chat lines too "
                                                "fast: some are not shown"))
            self.chat_muted += 1
            return False
        self.chat_muted = 0
        s.emit(ev.ChatLine(s.peer, f.text))
        if self.chat_logged + len(f.text) > CHAT_LOG:
            return False
        self.chat_logged += len(f.text)
        return True

    def on_frame(self, f: m.Game) -> bool:
        """The peer's chat, leave or verdict (taken in every state of a round): True when
        ``f`` was one of them."""
        s = self.seat
        peer = s.names[s.peer]
        if isinstance(f, m.Chat):  # (shown, or not, as it was heard)
            return True
        if isinstance(f, m.Leave):
            r = self.rnd
            what = ("left before revealing his keys" if r is not None
                    and r.life.state in REVEALS else LEFT)
            said = f.reason.strip()
            reason = f"{peer} {what}" + (f" ({said})" if said and said != LEFT else "")
            self.end_by(ev.Verdict("forfeit", s.peer, reason), send=False)
            s.link.closing = True
            return True
        if isinstance(f, m.VerdictF):
            if f.player == s.me:
                # An accusation. Had his keys come first (a dispute), they would have been
                # checked already and this side would be finished, or have found no cheat and
                # gone on: the accusation is unsupported or refuted, so it counts as leaving.
                self.end_by(ev.Verdict("forfeit", s.peer, f"{peer} stopped the match with "
                                       "an accusation his keys do not bear out"), send=False)
            else:
                self.end_by(ev.Verdict(f.kind, f.player, f.reason), send=False)
            s.link.closing = True
            return True
        return False
