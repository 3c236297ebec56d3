"""Triominos: 56 triangular tiles on a triangular grid (RULES.md section 3).

A tile is a sorted tuple ``(a, b, c)``; read clockwise it shows its numbers in ascending order,
so a placement's corners (clockwise, see ``triangle_grid``) must be a rotation of that reading.
The board keeps a map from grid point to (number, tiles touching it): a placement must match
every number already on its corners, completes a hexagon at each corner that five tiles
touched before, and is a bridge when it touches exactly one tile along an edge while the
corner opposite that edge already carries a number.

``TriominosState`` is the readable reference implementation behind the engine contract; the
fast path for simulations is ``triominos_sim.TriominosSim``, which follows the same rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tui_domino.i18n import _
from tui_domino.rules import triangle_grid as grid
from tui_domino.rules.events import ScoreEvent
from tui_domino.rules.moves import DRAW, PASS, Move, is_tile_rotation, triomino_place
from tui_domino.rules.options import resolve_options
from tui_domino.rules.state import FORMAT_VERSION, JSON, RoundState
from tui_domino.rules.triominos_tiles import (
    ALL_TILES,
    _check_full_set,
    _corner_mismatch,
    _parse_tiles,
    _point_str,
    parse_tile,
    tile_str,
)
from tui_domino.rules.types import Options

Tile3 = tuple[int, int, int]
Corners = tuple[int, int, int]
Cell = grid.Cell
Point = grid.Point

# -- the set ------------------------------------------------------------------------------------

TILES: tuple[Tile3, ...] = ALL_TILES  # the 56, in order
INDEX: dict[Tile3, int] = {t: i for i, t in enumerate(TILES)}
VALUE: tuple[int, ...] = tuple(sum(t) for t in TILES)
TRIPLES: tuple[Tile3, ...] = tuple((n, n, n) for n in range(6))


def rotations(tile: Tile3) -> tuple[Corners, ...]:
    """The distinct clockwise readings of ``tile`` (sorted): its rotations, never reflections."""
    a, b, c = tile
    return tuple(dict.fromkeys(((a, b, c), (b, c, a), (c, a, b))))


ROTATIONS: dict[Tile3, tuple[Corners, ...]] = {t: rotations(t) for t in TILES}


def tile_rank(tile: Tile3) -> tuple[int, int, int, int]:
    """A tile's rank for the opening without triples: value, then the corners from the top."""
    a, b, c = tile
    return (a + b + c, c, b, a)


# The opening rule as one priority list: the triples from 5-5-5 down to 0-0-0, then every other
# tile from the highest rank down. The first tile of this list found in a hand leads.
OPENING_ORDER: tuple[Tile3, ...] = tuple(reversed(TRIPLES)) + tuple(
    sorted((t for t in TILES if t not in TRIPLES), key=tile_rank, reverse=True)
)


def opening_tile(hands: tuple[set[Tile3], set[Tile3]] | list[set[Tile3]]) -> tuple[int, Tile3]:
    """Who must lead and with which tile under the opening rule (no previous winner)."""
    for t in OPENING_ORDER:
        for p in (0, 1):
            if t in hands[p]:
                return p, t
    raise ValueError("both hands are empty")


Need = tuple[int | None, int | None, int | None]


def _fitting() -> dict[Need, tuple[tuple[Tile3, Corners], ...]]:
    """Every corner pattern (a number or None at each corner, clockwise) -> the readings that
    fit it, as (tile, corners) in tile order. (Each reading fits the 8 patterns that hold, at
    each corner, its number or None: tried against all 343 patterns instead, making the
    table took 70 ms at each start of a program that plays Triominos.)"""
    numbers = (*range(6), None)
    fitting: dict[Need, list[tuple[Tile3, Corners]]] = {
        (a, b, c): [] for a in numbers for b in numbers for c in numbers}
    for t in TILES:
        for rot in ROTATIONS[t]:
            x, y, z = rot
            for a in (x, None):
                for b in (y, None):
                    for c in (z, None):
                        fitting[a, b, c].append((t, rot))
    return {need: tuple(readings) for need, readings in fitting.items()}


FITTING: dict[Need, tuple[tuple[Tile3, Corners], ...]] = _fitting()


# -- the state ------------------------------------------------------------------------------------


