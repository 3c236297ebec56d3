"""The coach: the hard player's search, asked for every move's expected points.

The coach sees what a seat sees, ``state.view(player)``, and nothing else: it ranks the legal
moves of that view by the points each is expected to bring, searched by the hard player's
ISMCTS (``search.ismcts``, ``search.classic_ismcts``) with a reward in points (``points=True``:
the round's points margin, not squashed, no match context). A move's *expected points* are
the mean, over the search's deals and its play after the move, of the round's final margin
for the viewer (classic and Triominos: his points less the other's; Spider, whose points are
charged: the other's charge less his), less the margin already on the table: what the rest
of the round is worth to him with that move. Triominos searches a few plies and values the
position as the hard player does, in points.

A judgement compares the move played with the best one; a loss of at least ``MARKS[variant]``
points is an inaccuracy or a mistake (docs/coach.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict, cast

import msgspec

from tui_domino import formats, i18n, rules
from tui_domino.ai import classic_search, search
from tui_domino.ai.inference import Knowledge, knowledge
from tui_domino.ai.simulation import VARIANTS, Sim, Variant, variant_of
from tui_domino.i18n import N_, _, ngettext, pgettext
from tui_domino.rules import places
from tui_domino.rules.places import ARM_NAMES
from tui_domino.rules.round import check_history
from tui_domino.rules.types import HistoryRecord, MoveJSON, PlacementJSON, SeatView

# What a hint or one move of a review may spend: iterations, and a wall-clock cap in ms.
HINT_ITERATIONS = {"classic": 60_000, "spider": 1200, "triominos": 1000}
HINT_MS = 280.0
PYTHON_CLASSIC_ITERATIONS = 4000  # the classic search without its compiled twin
# Playouts that value a forced move (the only legal one: nothing to compare, but its figure)
FORCED_PLAYOUTS = 200

# (inaccuracy, mistake): a choice that loses at least this many expected points, per variant.
MARKS: dict[str, tuple[float, float]] = {
    "classic": (4.0, 10.0),
    "spider": (4.0, 10.0),
    "triominos": (10.0, 25.0),
}


class RankedJSON(TypedDict):
    """``Ranked.to_json()``: what the worker process sends back and a review stores."""

    move: MoveJSON
    expected: float
    visits: int


class JudgementJSON(TypedDict):
    """``Judgement.to_json()``, as a round's review is kept in the history."""

    index: int
    move_no: int
    player: int
    played: MoveJSON
    expected: float
    best: MoveJSON
    best_expected: float
    loss: float
    mark: str
    ranked: list[RankedJSON]


@dataclass(frozen=True)
class Ranked:
    """A legal move and its expected points for the viewer (``visits``: the search's visits of
    it; 0 for a forced move valued by playouts)."""

    move: rules.Move
    expected: float
    visits: int

    def to_json(self) -> RankedJSON:
        return {"move": self.move.to_json(), "expected": round(self.expected, 2),
                "visits": self.visits}


def default_budget(variant: str, iterations: int | None = None,
                   ms: float | None = None) -> search.Budget:
    if iterations is None:
        iterations = HINT_ITERATIONS[variant]
        if variant == "classic" and not classic_search.native_available():
            iterations = PYTHON_CLASSIC_ITERATIONS
    return search.Budget(iterations, HINT_MS if ms is None else ms)


def _margin(var: Variant, points: list[int], me: int) -> float:
    return float(var.margin(list(points), me))


