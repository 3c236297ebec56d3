"""A match in play on this terminal: the rules' Match plus who sits in each seat.

No Textual here: the screens drive a Session, and a Session saves itself after every
move.
"""

from __future__ import annotations

import itertools
import random
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NotRequired, TypedDict

import msgspec

from tui_domino import ai, rules
from tui_domino.files import quarantine
from tui_domino.i18n import N_, _, ngettext, npgettext, pgettext
from tui_domino.rules.places import arm_letter
from tui_domino.terminal import login_name
from tui_domino.text import visible
from tui_domino.ui import storage
from tui_domino.ui.table import match_scores

if TYPE_CHECKING:
    from tui_domino import formats

# The games' names (translated where shown: _(VARIANT_TITLES[variant])).
VARIANT_TITLES = {
    "classic": N_("Classic dominoes"),
    "spider": N_("Domino Spider"),
    "triominos": N_("Triominos"),
}

# The bonuses of Triominos, told apart from a tile's own points in the log.
BONUSES = ("opening", "hexagon", "bridge")

# What points came from: the round summary's rows, and the bonuses in the log (translated
# where shown: _(REASON_WORDS[reason])).
REASON_WORDS = {
    # TRANSLATORS: a row of the round summary (at most 36 characters), as are the next ones
    "tile": N_("tiles played"),
    "opening": N_("opening bonus"),
    "hexagon": N_("hexagon"),
    "bridge": N_("bridge"),
    # TRANSLATORS: a row of the round summary: the points of drawing from the bazaar
    "draw": N_("drawing"),
    # TRANSLATORS: a row of the round summary: the points of passing
    "pass": N_("passing"),
    "domino": N_("going out"),
    "blocked": N_("blocked round"),
}


class SeatJSON(TypedDict):
    name: str
    kind: str
    level: str


class ChoiceJSON(TypedDict):
    """The tile and place chosen when the match was left for the menu (Continue chooses them
    again), and the position they belong to: the round and its number of moves."""

    round: int
    moves: int
    tile: list[int] | None
    place: int | None


class SaveJSON(TypedDict):
    """The saved match (storage.write_save adds its kind and format)."""

    seats: list[SeatJSON]
    match: rules.MatchJSON
    choice: NotRequired[ChoiceJSON]


def read_choice(raw: object) -> ChoiceJSON | None:
    """A saved choice as written by ``Session.leave``, else None (it is only a convenience:
    a choice that is not one is left out, the match read all the same)."""
    # lazy: start-up (the formats load with a saved match, the menu's start without one)
    from tui_domino import formats

    try:
        c = msgspec.convert(raw, formats.Choice)
    except msgspec.ValidationError:
        return None
    return ChoiceJSON(round=c.round, moves=c.moves, tile=c.tile, place=c.place)


@dataclass
class Seat:
    name: str
    kind: str = "human"  # "human" or "computer"
    level: str = ""  # a key of ai.PLAYERS for a computer

    def __post_init__(self) -> None:
        # A name may come from anyone (a duel's peer, a visitor, a save file): whatever
        # shows it, its control characters show as escapes.
        if isinstance(self.name, str):
            self.name = visible(self.name)

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    def label(self) -> str:
        return f"{self.name} ({self.level})" if self.is_computer else self.name


# The names the game gives when a player gives none: kept as they are in the settings (in
# English) and shown, and given to a new match's seats, in the language in use.
# TRANSLATORS: the player's name when he gives none (addresses him: "You win the match!")
YOU = N_("You")
# TRANSLATORS: the second person's name at a shared terminal when he gives none
GUEST = N_("Guest")
# TRANSLATORS: the computer player's name
COMPUTER = N_("Computer")


def shown_name(name: str) -> str:
    """A name as the game shows it: one of its own default names in the language in use."""
    return _(name) if name in (YOU, GUEST, COMPUTER) else name


