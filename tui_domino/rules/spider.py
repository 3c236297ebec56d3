"""Domino Spider duel: a four-armed spinner, multi-double turns, closing doubles, fish
(RULES.md section 2). Round points are the points charged."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

from tui_domino.i18n import _
from tui_domino.rules import dominoes as D
from tui_domino.rules.classic import deal_masks
from tui_domino.rules.domino_round import DominoRound
from tui_domino.rules.events import ScoreEvent
from tui_domino.rules.moves import ARMS, DRAW, PASS, Move, Placement, spider_place
from tui_domino.rules.options import resolve_options
from tui_domino.rules.state import JSON, Tile
from tui_domino.rules.types import Options

NONE = 7
CENTER = 4  # the arm index of the centre
ARM_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3, "center": CENTER}
ZERO_ZERO = D.INDEX[(0, 0)]


def spider_opening(hands: list[int]) -> tuple[int, int] | None:
    """(opener, the double n) for the lowest double from 1-1 up, or None: redeal."""
    for n in range(1, 7):
        t = D.DOUBLE[n]
        for p in (0, 1):
            if hands[p] >> t & 1:
                return p, n
    return None


def charge_for_hand(mask: int, lone_blank_double: int) -> int:
    """What a hand left when the opponent goes out costs: its pips, or the lone 0-0 rule."""
    if mask == 1 << ZERO_ZERO:
        return lone_blank_double
    return D.pips_of(mask)


def multi_double_moves(
    hand: int, ends: list[int], closed: list[bool]
) -> list[list[tuple[int, int]]]:
    """Every set of 2+ (arm, double number) pairs on distinct open arms, distinct doubles."""
    cands = [
        (a, ends[a]) for a in range(4) if not closed[a] and hand >> D.DOUBLE[ends[a]] & 1
    ]
    out: list[list[tuple[int, int]]] = []
    for k in range(2, len(cands) + 1):
        for combo in itertools.combinations(cands, k):
            if len({n for _, n in combo}) == k:
                out.append(list(combo))
    return out


class SpiderState(DominoRound):
    variant = "spider"

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.center = NONE
        self.ends: list[int] = [NONE] * 4
        self.closed: list[bool] = [False] * 4
        self.arm_tiles: list[list[tuple[int, int]]] = [[], [], [], []]
        self.opener = 0
        self.opening_double = 1

    @classmethod
    def new(
        cls,
        options: Options,
        *,
        seed: int | None,
        deal: Mapping[str, Any] | None,
        leader: int | None,
    ) -> SpiderState:
        s = cls(options)
        if deal is not None:
            s.hand_masks, s.bz = deal_masks(options, None, deal)
            opening = spider_opening(s.hand_masks)
            if opening is None:
                raise ValueError("neither hand holds a double from 1-1 to 6-6: redeal")
        else:
            rng = random.Random(seed)
            while True:  # redeal until a hand holds a double from 1-1 up
                s.hand_masks, s.bz = deal_masks(options, rng.getrandbits(63), None)
                opening = spider_opening(s.hand_masks)
                if opening is not None:
                    break
        s.opener, s.opening_double = opening
        s.to_move = s.opener
        return s

    @classmethod
    def from_json(cls, d: JSON) -> SpiderState:
        if d.get("variant") != "spider":
            raise ValueError("not a spider state")
        s = cls(resolve_options("spider", d["options"]))
        s._load_common(d)
        s.opener = int(d["opener"])
        s.opening_double = int(d["opening_double"])
        center = d["center"]
        on_board: list[list[int]] = []
        if center is None:
            s.center = NONE
        else:
            if center not in range(7):
                raise ValueError("bad centre")
            s.center = int(center)
            on_board.append([s.center, s.center])
        arms = d["arms"]
        for a, name in enumerate(ARMS):
            arm = arms[name]
            tiles = [(int(t[0]), int(t[1])) for t in arm["tiles"]]
            for t in tiles:
                D.index_of(t)
            prev = s.center
            for x, y in tiles:
                if x != prev:
                    raise ValueError(f"arm {name} does not match at every joint")
                prev = y
            s.arm_tiles[a] = tiles
            s.ends[a] = prev
            s.closed[a] = bool(arm["closed"])
            on_board += [list(t) for t in tiles]
        s._load_tiles(d, on_board)
        return s

    # -- the contract ---------------------------------------------------------------------------

    def open_ends_mask(self) -> int:
        m = 0
        for a in range(4):
            if not self.closed[a]:
                m |= D.NUM[self.ends[a]]
        return m

    def playable_mask(self, player: int) -> int:
        if self.center == NONE:
            return self.hand_masks[player] & (1 << D.DOUBLE[self.opening_double])
        return self.hand_masks[player] & self.open_ends_mask()

    def generate(self) -> list[Move]:
        p = self.to_move
        assert p is not None
        hand = self.hand_masks[p]
        if self.center == NONE:
            n = self.opening_double
            return [spider_place([Placement((n, n), "center")])]
        moves: list[Move] = []
        for i in D.bits(hand & self.open_ends_mask()):
            tile = D.TILES[i]
            double = tile[0] == tile[1]
            for a in range(4):
                if self.closed[a] or self.ends[a] not in tile:
                    continue
                moves.append(spider_place([Placement(tile, ARMS[a], False)]))
                if double:
                    moves.append(spider_place([Placement(tile, ARMS[a], True)]))
        for combo in multi_double_moves(hand, self.ends, self.closed):
            for closes in itertools.product((False, True), repeat=len(combo)):
                moves.append(
                    spider_place(
                        [
                            Placement((n, n), ARMS[a], c)
                            for (a, n), c in zip(combo, closes, strict=True)
                        ]
                    )
                )
        if moves:
            return moves
        return [DRAW] if self.bazaar_count else [PASS]

    def _explain(self, move: Move) -> str:
        p = self.to_move
        assert p is not None
        # A move refused, in the player's words (a notice titled "Not allowed").
        if move.kind == "draw":
            if self.playable_mask(p):
                return _("you cannot draw while you hold a playable tile")
            return _("the bazaar is empty: pass")
        if move.kind == "pass":
            if self.playable_mask(p):
                return _("you cannot pass while you hold a playable tile")
            return _("you cannot pass while the bazaar has tiles: draw")
        assert move.placements is not None
        hand = self.hand_masks[p]
        seen: set[str] = set()
        for pl in move.placements:
            a, b = pl.tile
            if not hand >> D.INDEX[(a, b)] & 1:
                return _("tile {tile} is not in your hand").format(tile=f"{a}-{b}")
            if pl.arm in seen:
                return _("two tiles cannot go on the same arm in one turn")
            seen.add(pl.arm)
        if self.center == NONE:
            n = self.opening_double
            # TRANSLATORS: a move refused; {tile} is a double such as 6-6
            return _("the round opens with {tile} in the center").format(tile=f"{n}-{n}")
        if len(move.placements) > 1:
            if any(pl.tile[0] != pl.tile[1] for pl in move.placements):
                return _("only doubles can be played several in one turn")
            if len({pl.tile for pl in move.placements}) != len(move.placements):
                # TRANSLATORS: a move refused: one tile was laid twice in one turn
                return _("the same tile twice")
        for pl in move.placements:
            a, b = pl.tile
            if pl.arm == "center":
                # TRANSLATORS: a move refused: the centre double is down already
                return _("the center is taken")
            ai = ARM_INDEX[pl.arm]
            if self.closed[ai]:
                # TRANSLATORS: a move refused; {arm} is the arm's letter, N, E, S or W
                return _("the {arm} arm is closed").format(arm=pl.arm)
            if self.ends[ai] not in (a, b):
                # TRANSLATORS: a move refused; {tile} is a tile such as 6-3, {arm} the arm's
                # letter (N, E, S or W), {number} the number at the arm's end
                return _("{tile} does not match the {arm} arm's end ({number})").format(
                    tile=f"{a}-{b}", arm=pl.arm, number=self.ends[ai])
            if pl.close and a != b:
                return _("only a double can close an arm")
        return _("that move is not allowed")

    def _play(self, move: Move) -> tuple[list[ScoreEvent], Tile | None]:
        p = self.to_move
        assert p is not None
        if move.kind == "draw":
            drawn = self._draw(p)
            return self._check_fish(), drawn
        if move.kind == "pass":
            self.to_move = 1 - p
            return self._check_fish(), None
        assert move.placements is not None
        for pl in move.placements:
            a, b = pl.tile
            self.hand_masks[p] &= ~(1 << D.INDEX[(a, b)])
            if pl.arm == "center":
                self.center = a
                self.ends = [a] * 4
                continue
            ai = ARM_INDEX[pl.arm]
            end = self.ends[ai]
            other = b if a == end else a
            self.arm_tiles[ai].append((end, other))
            self.ends[ai] = other
            if pl.close:
                self.closed[ai] = True
        if not self.hand_masks[p]:
            opp = 1 - p
            charge = charge_for_hand(self.hand_masks[opp], self.options["lone_blank_double"])
            self.to_move = None
            self.winner = p
            self.end_reason = "domino"
            left = ", ".join(f"{x}-{y}" for x, y in D.tiles_of(self.hand_masks[opp]))
            detail = f"hand left: {left}" + (" (a lone 0-0)" if left == "0-0" else "")
            return [ScoreEvent(opp, charge, "domino", detail)], None
        self.to_move = 1 - p
        return self._check_fish(), None

    def _check_fish(self) -> list[ScoreEvent]:
        if not all(self.closed) and (
            self.bazaar_count or self.playable_mask(0) or self.playable_mask(1)
        ):
            return []
        pips = [D.pips_of(self.hand_masks[0]), D.pips_of(self.hand_masks[1])]
        self.to_move = None
        self.end_reason = "blocked"
        if pips[0] == pips[1]:
            self.winner = None
            return []
        w = 0 if pips[0] < pips[1] else 1
        self.winner = w
        loser = 1 - w
        return [ScoreEvent(loser, pips[loser], "blocked", f"fish: {pips[loser]} pips in hand")]

    def _board_json(self) -> JSON:
        return {
            "center": None if self.center == NONE else self.center,
            "arms": {
                name: {
                    "tiles": [list(t) for t in self.arm_tiles[a]],
                    "end": None if self.center == NONE else self.ends[a],
                    "closed": self.closed[a],
                }
                for a, name in enumerate(ARMS)
            },
            "opener": self.opener,
            "opening_double": self.opening_double,
        }

    def detach(self) -> None:
        super().detach()
        self.ends = list(self.ends)
        self.closed = list(self.closed)
        self.arm_tiles = [list(a) for a in self.arm_tiles]

    def board_tiles(self) -> list[Tile]:
        out: list[Tile] = [] if self.center == NONE else [(self.center, self.center)]
        for arm in self.arm_tiles:
            out += [tuple(sorted(t)) for t in arm]
        return out