def rank(view: SeatView, rng: random.Random, budget: search.Budget | None = None,
         stop: Callable[[], bool] | None = None) -> list[Ranked]:
    """Every legal move of ``view`` (its viewer to move) with its expected points, best
    first. ``view`` must be a real view (``check_view`` for one from outside)."""
    var = variant_of(view)
    b = budget or default_budget(var.name)
    base = var.base_sim(view)
    legal = base.legal()
    know = knowledge(view)
    me = know.me
    now = _margin(var, base.points, me)
    scale = search.MARGIN_SCALE[var.name]
    if len(legal) == 1:
        return [Ranked(var.to_public(base, legal[0]), _forced_value(var, base, know, rng, now),
                       0)]
    # At least a few visits of every root move, whatever the budget says.
    its = max(b.iterations or 0, 8 * len(legal)) if b.iterations is not None else None
    b = search.Budget(its, b.ms)
    if var.name == "classic":
        model = search.opponent_model(var, know, view, rng)
        _m, stats = search.classic_ismcts(base, know, rng, b, stop, None, model, points=True)
    else:
        model = search.opponent_model(var, know, view, rng)
        _m, stats = search.ismcts(var, base, know, rng, b, stop, None,
                                  model.sample if model is not None else None, points=True)
    out = []
    for m in legal:
        n, r = stats.get(m, (0, 0.0))
        if n == 0:  # never tried (a search stopped at once): no figure to give
            continue
        out.append(Ranked(var.to_public(base, m), r * scale - now, n))
    out.sort(key=lambda x: (-x.expected, -x.visits))
    return out


def _forced_value(var: Variant, base: Sim, know: Knowledge, rng: random.Random,
                  now: float) -> float:
    """The expected points of the only legal move, by playouts over the consistent deals."""
    me = know.me
    scale = search.MARGIN_SCALE[var.name]
    if var.name == "triominos":
        value = search.triominos_value_fn(var, me, True)
    else:
        value = search.points_fn(var, me)
    playout = search.PLAYOUTS.get(var.name)
    move = base.legal()[0]
    total = 0.0
    for _playout in range(FORCED_PLAYOUTS):
        sim = base.clone()
        oh, bz = know.sample(rng)
        var.deal_hidden(sim, 1 - me, oh, bz)
        sim.play(move)
        if not sim.over:
            if playout is None:
                sim.playout(rng)
            else:
                playout(sim, rng)
        total += value(sim)
    return total / FORCED_PLAYOUTS * scale - now


def rank_json(view: SeatView, seed: int, iterations: int | None = None, ms: float | None = None,
              stop: Callable[[], bool] | None = None) -> list[RankedJSON]:
    """``rank`` as plain JSON (for the worker process and the command line)."""
    budget = default_budget(view["variant"], iterations, ms)
    return [r.to_json() for r in rank(view, random.Random(seed), budget, stop)]


# -- words --------------------------------------------------------------------------------------

# The words are marked for translation (N_) and translated where they are shown, _(word).
# A move is named as the table names it (``rules.places``): the tile as the hand shows it, and
# its place as the hint line says it: an end of the line, an arm by its name, a Triominos place
# by its letter among the places of that tile (and its turn there).
ARMS = ARM_NAMES
# A classic tile laid at an end of the line, or opening it.
ENDS = {
    # TRANSLATORS: a classic move as the coach names it: {tile} laid at the left end of the
    # line ("6-4"), in the words of the hint line's "⏎ play 6-4 on the left end".
    "left": N_("{tile} on the left end"),
    # TRANSLATORS: a classic move: {tile} laid at the right end of the line ("6-4").
    "right": N_("{tile} on the right end"),
    # TRANSLATORS: a move as the coach names it: {tile} laid first, opening the round (the
    # hint line's "⏎ play 6-6 to open the round").
    "center": N_("{tile} to open the round"),
}
# The marks of a judgement (``mark_of``; kept as they are in a review's record).
MARK_WORDS = {
    # TRANSLATORS: the coach's marks of a move that cost points: a mistake (the larger
    # loss) and an inaccuracy (the smaller).
    "mistake": N_("mistake"),
    "inaccuracy": N_("inaccuracy"),
}

Position = rules.RoundState | SeatView  # where a move is chosen: the round, or the chooser's view


def _tile(t: Iterable[int]) -> str:
    return "-".join(str(n) for n in t)


