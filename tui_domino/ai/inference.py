"""What a player can infer about the opponent's hidden hand, and dealing hidden tiles to match.

Everything comes from the view: the unseen tiles (the opponent's hand and the bazaar together),
and the history. When the opponent draws or passes, he holds no tile that fits the open board
at that moment; the opening rule says which doubles (or triples) nobody held at the deal.

The opponent's hand is a list of *slots*, one per tile he holds, each acquired at some moment:
the deal or one of his draws. A slot held through a void event (a draw or a pass of his) cannot
hold a tile that fitted then; so each slot has an *exclusion mask* (the union of the fit masks
of the void events since it was acquired), and its complement within the unseen tiles is what
it may hold. Which slots he still holds is not always known (a tile he plays could come from
any slot), so the slots kept are the youngest possible ones: the played tile right after a draw
is the drawn one (nothing else fitted), and any other play is charged to the oldest slot that
could have held it (one that lived through no void event the tile fitted). The
allowed masks are then nested (older slots are more constrained), which gives two properties:

- sound: the true hidden hand always passes the masks (a test checks it over many games);
- sampling without rejection: filling the most constrained slots first never runs dry.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tui_domino.ai.simulation import VARIANTS, Variant
from tui_domino.rules import dominoes as D
from tui_domino.rules import triangle_grid as grid
from tui_domino.rules.options import resolve_options
from tui_domino.rules.round import board_tiles
from tui_domino.rules.triominos_sim import PATTERN_MASK as T_PATTERN_MASK
from tui_domino.rules.triominos_sim import TriominosSim
from tui_domino.rules.types import HistoryRecord, MoveJSON, SeatView


@dataclass
class Knowledge:
    """The viewer's knowledge of the hidden tiles."""

    variant: Variant
    me: int
    hidden: int  # mask: the unseen tiles (opponent's hand + bazaar)
    opp_size: int
    bazaar_size: int
    # (allowed mask, how many slots), most constrained first; the masks are nested.
    groups: list[tuple[int, int]] = field(default_factory=list)
    # Per group, the allowed tiles as a list (for sampling).
    group_tiles: list[list[int]] = field(default_factory=list, repr=False)
    # The unseen tiles, in increasing order.
    hidden_tiles: list[int] = field(default_factory=list, repr=False)

    @property
    def opp(self) -> int:
        return 1 - self.me

    def may_hold(self) -> int:
        """The tiles the opponent may hold (the loosest slot's mask)."""
        m = 0
        for mask, _n in self.groups:
            m |= mask
        return m

    def outside(self, opp_mask: int) -> list[int]:
        """The unseen tiles not in ``opp_mask``: the bazaar, if that is the opponent's hand
        (in increasing order, not a draw order)."""
        return [t for t in self.hidden_tiles if not opp_mask >> t & 1]

    def consistent(self, opp_mask: int) -> bool:
        """Whether ``opp_mask`` can be the opponent's hand under these masks."""
        if opp_mask & ~self.hidden or opp_mask.bit_count() != self.opp_size:
            return False
        # Nested masks: give each group, most constrained first, any of its allowed tiles;
        # the looser groups accept every tile of the tighter ones, so the choice is free.
        left = opp_mask
        for mask, n in self.groups:
            for _ in range(n):
                t = left & mask
                if not t:
                    return False
                left ^= t & -t
        return left == 0

    def sample(self, rng: random.Random) -> tuple[int, list[int]]:
        """A hidden deal consistent with the masks: (opponent's hand mask, bazaar tiles in a
        random draw order)."""
        chosen = 0
        for lst, (_mask, n) in zip(self.group_tiles, self.groups, strict=True):
            free = [t for t in lst if not chosen >> t & 1]
            if len(free) < n:  # inconsistent history: never happens for a real game
                free = self.outside(chosen)
            for t in rng.sample(free, n):
                chosen |= 1 << t
        bazaar = self.outside(chosen)
        rng.shuffle(bazaar)
        return chosen, bazaar