def is_you(name: str) -> bool:
    """Whether a seat's name addresses the player ("You", in any language of the game's)."""
    folded = name.strip().casefold()
    return folded == "you" or folded == _(YOU).strip().casefold()


def duel_name(name: str) -> str:
    """The name a duel goes by: the player's own from Settings, but not "You" (the game's
    default, which would read on the other side as the opponent himself); else the login
    name; else "Player"."""
    name = name.strip()
    if name and not is_you(name):
        return name
    # TRANSLATORS: a duel's name for a player who gave none and has no login name (his
    # opponent reads it; a name, so capitalised)
    return login_name(_("Player"))


def two_people(first: str, second: str) -> list[Seat]:
    """The seats of two people at one terminal. "You" names nobody when both play here
    ("You's hand"), so it becomes "Player 1" or "Player 2"; equal names are told apart."""
    names = [shown_name(name.strip()) for name in (first, second)]
    for i, name in enumerate(names):
        if not name or is_you(name):
            # TRANSLATORS: the name of a person at a shared terminal who gave none
            names[i] = _("Player {number}").format(number=i + 1)
    if names[1] == names[0]:
        names[1] += " 2"
    return [Seat(names[0]), Seat(names[1])]


def count(n: int, word: str, plural: str = "") -> str:
    """``n`` and its noun in agreement: "1 tile", "2 tiles", "1 pip", "0 points" (English
    only: what a player reads is a whole sentence of ``ngettext``)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def agree(name: str, third: str, base: str) -> str:
    """A player's name and a verb in agreement: "Ann wins", but "You win" (English only:
    what a player reads is a whole sentence, one for "You", one for a name)."""
    return f"{name} {base if is_you(name) else third}"


def tile_text(tile: Iterable[int]) -> str:
    return "-".join(str(n) for n in tile)


class Session:
    """One match between two seats, saved after every move when ``autosave`` is on."""

    def __init__(self, match: rules.Match, seats: list[Seat], autosave: bool = True) -> None:
        self.match = match
        self.seats = seats
        self.autosave = autosave
        self._last_human = self.human_seats[0] if self.human_seats else 0
        self.choice: ChoiceJSON | None = None  # what was chosen when the match was left
        # (state, (moves, to move, over, viewer), view): the last view built
        self._view_cache: tuple[rules.RoundState, tuple[int | bool | None, ...],
                                rules.SeatView] | None = None

    # -- creating and restoring --------------------------------------------------------------

    @classmethod
    def new(
        cls,
        variant: str,
        seats: list[Seat],
        target: int | None = None,
        seed: int | None = None,
        options: rules.Options | None = None,
        autosave: bool = True,
    ) -> Session:
        match = rules.new_match(variant, target=target, seed=seed, options=options)
        session = cls(match, seats, autosave)
        session.save()
        return session

    def to_json(self) -> SaveJSON:
        out: SaveJSON = {
            "seats": [SeatJSON(name=s.name, kind=s.kind, level=s.level) for s in self.seats],
            "match": self.match.to_json()}
        if self.choice is not None and self.left_choice() is not None:
            out["choice"] = self.choice
        return out

    def leave(self, tile: tuple[int, ...] | None, place: int | None) -> None:
        """The player goes to the menu with ``tile`` and ``place`` chosen: they are kept,
        in the save too, for Continue (even after the game was closed)."""
        self.choice = ChoiceJSON(round=self.match.round_no, moves=len(self.state.history),
                                 tile=None if tile is None else list(tile), place=place)
        self.save()

    def left_choice(self) -> tuple[tuple[int, ...] | None, int | None] | None:
        """The tile and place chosen when the match was left at this very position."""
        c = self.choice
        if c is None or (c["round"], c["moves"]) != (self.match.round_no,
                                                     len(self.state.history)):
            return None
        return (None if c["tile"] is None else tuple(c["tile"]), c["place"])

    @classmethod
    def from_json(cls, d: SaveJSON, autosave: bool = True) -> Session:
        """The match saved as ``d`` (``to_json``); ValueError saying what is wrong: its
        shape (msgspec's words and where, "Expected `int`, got `str` - at
        `$.match.round.points[0]`"), or what the rules refuse in it."""
        # lazy: start-up (the formats load with a saved match, the menu's start without one)
        from tui_domino import formats

        return cls.from_saved(msgspec.convert(d, formats.SavedMatch), autosave)

    @classmethod
    def from_saved(cls, saved: formats.SavedMatch, autosave: bool = True) -> Session:
        """The match of a save read with its format; ValueError for what the rules refuse
        in it (a tile dealt twice, a move they refuse, a round unlike its history)."""
        seats = [Seat(s.name, s.kind, s.level) for s in saved.seats]
        for s in seats:
            if s.is_computer and s.level not in ai.NAMES:  # a level this version lacks
                s.level = ai.NAMES[0]
        match = rules.match_from_json(msgspec.to_builtins(saved.match))
        session = cls(match, seats, autosave)
        session.choice = read_choice(saved.choice)
        return session

    @classmethod
    def load_saved(cls) -> Session | None:
        """The saved match; None when there is none; storage.SaveError when unreadable."""
        saved = storage.read_save()
        if saved is None:
            return None
        try:
            return cls.from_saved(saved)
        except ValueError as exc:
            kept = quarantine(storage.save_path())
            raise storage.SaveError(
                # TRANSLATORS: {error} is the reason in English; {path} is a file's path
                _("The saved match could not be read ({error}). It was kept as {path}.")
                .format(error=exc, path=kept)
            ) from exc

    def save(self) -> None:
        if not self.autosave:
            return
        if self.match.is_over:
            storage.remove_save()
        else:
            storage.write_save(self.to_json())

    # -- who is who ----------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.match.variant

    @property
    def state(self) -> rules.RoundState:
        return self.match.round

    def scores(self) -> list[int]:
        """Each seat's match total, with the points of the round in play."""
        return match_scores(self.state, self.match)

    @property
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_computer]

    @property
    def hot_seat(self) -> bool:
        return len(self.human_seats) == 2

    @property
    def viewer(self) -> int:
        """Whose hand the screen shows: the human, or in a two-person game the one to move."""
        humans = self.human_seats
        if len(humans) == 1:
            return humans[0]
        if not humans:
            return 0
        tm = self.state.to_move
        if tm is not None:
            self._last_human = tm
        return self._last_human

    def is_human_turn(self) -> bool:
        tm = self.state.to_move
        return tm is not None and not self.seats[tm].is_computer

    def view(self) -> rules.SeatView:
        """The viewer's view of the round (read-only: it is shared until the next move; a
        redraw asks for it several times and building it copies the whole history)."""
        st = self.state
        key = (len(st.history), st.to_move, st.is_over, self.viewer)
        cached = self._view_cache
        if cached is not None and cached[0] is st and cached[1] == key:
            return cached[2]
        view = st.view(self.viewer)
        self._view_cache = (st, key, view)
        return view

    def name(self, player: int, viewer: int | None = None) -> str:
        return self.seats[player].name

    # -- playing -------------------------------------------------------------------------------

    def play(self, move: rules.Move | rules.MoveJSON) -> list[rules.ScoreEvent]:
        """Applies a move of the player to move (IllegalMove if illegal), then saves."""
        events = self.state.apply(move)
        self.save()
        return events

    def ai_rng(self) -> random.Random:
        return random.Random(f"{self.match.seed}/{self.match.round_no}/{len(self.state.history)}")

    def computer_move(self) -> rules.Move:
        """The computer's choice for the player to move (call from a worker thread)."""
        tm = self.state.to_move
        assert tm is not None
        choose = ai.PLAYERS[self.seats[tm].level]
        return choose(self.match.player_view(tm), self.ai_rng(), None)

    def computer_searches(self) -> bool:
        """Whether the computer to move thinks by searching (in a separate process)."""
        tm = self.state.to_move
        return tm is not None and self.seats[tm].level in ai.SEARCHING

    def take_back_index(self) -> int | None:
        """Where a take-back would rewind the round to: just before the last move of the
        one person at this table against the computer (None: nothing to take back, the
        round is over, or no computer plays here)."""
        humans = self.human_seats
        if len(humans) != 1 or self.state.is_over:
            return None
        me = humans[0]
        history = self.state.history
        return next((i for i in range(len(history) - 1, -1, -1)
                     if history[i]["player"] == me), None)

    def take_back(self) -> bool:
        """Takes back the person's last move and the computer's replies: the round is
        dealt again from its deal and replayed up to it (the deal is fixed, so the tiles
        to come stay the same: a draw taken back draws the same tile again). Then saves."""
        upto = self.take_back_index()
        if upto is None:
            return False
        # lazy: start-up (the history's records load with the first take-back)
        from tui_domino.history.records import RoundPlay, deal_of, leader_of, replay

        state = self.state
        try:
            rnd = RoundPlay(deal=deal_of(state), leader=leader_of(state), moves=state.history)
            self.match.round = replay(self.variant, rnd, state.options, upto=upto)
        except ValueError:  # a round not dealt by this game (a test's, a hand-made save)
            return False
        self._view_cache = None
        self.save()
        return True

    def next_round(self) -> None:
        self.match.next_round()
        self.save()

    # -- words ---------------------------------------------------------------------------------

    def describe(self, record: rules.HistoryRecord, viewer: int | None = None,
                 count: int = 1) -> str:
        """One line of the log for a history record (``describe_record``)."""
        return describe_record(self.variant, self.name, record, viewer, count)

    def log_lines(self, records: Iterable[rules.HistoryRecord], viewer: int | None = None,
                  describe: Callable[..., str] | None = None) -> list[str]:
        """The log's lines for ``records`` (``log_lines``)."""
        return log_lines(records, viewer, describe or self.describe)

    def round_lines(self) -> list[tuple[str, list[int], list[int]]]:
        """How this round's points came about: (what, [points of 0, points of 1],
        [how many times for 0, for 1]) rows, in the order they first happened."""
        rows: dict[str, tuple[list[int], list[int]]] = {}
        pips = [hand_pips(hand) for hand in self.state.hands]
        for rec in self.state.history:
            for e in rec["events"]:
                key = self._end_label(e, pips) or reason_words(e["reason"])
                pts, counts = rows.setdefault(key, ([0, 0], [0, 0]))
                pts[e["player"]] += e["points"]
                counts[e["player"]] += 1
        return [(k, p, c) for k, (p, c) in rows.items()]

    def _end_label(self, event: rules.ScoreEventJSON, pips: list[int]) -> str | None:
        """A short row name for the points of the round's end (None for other points): the
        hands are listed above the rows, so it gives their ``pips``, not their tiles."""
        reason, state = event["reason"], self.state
        if reason not in ("domino", "blocked") or state.winner is None:
            return None
        w = state.winner
        theirs, own = pips[1 - w], pips[w]
        if self.variant == "triominos":
            if reason == "domino":  # the bonus and the points left in the other hand
                # TRANSLATORS: a row of the round summary (at most 36 characters): the bonus
                # for going out plus the points left in the other hand, "25 + 9"
                return _("going out ({bonus} + {left} left in hand)").format(
                    bonus=event["points"] - theirs, left=theirs)
            if event["points"] > 0:  # the winner's: the other hand's value less his own
                # TRANSLATORS: a row of the round summary (at most 36 characters): the points
                # left in the other hand less the winner's, "31 - 12"
                return _("hands left ({theirs} - {own})").format(theirs=theirs, own=own)
            return reason_words("blocked")
        if reason == "blocked":
            if self.variant == "spider":
                # TRANSLATORS: a row of the round summary (at most 36 characters): Spider's
                # blocked round, with the pips the loser keeps
                return ngettext("fish ({n} pip in hand)", "fish ({n} pips in hand)",
                                theirs).format(n=theirs)
            # TRANSLATORS: a row of the round summary (at most 36 characters): the loser's
            # pips less the winner's, "31 - 12 pips"; the form follows the second number
            return ngettext("blocked round ({theirs} - {n} pip)",
                            "blocked round ({theirs} - {n} pips)", own).format(theirs=theirs,
                                                                               n=own)
        if self.variant == "spider" and state.hands[1 - w] == ((0, 0),) and event["points"]:
            # TRANSLATORS: a row of the round summary (at most 36 characters): the loser kept
            # only the 0-0, which counts {points}
            return _("going out (a lone 0-0: {points})").format(points=event["points"])
        # TRANSLATORS: a row of the round summary (at most 36 characters)
        return ngettext("going out ({n} pip left)", "going out ({n} pips left)",
                        theirs).format(n=theirs)