class Namer:
    """Names the moves of one position as the table names them: ``Namer(at)(move)``. ``at``
    is the round before the move (``RoundState``) or the view of the one to move; without it
    a Triominos place has no letter to give, and is named by its cell (row,column)."""

    def __init__(self, at: Position | None = None) -> None:
        self.legal: list[rules.Move] | None = None
        self.opening = False
        if isinstance(at, rules.RoundState):
            self.legal = at.legal_moves()
            self.opening = places.opening(at.history)
        elif at is not None:
            self.legal = rules.determinize(at, random.Random(0)).legal_moves()
            self.opening = places.opening(at["history"])

    def __call__(self, move: rules.Move | RankedJSON | MoveJSON | Ranked) -> str:
        if isinstance(move, Ranked):
            move = move.move
        elif isinstance(move, dict) and "expected" in move:
            move = cast(RankedJSON, move)["move"]
        d = move.to_json() if isinstance(move, rules.Move) else move
        kind = d.get("kind")
        if kind == "draw":
            # TRANSLATORS: a move, drawing a tile from the bazaar ("Ann: draw", "Best: draw").
            return pgettext("move", "draw")
        if kind == "pass":
            # TRANSLATORS: a move, passing the turn ("Ann: pass", "Best: pass").
            return pgettext("move", "pass")
        if "placements" in d:
            return " + ".join(self._arm(p) for p in d["placements"])
        tile = _tile(d.get("tile") or d.get("corners") or ())
        if "end" in d:
            end = ENDS.get(d["end"])
            if end is None:  # not an end of the game's
                return f"{tile} on the {d['end']}"
            return _(end).format(tile=tile)
        cell = d.get("cell") or (0, 0)
        if self.legal is None:
            # TRANSLATORS: a Triominos move named without its position: {tile} ("1-2-3")
            # laid on the board's cell {row},{col}.
            return _("{tile} at {row},{col}").format(tile=tile, row=cell[0], col=cell[1])
        named = places.triomino_place(rules.move_from_json("triominos", d), self.legal,
                                      self.opening)
        if named.letter is None:
            if named.turns > 1:
                # TRANSLATORS: a Triominos move as the coach names it: {tile} ("1-2-3") opens
                # the round, the {turn}th of the {turns} ways it can be turned (the hint
                # line's "⏎ play 1-2-3 to open the round, turn 2/3").
                return _("{tile} to open the round, turn {turn}/{turns}").format(
                    tile=tile, turn=named.turn, turns=named.turns)
            return _(ENDS["center"]).format(tile=tile)
        if named.turns > 1:
            # TRANSLATORS: a Triominos move as the coach names it: {tile} ("1-2-3") laid on
            # the place lettered {cell} on the board, turned the {turn}th of {turns} ways
            # (the hint line's "⏎ play 1-2-3 at b, turn 2/3").
            return _("{tile} at {cell}, turn {turn}/{turns}").format(
                tile=tile, cell=named.letter, turn=named.turn, turns=named.turns)
        # TRANSLATORS: a Triominos move as the coach names it: {tile} ("1-2-3") laid on the
        # place lettered {cell} on the board (the hint line's "⏎ play 1-2-3 at b").
        return _("{tile} at {cell}").format(tile=tile, cell=named.letter)

    @staticmethod
    def _arm(p: PlacementJSON) -> str:
        tile = _tile(p["tile"])
        if p["arm"] == "center":
            # TRANSLATORS: a Spider move as the coach names it: {tile} ("3-3") laid in the
            # centre (the hint line's "⏎ play 3-3 in the centre").
            return _("{tile} in the centre").format(tile=tile)
        arm = ARM_NAMES.get(p["arm"])
        name = _(arm) if arm else p["arm"]
        if p.get("close"):
            # TRANSLATORS: a Spider move as the coach names it: {tile} ("5-5") laid on the
            # arm {arm} (North, East, South, West), which it closes (the hint line's
            # "⏎ play 5-5 on the North arm and close it").
            return _("{tile} on the {arm} arm, closing it").format(tile=tile, arm=name)
        # TRANSLATORS: a Spider move as the coach names it: {tile} ("5-5") laid on the arm
        # {arm} (the hint line's "⏎ play 5-5 on the North arm").
        return _("{tile} on the {arm} arm").format(tile=tile, arm=name)