def _domino(tile: list[int]) -> tuple[int, int]:
    """The ``dominoes.INDEX`` key of a domino as the engine's JSON writes it."""
    a, b = sorted(tile)
    return (a, b)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# -- replaying the public board to know what fitted when -----------------------------------------


class _ClassicBoard:
    def __init__(self, view: SeatView) -> None:
        self.left = self.right = 7

    def play(self, move: MoveJSON) -> None:
        a, b = move["tile"]
        if move["end"] == "center" or self.left == 7:
            self.left, self.right = a, b
        elif move["end"] == "left":
            self.left = b if a == self.left else a
        else:
            self.right = b if a == self.right else a

    def fits(self) -> int:
        if self.left == 7:
            return D.FULL
        return D.NUM[self.left] | D.NUM[self.right]


class _SpiderBoard:
    ARM = {"N": 0, "E": 1, "S": 2, "W": 3}

    def __init__(self, view: SeatView) -> None:
        self.center: int | None = None
        self.ends = [7, 7, 7, 7]
        self.closed = [False] * 4

    def play(self, move: MoveJSON) -> None:
        for p in move["placements"]:
            a, b = p["tile"]
            if p["arm"] == "center":
                self.center = a
                self.ends = [a] * 4
                continue
            arm = self.ARM[p["arm"]]
            e = self.ends[arm]
            self.ends[arm] = b if a == e else a
            if p.get("close"):
                self.closed[arm] = True

    def fits(self) -> int:
        if self.center is None:
            return D.FULL
        m = 0
        for a in range(4):
            if not self.closed[a]:
                m |= D.NUM[self.ends[a]]
        return m


class _TriominosBoard:
    def __init__(self, view: SeatView) -> None:
        self.sim = TriominosSim(resolve_options("triominos", view.get("options")))

    def play(self, move: MoveJSON) -> None:
        r, c = move["cell"]
        x, y, z = move["corners"]
        self.sim.put(grid.key(r, c), x * 36 + y * 6 + z)

    def fits(self) -> int:
        m = 0
        for pat in self.sim.frontier.values():
            m |= T_PATTERN_MASK[pat]
        return m


_BOARDS: dict[str, type[_ClassicBoard] | type[_SpiderBoard] | type[_TriominosBoard]] = {
    "classic": _ClassicBoard,
    "spider": _SpiderBoard,
    "triominos": _TriominosBoard,
}


def _opening_exclusion(view: SeatView, first_tile: tuple[int, ...] | None) -> int:
    """Tiles nobody held at the deal, by the opening rule (0 when it says nothing)."""
    if first_tile is None:
        return 0
    variant = view["variant"]
    if variant == "classic":
        if view.get("leader") is not None:
            return 0
        a, b = first_tile
        if a == b:  # the highest double held: every higher double was in the bazaar
            return sum(1 << D.DOUBLE[n] for n in range(a + 1, 7))
        # no double at all, and nothing ranked above the lead
        r = D.rank(D.INDEX[(a, b)])
        higher = sum(1 << i for i in range(28) if D.rank(i) > r)
        return D.DOUBLES_MASK | higher
    if variant == "spider":
        a, _ = first_tile
        return sum(1 << D.DOUBLE[n] for n in range(1, a))
    # Triominos: a view does not say whether the opening rule applied (a previous winner
    # leads freely), so nothing is inferred from the lead.
    return 0


def _charge(slots: list[int], voids: list[int], tile: int) -> None:
    """Removes the slot a tile just placed by the opponent is charged to: the oldest slot that
    could have held it, one that lived through no void event the tile fitted. The truth is one
    of those slots, no older; charging the oldest possible one keeps the remaining slots at
    least as loose as the true ones (so the masks stay sound) while keeping every older slot's
    constraints, which charging the oldest slot of all would throw away."""
    held = 0  # union of the void events the slots from index i on lived through
    start = len(voids)
    for i in range(len(slots) - 1, -1, -1):
        while start > slots[i]:
            start -= 1
            held |= voids[start]
        if held & tile:  # slots i and older cannot have held it
            del slots[min(i + 1, len(slots) - 1)]
            return
    if slots:
        del slots[0]


