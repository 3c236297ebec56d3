"""The end of a duel and the question before leaving one: the verdict in words, the match
over screen (the winner, the totals, a verdict when it ended early), and "Leave the duel?"."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui_domino.net import events as ev
from tui_domino.net.records import MatchResult
from tui_domino.text import visible
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.plain import plain
from tui_domino.ui.session import Seat


def verdict_text(v: ev.Verdict, me: int, seats: list[Seat]) -> str:
    who = seats[v.player].name
    reason = visible(v.reason)
    if v.kind == "cheat":
        if v.player == me:
            return f"You were caught breaking the rules: {reason}."
        return f"{who} cheated: {reason}. The match is stopped."
    if v.kind == "error":  # this program failed: nobody is blamed, nobody wins
        return f"The match stopped on an error of this program, not of either player: {reason}."
    if v.player == me:
        return f"You left: {reason}."
    if reason.startswith(f"{who} "):  # "Bob left the match", "Bob did not come back"
        it = "it" if reason.endswith(" the match") else "the match"
        return f"{reason} and forfeits {it}."
    return f"{who} forfeits: {reason}."


class DuelOverScreen(ModalScreen[None]):
    """The end of a duel: the winner, the totals, and a verdict when it ended early."""

    BINDINGS = [
        Binding("enter", "close", "Leave", key_display="⏎"),
        Binding("escape", "close", "Leave", show=False),
    ]

    DEFAULT_CSS = """
    DuelOverScreen { align: center middle; }
    DuelOverScreen > Vertical {
        width: 64; max-width: 100%; height: auto; border: round $accent; padding: 1 2;
        background: $panel;
    }
    DuelOverScreen.-verdict > Vertical { border: heavy $error; }
    DuelOverScreen #verdict { color: $error; text-style: bold; margin-bottom: 1; }
    DuelOverScreen Button { margin-top: 1; }
    """

    def __init__(self, result: MatchResult, verdict: ev.Verdict | None, me: int,
                 seats: list[Seat]) -> None:
        super().__init__()
        self.result = result
        self.verdict = verdict
        self.me = me
        self.seats = seats

    def compose(self) -> ComposeResult:
        r = self.result
        names = [s.name for s in self.seats]
        winner = r.get("winner")
        title = Text()
        quiet = muted_of(self, "panel")
        if winner is None:
            title.append("Nobody wins this match.\n", style="bold")
        elif winner == self.me:
            title.append("You win the match!\n", style="bold")
        else:
            title.append(f"{names[winner]} wins the match.\n", style="bold")
        totals = r.get("totals") or [0, 0]
        for p in (0, 1):
            title.append(f"  {names[p][:20]:<20} {totals[p]:>5}\n")
        rounds = r.get("rounds", 0)
        title.append("\nNo round was finished." if not rounds else
                     f"\n{rounds} round{'' if rounds == 1 else 's'} played", style=quiet)
        if r.get("verified"):
            title.append(" · every deal checked: fair", style=quiet)
        with Vertical() as box:
            box.border_title = "Match over"
            if self.verdict is not None:
                yield Static(plain(verdict_text(self.verdict, self.me, self.seats)),
                             id="verdict")
            yield Static(title)
            yield Center(Button("Leave the table", id="close", variant="primary", compact=True))

    def on_mount(self) -> None:
        self.set_class(self.verdict is not None, "-verdict")
        buttons = self.query(Button)
        if buttons:  # not when the app is closing under it
            buttons.first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


class LeaveScreen(ModalScreen[bool]):
    BINDINGS = [
        Binding("y", "answer(True)", "Leave"),
        Binding("n", "answer(False)", "Stay"),
        Binding("escape", "answer(False)", "Stay", show=False),
    ]

    DEFAULT_CSS = """
    LeaveScreen { align: center middle; }
    LeaveScreen > Vertical {
        width: 52; height: auto; border: round $warning; padding: 1 2; background: $panel;
    }
    LeaveScreen #buttons { height: 1; align-horizontal: center; margin-top: 1; }
    LeaveScreen Button { margin: 0 1; }
    """

    def __init__(self, opponent: str, quitting: bool = False) -> None:
        super().__init__()
        self.opponent = opponent
        self.quitting = quitting  # the whole game quits, not only the duel

    def compose(self) -> ComposeResult:
        verb, doing = ("Quit", "Quitting") if self.quitting else ("Leave", "Leaving")
        with Vertical() as box:
            box.border_title = "Quit the game?" if self.quitting else "Leave the duel?"
            yield Static(plain(f"{doing} ends the match: {self.opponent} wins it."))
            with Horizontal(id="buttons"):
                yield Button("Stay (n)", id="stay", variant="primary", compact=True)
                yield Button(f"{verb} (y)", id="leave", variant="error", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