def saved_line(session: Session, offer: bool = True) -> str:
    """The saved match in one line: its game, round, and each player's name and points;
    ``offer``: as the menu offers it ("Continue: …"), else the match alone (a question about
    it: "Replace the saved match?")."""
    scores = " · ".join(f"{seat.name} {points}"
                        for seat, points in zip(session.seats, session.scores(), strict=True))
    game = _(VARIANT_TITLES[session.variant])
    if not offer:
        # TRANSLATORS: the saved match, under the question whether a new one replaces it;
        # {game} is the game's name, {scores} the players' names and points
        # ("Ann 12 · Computer 30").
        return _("{game}, round {round}: {scores}").format(
            game=game, round=session.match.round_no, scores=scores)
    # TRANSLATORS: the menu's line on the saved match; {game} is the game's name,
    # {scores} the players' names and points ("Ann 12 · Computer 30").
    return _("Continue: {game}, round {round}: {scores}").format(
        game=game, round=session.match.round_no, scores=scores)


def reason_words(reason: str) -> str:
    """What points came from (``REASON_WORDS``), in the language in use; an unknown reason
    as it is."""
    return _(REASON_WORDS[reason]) if reason in REASON_WORDS else reason


def describe_record(variant: str, name: Callable[[int], str], record: rules.HistoryRecord,
                    viewer: int | None = None, count: int = 1) -> str:
    """One line of the log for a history record; ``count`` records alike of unseen
    draws read as one line ("Computer drew 7 tiles")."""
    who = name(record["player"])
    move = record["move"]
    kind = move["kind"]
    if count > 1:
        record = rules.HistoryRecord(**record)
        record["events"] = [rules.ScoreEventJSON(**e) for e in record["events"]]
        for e in record["events"]:
            e["points"] *= count
    # The log's lines are short: 24 columns in the side panel, folded between words.
    if kind == "draw":
        if sees_drawn_tile(record, viewer):
            # TRANSLATORS: a line of the move log; {who} is a player's name as given (or
            # "You"), {tile} a tile such as 6-3. "{who}: …" spares a verb agreeing with it
            text = _("{who} drew {tile}").format(who=who, tile=tile_text(record["tile"]))
        elif count > 1:
            # TRANSLATORS: a line of the move log; {who} is a player's name as given
            text = (npgettext("triominos", "{who} drew {n} tile", "{who} drew {n} tiles", count)
                    if variant == "triominos"
                    else ngettext("{who} drew {n} tile", "{who} drew {n} tiles", count)
                    ).format(who=who, n=count)
        else:
            # TRANSLATORS: a line of the move log; {who} is a player's name as given
            text = (pgettext("triominos", "{who} drew a tile") if variant == "triominos"
                    else _("{who} drew a tile")).format(who=who)
    elif kind == "pass":
        # TRANSLATORS: a line of the move log; {who} is a player's name as given
        text = _("{who} passed").format(who=who)
    elif "placements" in move:
        parts = []
        for p in move["placements"]:
            tile = tile_text(p["tile"])
            if p["arm"] == "center":
                # TRANSLATORS: a tile of the move log laid on Spider's centre, "6-6 centre"
                parts.append(_("{tile} centre").format(tile=tile))
            elif p.get("close"):
                # TRANSLATORS: a double laid on an arm (N, E, S or W) that it closes,
                # "3-3 N closed"
                parts.append(_("{tile} {arm} closed").format(tile=tile,
                                                             arm=arm_letter(p["arm"])))
            else:
                parts.append(f"{tile} {arm_letter(p['arm'])}")
        text = f"{who}: " + ", ".join(parts)
    elif "end" in move:
        tile = tile_text(move["tile"])
        if move["end"] == "left":
            # TRANSLATORS: a line of the move log: a tile laid on the line's left end
            text = _("{who}: {tile} left").format(who=who, tile=tile)
        elif move["end"] == "right":
            # TRANSLATORS: a line of the move log: a tile laid on the line's right end
            text = _("{who}: {tile} right").format(who=who, tile=tile)
        else:
            text = f"{who}: {tile}"
    else:
        text = f"{who}: {tile_text(move['corners'])}"
    reasons = {e["reason"] for e in record["events"]}
    if variant != "spider":
        own = [e for e in record["events"] if e["player"] == record["player"]]
        scored = [e for e in own if e["reason"] not in BONUSES]
        mine = sum(e["points"] for e in scored)
        if mine or scored:  # (a 0-0-0 scores +0; a move that scores the other player nothing)
            text += f" {mine:+d}"
        # where the points came from: each bonus named with its points
        for reason in BONUSES:
            got = sum(e["points"] for e in own if e["reason"] == reason)
            if any(e["reason"] == reason for e in own):
                text += f", {reason_words(reason)} {got:+d}"
    if "domino" in reasons:
        # TRANSLATORS: after a move of the log: with it the player went out (played the
        # last tile), "Ann: 6-3 left +12 · out"
        text += " · " + pgettext("log", "out")
    elif "blocked" in reasons and variant == "spider":
        # TRANSLATORS: after a move of the log: with it Spider's round is blocked (a fish)
        text += " · " + pgettext("log", "fish")
    elif "blocked" in reasons:
        # TRANSLATORS: after a move of the log: with it the round is blocked
        text += " · " + pgettext("log", "blocked")
    return text


