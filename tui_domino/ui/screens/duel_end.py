"""The end of a duel and the question before leaving one: the verdict in words, the match
over screen (the winner, the totals, a verdict when it ended early), and "Leave the duel?"."""

from __future__ import annotations

import time

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Center, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui_domino.i18n import _, ngettext
from tui_domino.net import events as ev
from tui_domino.net.records import MatchResult
from tui_domino.text import visible
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.keys import Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_reasons import reason_text
from tui_domino.ui.session import Seat


def verdict_text(v: ev.Verdict, me: int, seats: list[Seat]) -> str:
    """How the match ended early, in words. The reason is the duel's own (the protocol's
    English, as it came), put in whole, in the language in use where its shape is known
    (ui/screens/duel_reasons.py)."""
    who = seats[v.player].name
    raw = visible(v.reason)
    reason = reason_text(raw)  # in the language in use where its shape is known
    if v.kind == "cheat":
        if v.player == me:
            return _("You were caught breaking the rules: {reason}.").format(reason=reason)
        # TRANSLATORS: {name} is a player's name, {reason} the duel's own words (in
        # English); "Cheating: {name} …" avoids a verb that agrees with the name's gender
        return _("{name} cheated: {reason}. The match is stopped.").format(
            name=who, reason=reason)
    if v.kind == "error":  # this program failed: nobody is blamed, nobody wins
        return _("The match stopped on an error of this program, not of either player: "
                 "{reason}.").format(reason=reason)
    if v.player == me and " left " in f" {raw} ":
        return _("You left: {reason}.").format(reason=reason)
    if v.player == me:  # (his time ran out, or he did not come back)
        # TRANSLATORS: how a duel ended, for the player who lost it by a deadline;
        # {reason} is the duel's own sentence ("ann took more than 20 s over one move")
        return _("You lose the match: {reason}.").format(reason=reason)
    if raw.startswith(f"{who} "):  # "Bob left the match", "Bob did not come back"
        if raw.endswith(" the match"):
            # TRANSLATORS: {reason} is the duel's own sentence, in English, that starts with
            # the player's name and ends with "the match" ("Bob left the match")
            return _("{reason} and forfeits it.").format(reason=reason)
        # TRANSLATORS: {reason} is the duel's own sentence, in English, that starts with
        # the player's name ("Bob did not come back")
        return _("{reason} and forfeits the match.").format(reason=reason)
    return _("{name} forfeits: {reason}.").format(name=who, reason=reason)


class DuelOverScreen(ModalScreen[None]):
    """The end of a duel: the winner, the totals, and a verdict when it ended early."""

    BINDINGS = [
        Key("enter", "close", "Leave", key_display="⏎"),
        Key("escape", "close", "Leave", show=False),
    ]

    DEFAULT_CSS = """
    DuelOverScreen { align: center middle; }
    DuelOverScreen > Vertical {
        width: 64; max-width: 100%; height: auto; border: round $accent; padding: 1 2;
        background: $panel;
    }
    DuelOverScreen.-verdict > Vertical { border: heavy $error; }
    DuelOverScreen #verdict { color: $error; text-style: bold; margin-bottom: 1; }
    DuelOverScreen Button { margin: 1 1 0 1; }
    DuelOverScreen #over-buttons { width: auto; height: auto; }
    DuelOverScreen #over-status { display: none; margin-top: 1; color: $accent; }
    DuelOverScreen #over-keys { width: 100%; text-align: center; color: $text-muted; }
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
            title.append(_("Nobody wins this match.") + "\n", style="bold")
        elif winner == self.me:
            title.append(_("You win the match!") + "\n", style="bold")
        else:
            title.append(_("{name} wins the match.").format(name=names[winner]) + "\n",
                         style="bold")
        totals = r.get("totals") or [0, 0]
        for p in (0, 1):
            title.append(f"  {names[p][:20]:<20} {totals[p]:>5}\n")
        rounds = r.get("rounds", 0)
        title.append("\n" + (_("No round was finished.") if not rounds else
                             ngettext("{n} round played", "{n} rounds played",
                                      rounds).format(n=rounds)), style=quiet)
        if r.get("verified"):
            # TRANSLATORS: after "3 rounds played": every deal was checked and was fair
            title.append(" · " + _("every deal checked: fair"), style=quiet)
        with Vertical() as box:
            box.border_title = _("Match over")
            if self.verdict is not None:
                yield Static(plain(verdict_text(self.verdict, self.me, self.seats)),
                             id="verdict")
            yield Static(title)
            yield Static("", id="over-status")
            with Center(), Horizontal(id="over-buttons"):
                yield from self.buttons()
            yield from self.footnote()

    def footnote(self) -> list[Static]:
        """What stands under the buttons (nothing here)."""
        return []

    def buttons(self) -> list[Button]:
        """The screen's buttons (the first has the focus)."""
        return [Button(_("Leave the table"), id="close", variant="primary", compact=True)]

    def say(self, text: str) -> None:
        """A line under the totals (what the other side says of another match, the new
        ratings), shown as plain text."""
        for status in self.query("#over-status").results(Static):
            status.update(plain(text))
            status.display = bool(text)

    # A key pressed this soon after the box came is not taken as its answer: the other
    # side's move, or a blocked round's end, can bring it up under a player pressing ⏎ to
    # play, who would leave the table (and his rematch) without having seen it.
    GUARD = 0.6

    def on_mount(self) -> None:
        self.shown_at = time.monotonic()
        self.set_class(self.verdict is not None, "-verdict")
        self._focus_button()

    def too_soon(self) -> bool:
        """Whether the box came up too recently for a key to be its answer."""
        return time.monotonic() - getattr(self, "shown_at", 0.0) < self.GUARD

    def _focus_button(self) -> None:
        buttons = self.query(Button)
        if buttons:  # not when the app is closing under it
            buttons.first().focus()

    def relabel(self) -> None:
        """The language changed: the screen is composed anew in it."""
        self.refresh(recompose=True)
        self.call_after_refresh(self._focus_button)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if not self.too_soon():
            self.dismiss(None)

    def action_close(self) -> None:
        if not self.too_soon():
            self.dismiss(None)


class LeaveScreen(ModalScreen[bool]):
    BINDINGS = [
        Key("y", "answer(True)", "Leave"),
        Key("n", "answer(False)", "Stay"),
        Key("escape", "answer(False)", "Stay", show=False),
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
        with Vertical() as box:
            if self.quitting:
                box.border_title = _("Quit the game?")
                said = _("Quitting ends the match: {name} wins it.")
                # TRANSLATORS: a button; (y) is its key, which stays as it is
                leave = _("Quit (y)")
            else:
                box.border_title = _("Leave the duel?")
                said = _("Leaving ends the match: {name} wins it.")
                # TRANSLATORS: a button; (y) is its key, which stays as it is
                leave = _("Leave (y)")
            yield Static(plain(said.format(name=self.opponent)))
            with Horizontal(id="buttons"):
                # TRANSLATORS: a button; (n) is its key, which stays as it is
                yield Button(_("Stay (n)"), id="stay", variant="primary", compact=True)
                yield Button(leave, id="leave", variant="error", compact=True)

    def relabel(self) -> None:
        """The language changed: the question is composed anew in it."""
        self.refresh(recompose=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
