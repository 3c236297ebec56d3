"""The control frames: the greeting (``hello``/``welcome``), the resume
(``resume``/``resumed``) on the match's tokens, ``ping``/``pong`` and the peer's ``error``
frames. They carry no sequence number; they decide whose connection it is (``authed``),
start the match and end it before it began. See docs/protocol.md, sections 3 and 4.
"""

from __future__ import annotations

from typing import cast

from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.context import HANDED_BACK, MatchSettings, Refused, Seat
from tui_domino.net.deadlines import Deadlines
from tui_domino.net.match_state import Match
from tui_domino.net.sequencing import Tokens


class Handshake:
    """One side's control frames, in and out."""

    def __init__(self, seat: Seat, tokens: Tokens, match: Match,
                 deadlines: Deadlines | None = None) -> None:
        self.seat = seat
        self.link = seat.link
        self.tokens = tokens
        self.match = match
        self.deadlines = deadlines or Deadlines()  # (the step's count, told on resume)

    def greet(self) -> None:
        """A new connection: the joiner greets (or resumes); the host waits."""
        s, t = self.seat, self.tokens
        if s.role != "join":
            return
        if not self.match.started:
            w = s.want or MatchSettings(variant="", target=None)
            s.send_ctl(m.Hello(proto=m.PROTOCOL, name=s.name,
                               variant=cast("m.Variant | None", w.variant or None), target=w.target,
                               options=None))
        else:
            s.send_ctl(m.Resume(proto=m.PROTOCOL, match=t.match_id, token=t.token,
                                ack=self.link.received,
                                waited=self.deadlines.step_waited()))

    def lost(self) -> None:
        self.link.lost()
        match = self.match
        if match.started and not match.finished and not match.refused:
            self.seat.emit(ev.ConnectionState("reconnecting"))

    def heartbeat(self) -> None:
        """When idle: a ping."""
        if self.link.connected:
            self.seat.send_ctl(m.Ping(ack=self.link.received))

    def keep_channel(self, secret: str) -> None:
        """The transport's channel for this match: its resume secret, kept in the match log
        so that a restarted process can take the match up (docs/protocol.md, section 9)."""
        if secret != self.tokens.channel_secret:
            self.tokens.channel_secret = secret
            self.seat.record({"k": "channel", "resume": secret})

    def tampered(self, message: str) -> None:
        """The transport's channel found a record altered, replayed or out of order: the
        connection ends (the match waits for a resume, as after any drop). Not a cheat:
        anybody on the path can do it. The peer is told (what this side sends still
        opens)."""
        self.seat.events.append(ev.ProtocolError("tampered", message))
        self.seat.send_ctl(m.Error(code="tampered", message=message[:500]))
        self.link.closing = True

    def receive(self, f: m.Frame) -> None:
        link = self.link
        if isinstance(f, m.Ping):
            if link.authed:
                link.acked(f.ack)
            self.seat.send_ctl(m.Pong(ack=link.received))
        elif isinstance(f, m.Pong):
            if link.authed:
                link.acked(f.ack)
        elif isinstance(f, m.Error):
            self.on_error(f)
        elif isinstance(f, m.Hello):
            self.on_hello(f)
        elif isinstance(f, m.Welcome):
            self.on_welcome(f)
        elif isinstance(f, m.Resume):
            self.on_resume(f)
        elif isinstance(f, m.Resumed):
            self.on_resumed(f)
        else:  # pragma: no cover - the union is closed
            raise Refused("bad_frame", "unexpected frame")

    def on_error(self, f: m.Error) -> None:
        s, link, match = self.seat, self.link, self.match
        if s.role == "host" and match.started and not link.authed:
            return  # not from the joiner: somebody else's connection to the port
        s.noisy(ev.ProtocolError(f.code, f.message, from_peer=True))
        if f.code in ("version", "mismatch", "busy", "token", "code") and not match.started:
            match.finished = True
            link.closing = True
            s.emit(ev.ConnectionState("closed", f.message))
        elif f.code == "token" and s.role == "join" and match.started:
            # The host does not know the match this log resumes (it started afresh).
            match.finished = True
            link.closing = True
            s.emit(ev.ConnectionState("closed", f.message or "the host does not "
                                      "know this match any more"))
        elif (f.code in HANDED_BACK and s.role == "host"
              and match.started and link.received == 0 and not match.finished):
            # The joiner refused the welcome, or left before it reached him, before
            # playing any of the match: nothing was played, so the host may offer it to
            # somebody else (the transport starts a fresh match and waits again).
            match.refused = f.message or f.code
            link.closing = True
        elif f.code == "internal" and match.started and not match.finished:
            # His program stopped. From here a broken program and one that stops so as not
            # to lose look the same: it counts as his leaving.
            match.end_by(ev.Verdict("forfeit", s.peer, f"{s.names[s.peer]}'s "
                                    "program stopped the match with an internal error"),
                         send=False)
            link.closing = True

    def on_hello(self, f: m.Hello) -> None:
        s, link, match = self.seat, self.link, self.match
        if s.role != "host":
            raise Refused("bad_frame", "only the host is greeted")
        if f.proto != m.PROTOCOL or f.app != m.APP:
            s.send_ctl(m.Error(code="version", message=(
                f"protocol {f.app} {f.proto} is not {m.APP} {m.PROTOCOL}: update both sides")))
            link.closing = True
            return
        if match.started and link.received == 0 and f.name == s.names[s.peer]:
            # The joiner never got the welcome (the connection dropped): greet him again.
            link.authed = True
            self.welcome()
            link.resend(0)
            s.emit(ev.ConnectionState("connected"))
            return
        if match.started:
            s.send_ctl(m.Error(code="busy", message="a match is already being played"))
            link.closing = True
            return
        assert s.settings is not None
        s.record({"k": "in", "frame": m.encode(f).decode()})
        s.names[s.peer] = f.name
        link.authed = True
        self.welcome()
        match.begin()

    def welcome(self) -> None:
        s, t = self.seat, self.tokens
        assert s.settings is not None
        self.seat.send_ctl(m.Welcome(proto=m.PROTOCOL, name=s.name,
                                     variant=s.settings.variant,  # type: ignore[arg-type]
                                     target=int(s.settings.target or 0),
                                     options=cast(m.Options, s.settings.options or {}),
                                     match=t.match_id,
                                     token=t.token, peer_token=t.peer_token))

    def on_welcome(self, f: m.Welcome) -> None:
        s, link, match = self.seat, self.link, self.match
        if s.role != "join" or match.started:
            raise Refused("bad_frame", "unexpected welcome")
        if f.proto != m.PROTOCOL:
            s.send_ctl(m.Error(code="version", message="protocol versions differ"))
            link.closing = True
            match.finished = True
            return
        w = s.want
        if w is not None and ((w.variant and w.variant != f.variant)
                              or (w.target is not None and w.target != f.target)):
            msg = (f"the host plays {f.variant} to {f.target}; you asked for "
                   f"{w.variant or f.variant} to {w.target or f.target}")
            s.send_ctl(m.Error(code="mismatch", message=msg))
            s.events.append(ev.ProtocolError("mismatch", msg))
            s.emit(ev.ConnectionState("closed", msg))
            link.closing = True
            match.finished = True
            return
        try:
            settings = MatchSettings(f.variant, f.target,
                                     rules.resolve_options(f.variant, f.options)).resolved()
        except ValueError as exc:
            raise Refused("bad_frame", f"bad match settings: {exc}") from None
        s.record({"k": "in", "frame": m.encode(f).decode()})
        s.settings = settings
        s.names[s.peer] = f.name
        t = self.tokens
        t.match_id, t.token, t.peer_token = f.match, f.token, f.peer_token
        link.authed = True
        match.begin()

    def on_resume(self, f: m.Resume) -> None:
        s, t, link = self.seat, self.tokens, self.link
        if s.role != "host" or not self.match.started:
            raise Refused("bad_frame", "nothing to resume")
        if f.match != t.match_id or not mp.same_bytes(f.token.encode(), t.token.encode()):
            s.send_ctl(m.Error(code="token", message="wrong match or resume token"))
            link.closing = True
            return
        link.authed = True
        self.deadlines.peer_said(f.waited)
        s.send_ctl(m.Resumed(token=t.peer_token, ack=link.received,
                             waited=self.deadlines.step_waited()))
        link.resend(f.ack)
        s.emit(ev.ConnectionState("connected"))

    def on_resumed(self, f: m.Resumed) -> None:
        s, link = self.seat, self.link
        if s.role != "join" or not self.match.started:
            raise Refused("bad_frame", "nothing to resume")
        if not mp.same_bytes(f.token.encode(), self.tokens.peer_token.encode()):
            s.send_ctl(m.Error(code="token", message="the host showed the wrong token"))
            link.closing = True
            return
        self.deadlines.peer_said(f.waited)
        link.authed = True
        link.resend(f.ack)
        s.emit(ev.ConnectionState("connected"))