def describe(move: rules.Move | MoveJSON, at: Position | None = None) -> str:
    """A move in a few words, as the table names it: "6-4 on the right end", "5-5 on the
    North arm, closing it", "1-2-3 at b, turn 2/3" (``at``: the position it is chosen in, for
    a Triominos place's letter; ``Namer`` names many moves of one position)."""
    return Namer(at)(move)


def points_text(x: float) -> str:
    """Expected points with their sign, as the language writes a decimal: "+3.1"."""
    return i18n.decimal(x, sign=True)


def mark_word(mark: str) -> str:
    """A judgement's mark ("mistake", "inaccuracy") in the language in use."""
    word = MARK_WORDS.get(mark)
    return _(word) if word else mark


def _expected(r: Ranked | RankedJSON) -> float:
    return r.expected if isinstance(r, Ranked) else float(r["expected"])


def behind_text(loss: float) -> str:
    """What a move gives up against the best one, in the round's points (the final score
    difference between the player and the other), on average: "about 3 points less on
    average"; under half a point, "about as good on average"."""
    n = round(loss)
    if n <= 0:
        # TRANSLATORS: a move compared with the coach's best: on average it does as well
        # (within half a point of the round's score).
        return _("about as good on average")
    # TRANSLATORS: a move compared with the coach's best: on average the round ends about
    # {n} points worse for the player with it (his points less the other's).
    return ngettext("about {n} point less on average", "about {n} points less on average",
                    n).format(n=n)


def hint_line(ranked: Sequence[Ranked | RankedJSON], count: int = 3,
              at: Position | None = None) -> str:
    """The coach's hint, one line a move: "Best: 6-4 on the right end", then the next
    moves and what each gives up against it ("4-4 on the left end: about 3 points less on
    average"); ``at``: the position (``describe``)."""
    if not ranked:
        return ""
    name = Namer(at)
    best = _expected(ranked[0])
    # TRANSLATORS: the coach's best move ("Best: 6-4 on the left end").
    lines = [_("Best: {move}").format(move=name(ranked[0]))]
    for r in ranked[1:count]:
        # TRANSLATORS: one more move of the coach's hint and what it gives up against the
        # best one ("4-4 on the left end: about 3 points less on average").
        lines.append(_("{move}: {behind}").format(move=name(r),
                                                  behind=behind_text(best - _expected(r))))
    return "\n".join(lines)


def mark_of(variant: str, loss: float) -> str:
    """"mistake", "inaccuracy" or "" for a choice that lost ``loss`` expected points."""
    inaccuracy, mistake = MARKS[variant]
    if loss >= mistake:
        return "mistake"
    if loss >= inaccuracy:
        return "inaccuracy"
    return ""


# -- checking a view from outside ---------------------------------------------------------------

MAX_VIEW_BYTES = 1 << 20


