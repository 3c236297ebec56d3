"""The parts that take one deal's frames, wired to each other and to the match: the
shuffle and keys (net/dealing.py), the call-down and the moves (net/play.py), the reveals
and the ruling (net/reveal.py). Each frame is checked against the deal it names and the
state the deal is in (net/lifecycle.py) before a part takes it.
"""

from __future__ import annotations

from tui_domino.net import messages as m
from tui_domino.net.context import Refused, RoundCtx, Seat
from tui_domino.net.dealing import Dealing
from tui_domino.net.match_state import Match
from tui_domino.net.play import Play
from tui_domino.net.reveal import Reveal


class Table:
    """One side's deal: what it takes from the peer, and where."""

    def __init__(self, seat: Seat, match: Match) -> None:
        self.reveal = Reveal(seat, match)
        self.moves = Play(seat, self.reveal.round_over)
        self.dealing = Dealing(seat, self.moves.dealt, self.moves.drew, self.reveal.dispute)

    def receive(self, r: RoundCtx | None, f: m.Game) -> None:
        """One of the round's frames (not chat, leave or verdict: the match takes those)."""
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
            self.dealing.on_shuffle(r, f)
        elif isinstance(f, m.KeysF):
            self.dealing.on_keys(r, f)
        elif isinstance(f, m.Call):
            self.moves.on_call(r, f)
        elif isinstance(f, m.MoveF):
            self.moves.on_move(r, f)
        elif isinstance(f, m.Block):
            self.moves.on_block(r, f)
        elif isinstance(f, m.Reveal):
            self.reveal.on_reveal(r, f)
        else:  # pragma: no cover
            raise Refused("bad_frame", "unexpected frame")
