"""Classic dominoes, the Draw game with the double-six set (RULES.md section 1)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tui_domino.i18n import _
from tui_domino.rules import dominoes as D
from tui_domino.rules.domino_round import DominoRound
from tui_domino.rules.events import ScoreEvent
from tui_domino.rules.moves import DRAW, PASS, Move, classic_place
from tui_domino.rules.options import resolve_options
from tui_domino.rules.state import JSON, Tile
from tui_domino.rules.types import Options

NO_END = 7  # the "end" of an empty line: NUM[7] is the empty mask


def deal_masks(
    options: Options, seed: int | None, deal: Mapping[str, Any] | None
) -> tuple[list[int], list[int]]:
    """Both hands as masks and the bazaar as tile indices in draw order."""
    size = options["hand_size"]
    if deal is not None:
        if not isinstance(deal, dict) or set(deal) != {"hands", "bazaar"}:
            raise ValueError('a deal is {"hands": [h0, h1], "bazaar": [...]}')
        hands_raw = deal["hands"]
        if not isinstance(hands_raw, list | tuple) or len(hands_raw) != 2:
            raise ValueError("a deal needs exactly two hands")
        hands = [D.mask_of(h) for h in hands_raw]
        for raw in hands_raw:
            if len(raw) != size:
                raise ValueError(f"each hand must hold {size} tiles")
        bazaar = [D.index_of(t) for t in deal["bazaar"]]
        bmask = D.mask_of(deal["bazaar"])
        if hands[0] & hands[1] or (hands[0] | hands[1]) & bmask:
            raise ValueError("a tile is dealt twice")
        if hands[0] | hands[1] | bmask != D.FULL:
            raise ValueError("the deal must be exactly the 28 tiles of the double-six set")
        return hands, bazaar
    perm = list(range(len(D.TILES)))
    random.Random(seed).shuffle(perm)
    h0 = sum(1 << i for i in perm[:size])
    h1 = sum(1 << i for i in perm[size : 2 * size])
    return [h0, h1], perm[2 * size :]


def classic_opening(hands: list[int]) -> tuple[int, int]:
    """(opener, forced tile index) by the opening rule: highest double, else highest tile."""
    for n in range(6, -1, -1):
        t = D.DOUBLE[n]
        for p in (0, 1):
            if hands[p] >> t & 1:
                return p, t
    best = max(D.bits(hands[0] | hands[1]), key=D.rank)
    return (0 if hands[0] >> best & 1 else 1), best


class ClassicState(DominoRound):
    variant = "classic"

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.reserve: int = options["bazaar_reserve"]
        self.line: list[tuple[int, int]] = []
        self.left = NO_END
        self.right = NO_END
        self.forced: int = -1
        self.leader: int | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        options: Options,
        *,
        seed: int | None,
        deal: Mapping[str, Any] | None,
        leader: int | None,
    ) -> ClassicState:
        s = cls(options)
        s.hand_masks, s.bz = deal_masks(options, seed, deal)
        s.leader = leader
        if leader is None:
            s.to_move, s.forced = classic_opening(s.hand_masks)
        else:
            s.to_move = leader
        return s

    @classmethod
    def from_json(cls, d: JSON) -> ClassicState:
        if d.get("variant") != "classic":
            raise ValueError("not a classic state")
        s = cls(resolve_options("classic", d["options"]))
        s._load_common(d)
        line: list[tuple[int, int]] = []
        for t in d["line"]:
            D.index_of(t)
            line.append((int(t[0]), int(t[1])))
        for a, b in zip(line, line[1:], strict=False):
            if a[1] != b[0]:
                raise ValueError("the line of play does not match at every joint")
        s.line = line
        s.left, s.right = (line[0][0], line[-1][1]) if line else (NO_END, NO_END)
        s._load_tiles(d, [list(t) for t in line])
        forced = d.get("forced")
        s.forced = -1 if forced is None else D.index_of(forced)
        s.leader = d.get("leader")
        return s

    # -- the contract ---------------------------------------------------------------------------

    def can_draw(self) -> bool:
        return self.bazaar_count > self.reserve

    def playable_mask(self, player: int) -> int:
        if not self.line:
            return self.hand_masks[player]
        return self.hand_masks[player] & (D.NUM[self.left] | D.NUM[self.right])

    def generate(self) -> list[Move]:
        p = self.to_move
        assert p is not None
        hand = self.hand_masks[p]
        if not self.line:
            if self.forced >= 0:
                return [classic_place(D.TILES[self.forced], "center")]
            return [classic_place(D.TILES[i], "center") for i in D.bits(hand)]
        moves = [classic_place(D.TILES[i], "left") for i in D.bits(hand & D.NUM[self.left])]
        moves += [classic_place(D.TILES[i], "right") for i in D.bits(hand & D.NUM[self.right])]
        if moves:
            return moves
        return [DRAW] if self.can_draw() else [PASS]

    def _explain(self, move: Move) -> str:
        p = self.to_move
        assert p is not None
        # A move refused, in the player's words (a notice titled "Not allowed").
        if move.kind == "draw":
            if self.playable_mask(p):
                return _("you cannot draw while you hold a playable tile")
            # TRANSLATORS: a move refused; {n} is a number of tiles (the rules have no
            # plural forms: word it so that the noun need not agree with the number)
            return _("you cannot draw: the last {n} tiles of the bazaar stay there; "
                     "pass").format(n=self.reserve)
        if move.kind == "pass":
            if self.playable_mask(p):
                return _("you cannot pass while you hold a playable tile")
            return _("you cannot pass while you can still draw")
        assert move.tile is not None
        a, b = move.tile[0], move.tile[1]
        if not self.hand_masks[p] >> D.INDEX[(a, b)] & 1:
            # TRANSLATORS: a move refused; {tile} is a tile such as 6-3
            return _("tile {tile} is not in your hand").format(tile=f"{a}-{b}")
        if not self.line:
            if move.end != "center":
                return _("the first tile goes in the center")
            fa, fb = D.TILES[self.forced]
            # TRANSLATORS: a move refused; {tile} is a tile such as 6-6
            return _("the first tile of this round must be {tile}").format(tile=f"{fa}-{fb}")
        if move.end == "center":
            return _("the center is taken: play on the left or the right end")
        if move.end == "left":
            # TRANSLATORS: a move refused; {tile} is a tile such as 6-3, {number} the number
            # at the line's left end
            return _("{tile} does not match the left end ({number})").format(
                tile=f"{a}-{b}", number=self.left)
        # TRANSLATORS: a move refused; {tile} is a tile such as 6-3, {number} the number at
        # the line's right end
        return _("{tile} does not match the right end ({number})").format(
            tile=f"{a}-{b}", number=self.right)

    def _play(self, move: Move) -> tuple[list[ScoreEvent], Tile | None]:
        p = self.to_move
        assert p is not None
        if move.kind == "draw":
            drawn = self._draw(p)
            return self._check_blocked(), drawn
        if move.kind == "pass":
            self.to_move = 1 - p
            return self._check_blocked(), None
        assert move.tile is not None
        a, b = move.tile[0], move.tile[1]
        self.hand_masks[p] &= ~(1 << D.INDEX[(a, b)])
        self.forced = -1
        if move.end == "center":
            self.line.append((a, b))
            self.left, self.right = a, b
        elif move.end == "left":
            if b == self.left:
                self.line.insert(0, (a, b))
                self.left = a
            else:
                self.line.insert(0, (b, a))
                self.left = b
        else:
            if a == self.right:
                self.line.append((a, b))
                self.right = b
            else:
                self.line.append((b, a))
                self.right = a
        if not self.hand_masks[p]:
            opp = 1 - p
            pips = D.pips_of(self.hand_masks[opp])
            self.to_move = None
            self.winner = p
            self.end_reason = "domino"
            tiles = ", ".join(f"{x}-{y}" for x, y in D.tiles_of(self.hand_masks[opp]))
            return [ScoreEvent(p, pips, "domino", f"opponent's hand {tiles} = {pips} pips")], None
        self.to_move = 1 - p
        return self._check_blocked(), None

    def _check_blocked(self) -> list[ScoreEvent]:
        """Ends the round if neither player can play nor draw."""
        if self.can_draw() or self.playable_mask(0) or self.playable_mask(1):
            return []
        pips = [D.pips_of(self.hand_masks[0]), D.pips_of(self.hand_masks[1])]
        self.to_move = None
        self.end_reason = "blocked"
        if pips[0] == pips[1]:
            self.winner = None
            return []
        w = 0 if pips[0] < pips[1] else 1
        self.winner = w
        diff = pips[1 - w] - pips[w]
        return [ScoreEvent(w, diff, "blocked", f"blocked: {pips[1 - w]} - {pips[w]} pips")]

    def _board_json(self) -> JSON:
        return {
            "line": [list(t) for t in self.line],
            "ends": None if not self.line else [self.left, self.right],
            "forced": None if self.forced < 0 else list(D.TILES[self.forced]),
            "leader": self.leader,
            "bazaar_reserve": self.reserve,
        }

    def detach(self) -> None:
        super().detach()
        self.line = list(self.line)

    def board_tiles(self) -> list[Tile]:
        return [tuple(sorted(t)) for t in self.line]
