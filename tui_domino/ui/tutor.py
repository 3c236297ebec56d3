"""The tutorial's lessons and the tutor who gives them. No Textual here: the tutorial's screen
(``ui/screens/tutorial.py``) asks the tutor before a key acts and shows what it says.

A lesson teaches one thing a player does at the table: a key (→, ↑↓, r, c, m, d, ?) and the
move it leads to (a tile laid at another end, an arm closed, doubles laid together, a bridge,
a hexagon, a blocked round). It is given when its moment comes (drawing when nothing fits, a
bridge when one can be laid). While it is given, only what it teaches is let through: any
other key gets a short word of why, and the lesson stays. It is learned when the game shows
that the player did it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tui_domino import rules
from tui_domino.i18n import N_, _
from tui_domino.ui.selection import Selection
from tui_domino.ui.session import Session, tile_text

# What a key does at the table, as the tutor hears of it before it acts: "tile" (← →, a
# digit, a click on a tile), "place" (↑ ↓, a click on a place), "rotate" (r), "close" (c),
# "mark" (m), "play" (⏎, a click on the chosen place), "draw" (d), "pass" (p), "hint" (h),
# "take_back" (u), "help" (?) and "legend" (g). The help is never refused (nor is Esc, which
# leaves the table and is not asked about).
FREE = frozenset({"help", "legend"})

# The bonus moves a lesson may teach, per variant: the reasons of their points.
AIMS: dict[str, tuple[str, ...]] = {
    "classic": ("blocked",), "spider": (), "triominos": ("bridge", "hexagon"),
}


@dataclass(frozen=True)
class Look:
    """What the tutor sees of the game at a moment."""

    my_turn: bool = False
    tile: int | None = None
    place: int | None = None
    places: int = 0  # places for the chosen tile
    playable: int = 0  # tiles of the hand that fit
    can_draw: bool = False
    rotations: int = 0  # triominos: the ways the chosen tile lies at the chosen place
    several: bool = False  # spider: a turn of doubles on several arms is possible
    can_close: bool = False  # spider: the chosen place is a double on an arm
    close: bool = False  # spider: it is marked closing
    pending: int = 0  # spider: the doubles added to this turn (m)
    built: int = 0  # spider: the tiles ⏎ would lay now
    laid: int = 0  # the player's moves that laid tiles
    drawn: int = 0
    closed: int = 0  # spider: the arms the player closed
    doubles: int = 0  # spider: the player's turns of several doubles
    bridges: int = 0  # triominos: the player's moves that made a bridge
    hexagons: int = 0
    blocked: bool = False  # classic: the player's move blocked the round, and he won it
    helped: int = 0
    over: bool = False
    # A move of the player's that scores each aim (AIMS) now, and its words: the tile, and
    # in Triominos the letter of its place on the table while that tile is chosen.
    offers: Mapping[str, rules.Move] = field(default_factory=dict)
    offer_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    chosen: frozenset[str] = frozenset()  # the aims ⏎ would score now


def _aims_of(state: rules.RoundState, move: rules.Move, variant: str) -> frozenset[str]:
    """The aims (AIMS) that ``move`` of the player to move would score."""
    player = state.to_move
    after = state.clone()
    events = after.apply(move)
    got = {e.reason for e in events if e.player == player and e.points > 0}
    return frozenset(got & set(AIMS[variant]))


@dataclass(frozen=True)
class Lesson:
    key: str
    text: str  # a message to translate; {tile} {cell} {points} are filled in
    ready: Callable[[Look], bool]  # its moment has come
    done: Callable[[Look, Look], bool]  # (when it was given, now): the player did it
    does: frozenset[str]  # the actions it teaches (FREE ones always go)
    nudge: str  # a message: said when another action is tried
    play_when: Callable[[Look, frozenset[str]], bool] | None = None  # ⏎ only once it holds
    early: str = ""  # a message: said when ⏎ comes before that
    after: tuple[str, ...] = ()  # lessons to learn first
    aim: str = ""  # the bonus whose move it teaches: its tile and place fill the text
    points: Callable[[rules.Options], int] | None = None  # fills {points}
    text_right: str = ""  # classic: the text when the aim's move goes on the right end

    def text_for(self, look: Look) -> str:
        offer = look.offers.get(self.aim)
        if self.text_right and offer is not None and offer.end == "right":
            return self.text_right
        return self.text


# -- the lessons ---------------------------------------------------------------------------------

def _laid(was: Look, now: Look) -> bool:
    return now.laid > was.laid


def _choose(text: str) -> Lesson:
    return Lesson("tile", text, lambda lk: lk.my_turn and lk.playable >= 2,
                  lambda was, now: now.tile != was.tile, frozenset({"tile"}),
                  # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
                  N_("Not yet: first press → or ← to choose another tile."))


def _play(text: str) -> Lesson:
    return Lesson("play", text, lambda lk: lk.my_turn and lk.places >= 1, _laid,
                  frozenset({"play"}),
                  # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
                  N_("Not yet: press ⏎ to lay the chosen tile where it is marked."))


def _where(text: str, nudge: str, early: str) -> Lesson:
    return Lesson("where", text, lambda lk: lk.my_turn and lk.places >= 2, _laid,
                  frozenset({"place", "play"}), nudge,
                  lambda lk, steps: "place" in steps, early)


def _draw(text: str, nudge: str, points: Callable[[rules.Options], int] | None = None
          ) -> Lesson:
    return Lesson("draw", text, lambda lk: lk.my_turn and lk.playable == 0 and lk.can_draw,
                  lambda was, now: now.drawn > was.drawn, frozenset({"draw"}), nudge,
                  points=points)


def _rules(after: tuple[str, ...]) -> Lesson:
    # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
    return Lesson("rules", N_("? shows the rules and every key, at any time; Esc closes "
                              "them. Try it now."),
                  lambda lk: True, lambda was, now: now.helped > was.helped,
                  frozenset({"help"}),
                  # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
                  N_("Not yet: press ? first; Esc brings you back here."), after=after)


def _aim(key: str, text: str, nudge: str, early: str, done: Callable[[Look, Look], bool],
         points: Callable[[rules.Options], int] | None = None, text_right: str = "",
         after: tuple[str, ...] = ()) -> Lesson:
    """A lesson that teaches a bonus move: its moment is when one can be made, and ⏎ goes
    only with such a move chosen."""
    return Lesson(key, text, lambda lk: key in lk.offers, done,
                  frozenset({"tile", "place", "play"}), nudge,
                  lambda lk, steps: key in lk.chosen, early, after=after, aim=key,
                  points=points, text_right=text_right)


LESSONS: dict[str, tuple[Lesson, ...]] = {
    "classic": (
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        _choose(N_("Your tiles are at the bottom; the ones that fit are bright. Press → or "
                   "← to choose another tile.")),
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        _play(N_("The marked place on the table shows where the chosen tile goes (its "
                 "number must match that end). Press ⏎ to lay it.")),
        _where(
            # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
            N_("This tile fits both ends. ↑ or ↓ moves the marked place to the other end; "
               "⏎ lays it."),
            # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
            N_("Keep this tile for now: ↑ or ↓ moves its mark to the other end."),
            # TRANSLATORS: the tutorial, on ⏎ before the lesson's key (2 lines at most)
            N_("First move the mark to the other end with ↑ or ↓; then ⏎ lays the tile "
               "there.")),
        _draw(
            # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
            N_("Nothing of yours fits either end: press d to draw from the bazaar until a "
               "tile fits."),
            # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
            N_("Nothing of yours fits: press d to draw from the bazaar.")),
        _rules(after=("tile", "play")),
        _aim("blocked",
             # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most);
             # {tile} is a tile such as 5-3
             N_("{tile} on the left end blocks the round: then nobody can lay a tile or "
                "draw one, and the hand with fewer pips wins the difference. Yours has "
                "fewer: lay it there."),
             # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
             N_("Not yet: lay the tile that blocks the round, as the lesson says."),
             # TRANSLATORS: the tutorial, on ⏎ for another move than the lesson's (2 lines)
             N_("That move does not block the round: lay {tile} on the end the lesson "
                "names."),
             lambda was, now: now.blocked,
             # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most);
             # {tile} is a tile such as 5-3
             text_right=N_("{tile} on the right end blocks the round: then nobody can lay a "
                           "tile or draw one, and the hand with fewer pips wins the "
                           "difference. Yours has fewer: lay it there."),
             after=("tile", "play", "where", "draw", "rules")),  # it ends the round
    ),
    "spider": (
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        _choose(N_("Your tiles are at the bottom; the ones that fit are bright. Press → or "
                   "← to choose another tile.")),
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        _play(N_("The spider has four arms, N, E, S and W, round the double in the centre. "
                 "The marked place fits your tile: ⏎ lays it.")),
        _where(
            # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
            N_("This tile fits more than one arm: ↑ or ↓ moves to another; ⏎ lays it."),
            # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
            N_("Keep this tile for now: ↑ or ↓ moves its mark to another arm."),
            # TRANSLATORS: the tutorial, on ⏎ before the lesson's key (2 lines at most)
            N_("First move the mark to another arm with ↑ or ↓; then ⏎ lays the tile "
               "there.")),
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        Lesson("close", N_("A double may close its arm: nothing more goes there. Press c to "
                           "mark it closing (c again: not), then ⏎."),
               lambda lk: lk.can_close, lambda was, now: now.closed > was.closed,
               frozenset({"close", "place", "play"}),
               # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
               N_("Keep the double: press c to mark it closing, then ⏎."),
               lambda lk, steps: lk.close,
               # TRANSLATORS: the tutorial, on ⏎ before the lesson's key (2 lines at most)
               N_("The double does not close its arm yet: press c first, then ⏎.")),
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        Lesson("doubles", N_("Doubles for different arms go in one turn: choose one, press "
                             "m, choose the next, then ⏎ lays them all."),
               lambda lk: lk.several, lambda was, now: now.doubles > was.doubles,
               frozenset({"mark", "tile", "place", "close", "play"}),
               # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
               N_("Not yet: m adds the chosen double to the turn; choose the next, then "
                  "⏎."),
               lambda lk, steps: lk.built >= 2,
               # TRANSLATORS: the tutorial, on ⏎ before the lesson's key (2 lines at most)
               N_("That lays one double: press m to add it first, choose the next, then "
                  "⏎ lays them together.")),
        _draw(
            # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
            N_("Nothing fits an open arm: press d to draw until a tile fits."),
            # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
            N_("Nothing of yours fits an open arm: press d to draw.")),
        _rules(after=("tile", "play")),
    ),
    "triominos": (
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        _choose(N_("Your tiles are at the bottom; those that can be laid now are bright. "
                   "Press → or ← to choose another tile.")),
        # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
        Lesson("rotate", N_("You open the round: your tile goes in the middle, turned as you "
                            "like, and the next tiles must match its numbers. r turns it: "
                            "press r, then ⏎."),
               lambda lk: lk.my_turn and lk.rotations >= 2, _laid,
               frozenset({"rotate", "play"}),
               # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
               N_("Keep this tile: r turns it, then ⏎ lays it."),
               lambda lk, steps: "rotate" in steps,
               # TRANSLATORS: the tutorial, on ⏎ before the lesson's key (2 lines at most)
               N_("Turn the tile first: press r, look at its numbers, then ⏎.")),
        _where(
            # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most)
            N_("The letters on the table are the places this tile fits: ↑ or ↓ moves from "
               "one to the next, ⏎ lays it. A tile scores the sum of its three numbers."),
            # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
            N_("Keep this tile for now: ↑ or ↓ moves it from one letter to the next."),
            # TRANSLATORS: the tutorial, on ⏎ before the lesson's key (2 lines at most)
            N_("First move the tile to another letter with ↑ or ↓; then ⏎ lays it there.")),
        _aim("bridge",
             # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most);
             # {tile} is a tile such as 1-2-3, {cell} the letter of a place on the table,
             # {points} a number (written with its sign: no noun agrees with it)
             N_("A bridge: {tile} at {cell} touches the table along one side only, its far "
                "corner on a number already there: a bonus of +{points}. Choose it (→ ←), "
                "place {cell} (↑ ↓), ⏎."),
             # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
             N_("Not yet: choose {tile}, place {cell}, then ⏎ makes the bridge."),
             # TRANSLATORS: the tutorial, on ⏎ for another move than the lesson's (2 lines)
             N_("That is no bridge: choose {tile}, then place {cell}, then ⏎."),
             lambda was, now: now.bridges > was.bridges,
             points=lambda opts: opts.get("bridge_bonus", 40)),
        _aim("hexagon",
             # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most);
             # {tile} is a tile such as 1-2-3, {cell} the letter of a place on the table,
             # {points} a number (written with its sign: no noun agrees with it)
             N_("A hexagon: five tiles meet at a corner of place {cell}, and {tile} there is "
                "the sixth round it: a bonus of +{points}. Choose it (→ ←), place {cell} "
                "(↑ ↓), ⏎."),
             # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
             N_("Not yet: choose {tile}, place {cell}, then ⏎ closes the hexagon."),
             # TRANSLATORS: the tutorial, on ⏎ for another move than the lesson's (2 lines)
             N_("That is no hexagon: choose {tile}, then place {cell}, then ⏎."),
             lambda was, now: now.hexagons > was.hexagons,
             points=lambda opts: opts.get("hexagon_bonus", [50])[0]),
        _draw(
            # TRANSLATORS: a tutorial lesson, in a box 52 columns wide (4 lines at most);
            # {points} a number (written with its sign: no noun agrees with it)
            N_("Nothing fits anywhere: press d to draw a tile. Each draw scores "
               "−{points}."),
            # TRANSLATORS: the tutorial, on another key than the lesson's (2 lines at most)
            N_("Nothing of yours fits anywhere: press d to draw a tile."),
            points=lambda opts: opts.get("draw_penalty", 5)),
        _rules(after=("tile", "where")),
    ),
}

# TRANSLATORS: the tutorial's box once every lesson is learned (52 columns, 4 lines at most)
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
    """The lessons of a variant: which is given now, which are learned, and what the player
    was last told when a key was refused."""

    variant: str
    options: rules.Options = field(default_factory=lambda: rules.Options())
    learned: list[str] = field(default_factory=list)
    current: Lesson | None = None
    given: Look = field(default_factory=Look)
    look: Look = field(default_factory=Look)  # the latest
    steps: set[str] = field(default_factory=set)  # the actions let through for the lesson
    nudge: str = ""  # a message: why the last key was refused (until another goes through)
    _offers: tuple[object, dict[str, rules.Move]] | None = None  # (position, offers)

    @property
    def lessons(self) -> tuple[Lesson, ...]:
        return LESSONS[self.variant]

    def finished(self) -> bool:
        return len(self.learned) == len(self.lessons)

    # -- what the tutor sees ---------------------------------------------------------------------

    def observe(self, session: Session, sel: Selection, helped: int) -> Look:
        """The game as it stands: ``sel`` is the screen's choice, ``helped`` how many times
        the player opened the help."""
        state = session.state
        me = session.viewer
        mine = [r for r in state.history if r["player"] == me]
        moves = [r["move"] for r in mine]
        my_turn = session.is_human_turn() and not state.is_over
        legal = sel.legal if my_turn else []  # the screen's own list of this turn's moves
        offers = self._offers_now(state, legal) if my_turn else {}
        built = sel.build_move() if my_turn else None
        chosen = (_aims_of(state, built, self.variant)
                  if built is not None and offers else frozenset())
        cells = [m.cell for m in sel.move_places()] if session.variant == "triominos" else []
        words = {aim: (tile_text(m.tile or ()), sel.cell_label(m) if m.cell else "")
                 for aim, m in offers.items()}
        return Look(
            my_turn=my_turn, tile=sel.tile_index, place=sel.place_index,
            places=(len(set(cells)) if cells else len(sel.places())) if my_turn else 0,
            playable=len(sel.playable()) if my_turn else 0,
            can_draw=any(m.kind == "draw" for m in legal),
            rotations=sel.rotations_here() if my_turn else 0,
            several=any(len(m.placements or ()) > 1 for m in legal),
            can_close=my_turn and sel.can_close(sel.current_place()), close=sel.close,
            pending=len(sel.pending),
            built=len(built.placements or ()) if built is not None else 0,
            laid=sum(1 for m in moves if m["kind"] == "place"),
            drawn=sum(1 for m in moves if m["kind"] == "draw"),
            closed=sum(1 for m in moves for p in m.get("placements", ()) if p.get("close")),
            doubles=sum(1 for m in moves if len(m.get("placements", ())) > 1),
            bridges=sum(1 for r in mine if any(e["reason"] == "bridge" for e in r["events"])),
            hexagons=sum(1 for r in mine if any(e["reason"] == "hexagon"
                                                for e in r["events"])),
            blocked=(state.end_reason == "blocked" and state.winner == me
                     and bool(state.history) and state.history[-1]["player"] == me),
            helped=helped, over=state.is_over, offers=offers, offer_words=words,
            chosen=chosen,
        )

    def _offers_now(self, state: rules.RoundState, legal: list[rules.Move]
                    ) -> dict[str, rules.Move]:
        """For each aim of the variant, the first legal move that scores it (worked out once
        a position)."""
        if not AIMS[self.variant]:
            return {}
        position = (id(state), len(state.history), state.to_move)
        if self._offers is not None and self._offers[0] == position:
            return self._offers[1]
        offers: dict[str, rules.Move] = {}
        for move in legal:
            if move.kind != "place":
                continue
            for aim in _aims_of(state, move, self.variant):
                offers.setdefault(aim, move)
        self._offers = (position, offers)
        return offers

    # -- the lessons -----------------------------------------------------------------------------

    def allows(self, action: str, look: Look) -> bool:
        """Before a key acts: whether the lesson given lets ``action`` through (if not, the
        nudge says why, and the lesson stays)."""
        lesson = self.current
        if lesson is None or look.over or action in FREE:
            return True
        if action not in lesson.does:
            self.nudge = lesson.nudge
            return False
        if (action == "play" and lesson.play_when is not None
                and not lesson.play_when(look, frozenset(self.steps))):
            self.nudge = lesson.early or lesson.nudge
            return False
        self.steps.add(action)
        self.nudge = ""
        return True

    def see(self, look: Look) -> None:
        """After every key and move: the lesson given done? then, while none is given, the
        first whose moment it is."""
        lesson = self.current
        if lesson is not None and lesson.done(self.given, look):
            self.learned.append(lesson.key)
            self._give(None, look)
        elif lesson is not None and (look.over or not lesson.ready(look)):
            self._give(None, look)  # its moment went by (the computer's turn): it comes back
        if self.current is None and not look.over:
            for lesson in self.lessons:
                if lesson.key in self.learned or not all(k in self.learned
                                                         for k in lesson.after):
                    continue
                if lesson.ready(look):
                    self._give(lesson, look)
                    break
        self.look = look

    def _give(self, lesson: Lesson | None, look: Look) -> None:
        self.current, self.given = lesson, look
        self.steps = set()
        self.nudge = ""

    # -- what the player reads -------------------------------------------------------------------

    def fields(self, lesson: Lesson) -> dict[str, object]:
        """The values of a lesson's words: its move's tile and place, its points."""
        tile, cell = self.look.offer_words.get(lesson.aim, ("", ""))
        points = lesson.points(self.options) if lesson.points is not None else 0
        return {"tile": tile, "cell": cell, "points": points}

    def head(self) -> str:
        n = len(self.lessons)
        if self.finished():
            # TRANSLATORS: the tutorial box's title once every lesson is learned
            return _("All {n} lessons learned").format(n=n)
        if self.look.over:
            # TRANSLATORS: the tutorial box's title once the round is over before every
            # lesson came
            return _("Lessons learned: {k} of {n}").format(k=len(self.learned), n=n)
        # TRANSLATORS: the tutorial box's title: the lesson's number of all
        return _("Lesson {n} of {all}").format(n=len(self.learned) + 1, all=n)

    def words(self) -> tuple[str, str]:
        """What the box says now: the lesson (or what to do meanwhile), and why the last key
        was refused ("" when none was)."""
        lesson = self.current
        if lesson is not None:
            fields = self.fields(lesson)
            nudge = _(self.nudge).format(**fields) if self.nudge else ""
            return _(lesson.text_for(self.look)).format(**fields), nudge
        look = self.look
        if look.over:
            # TRANSLATORS: the tutorial's box on the final table, once the round is over
            return _("The round is over: ⏎ shows its summary again, and its button takes "
                     "you back to the menu."), ""
        if self.finished():
            return _(PLAY_ON[self.variant]), ""
        if look.my_turn and look.playable and not look.places:
            if self.variant == "triominos":
                # TRANSLATORS: the tutorial's box when a tile that can be laid nowhere is
                # chosen (Triominos)
                return _("This tile can be laid nowhere now (it is dim): choose a bright "
                         "one with → or ←."), ""
            # TRANSLATORS: the tutorial's box when a tile that fits nowhere is chosen
            return _("This tile fits nowhere now (it is dim): choose a bright one with → "
                     "or ←."), ""
        # TRANSLATORS: the tutorial's box while no lesson fits the moment
        return _("Play on: the next lesson comes when its moment does."), ""


# -- playing as the lessons say (the tests, and scripts/tutorial_deals.py) -------------------------

def _steer(sel: Selection, target: rules.Move) -> tuple[str, ...]:
    """The key towards ``target``: another tile, another place, or ⏎ once it is chosen."""
    if sel.current_tile() != target.tile:
        return ("right",)
    if sel.current_place() != target:
        return ("down",)
    return ("enter",)


def _doubles_keys(tutor: Tutor, sel: Selection) -> tuple[str, ...]:
    """A double with an arm chosen, m, the next one chosen (m moves on to it), ⏎."""
    if tutor.look.built >= 2:
        return ("enter",)
    place = sel.current_place()
    if sel.can_close(place):  # a double on an arm
        return ("m",)
    return ("right",)


_KEYS: dict[str, Callable[[Tutor, Selection], tuple[str, ...]]] = {
    "tile": lambda t, sel: ("right",),
    "play": lambda t, sel: ("enter",),
    "where": lambda t, sel: ("down",) if "place" not in t.steps else ("enter",),
    "rotate": lambda t, sel: ("r",) if "rotate" not in t.steps else ("enter",),
    "close": lambda t, sel: ("c",) if not t.look.close else ("enter",),
    "doubles": _doubles_keys,
    "draw": lambda t, sel: ("d",),
    "rules": lambda t, sel: ("question_mark", "escape"),
}


def obedient_keys(tutor: Tutor, sel: Selection) -> tuple[str, ...]:
    """The keys a player who does what the lessons say presses now, on his turn: the
    lesson's, else the tile chosen laid, else another tile, a draw or a pass (how the deals
    were chosen and how the tests play them)."""
    lesson = tutor.current
    if lesson is not None:
        target = tutor.look.offers.get(lesson.aim)
        if target is not None:
            return _steer(sel, target)
        return _KEYS[lesson.key](tutor, sel)
    if sel.places():
        return ("enter",)
    if sel.playable():
        return ("right",)  # a dim tile chosen: the next
    return ("d",) if sel.can("draw") else ("p",)