class BadView(ValueError):
    """A view that is not one the engine could have given: the message says why."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_view(raw: object) -> SeatView:
    """``raw`` if it is a view the engine could have given (``state.view(p)``, its viewer to
    move), else BadView saying what is wrong: the view is made whole with the unseen tiles
    dealt arbitrarily (``rules.determinize``), the round read back with the engine's checks,
    its history replayed from the deal it implies, and the view of that state must be
    ``raw`` exactly (less an optional ``"match"``)."""
    if not isinstance(raw, dict):
        raise BadView("a view is a JSON object")
    variant = raw.get("variant")
    if variant not in rules.VARIANTS:
        raise BadView(f"unknown variant {variant!r}: one of {', '.join(rules.VARIANTS)}")
    for key in ("player", "hand", "hand_sizes", "bazaar_size", "history"):
        if key not in raw:
            raise BadView(f"the view has no {key!r}")
    if "hands" in raw or "bazaar" in raw:
        raise BadView("a view shows no hidden tiles ('hands', 'bazaar'): give state.view(p)")
    player, sizes = raw["player"], raw["hand_sizes"]
    if not _is_int(player) or player not in (0, 1):
        raise BadView("'player' must be 0 or 1")
    if not (isinstance(sizes, list) and len(sizes) == 2 and all(_is_int(n) and n >= 0
                                                                 for n in sizes)):
        raise BadView("'hand_sizes' must be two whole numbers")
    hand = raw["hand"]
    if not isinstance(hand, list) or not hand:
        raise BadView("'hand' must be a list of tiles, not empty")
    if not _is_int(raw["bazaar_size"]) or raw["bazaar_size"] < 0:
        raise BadView("'bazaar_size' must be a whole number")
    if not isinstance(raw["history"], list):
        raise BadView("'history' must be a list")
    if "match" in raw and search.match_context(raw) is None:
        raise BadView("'match' must be {\"totals\": [t0, t1], \"target\": T}")
    view = cast(SeatView, {k: v for k, v in raw.items() if k != "match"})
    if sizes[player] != len(hand):
        raise BadView("'hand_sizes' does not count the hand")
    unseen = sizes[1 - player] + raw["bazaar_size"]
    try:
        if len(rules.unseen_tiles(view)) != unseen:
            raise BadView("the tiles do not add up: the hand, the table, the other hand and "
                          "the bazaar must make the set once")
        state = rules.determinize(view, random.Random(0))
        _check_history(state)
        again = state.view(player)
    except BadView:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise BadView(f"not a position of the game: {exc}") from None
    except RecursionError:
        raise BadView("the view is nested too deeply") from None
    if again != view:
        diff = sorted(k for k in set(again) | set(view) if again.get(k) != view.get(k))
        raise BadView("not a view the game could show: it differs in "
                      f"{', '.join(repr(k) for k in diff)}")
    if state.is_over:
        raise BadView("the round is over: there is no move to choose")
    if state.to_move != player:
        raise BadView(f"it is not player {player}'s turn (player {state.to_move} is to move)")
    return cast(SeatView, dict(raw))


def _check_history(state: rules.RoundState) -> None:
    """The form of every record of a view's history (who, a move, its events), and, when no
    draw's tile is hidden in it, the engine's own replay of it from the deal it implies."""
    hidden_draw = False
    for n, rec in enumerate(state.history, 1):
        if not isinstance(rec, dict) or rec.get("player") not in (0, 1) or isinstance(
                rec.get("player"), bool):
            raise BadView(f"move {n} of the history is not a record of a player's move")
        move = rules.move_from_json(state.variant, rec.get("move"))
        events = rec.get("events")
        if not isinstance(events, list) or not all(
                isinstance(e, dict) and e.get("player") in (0, 1) and _is_int(e.get("points"))
                for e in events):
            raise BadView(f"move {n} of the history has no list of events")
        if move.kind == "draw" and "tile" not in rec:
            hidden_draw = True
    if hidden_draw or not state.history or state.variant == "spider":
        return
    # Replayed from the deal it implies, led by whoever moved first: the opening rule is not
    # checked (who held the highest double depends on the tiles made up for the other hand;
    # Spider's opener likewise, so its history is checked for form alone).
    d = state.to_json()
    d["leader"] = state.history[0]["player"]
    check_history(rules.state_from_json(d))


# -- judging a round ----------------------------------------------------------------------------


@dataclass
class Judgement:
    """The coach's judgement of one choice: move ``index`` (0-based in the round's history) of
    ``player``, the move played and its expected points, the best one and its, the points lost
    and the mark; ``ranked`` the best moves (as JSON, with their figures)."""

    index: int
    player: int
    played: MoveJSON
    expected: float
    best: MoveJSON
    best_expected: float
    loss: float
    mark: str
    ranked: list[RankedJSON]

    def to_json(self) -> JudgementJSON:
        return {"index": self.index, "move_no": self.index + 1, "player": self.player,
                "played": self.played, "expected": round(self.expected, 2),
                "best": self.best, "best_expected": round(self.best_expected, 2),
                "loss": round(self.loss, 2), "mark": self.mark, "ranked": self.ranked[:5]}

    @classmethod
    def from_json(cls, d: JudgementJSON) -> Judgement:
        """Reads back ``to_json()``; ValueError (msgspec's, saying what is wrong and where)
        for anything else."""
        j = msgspec.convert(d, formats.Judgement)
        return cls(j.index, j.player, cast(MoveJSON, msgspec.to_builtins(j.played)),
                   j.expected, cast(MoveJSON, msgspec.to_builtins(j.best)), j.best_expected,
                   j.loss, j.mark, cast(list[RankedJSON], msgspec.to_builtins(j.ranked)))


def move_seed(index: int) -> int:
    """The search's seed for move ``index`` of a round: the same for every record of the round
    (it depends on nothing hidden)."""
    return random.Random(f"tui-domino-coach/{index}").getrandbits(32)


def judge(view: SeatView, index: int, played: MoveJSON, ranked: list[RankedJSON]
          ) -> Judgement | None:
    """The judgement of ``played`` at move ``index`` from the search's ``ranked`` figures
    (None when the move played has no figure: a search stopped before it was tried)."""
    variant = view["variant"]
    key = rules.move_from_json(variant, played)
    mine = next((r for r in ranked if rules.move_from_json(variant, r["move"]) == key), None)
    if mine is None or not ranked:
        return None
    best = ranked[0]
    loss = max(0.0, float(best["expected"]) - float(mine["expected"]))
    return Judgement(index, view["player"], key.to_json(), float(mine["expected"]),
                     best["move"], float(best["expected"]), loss,
                     mark_of(variant, loss), ranked)


def choices(state: rules.RoundState, moves: Sequence[HistoryRecord],
            seats: tuple[int, ...] = (0, 1)) -> list[tuple[int, SeatView, MoveJSON]]:
    """The choices of ``seats`` in a round: (index, the player's view then, the move played),
    for every move made with more than one legal move, replaying ``moves`` (the history's
    records) from ``state`` (the round as dealt, which is not changed)."""
    replay = state.clone()
    out = []
    for i, rec in enumerate(moves):
        p = replay.to_move
        if p in seats and len(replay.legal_moves()) > 1:
            out.append((i, replay.view(p), rec["move"]))
        replay.apply(rec["move"])
    return out


def review_round(state: rules.RoundState, moves: Sequence[HistoryRecord],
                 seats: tuple[int, ...] = (0, 1), iterations: int | None = None,
                 ms: float | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 stop: Callable[[], bool] | None = None) -> list[Judgement]:
    """Every choice of ``seats`` in a round judged from the chooser's view at that moment."""
    todo = choices(state, moves, seats)
    out = []
    for k, (i, view, played) in enumerate(todo):
        if stop is not None and stop():
            break
        ranked = rank_json(view, move_seed(i), iterations, ms, stop)
        j = judge(view, i, played, ranked)
        if j is not None:
            out.append(j)
        if progress is not None:
            progress(k + 1, len(todo))
    return out


def margin_of(variant: str, points: Sequence[int], player: int) -> int:
    """The round's final score difference for ``player``, the scale of the coach's figures:
    his points less the other's (Spider, whose points are charged: the other's less his)."""
    return VARIANTS[variant].margin(list(points), player)


def result_text(margin: int, name: str | None = None) -> str:
    """How the round ended for the player of this terminal (or ``name``), on the scale of the
    coach's figures: "You ended the round 8 points behind"."""
    n = abs(margin)
    if name is None:
        if margin < 0:
            # TRANSLATORS: the coach's review: the round's final score difference, the
            # player's points less the other's ({n} a whole number)
            text = ngettext("You ended the round {n} point behind.",
                            "You ended the round {n} points behind.", n)
        elif margin > 0:
            text = ngettext("You ended the round {n} point ahead.",
                            "You ended the round {n} points ahead.", n)
        else:
            text = _("You ended the round level.")
    elif margin < 0:
        # TRANSLATORS: as "You ended the round {n} points behind.", for the player {name}
        text = ngettext("{name} ended the round {n} point behind.",
                        "{name} ended the round {n} points behind.", n)
    elif margin > 0:
        text = ngettext("{name} ended the round {n} point ahead.",
                        "{name} ended the round {n} points ahead.", n)
    else:
        text = _("{name} ended the round level.")
    return text.format(n=n, name=name)


def summary(judgements: list[Judgement], player: int, who: str = "your", *,
            name: str | None = None, margin: int | None = None) -> str:
    """The coach's word on a round for the player of this terminal (or the player ``name``),
    in the language in use: how it ended (``margin``, his final score difference, when given)
    and how much better it would have ended, on average, had he played the coach's move at
    each choice: "You ended the round 8 points behind. With the coach's moves you would have
    ended about 25 points better on average (most at move 7)."
    ``who`` is the older way to say whose: "your", or a name's possessive ("Ann's")."""
    if name is None and who != "your":
        name = who.removesuffix("'s")
    parts = [] if margin is None else [result_text(margin, name)]
    mine = [j for j in judgements if j.player == player]
    if not mine:
        if name is None:
            # TRANSLATORS: the coach's review of a round where the player had no choice to
            # make (every move was forced).
            parts.append(_("You had no choice to make this round."))
        else:
            # TRANSLATORS: the coach's review of a round where the player {name} had no
            # choice to make (every move was forced).
            parts.append(_("{name} had no choice to make this round.").format(name=name))
        return " ".join(parts)
    cost = sum(j.loss for j in mine)
    worst = max(mine, key=lambda j: j.loss)
    n = round(cost)
    move = worst.index + 1
    if n < 1 or worst.loss < 0.5:
        if name is None:
            # TRANSLATORS: the coach's review of a round where every move the player chose
            # did as well as the coach's best, on average (within half a point each).
            text = _("You chose as well as the coach every time.")
        else:
            # TRANSLATORS: as "You chose as well as the coach every time.", for {name}
            text = _("{name} chose as well as the coach every time.")
    elif name is None:
        # TRANSLATORS: the coach's review of a round, after "You ended the round 8 points
        # behind.": had the player made the coach's move at each choice, he would have ended
        # the round with a score difference (his points less the other's) about {n} points
        # better on average; {move} is the number of the move that made the biggest
        # difference.
        text = ngettext("With the coach's moves you would have ended about {n} point better "
                        "on average (most at move {move}).",
                        "With the coach's moves you would have ended about {n} points better "
                        "on average (most at move {move}).", n)
    else:
        # TRANSLATORS: as "With the coach's moves you would have ended …", for {name}
        text = ngettext("With the coach's moves {name} would have ended about {n} point "
                        "better on average (most at move {move}).",
                        "With the coach's moves {name} would have ended about {n} points "
                        "better on average (most at move {move}).", n)
    parts.append(text.format(n=n, move=move, name=name))
    return " ".join(parts)


__all__ = ["MARKS", "BadView", "Judgement", "Namer", "Ranked", "behind_text", "check_view",
           "choices", "describe", "hint_line", "judge", "margin_of", "mark_of", "mark_word",
           "points_text", "rank", "rank_json", "result_text", "review_round", "summary"]
