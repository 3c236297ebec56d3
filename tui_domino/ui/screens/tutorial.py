"""The first-game tutorial: a guided round of a variant on a fixed deal against the easy
computer (``ui/tutorial_deals.py``). A box under the table gives the lesson (``ui/tutor.py``):
what to press, and why. Before a key acts the tutor is asked: while a lesson is given, only
what it teaches goes through, and another key is answered in the box (the lesson stays). The
score panel beside the table keeps its recent moves, so every change of the score is told."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_domino.i18n import _
from tui_domino.ui.ascii import key_words
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.local_table import LocalTable
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.tutor import Look, Tutor
from tui_domino.ui.tutorial_deals import tutorial_session
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView


class TutorialScreen(GameScreen):
    """A guided round: the game's table with the lesson's box under the board."""

    SAYS_WHO_CHOSE = False  # (the lesson says what to play: the hint line keeps the keys)

    DEFAULT_CSS = """
    TutorialScreen #board-column { width: 1fr; }
    TutorialScreen #board-column #board { width: 1fr; height: 1fr; }
    /* Its height is fixed: a lesson of 4 lines at most, and 2 more for the word on a
       refused key. (The board's height never changes as the words do.) */
    TutorialScreen #lesson {
        height: 7; padding: 0 1; background: $panel;
        border-top: solid $primary; border-title-align: left; border-title-color: $text;
        border-title-style: bold;
    }
    TutorialScreen #lesson.-flash { border-top: solid $warning; }
    TutorialScreen.-ascii #lesson { border-top: ascii $primary; }
    TutorialScreen.-ascii #lesson.-flash { border-top: ascii $warning; }
    TutorialScreen #lesson-text { color: $foreground; }
    TutorialScreen #nudge { color: $warning; text-style: bold; display: none; }
    TutorialScreen #nudge.-shown { display: block; }
    """

    def __init__(self, variant: str) -> None:
        session = tutorial_session(variant)
        super().__init__(session, LocalTable(session, keeps_history=False))  # practice
        self.tutor = Tutor(variant, session.match.options)
        self.helped = 0
        self._lesson_flash: Timer | None = None

    def compose_board(self) -> ComposeResult:
        with Vertical(id="board-column"):
            yield from super().compose_board()
            with Vertical(id="lesson"):
                yield Static(id="lesson-text")
                yield Static(id="nudge")

    def look(self) -> Look:
        """What the tutor sees now."""
        return self.tutor.observe(self.local, self.sel, self.helped)

    def show_hint(self) -> None:
        super().show_hint()
        self.tutor.see(self.look())
        self.show_lesson()

    def show_lesson(self) -> None:
        """The box: the lesson's number, what to do and why; why a key was refused."""
        boxes = self.query("#lesson")
        if not boxes:
            return
        box = boxes.first(Vertical)
        box.border_title = self.tutor.head()
        text, nudge = self.tutor.words()
        if self.has_class("-ascii"):
            text, nudge = key_words(text), key_words(nudge)
        box.query_one("#lesson-text", Static).update(Text(text))
        shown = box.query_one("#nudge", Static)
        shown.update(Text(nudge))
        shown.set_class(bool(nudge), "-shown")

    def lets(self, action: str) -> bool:
        """Whether the lesson given lets ``action`` through; if not, the box says why."""
        if self.tutor.allows(action, self.look()):
            return True
        self.show_lesson()
        box = self.query_one("#lesson", Vertical)
        box.add_class("-flash")
        if self._lesson_flash is not None:
            self._lesson_flash.stop()
        self._lesson_flash = self.set_timer(0.8, lambda: box.remove_class("-flash"))
        return False

    # -- every key that acts at the table asks the tutor first -----------------------------------

    def action_play(self) -> None:
        if self.session.state.is_over or self.lets("play"):
            super().action_play()

    def action_draw(self) -> None:
        if self.lets("draw"):
            super().action_draw()

    def action_pass_turn(self) -> None:
        if self.lets("pass"):
            super().action_pass_turn()

    def action_rotate(self) -> None:
        if self.lets("rotate"):
            super().action_rotate()

    def action_close_arm(self) -> None:
        if self.lets("close"):
            super().action_close_arm()

    def action_mark(self) -> None:
        if self.lets("mark"):
            super().action_mark()

    def action_pick(self, n: int) -> None:
        if self.lets("tile"):
            super().action_pick(n)

    def action_step(self, what: str, delta: int) -> None:
        if not isinstance(self.focused, HandView) or self.lets(what):  # what: tile, place
            super().action_step(what, delta)

    def action_hint(self) -> None:
        if self.lets("hint"):
            super().action_hint()

    def action_take_back(self) -> None:
        if self.lets("take_back"):
            super().action_take_back()

    def action_help(self, at: str | None = None) -> None:
        self.lets("help" if at is None else "legend")  # never refused
        if at is None:
            self.helped += 1
        super().action_help(at)
        self.show_hint()

    def on_hand_view_tile_clicked(self, message: HandView.TileClicked) -> None:
        # (TableScreen's own handler runs after this one, unless it is prevented)
        same = message.index == self.sel.tile_index and self.sel.current_place() is not None
        if not self.lets("play" if same else "tile"):
            message.prevent_default()

    def on_board_view_place_clicked(self, message: BoardView.PlaceClicked) -> None:
        if not self.lets("play" if message.key == self.sel.place_index else "place"):
            message.prevent_default()

    # -- the end ---------------------------------------------------------------------------------

    def round_summary(self) -> RoundSummary:
        # TRANSLATORS: the button of the tutorial's round summary: the tutorial is over
        return RoundSummary(self.local, next_label=_("Back to the menu"))

    def _after_summary(self, result: object = None) -> None:
        if result == "look":
            super()._after_summary(result)
            return
        self.app.pop_screen()  # the round is the lesson: back to the menu
        # TRANSLATORS: a notice after the tutorial's round
        self.app.notify(_("Tutorial over. New game (n) starts a match; ? on any screen "
                          "shows the rules."), title=_("Learn to play"), timeout=8)


class TutorialChooser(ModalScreen[str | None]):
    """Which game to learn."""

    BINDINGS = [
        # TRANSLATORS: the footer: back to the main menu
        Key("escape", "dismiss_none", "Back"),
    ]

    DEFAULT_CSS = """
    TutorialChooser { align: center middle; }
    TutorialChooser > Vertical {
        width: 52; height: auto; border: round $primary; background: $panel; padding: 0 1;
    }
    TutorialChooser OptionList, TutorialChooser OptionList:focus {
        height: auto; border: none; margin-top: 1;
    }
    """

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = _("Learn to play")
            # TRANSLATORS: above the tutorial's choice of game
            yield Static(_("A guided round on a fixed deal: the panel beside the table says "
                           "what to press, and why."))
            yield OptionList(
                Option(_("Classic dominoes (draw game)"), id="classic"),
                Option(_("Domino Spider"), id="spider"),
                Option(_("Triominos"), id="triominos"),
            )
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
