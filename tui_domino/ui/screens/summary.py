"""The round summary: how every point of the round was scored."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.widgets import Footer as TextualFooter

from tui_domino.i18n import _, ngettext, npgettext, pgettext
from tui_domino.ui import history_db
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.keys import BUTTON_ARROWS, Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.session import Session, hand_pips, is_you, reason_words, tile_text

SUMMARY_ROWS = 17  # the most rows the summary's words take before they scroll

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
    # the rows that say how many times too (as round_lines names them, in the language in use)
    counted = {reason_words(r) for r in ("tile", "draw", "pass", "hexagon", "bridge")}

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
    # TRANSLATORS: a row of the round summary (at most 36 characters): Spider's points are
    # charged, a cost
    this_round = _("this round (charged)") if spider else _("this round")
    table.add_row(
        Text(this_round, style="bold"),
        *(Text(str(p), style="bold") for p in state.points),
    )
    table.add_row(
        # TRANSLATORS: a row of the round summary (at most 36 characters)
        Text(_("match total"), style="bold"),
        *(Text(str(t), style="bold") for t in match.totals)
    )
    return table


def round_end_words(session: Session) -> str:
    """The summary's first sentence: how the round ended and who won it, said to the player
    himself when he did ("You played the last tile…", not "…the winner is You"). Spider's
    blocked round has a word of its own in some languages (Bulgarian: риба, "fish")."""
    state = session.state
    tri = session.variant == "triominos"
    spider = session.variant == "spider"
    if state.winner is None:
        if state.end_reason == "blocked":
            # TRANSLATORS: the round summary (the "spider" one: Spider's blocked round, a fish)
            return (pgettext("spider", "The round is blocked: a tie, nobody wins it.") if spider
                    else _("The round is blocked: a tie, nobody wins it."))
        return _("The round is over: a tie, nobody wins it.")
    name = session.seats[state.winner].name
    you = is_you(name)
    if state.end_reason == "blocked":
        if you:
            # TRANSLATORS: the round summary: the round is blocked and the player won it
            # (the "spider" one: Spider's blocked round, a fish)
            return (pgettext("spider", "The round is blocked: you won it.") if spider
                    else _("The round is blocked: you won it."))
        # TRANSLATORS: {name} is a player's name as given ("…: the winner is {name}" spares
        # a verb agreeing with it; the "spider" one: Spider's blocked round, a fish)
        return (pgettext("spider", "The round is blocked: {name} won it.") if spider
                else _("The round is blocked: {name} won it.")).format(name=name)
    if you:
        # TRANSLATORS: the round summary: the player went out (the "triominos" one: of a
        # triomino)
        return (pgettext("triominos", "You played the last tile and won the round.") if tri
                else _("You played the last tile and won the round."))
    # TRANSLATORS: {name} is a player's name as given (the "triominos" one: of a triomino)
    return (pgettext("triominos", "{name} played the last tile and won the round.") if tri
            else _("{name} played the last tile and won the round.")).format(name=name)


def summary_text(session: Session, quiet: str = "dim") -> Group:
    """What ended the round and the hands left (``quiet``: the style of the side words)."""
    state = session.state
    names = [s.name for s in session.seats]
    t = Text()
    t.append(round_end_words(session) + "\n", style="bold")
    # TRANSLATORS: the round summary: the tiles each player still holds are listed below
    t.append(_("Left in hand:"), style=quiet)
    # a hand per row, its tiles in a column of their own: a long hand wraps under its tiles,
    # between tiles, never inside "12 tiles, 51 pips"
    hands = Table.grid(padding=(0, 1, 0, 0))
    hands.add_column(no_wrap=True)  # the indent and the name
    hands.add_column(no_wrap=True)  # the hand's size and worth
    hands.add_column(ratio=1)  # its tiles
    for p in (0, 1):
        who = Text(f"  {names[p][:12]:<12}", style="bold")
        if not state.hands[p]:
            # TRANSLATORS: the round summary: a player holds no tile
            hands.add_row(who, _("nothing"), "")
            continue
        n, value = len(state.hands[p]), hand_pips(state.hands[p])
        if session.variant == "triominos":
            worth = ngettext("{n} point", "{n} points", value).format(n=value)
        else:
            # TRANSLATORS: the pips of the tiles a player holds
            worth = ngettext("{n} pip", "{n} pips", value).format(n=value)
        tiles_n = (npgettext("triominos", "{n} tile", "{n} tiles", n)
                   if session.variant == "triominos"
                   else ngettext("{n} tile", "{n} tiles", n)).format(n=n)
        hands.add_row(who, Text(f"{tiles_n}, {worth}:", style=quiet),
                      " ".join(tile_text(x) for x in state.hands[p]))
    return Group(t, hands, Text())  # a blank line before the points


class RoundSummary(ModalScreen[str]):
    """Shows the round's scoring; Enter goes on."""

    BINDINGS = [
        Key("enter", "next", "Continue", key_display="⏎"),
        # TRANSLATORS: the footer: back to the table as the round left it
        Key("escape", "look", "The table"),
        # TRANSLATORS: the footer: the coach's review of the round
        Key("v", "review", "Review"),
        *BUTTON_ARROWS,
    ]

    DEFAULT_CSS = """
    RoundSummary { align: center middle; }
    RoundSummary > Vertical {
        width: 74; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $panel; padding: 0 1;
    }
    RoundSummary VerticalScroll { height: auto; max-height: 17; }  /* SUMMARY_ROWS */
    RoundSummary #buttons { height: auto; align-horizontal: center; margin-top: 1; }
    RoundSummary #buttons Button { margin: 0 1; }
    """

    def __init__(self, session: Session, next_label: str | None = None) -> None:
        """``next_label``: the words of the button that goes on, when it does something
        else than the next round or the match's result (the tutorial's: back to the
        menu)."""
        super().__init__()
        self.session = session
        self.next_label = next_label

    def compose(self) -> ComposeResult:
        s = self.session
        over = s.match.is_over
        with Vertical() as box:
            box.border_title = _("Round {number} is over").format(number=s.match.round_no)
            with VerticalScroll():
                yield Static(summary_text(s, muted_of(self, "panel")))
                yield Static(summary_table(s))
                rec = self._record()
                if rec is not None:
                    # TRANSLATORS: the round summary: how many times the coach's hint was
                    # asked for, and how many moves were taken back
                    yield Static(_("Hints used this round: {hints} · moves taken back: "
                                   "{take_backs}").format(hints=rec.get("hints", 0),
                                                          take_backs=rec.get("take_backs", 0)),
                                 id="hints")
            label = self.next_label or (_("See the result") if over else _("Next round"))
            with Horizontal(id="buttons"):
                yield Button(label, id="next", variant="primary", compact=True)
                if rec is not None:
                    # TRANSLATORS: a button: the coach's review of the round
                    yield Button(_("Review"), id="review", compact=True)
        # its own keys (else the table's, below it, would say d draws and p passes)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    def on_resize(self) -> None:
        # The buttons stay on a short screen: the words scroll in what the box's border,
        # the buttons and the line above them leave (4 rows) and a footer (1), at most 17.
        footer = 1 if self.query(TextualFooter) else 0
        rows = max(3, min(SUMMARY_ROWS, self.app.size.height - 4 - footer))
        self.query_one(VerticalScroll).styles.max_height = rows

    def _record(self) -> RoundRecord | None:
        """The round's record, kept for a local match (not a duel): its review is offered."""
        return history_db.round_of(self.session)

    def action_review(self) -> None:
        rec = self._record()
        if rec is None:
            return
        # lazy: on demand (the review's coach and search, ~160 ms: not at every round's end)
        from tui_domino.ui.screens.review import ReviewScreen

        s = self.session
        number = int(rec["number"])
        self.app.push_screen(ReviewScreen(
            s.variant, s.match.options, rec, [x.name for x in s.seats],
            history_db.me_of(s), lambda review: history_db.reviewed(s, number, review)),
            self.reviewed)

    def reviewed(self, _result: None = None) -> None:
        """Back from the review: ⏎ goes on (it would open the review again)."""
        self.query_one("#next", Button).focus()

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
