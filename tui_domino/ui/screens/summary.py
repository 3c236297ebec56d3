"""The round summary: how every point of the round was scored."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui_domino.ui.contrast import muted_of
from tui_domino.ui.plain import plain
from tui_domino.ui.session import Session, count, hand_pips, tile_text

if TYPE_CHECKING:
    from tui_domino.history.records import RoundRecord


def summary_table(session: Session) -> Table:
    state = session.state
    match = session.match
    spider = session.variant == "spider"
    names = [s.name for s in session.seats]
    table = Table(box=None, padding=(0, 1), expand=False, show_edge=False)
    table.add_column("", max_width=36)
    for name in names:
        table.add_column(plain(name[:12]), justify="right", no_wrap=True)
    counted = ("tiles played", "drawing", "passing", "hexagon", "bridge")

    def points(p: int) -> str:
        # Spider's points are charged, a cost: no plus sign to read as a gain
        return str(p) if spider else f"{p:+d}"

    for what, pts, counts in session.round_lines():
        cells = []
        for p, n in zip(pts, counts, strict=True):
            if not n:
                cells.append("–")  # an en dash: nothing (ASCII mode draws "-")
            elif what in counted:
                cells.append(f"{points(p)} ({n})")
            else:
                cells.append(points(p))
        table.add_row(plain(what), *(plain(c) for c in cells))
    table.add_row(
        Text("this round" + (" (charged)" if spider else ""), style="bold"),
        *(Text(str(p), style="bold") for p in state.points),
    )
    table.add_row(
        Text("match total", style="bold"), *(Text(str(t), style="bold") for t in match.totals)
    )
    return table


def summary_text(session: Session, quiet: str = "dim") -> Text:
    """What ended the round and the hands left (``quiet``: the style of the side words)."""
    state = session.state
    names = [s.name for s in session.seats]
    t = Text()
    if state.winner is None:
        how = "The round is blocked" if state.end_reason == "blocked" else "The round is over"
        t.append(f"{how}: a tie, nobody wins it.\n", style="bold")
    elif state.end_reason == "blocked":
        t.append(f"The round is blocked: {names[state.winner]} won it.\n", style="bold")
    else:
        t.append(f"{names[state.winner]} played the last tile and won the round.\n", style="bold")
    hands = state.hands
    unit = "point" if session.variant == "triominos" else "pip"
    t.append("Left in hand:\n", style=quiet)
    for p in (0, 1):
        tiles = " ".join(tile_text(x) for x in hands[p]) or "nothing"
        t.append(f"  {names[p][:12]:<12} ", style="bold")
        t.append(f"{tiles}")
        n = len(hands[p])
        t.append(f" · {count(n, 'tile')}, {count(hand_pips(hands[p]), unit)}\n",
                 style=quiet)
    return t


class RoundSummary(ModalScreen[str]):
    """Shows the round's scoring; Enter goes on."""

    BINDINGS = [
        Binding("enter", "next", "Continue", key_display="⏎"),
        Binding("escape", "look", "The table"),
        Binding("v", "review", "Review"),
    ]

    DEFAULT_CSS = """
    RoundSummary { align: center middle; }
    RoundSummary > Vertical {
        width: 74; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $panel; padding: 0 1;
    }
    RoundSummary VerticalScroll { height: auto; max-height: 17; }
    RoundSummary #buttons { height: auto; align-horizontal: center; margin-top: 1; }
    RoundSummary #buttons Button { margin: 0 1; }
    """

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        over = s.match.is_over
        with Vertical() as box:
            box.border_title = f"Round {s.match.round_no} is over"
            with VerticalScroll():
                yield Static(summary_text(s, muted_of(self, "panel")))
                yield Static(summary_table(s))
                rec = self._record()
                if rec is not None:
                    yield Static(f"Hints used this round: {rec.get('hints', 0)} · "
                                 f"moves taken back: {rec.get('take_backs', 0)}", id="hints")
            label = "See the result" if over else "Next round"
            with Horizontal(id="buttons"):
                yield Button(label, id="next", variant="primary", compact=True)
                if rec is not None:
                    yield Button("Review", id="review", compact=True)

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def _record(self) -> RoundRecord | None:
        """The round's record, kept for a local match (not a duel): its review is offered."""
        from tui_domino.ui import history_db

        return history_db.round_of(self.session)

    def action_review(self) -> None:
        rec = self._record()
        if rec is None:
            return
        from tui_domino.ui import history_db
        from tui_domino.ui.screens.review import ReviewScreen

        s = self.session
        number = int(rec["number"])
        self.app.push_screen(ReviewScreen(
            s.variant, s.match.options, rec, [x.name for x in s.seats],
            history_db.me_of(s), lambda review: history_db.reviewed(s, number, review)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "review":
            self.action_review()
            return
        self.dismiss("next")

    def action_next(self) -> None:
        self.dismiss("next")

    def action_look(self) -> None:
        """Back to the table as the round left it, both hands shown; Enter brings the
        summary back."""
        self.dismiss("look")
