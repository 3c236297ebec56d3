"""The duel protocol as a sans-IO core: frames in, frames and events out.

``DuelCore`` holds no socket and reads no clock. The transport feeds it lines
(``receive``), tells it about the connection (``connection_made``/``connection_lost``),
the time (``tick(now)``, monotonic seconds: the deadlines are counted from it) and local
actions (``play``, ``chat``, ``leave``, ``dispute``), and drains ``outgoing()`` (lines to
write) and ``events()`` (for the screen). Given its secret seed, the frames it accepted and
the local actions (a deadline that ran out is one), it is deterministic: the journal
replays it exactly. See docs/protocol.md.

The core is a facade over its parts, each with its own state: the sequencing and resume
(net/sequencing.py), the control frames (net/handshake.py), the match's lifecycle
(net/match_state.py), each deal's (net/lifecycle.py) with its shuffle (net/dealing.py),
play (net/play.py) and reveal (net/reveal.py), and the deadlines (net/deadlines.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from tui_domino import rules
from tui_domino.net import context as cx
from tui_domino.net import deadlines as dl
from tui_domino.net import events as ev
from tui_domino.net import messages as m
from tui_domino.net.context import Cheat, MatchSettings, Refused, Seat
from tui_domino.net.dealing import deal
from tui_domino.net.handshake import Handshake
from tui_domino.net.knowledge import ClaimRefuted
from tui_domino.net.lifecycle import IN_PLAY
from tui_domino.net.match_state import Match
from tui_domino.net.records import DuelView, JournalEntry, MatchResult
from tui_domino.net.sequencing import Link, Tokens
from tui_domino.net.table import Table
from tui_domino.rules.types import MoveJSON

__all__ = ["HANDED_BACK", "LEFT", "RESUME_WINDOW", "REVEAL_TIMEOUT", "TURN_TIMEOUT",
           "DuelCore", "MatchSettings"]

HANDED_BACK, LEFT = cx.HANDED_BACK, cx.LEFT
RESUME_WINDOW, REVEAL_TIMEOUT, TURN_TIMEOUT = (
    dl.RESUME_WINDOW, dl.REVEAL_TIMEOUT, dl.TURN_TIMEOUT)


class DuelCore:
    """One side of a duel. ``role`` is ``"host"`` (player 0) or ``"join"`` (player 1)."""

    def __init__(self, role: str, name: str, seed: bytes, settings: MatchSettings | None = None,
                 want: MatchSettings | None = None,
                 journal: Callable[[JournalEntry], None] | None = None) -> None:
        self.link = Link()
        self.seat = Seat(role, name[:40] or "player", seed, self.link,
                         settings.resolved() if settings is not None else None, want, journal)
        self.tokens = Tokens.for_host(seed) if role == "host" else Tokens()
        self.match = Match(self.seat, self.tokens, deal)
        self.table = Table(self.seat, self.match)
        self.deadlines = dl.Deadlines()
        self.handshake = Handshake(self.seat, self.tokens, self.match, self.deadlines)
        # the chat lines of a match resumed from its log (``journal.replay``), said before
        self.replayed: list[ev.Event] = []
        self.seat.record({"k": "start", "role": role, "name": self.seat.name, "seed": seed.hex(),
                          "settings": None if settings is None else settings.to_json(),
                          "want": None if want is None else want.to_json()})

    # -- what the screens read -------------------------------------------------------------------

    @property
    def me(self) -> int:
        """This side's player: 0 (the host) or 1 (the joiner)."""
        return self.seat.me

    @property
    def peer(self) -> int:
        return self.seat.peer

    @property
    def settings(self) -> MatchSettings | None:
        """What was agreed (None until the joiner knows it)."""
        return self.seat.settings

    @property
    def started(self) -> bool:
        return self.match.started

    @property
    def finished(self) -> bool:
        return self.match.finished

    # -- the transport's side -------------------------------------------------------------------

    def outgoing(self) -> list[bytes]:
        return self.link.outgoing()

    def events(self) -> list[ev.Event]:
        return self.seat.drain()

    def connection_made(self) -> None:
        """A new connection: the joiner greets (or resumes); the host waits."""
        self.link.made()
        self.handshake.greet()

    def connection_lost(self) -> None:
        self.handshake.lost()

    def keep_channel(self, secret: str) -> None:
        """The channel's resume secret, for the match log (docs/protocol.md, section 9)."""
        self.handshake.keep_channel(secret)

    def tampered(self, message: str) -> None:
        """The channel found a record altered, replayed or out of order."""
        self.handshake.tampered(message)

    def peer_gone(self, reason: str = dl.AWAY) -> None:
        """The resume window (or a deadline) ran out: the peer forfeits."""
        self.match.peer_gone(reason)

    def tick(self, now: float) -> None:
        """The transport's clock (monotonic seconds, called often, connected or not): the
        resume window runs while the peer is away, the other deadlines while he is here."""
        self.match.chat_rate.tick(now)
        self.seat.noise.tick(now)
        with self._guard():
            if self.finished or not self.started:
                return
            lapse = self.deadlines.tick(now, self.link.up, self.match.rnd, self.owes(),
                                        self.me)
            if lapse is None:
                return
            if lapse.player == self.me:
                self.match.out_of_time(lapse.reason)
            else:
                self.match.peer_gone(lapse.reason)

    def owes(self) -> int | None:
        """Who owes the match its next step while the match is in play (me: my move; the
        peer: his move, a draw's keys, his stage of the deal or his call), or None."""
        r = self.match.rnd
        if self.finished or not self.started or r is None or r.life.state not in IN_PLAY:
            return None
        return self.me if self.my_turn() else self.peer

    def turn_left(self) -> float | None:
        """Seconds of connected time left to the side that owes the next step (None when
        nobody does)."""
        return self.deadlines.turn_left(self.owes())

    def heartbeat(self) -> None:
        """Called by the transport when idle: a ping."""
        self.handshake.heartbeat()

    # -- local actions --------------------------------------------------------------------------

    def my_turn(self) -> bool:
        r = self.match.rnd
        return r is not None and not self.finished and self.table.moves.my_turn(r)

    def legal_moves(self) -> list[rules.Move]:
        r = self.match.rnd
        if not self.my_turn() or r is None or r.know is None:
            return []
        return r.know.legal_moves()

    def owed_pass(self) -> rules.Move | None:
        """The pass this side still owes in a round the rules already call over (blocked:
        nobody can move), before the round's end can be claimed and its deal checked; None
        when there is none. It is nobody's choice: the player's program plays it."""
        legal = self.legal_moves()  # (none unless it is my turn)
        if len(legal) != 1 or legal[0].kind != "pass":
            return None
        view = self.view()  # (the view only then: this is asked after every event)
        return legal[0] if view is not None and view.get("over") else None

    def view(self) -> DuelView | None:
        """The engine view of my seat, with the match around it."""
        return self.match.view(self.my_turn())

    def play(self, move: rules.Move | MoveJSON) -> None:
        """Plays my move; ValueError (IllegalMove) if it is not legal now."""
        r = self.match.rnd
        if not self.my_turn() or r is None or r.know is None:
            raise rules.IllegalMove("it is not your turn")
        mv = move if isinstance(move, rules.Move) else rules.move_from_json(self.seat.variant,
                                                                            move)
        if mv not in r.know.legal_moves():
            raise rules.IllegalMove(f"{mv} is not a legal move now")
        self.seat.record({"k": "local", "a": "play", "move": mv.to_json()})
        with self._guard():
            self.table.moves.play(r, mv)

    def dispute(self) -> None:
        """Asks for the keys now, before the round is over: both sides reveal and the referee
        replays the round so far. If it finds no cheat, this side forfeits the match."""
        r = self.match.rnd
        if self.finished or r is None or not r.life.in_play:
            return
        self.seat.record({"k": "local", "a": "dispute"})
        with self._guard():
            self.table.reveal.dispute(r)

    def chat(self, text: str) -> None:
        self.match.chat(text)

    def leave(self, reason: str = LEFT) -> None:
        self.match.leave(reason)

    def stop_internal(self, error: str, where: str) -> None:
        """Ends the match because this program failed: nobody is blamed, nobody wins."""
        self.match.stop_internal(error, where)

    # -- frames in ------------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        """One line from the peer. What he sent that is wrong is answered with an error frame
        (or, when only a cheat sends it, a verdict); a failure of this program's own ends the
        match as an internal error, blaming nobody."""
        try:
            frame = m.decode(line)
        except m.FrameError as exc:
            self.seat.refuse(exc.code, exc.message)
            if exc.code == "too_large":
                self.link.closing = True
            return
        with self._guard():
            if isinstance(frame, m.Game):
                self._receive_game(frame)
            elif (isinstance(frame, m.Error) and frame.code == "timeout" and self.link.authed
                  and self.started and not self.finished):
                self.handshake.receive(frame)  # (shown as his words)
                self.claim(self.me, frame.message)  # (an older program's word of time)
            else:
                self.handshake.receive(frame)

    def claim(self, player: int, said: str) -> None:
        """The peer says ``player``'s time ran out: taken as the verdict when this side's
        own count bears it out (net/deadlines.py), else as his stopping of the match."""
        bears_out = (self.deadlines.bears_out(self.me, self.match.rnd) if player == self.me
                     else None)
        self.match.claimed(player, bears_out, said[:500])

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Where the peer's input has been judged: a refusal, a cheat, or (anything else)
        this program's own failure."""
        try:
            yield
        except Refused as exc:
            self.seat.refuse(exc.code, exc.message)
        except (Cheat, ClaimRefuted) as exc:
            self.table.reveal.caught(str(exc))
        except Exception as exc:  # a bug of ours, whatever the peer sent
            self.match.failed(exc)

    def _receive_game(self, f: m.Game) -> None:
        if not self.started:
            raise Refused("out_of_turn", "no match yet: greet first")
        if not self.link.authed:
            raise Refused("out_of_turn", "resume the match first")
        if not self.link.take(f):
            return
        # The peer's chat is shown and logged within its rate and its share of the log.
        if isinstance(f, m.Chat) and (self.finished or not self.match.hear(f)):
            return
        if isinstance(f, m.VerdictF) and f.kind == "timeout":
            # (its judgement is logged, not the frame: a replay has no clock to judge by)
            self.claim(f.player, f.reason)
            return
        self.seat.record({"k": "in", "frame": m.encode(f).decode()})
        if self.finished or self.match.on_frame(f):
            return
        self.table.receive(self.match.rnd, f)

    # -- for the journal and the headless player -------------------------------------------------

    def result_of(self, winner: int | None, verified: bool) -> MatchResult:
        """The match's result as it stands, with this winner (None: nobody)."""
        return self.match.result_of(winner, verified)

    def public_digest(self) -> str:
        """What both sides must agree on: round, deal, the public moves, the totals."""
        return self.match.digest()
