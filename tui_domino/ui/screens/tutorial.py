"""The first-game tutorial: a guided round of a variant on a fixed deal against the easy
computer. A lesson at the side of the table says what to press and why; it is done when the
player has done it (the tutor looks at the game after every key), and the next lesson comes
when its moment comes (drawing is taught when nothing fits). The round is the game's own, so
every rule holds; it is not kept in the history, nor saved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_domino import rules
from tui_domino.i18n import N_, _
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.local_table import LocalTable
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.session import COMPUTER, YOU, Seat, Session

# The deals: found by scripts/tutorial_deals.py so that, played as the lessons say, each
# moment of the lessons comes within the round (tests/ui/test_tutorial.py plays them).
DEALS: dict[str, int] = {"classic": 0, "spider": 6, "triominos": 2}
OPTIONS: dict[str, rules.Options] = {"triominos": {"hand_size": 9}}  # a round of minutes


@dataclass(frozen=True)
class Look:
    """What the tutor sees of the game at a moment."""

    my_turn: bool = False
    tile: int | None = None
    place: int | None = None
    places: int = 0  # places for the chosen tile
    playable: int = 0  # tiles of the hand that fit
    can_draw: bool = False
    several: bool = False  # spider: a turn of doubles on several arms is possible
    can_close: bool = False
    close: bool = False
    laid: int = 0  # the player's moves that laid tiles
    drawn: int = 0
    doubles: int = 0  # spider: the player's turns of several doubles
    helped: int = 0
    over: bool = False

    @classmethod
    def of(cls, screen: TutorialScreen) -> Look:
        s = screen.session
        state = s.state
        mine = [r["move"] for r in state.history if r["player"] == s.viewer]
        sel = screen.sel
        my_turn = s.is_human_turn() and not state.is_over
        legal = sel.legal if my_turn else []  # the screen's own list of this turn's moves
        cells = [m.cell for m in sel.move_places()] if s.variant == "triominos" else []
        return cls(
            my_turn=my_turn, tile=sel.tile_index, place=sel.place_index,
            places=(len(set(cells)) if cells else len(sel.places())) if my_turn else 0,
            playable=len(sel.playable()) if my_turn else 0,
            can_draw=any(m.kind == "draw" for m in legal),
            several=any(len(m.placements or ()) > 1 for m in legal),
            can_close=my_turn and sel.can_close(sel.current_place()), close=sel.close,
            laid=sum(1 for m in mine if m["kind"] == "place"),
            drawn=sum(1 for m in mine if m["kind"] == "draw"),
            doubles=sum(1 for m in mine if len(m.get("placements", ())) > 1),
            helped=screen.helped, over=state.is_over,
        )


@dataclass(frozen=True)
class Lesson:
    key: str
    text: str  # a message to translate
    ready: Callable[[Look], bool]  # its moment has come
    done: Callable[[Look, Look], bool]  # (when it was given, now): the player did it
    after: tuple[str, ...] = ()  # lessons to learn first


def _choose() -> Lesson:
    # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
    return Lesson("tile", N_("Your tiles are at the bottom; the ones that fit are bright. "
                             "Press → or ← to choose another tile."),
                  lambda lk: lk.my_turn and lk.playable >= 2,
                  lambda was, now: now.tile != was.tile)


def _play(text: str) -> Lesson:
    return Lesson("play", text, lambda lk: lk.my_turn and lk.places >= 1,
                  lambda was, now: now.laid > was.laid)


def _draw(text: str) -> Lesson:
    return Lesson("draw", text, lambda lk: lk.my_turn and lk.playable == 0 and lk.can_draw,
                  lambda was, now: now.drawn > was.drawn)


def _where(text: str) -> Lesson:
    return Lesson("where", text, lambda lk: lk.my_turn and lk.places >= 2,
                  lambda was, now: now.place != was.place or now.laid > was.laid)


def _rules() -> Lesson:
    # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
    return Lesson("rules", N_("? shows the rules and every key, at any time; Esc closes "
                              "them. Try it now."),
                  lambda lk: True, lambda was, now: now.helped > was.helped,
                  after=("tile", "play"))


LESSONS: dict[str, tuple[Lesson, ...]] = {
    "classic": (
        _choose(),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _play(N_("The marked place on the table shows where the chosen tile goes (its "
                 "number must match that end). Press ⏎ to lay it.")),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _where(N_("This tile fits both ends. ↑ or ↓ moves the marked place to the other "
                  "end; ⏎ lays it.")),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _draw(N_("Nothing of yours fits either end: press d to draw from the bazaar until "
                 "a tile fits.")),
        _rules(),
    ),
    "spider": (
        _choose(),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _play(N_("The spider has four arms, N, E, S and W, round the double in the centre. "
                 "The marked place fits your tile: ⏎ lays it.")),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _where(N_("This tile fits more than one arm: ↑ or ↓ moves to another; ⏎ lays it.")),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        Lesson("close", N_("A double may close its arm: nothing more goes there. Press c to "
                           "mark it closing (c again: not), then ⏎."),
               lambda lk: lk.can_close, lambda was, now: now.close or now.laid > was.laid),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        Lesson("doubles", N_("Doubles for different arms go in one turn: choose one, press "
                             "m, choose the next, then ⏎ lays them all."),
               lambda lk: lk.several, lambda was, now: now.doubles > was.doubles),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _draw(N_("Nothing fits an open arm: press d to draw until a tile fits.")),
        _rules(),
    ),
    "triominos": (
        _choose(),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _where(N_("The letters on the table are the places this tile fits: ↑ or ↓ moves "
                  "from one to the next. (Where it fits two ways, r turns it.)")),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _play(N_("Press ⏎ to lay it: you score its three numbers, and more for a bridge "
                 "or a hexagon.")),
        # TRANSLATORS: a tutorial lesson, in a panel 24 columns wide (about 8 lines at most)
        _draw(N_("Nothing fits anywhere: press d to draw a tile. Each draw costs 5 points.")),
        _rules(),
    ),
}

# TRANSLATORS: the tutorial's panel once every lesson is learned (24 columns wide)
PLAY_ON = {
    "classic": N_("You know the keys. Empty your hand first to win the round: you score "
                  "the pips left in the computer's hand."),
    "spider": N_("You know the keys. Points are bad here: go out first, and the computer "
                 "is charged the pips left in its hand."),
    "triominos": N_("You know the keys. Lay tiles for points; go out first for 25 more "
                    "and the value of the computer's hand."),
}


@dataclass
class Tutor:
    """The lessons of a variant: which is given now, which are learned."""

    variant: str
    learned: list[str] = field(default_factory=list)
    current: Lesson | None = None
    given: Look = field(default_factory=Look)
    look: Look = field(default_factory=Look)  # the latest

    @property
    def lessons(self) -> tuple[Lesson, ...]:
        return LESSONS[self.variant]

    def finished(self) -> bool:
        return len(self.learned) == len(self.lessons)

    def see(self, look: Look) -> None:
        """After every key: the lesson given done? then the next whose moment it is."""
        if self.current is not None and self.current.done(self.given, look):
            self.learned.append(self.current.key)
            self.current = None
        for lesson in self.lessons:
            if lesson.key in self.learned or not all(k in self.learned for k in lesson.after):
                continue
            if lesson.ready(look):
                if lesson is not self.current:
                    self.current, self.given = lesson, look
                return
        if self.current is not None and not self.current.ready(look):
            self.current = None  # its moment went by (the computer's turn): it comes back
        self.look = look

    def text(self) -> Text:
        """The panel: the lesson's number, then what to do and why."""
        head, body = self.words()
        return Text.assemble((head, "bold"), "\n\n", body)

    def words(self) -> tuple[str, str]:
        n = len(self.lessons)
        # TRANSLATORS: the tutorial panel's head: the lesson's number of all
        head = _("Lesson {n} of {all}").format(n=len(self.learned) + 1, all=n)
        if self.current is not None:
            return head, _(self.current.text)
        if self.finished():
            # TRANSLATORS: the tutorial panel's head once every lesson is learned
            return _("All {n} lessons learned").format(n=n), _(PLAY_ON[self.variant])
        if self.look.my_turn and self.look.playable and not self.look.places:
            # TRANSLATORS: the tutorial panel when a tile that fits nowhere is chosen
            wait = _("This tile fits nowhere now (it is dim): choose a bright one with → "
                     "or ←.")
        else:
            # TRANSLATORS: the tutorial panel while no lesson fits the moment (24 columns)
            wait = _("Play on: the next lesson comes when its moment does.")
        return head, wait