def knowledge(view: SeatView) -> Knowledge:
    """The per-slot masks of the opponent's hand from ``view``'s history."""
    variant = VARIANTS[view["variant"]]
    me = view["player"]
    opp = 1 - me
    full = (1 << len(variant.tiles)) - 1
    seen = variant.mask_of(view["hand"])
    seen |= variant.mask_of(board_tiles(view))
    hidden = full & ~seen
    opp_size = view["hand_sizes"][opp]
    know = Knowledge(variant, me, hidden, opp_size, view["bazaar_size"])

    opts = resolve_options(view["variant"], view.get("options"))
    hand_size = opts["hand_size"]
    board = _BOARDS[view["variant"]](view)
    history: list[HistoryRecord] = view.get("history") or []
    first_tile: tuple[int, ...] | None = None
    for rec in history:
        mv = rec["move"]
        if mv["kind"] == "place":
            pl = mv["placements"][0] if "placements" in mv else mv
            first_tile = tuple(pl["tile"])
            break
    # Void events, in order, as fit masks; a slot is the index of the first event it lived
    # through. The opening rule is event 0, which only the deal's slots lived through.
    voids: list[int] = []
    ex = _opening_exclusion(view, first_tile)
    if ex:
        voids.append(ex)
    slots: list[int] = [0] * hand_size  # the deal's slots, oldest first
    last_was_opp_draw = False
    for rec in history:
        mv = rec["move"]
        kind = mv["kind"]
        if rec["player"] == opp:
            if kind == "draw":
                voids.append(board.fits())
                slots.append(len(voids))  # lives through the events after this one
                last_was_opp_draw = True
                continue
            if kind == "pass":
                voids.append(board.fits())
            elif kind == "place":
                placements = mv.get("placements")
                if placements:
                    tiles = [p["tile"] for p in placements]
                else:
                    tiles = [mv["tile"] if "tile" in mv else mv["corners"]]
                if last_was_opp_draw and slots:
                    slots.pop()  # the drawn tile: nothing else fitted
                    tiles = tiles[1:]
                for t in tiles:
                    _charge(slots, voids, variant.mask_of([t]))
        last_was_opp_draw = False
        if kind == "place":
            board.play(mv)

    if len(slots) != opp_size:  # a view this reasoning does not cover: assume nothing
        slots = [len(voids)] * opp_size
    # suffix unions: excl[i] = union of voids[i:]
    excl = [0] * (len(voids) + 1)
    for i in range(len(voids) - 1, -1, -1):
        excl[i] = excl[i + 1] | voids[i]
    counts: dict[int, int] = {}
    for s in slots:
        counts[s] = counts.get(s, 0) + 1
    groups = [(hidden & ~excl[s], n) for s, n in sorted(counts.items())]
    know.groups = groups
    know.group_tiles = [_bits(m) for m, _ in groups]
    know.hidden_tiles = _bits(hidden)
    return know


# -- soft evidence: which of the fitting tiles the opponent chose -------------------------------

Evidence = list[tuple[int, int, int]]


def play_evidence(view: SeatView) -> Evidence:
    """Classic: the opponent's placements since his last draw (not the opening lead), as
    (tile played, tiles that fitted the board then, tiles he placed from then on). His hand at
    that placement was his hand now plus the tiles he placed from then on (nothing was drawn
    in between), so a hypothesis about his hand now says which other fitting tiles he passed
    over."""
    if view["variant"] != "classic":
        return []  # Spider measured no better with it; Triominos fits are by cell and turn
    opp = 1 - view["player"]
    board = _ClassicBoard(view)
    # His placements since his last draw: (tile, fit mask then, whether it was a choice).
    placed: list[tuple[int, int, bool]] = []
    history: list[HistoryRecord] = view.get("history") or []
    for rec in history:
        mv = rec["move"]
        kind = mv["kind"]
        if rec["player"] == opp and kind == "draw":
            placed = []
        if kind != "place":
            continue
        if rec["player"] == opp:
            tile = D.INDEX[_domino(mv["tile"])]
            placed.append((tile, board.fits(), mv["end"] != "center"))
        board.play(mv)
    return _choices(placed)