class TriominosState(RoundState):
    """One round of Triominos."""

    variant = "triominos"

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._hands: list[set[Tile3]] = [set(), set()]
        self._bazaar: list[Tile3] = []
        # Placements in order: (cell, corners clockwise, player).
        self._board: list[tuple[Cell, Corners, int]] = []
        self._cells: dict[Cell, Corners] = {}
        # The point map: the number on each touched grid point and how many tiles touch it.
        self._numbers: dict[Point, int] = {}
        self._touch: dict[Point, int] = {}
        # The tile the opener must lead (opening rule), while the board is empty.
        self._forced: Tile3 | None = None
        self._draws = 0  # tiles drawn by the player to move in this turn
        # The previous round's winner who led freely, or None: the opening rule applied.
        self.leader: int | None = None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        options: Options,
        *,
        seed: int | None = None,
        deal: Mapping[str, Any] | None = None,
        leader: int | None = None,
    ) -> TriominosState:
        """A new round from a seeded shuffle or an explicit deal (``options`` resolved)."""
        size = options["hand_size"]
        if deal is not None:
            if not isinstance(deal, dict) or set(deal) != {"hands", "bazaar"}:
                raise ValueError("a deal is {'hands': [hand, hand], 'bazaar': [...]}")
            hands_raw = deal["hands"]
            if not isinstance(hands_raw, list | tuple) or len(hands_raw) != 2:
                raise ValueError("a deal needs exactly two hands")
            h0 = _parse_tiles(hands_raw[0], "a hand")
            h1 = _parse_tiles(hands_raw[1], "a hand")
            bazaar = _parse_tiles(deal["bazaar"], "the bazaar")
            for h in (h0, h1):
                if len(h) != size:
                    raise ValueError(f"each hand must hold {size} tiles, not {len(h)}")
            _check_full_set(h0 + h1 + bazaar)
        else:
            if seed is None:
                raise ValueError("give a seed or a deal")
            tiles = list(TILES)
            random.Random(seed).shuffle(tiles)
            h0, h1, bazaar = tiles[:size], tiles[size : 2 * size], tiles[2 * size :]
        s = cls(options)
        s._hands = [set(h0), set(h1)]
        s._bazaar = list(bazaar)
        if leader is None:
            s.to_move, s._forced = opening_tile(s._hands)
        else:
            if leader not in (0, 1):
                raise ValueError("leader must be None, 0 or 1")
            s.to_move = leader
        s.leader = leader
        return s

    @classmethod
    def from_json(cls, d: JSON) -> TriominosState:
        """Reads back ``to_json()``, checking that everything is consistent (ValueError)."""
        if not isinstance(d, dict) or d.get("variant") != cls.variant:
            raise ValueError("not a Triominos state")
        if d.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown state format {d.get('format')!r}")
        s = cls(resolve_options(cls.variant, d.get("options")))
        s._load_common(d)
        hands_raw = d["hands"]
        if not isinstance(hands_raw, list) or len(hands_raw) != 2:
            raise ValueError("hands must be two lists of tiles")
        hands = [_parse_tiles(h, "a hand") for h in hands_raw]
        bazaar = _parse_tiles(d["bazaar"], "the bazaar")
        board_raw = d["board"]
        if not isinstance(board_raw, list):
            raise ValueError("board must be a list of placements")
        on_board: list[Tile3] = []
        for item in board_raw:
            if not isinstance(item, dict):
                raise ValueError("a placement must be an object")
            cell_raw, corners_raw, player = item["cell"], item["corners"], item["player"]
            if (
                not isinstance(cell_raw, list | tuple)
                or len(cell_raw) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in cell_raw)
                or not grid.in_range(cell_raw[0], cell_raw[1])
            ):
                raise ValueError(f"bad cell {cell_raw!r}")
            cell = (cell_raw[0], cell_raw[1])
            tile = parse_tile(corners_raw)
            corners = (corners_raw[0], corners_raw[1], corners_raw[2])
            if not is_tile_rotation(tile, corners):
                raise ValueError(f"corners {corners_raw} are not a rotation of {tile_str(tile)}")
            if "tile" in item and parse_tile(item["tile"]) != tile:
                raise ValueError(f"placement {item!r}: tile and corners differ")
            if player not in (0, 1) or isinstance(player, bool):
                raise ValueError(f"bad player {player!r}")
            why = s._placement_error(cell, corners)
            if why is not None:
                raise ValueError(f"board placement {item!r} is illegal: {why}")
            s._put(cell, corners, player)
            on_board.append(tile)
        _check_full_set(hands[0] + hands[1] + bazaar + on_board)
        s._hands = [set(hands[0]), set(hands[1])]
        s._bazaar = bazaar
        forced = d.get("forced")
        if forced is not None:
            s._forced = parse_tile(forced)
            if s._board or s.to_move is None or s._forced not in s._hands[s.to_move]:
                raise ValueError("a forced tile must be in the opener's hand before the opening")
        draws = d.get("draws_this_turn", 0)
        if not isinstance(draws, int) or isinstance(draws, bool) or draws < 0:
            raise ValueError("draws_this_turn must be a non-negative number")
        limit = s.options["max_draws"]
        if (limit is not None and draws > limit) or (draws and not s._board):
            raise ValueError("too many draws this turn")
        s._draws = draws
        leader = d.get("leader")
        if leader not in (None, 0, 1) or isinstance(leader, bool):
            raise ValueError("leader must be null, 0 or 1")
        s.leader = leader
        s._check_consistent(d)
        return s

    def _check_consistent(self, d: JSON) -> None:
        if "over" in d and d["over"] != (self.to_move is None):
            raise ValueError("over and to_move disagree")
        if self.to_move is None:
            if self.end_reason == "domino":
                if self.winner is None or self._hands[self.winner]:
                    raise ValueError("a domino round's winner must have an empty hand")
            elif self.end_reason == "blocked":
                if not self._blocked():
                    raise ValueError("the round is not blocked")
                if self.winner != self._blocked_winner():
                    raise ValueError("the blocked round's winner is wrong")
            else:
                raise ValueError("a finished round needs end_reason domino or blocked")
        else:
            if self.end_reason is not None or self.winner is not None:
                raise ValueError("a round in play has no winner nor end reason")
            if not self._hands[0] or not self._hands[1]:
                raise ValueError("a round in play cannot have an empty hand")
            if self._board and self._blocked():
                raise ValueError("the round is blocked but not over")
            if not self._board and self._forced is None and self.history:
                raise ValueError("moves were made but the board is empty")
        if self.history:
            # A history, when kept, tells the whole round: it must agree with the rest.
            total = [0, 0]
            size = [self.options["hand_size"]] * 2
            placed = 0
            for rec in self.history:
                player = rec["player"]
                if player not in (0, 1):
                    raise ValueError("a history record needs its player")
                for e in rec["events"]:
                    total[int(e["player"])] += int(e["points"])
                kind = rec["move"]["kind"]
                if kind == "draw":
                    size[player] += 1
                elif kind == "place":
                    if placed >= len(self._board):
                        raise ValueError("the history places more tiles than the board holds")
                    cell, corners, who = self._board[placed]
                    m = rec["move"]
                    if (tuple(m["cell"]), tuple(m["corners"]), player) != (cell, corners, who):
                        raise ValueError("the history and the board differ")
                    placed += 1
                    size[player] -= 1
            if placed != len(self._board):
                raise ValueError("the history and the board differ")
            if total != self.points:
                raise ValueError("the points differ from the history's events")
            if size != [len(self._hands[0]), len(self._hands[1])]:
                raise ValueError("the hands' sizes differ from the history's")

    # -- the contract -------------------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Tile3, ...], tuple[Tile3, ...]]:
        return (tuple(sorted(self._hands[0])), tuple(sorted(self._hands[1])))

    @property
    def bazaar(self) -> tuple[Tile3, ...]:
        return tuple(self._bazaar)

    @property
    def board(self) -> tuple[tuple[Cell, Corners, int], ...]:
        """The placements in order: (cell, corners clockwise, player)."""
        return tuple(self._board)

    @property
    def forced(self) -> Tile3 | None:
        """The tile the opener must lead, while the opening rule applies."""
        return self._forced

    @property
    def draws_this_turn(self) -> int:
        return self._draws

    def number_at(self, point: Point) -> int | None:
        """The number on grid point ``point``, or None when no tile touches it."""
        return self._numbers.get(point)

    # -- the board ----------------------------------------------------------------------------

    def _put(self, cell: Cell, corners: Corners, player: int) -> None:
        self._board.append((cell, corners, player))
        self._cells[cell] = corners
        for pt, n in zip(grid.corners(cell), corners, strict=True):
            self._numbers[pt] = n
            self._touch[pt] = self._touch.get(pt, 0) + 1

    def _frontier(self) -> list[Cell]:
        """The empty cells sharing an edge with a tile, sorted."""
        out: set[Cell] = set()
        for cell in self._cells:
            for nb in grid.edge_neighbours(cell):
                if nb not in self._cells:
                    out.add(nb)
        return sorted(out)

    def _needs(self, cell: Cell) -> tuple[int | None, int | None, int | None]:
        a, b, c = (self._numbers.get(pt) for pt in grid.corners(cell))
        return (a, b, c)

    def _placement_error(self, cell: Cell, corners: Corners) -> str | None:
        """Why ``corners`` cannot go on ``cell`` on this board (ignoring hands), or None."""
        # A move refused, in the player's words (a notice titled "Not allowed").
        if not self._board:
            if cell == grid.ORIGIN:
                return None
            return _("the first tile goes on cell (0, 0)")
        if cell in self._cells:
            # TRANSLATORS: a move refused in Triominos; {cell} is a cell's row and column,
            # "(2, -1)"
            return _("cell {cell} is taken").format(cell=_point_str(cell))
        if not any(nb in self._cells for nb in grid.edge_neighbours(cell)):
            # TRANSLATORS: a move refused in Triominos; {cell} is a cell's row and column
            return _("cell {cell} does not share an edge with a tile on the board").format(
                cell=_point_str(cell))
        names = grid.CORNER_NAMES[grid.is_up(cell)]
        for i, (need, have) in enumerate(zip(self._needs(cell), corners, strict=True)):
            if need is not None and need != have:
                return _corner_mismatch(i + 1, names[i], need, have)
        return None

    def _placements(self, tiles: set[Tile3]) -> list[Move]:
        """Every legal placement of one of ``tiles``."""
        moves: list[Move] = []
        if not self._board:
            for t in sorted(tiles):
                for rot in ROTATIONS[t]:
                    moves.append(triomino_place(t, grid.ORIGIN, rot))
            return moves
        for cell in self._frontier():
            for t, rot in FITTING[self._needs(cell)]:
                if t in tiles:
                    moves.append(triomino_place(t, cell, rot))
        return moves

    def _can_place(self, player: int) -> bool:
        hand = self._hands[player]
        if not self._board:
            return bool(hand)
        return any(
            t in hand for cell in self._frontier() for t, _ in FITTING[self._needs(cell)]
        )

    def _can_draw(self) -> bool:
        limit = self.options["max_draws"]
        return bool(self._bazaar) and (limit is None or self._draws < limit)

    def _blocked(self) -> bool:
        return not self._bazaar and not self._can_place(0) and not self._can_place(1)

    def _hand_value(self, player: int) -> int:
        return sum(sum(t) for t in self._hands[player])

    def _blocked_winner(self) -> int | None:
        n = [len(self._hands[0]), len(self._hands[1])]
        v = [self._hand_value(0), self._hand_value(1)]
        if n[0] != n[1]:
            return 0 if n[0] < n[1] else 1
        if v[0] != v[1]:
            return 0 if v[0] < v[1] else 1
        return None

    # -- moves ----------------------------------------------------------------------------------

    def generate(self) -> list[Move]:
        player = self.to_move
        assert player is not None
        tiles = {self._forced} if self._forced is not None else self._hands[player]
        moves = self._placements(tiles)
        if moves:
            return moves
        if self._can_draw():
            return [DRAW]
        return [PASS]

    def _play(self, move: Move) -> tuple[list[ScoreEvent], Tile3 | None]:
        player = self.to_move
        assert player is not None
        opts = self.options
        events: list[ScoreEvent] = []
        if move.kind == "draw":
            tile = self._bazaar.pop(0)
            self._hands[player].add(tile)
            self._draws += 1
            if opts["draw_penalty"]:
                n = self._draws
                events.append(
                    ScoreEvent(player, -opts["draw_penalty"], "draw",
                               f"{n} tile{'s' if n > 1 else ''} drawn")
                )
            self._check_blocked(events)
            return events, tile
        if move.kind == "pass":
            if opts["stuck_penalty"]:
                why = "the bazaar is empty" if not self._bazaar else "draw limit reached"
                events.append(ScoreEvent(player, -opts["stuck_penalty"], "pass",
                                         f"no playable tile, {why}"))
            self._draws = 0
            self.to_move = 1 - player
            self._check_blocked(events)
            return events, None
        assert move.tile is not None and move.cell is not None and move.corners is not None
        tile = parse_tile(move.tile)
        cell, corners = move.cell, move.corners
        self._hands[player].discard(tile)
        events.append(ScoreEvent(player, sum(tile), "tile", tile_str(tile)))
        if not self._board:
            if tile[0] == tile[2]:
                bonus = opts["opening_bonus"][1 if tile == (0, 0, 0) else 0]
                if bonus:
                    events.append(ScoreEvent(player, bonus, "opening",
                                             f"opening with {tile_str(tile)}"))
            self._forced = None
        else:
            pts = grid.corners(cell)
            hexagons = [pt for pt in pts if self._touch.get(pt, 0) == 5]
            if hexagons:
                bonus = opts["hexagon_bonus"][len(hexagons) - 1]
                where = ", ".join(_point_str(pt) for pt in hexagons)
                label = "hexagon" if len(hexagons) == 1 else f"{len(hexagons)} hexagons"
                if bonus:
                    events.append(ScoreEvent(player, bonus, "hexagon", f"{label} at {where}"))
            touching = [nb for nb in grid.edge_neighbours(cell) if nb in self._cells]
            if len(touching) == 1:
                far = pts[grid.opposite_corner(cell, touching[0])]
                if self._touch.get(far, 0) >= 1 and opts["bridge_bonus"]:
                    events.append(ScoreEvent(player, opts["bridge_bonus"], "bridge",
                                             f"bridge to {_point_str(far)}"))
        self._put(cell, corners, player)
        self._draws = 0
        if not self._hands[player]:
            other = 1 - player
            left = self._hand_value(other)
            points = opts["domino_bonus"] + left
            if points:
                events.append(ScoreEvent(player, points, "domino",
                                         f"{opts['domino_bonus']} + {left} left in hand"))
            self.winner = player
            self.end_reason = "domino"
            self.to_move = None
            return events, None
        self.to_move = 1 - player
        self._check_blocked(events)
        return events, None

    def _check_blocked(self, events: list[ScoreEvent]) -> None:
        """Ends the round when the bazaar is empty and neither player can place."""
        if not self._blocked():
            return
        penalty = self.options["blocked_penalty"]
        if penalty:
            for p in (0, 1):
                events.append(ScoreEvent(p, -penalty, "blocked", "round blocked"))
        winner = self._blocked_winner()
        if winner is not None:
            own, theirs = self._hand_value(winner), self._hand_value(1 - winner)
            if theirs - own:
                events.append(ScoreEvent(winner, theirs - own, "blocked",
                                         f"{theirs} in opponent's hand - {own} in own"))
        self.winner = winner
        self.end_reason = "blocked"
        self.to_move = None

    def _explain(self, move: Move) -> str:
        player = self.to_move
        # A move refused, in the player's words (a notice titled "Not allowed").
        if player is None:
            return _("the round is over")
        hand = self._hands[player]
        can_place = bool(self._placements(
            {self._forced} if self._forced is not None else hand))
        if move.kind == "draw":
            if can_place:
                return _("you have a playable tile: you cannot draw")
            if not self._bazaar:
                return _("the bazaar is empty: you must pass")
            # TRANSLATORS: a move refused; {n} is a number of tiles, the most a player may
            # draw in a turn (the rules have no plural forms: word it so that the noun need
            # not agree with the number)
            return _("you have drawn {n} tiles this turn, the limit: you must pass").format(
                n=self._draws)
        if move.kind == "pass":
            if can_place:
                return _("you have a playable tile: you cannot pass")
            return _("you must draw: you have no playable tile")
        if move.kind != "place" or move.tile is None or move.cell is None or move.corners is None:
            # TRANSLATORS: a move refused; {move} is the move as the program writes it
            return _("not a Triominos move: {move}").format(move=move)
        try:
            tile = parse_tile(move.tile)
            corners = move.corners
            parse_tile(corners)
        except ValueError as exc:
            return str(exc)
        if not is_tile_rotation(tile, corners):
            # TRANSLATORS: a move refused; {corners} and {tile} are three numbers such as
            # 1-2-3: a tile's numbers read clockwise must be one of its turns
            return _("corners {corners} are not tile {tile} read clockwise (tiles turn, they "
                     "never flip)").format(corners=tile_str(corners), tile=tile_str(tile))
        if tile not in hand:
            return _("tile {tile} is not in your hand").format(tile=tile_str(tile))
        if self._forced is not None and tile != self._forced:
            # TRANSLATORS: a move refused; {tile} is a tile such as 5-5-5
            return _("the first tile must be {tile}").format(tile=tile_str(self._forced))
        cell = move.cell
        why = self._placement_error(cell, corners)
        if why is not None:
            return why
        # TRANSLATORS: a move refused; {move} is the move as the program writes it
        return _("{move} is not a legal move now").format(move=move)

    # -- JSON and copies ----------------------------------------------------------------------

    def _board_json(self) -> JSON:
        return {
            "board": [
                {"cell": list(cell), "corners": list(corners), "tile": sorted(corners),
                 "player": p}
                for cell, corners, p in self._board
            ],
            "forced": list(self._forced) if self._forced is not None else None,
            "draws_this_turn": self._draws,
            "leader": self.leader,
        }

    def detach(self) -> None:
        self._hands = [set(self._hands[0]), set(self._hands[1])]
        self._bazaar = list(self._bazaar)
        self._board = list(self._board)
        self._cells = dict(self._cells)
        self._numbers = dict(self._numbers)
        self._touch = dict(self._touch)