# The keys each lesson asks for: what a player who does as it says presses.
KEYS: dict[str, tuple[str, ...]] = {
    "tile": ("right",), "play": ("enter",), "where": ("down",), "draw": ("d",),
    "rules": ("question_mark", "escape"), "close": ("c",), "doubles": ("m", "enter"),
}


def obedient_keys(screen: TutorialScreen) -> tuple[str, ...]:
    """The keys a player who does what the lessons say presses now, on his turn: the
    lesson's, else the tile chosen laid, else another tile, a draw or a pass (how the deals
    were chosen and how the tests play them)."""
    lesson = screen.tutor.current
    if lesson is not None:
        return KEYS[lesson.key]
    if screen.sel.places():
        return ("enter",)
    if screen.sel.playable():
        return ("right",)  # a dim tile chosen: the next
    return ("d",) if screen.sel.can("draw") else ("p",)


class TutorialScreen(GameScreen):
    """A guided round: the game screen with the lesson in place of the recent moves."""

    DEFAULT_CSS = """
    TutorialScreen #log-title, TutorialScreen #log { display: none; }
    TutorialScreen #lesson {
        height: 1fr; margin-top: 1; padding: 0 1 0 0; color: $foreground;
    }
    """

    def __init__(self, variant: str) -> None:
        seats = [Seat(_(YOU)), Seat(_(COMPUTER), "computer", "easy")]
        session = Session.new(variant, seats, target=None, seed=DEALS[variant],
                              options=OPTIONS.get(variant), autosave=False)
        super().__init__(session, LocalTable(session, keeps_history=False))  # practice
        self.tutor = Tutor(variant)
        self.helped = 0

    def on_mount(self) -> None:  # before the table's own (Textual calls both)
        self.query_one("#side").mount(Static(id="lesson"))

    def show_hint(self) -> None:
        super().show_hint()
        self.tutor.see(Look.of(self))
        panel = self.query("#lesson")
        if panel:
            panel.first(Static).update(self.tutor.text(), layout=False)

    def action_help(self, at: str | None = None) -> None:
        self.helped += 1
        super().action_help(at)
        self.show_hint()

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