def log_lines(records: Iterable[rules.HistoryRecord], viewer: int | None,
              describe: Callable[..., str]) -> list[str]:
    """The log's lines for ``records`` (oldest first): a run of one player's draws that
    ``viewer`` did not see is one line."""
    out: list[str] = []
    for key, run in itertools.groupby(records, key=lambda r: unseen_draw(r, viewer)):
        runs = list(run)
        if key is None:
            out.extend(describe(r, viewer) for r in runs)
        else:
            out.append(describe(runs[0], viewer, count=len(runs)))
    return out


def hand_pips(hand: Iterable[Iterable[int]]) -> int:
    """A hand's pips (Triominos: its points), the sum of its tiles' numbers."""
    return sum(sum(t) for t in hand)


def sees_drawn_tile(record: rules.HistoryRecord, viewer: int | None) -> bool:
    """Whether the log shows ``viewer`` the tile a draw record drew (the drawer's own, or
    every tile when nobody is hidden from: ``viewer`` None)."""
    return "tile" in record and (viewer is None or viewer == record["player"])


def unseen_draw(record: rules.HistoryRecord, viewer: int | None) -> object:
    """For a draw whose tile ``viewer`` does not see, what it has in common with the draws
    alike before and after it (who drew, what it scored); None for any other record."""
    if record["move"]["kind"] != "draw" or sees_drawn_tile(record, viewer):
        return None
    events = tuple((e["player"], e["reason"], e["points"]) for e in record["events"])
    return record["player"], events


def fold(line: str, width: int) -> list[str]:
    """A log line in lines of ``width`` at most, broken between words (never inside a tile
    such as 5-4-5), the lines after the first indented."""
    return textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False) or [""]