def _choices(placed: list[tuple[int, int, bool]]) -> Evidence:
    """The placements of a stretch (tile, fit mask then, whether it was a choice) as evidence:
    the choices, each with the tiles placed from then on in the stretch."""
    evidence: Evidence = []
    later = 0
    for tile, fits, chosen in reversed(placed):
        later |= 1 << tile
        if chosen:
            evidence.append((tile, fits, later))
    return evidence


# A stretch of the opponent's placements before one of his draws: (the tiles his hand may
# have held just before that draw, how many he held, the placements as in ``Evidence`` with
# ``later`` counted within the stretch).
Stretch = tuple[int, int, Evidence]


def past_evidence(view: SeatView) -> list[Stretch]:
    """Classic: the opponent's placements before his last draw, one stretch per draw that ends
    some. His hand just before such a draw is unknown, but not free: it held none of the
    tiles that fitted then (he drew), nor any tile on the table or in our hand then, nor any
    we drew from the bazaar later; it held the tiles he placed since the stretch began. These
    stretches say little about his hand now (he has drawn since), but they do say how he
    chooses among his fitting tiles."""
    if view["variant"] != "classic":
        return []
    me = view["player"]
    opp = 1 - me
    history: list[HistoryRecord] = view.get("history") or []
    opts = resolve_options("classic", view.get("options"))
    # Every tile we ever held (the hand now and all we placed): at any point each was in our
    # hand, on the table or still in the bazaar to be drawn by us later, never in his hand.
    ours = D.mask_of(view["hand"])
    for rec in history:
        if rec["player"] == me and rec["move"]["kind"] == "place":
            ours |= 1 << D.INDEX[_domino(rec["move"]["tile"])]
    board = _ClassicBoard(view)
    on_table = 0
    size = opts["hand_size"]
    placed: list[tuple[int, int, bool]] = []
    out: list[Stretch] = []
    for rec in history:
        mv = rec["move"]
        kind = mv["kind"]
        if rec["player"] == opp:
            if kind == "draw":
                if any(chosen for _t, _f, chosen in placed):  # the first draw after them
                    cand = D.FULL & ~(on_table | ours | board.fits())
                    out.append((cand, size, _choices(placed)))
                placed = []
                size += 1
                continue
            if kind == "place":
                tile = D.INDEX[_domino(mv["tile"])]
                placed.append((tile, board.fits(), mv["end"] != "center"))
                size -= 1
        if kind == "place":
            on_table |= 1 << D.INDEX[_domino(mv["tile"])]
            board.play(mv)
    return out


def evidence_weight(evidence: Evidence, opp_mask: int, weight: list[float]) -> float:
    """How likely the opponent's choices were if his hand now is ``opp_mask``, when he picks
    among the fitting tiles with probability proportional to ``weight[tile]``."""
    w = 1.0
    for tile, fits, later in evidence:
        options = (opp_mask | later) & fits
        total = 0.0
        while options:
            low = options & -options
            total += weight[low.bit_length() - 1]
            options ^= low
        w *= weight[tile] / total
    return w


def uniform_choice_weight(evidence: Evidence, opp_mask: int) -> float:
    """How likely the opponent's choices were if his hand now is ``opp_mask``, when he picks
    any of the fitting tiles with the same probability (``evidence_weight`` with equal
    weights): one over the number of tiles that fitted, for each choice."""
    w = 1.0
    for _tile, fits, later in evidence:
        w /= ((opp_mask | later) & fits).bit_count()
    return w


__all__ = ["Evidence", "Knowledge", "Stretch", "evidence_weight", "knowledge",
           "past_evidence", "play_evidence", "uniform_choice_weight"]
