"""What the player has chosen so far: a tile of the hand, one of its places, and for
Domino Spider the doubles gathered for a multi-double turn. Pure logic, no Textual."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.rules import places as place_names
from tui_domino.rules.places import ARM_NAMES

# How soon (seconds) a second digit must follow a 1 to pick the tenth tile or a later one.
TWO_DIGITS = 0.8


@dataclass(frozen=True)
class ArmPlace:
    """A spider tile on one arm (``close`` is chosen separately)."""

    tile: tuple[int, int]
    arm: str
    close: bool = False

    @property
    def double(self) -> bool:
        return self.tile[0] == self.tile[1]


Place = rules.Move | ArmPlace  # where the chosen tile may go: a move, or an arm (Spider)


@dataclass
class Selection:
    variant: str
    hand: list[tuple[int, ...]] = field(default_factory=list)
    legal: list[rules.Move] = field(default_factory=list)
    tile_index: int | None = None
    place_index: int | None = None
    close: bool = False
    pending: list[ArmPlace] = field(default_factory=list)
    # Who chose the tile and place: "first" (the game: the first tile of the hand that fits,
    # at its first place; no advice), "player", or "coach" (its best move, asked with h).
    chosen_by: str = "first"
    _digit_at: float | None = None  # when a 1 was typed that may start a number

    # -- refreshing after every move -----------------------------------------------------------

    def update(self, hand: Sequence[Sequence[int]], legal: list[rules.Move]) -> None:
        old = self.current_tile()
        old_hand, old_legal, old_place = self.hand, self.legal, self.place_index
        self.hand = [tuple(t) for t in hand]
        self.legal = list(legal)
        self.pending = [p for p in self.pending if p.tile in self.hand]
        playable = self.playable()
        if self.chosen_by != "first" and old in self.hand and self.hand.index(old) in playable:
            self.tile_index = self.hand.index(old)  # the tile the player chose stays chosen
            self.chosen_by = "player"
        elif playable:
            self.chosen_by = "first"
            self.tile_index = min(playable)
        elif self.hand:
            self.tile_index = min(self.tile_index or 0, len(self.hand) - 1)
        else:
            self.tile_index = None
        unchanged = (self.hand == old_hand and self.legal == old_legal
                     and self.current_tile() == old)
        if unchanged and old_place is not None and old_place < len(self.places()):
            self.place_index = old_place  # (the table drawn again: the place chosen stays)
        else:
            self._reset_place()

    def reset(self) -> None:
        self.pending = []
        self.close = False
        self._reset_place()

    def _reset_place(self) -> None:
        places = self.places()
        self.place_index = 0 if places else None
        if self.place_index is not None and self.variant == "spider":
            self.close = False

    # -- what can be played --------------------------------------------------------------------

    def _tiles_of(self, move: rules.Move) -> list[tuple[int, ...]]:
        if move.placements is not None:
            return [p.tile for p in move.placements]
        return [move.tile] if move.tile is not None else []

    def playable(self) -> set[int]:
        tiles: set[tuple[int, ...]] = set()
        for m in self.legal:
            tiles.update(self._tiles_of(m))
        return {i for i, t in enumerate(self.hand) if t in tiles}

    def can(self, kind: str) -> bool:
        return any(m.kind == kind for m in self.legal)

    def current_tile(self) -> tuple[int, ...] | None:
        if self.tile_index is None or not 0 <= self.tile_index < len(self.hand):
            return None
        return self.hand[self.tile_index]

    def places(self) -> list[Place]:
        """The places of the selected tile: Moves (classic, triominos) or ArmPlaces."""
        if self.variant == "spider":
            return list(self.arm_places())
        return list(self.move_places())

    def arm_places(self) -> list[ArmPlace]:
        """Spider: the arms the selected tile may go on (none in the other games)."""
        tile = self.current_tile()
        if tile is None or self.variant != "spider":
            return []
        used = {p.arm for p in self.pending}
        if any(p.tile == tile for p in self.pending):
            return []
        if self.pending and tile[0] != tile[1]:
            return []
        seen: dict[str, ArmPlace] = {}
        for m in self.legal:
            if m.placements is None or len(m.placements) != 1:
                continue
            p = m.placements[0]
            if p.tile == tile and p.arm not in used and p.arm not in seen:
                seen[p.arm] = ArmPlace(p.tile, p.arm)
        order = {"center": 0, "N": 1, "E": 2, "S": 3, "W": 4}
        return sorted(seen.values(), key=lambda p: order[p.arm])

    def move_places(self) -> list[rules.Move]:
        """Classic and Triominos: the moves that put the selected tile down (none in Spider)."""
        tile = self.current_tile()
        if tile is None or self.variant == "spider":
            return []
        return place_names.tile_places(self.legal, tile)  # as the coach names them too

    def cell_label(self, move: rules.Move) -> str:
        """Triominos: the letter the board shows at ``move``'s cell while its tile is chosen
        (its places are lettered in the order of ``move_places``)."""
        if move.cell is None:
            return ""
        letters = place_names.cell_letters(place_names.tile_places(self.legal, move.tile))
        return letters.get(move.cell, "")

    def current_place(self) -> Place | None:
        places = self.places()
        if self.place_index is None or not places:
            return None
        return places[self.place_index % len(places)]

    def current_arm(self) -> ArmPlace | None:
        """Spider: the chosen arm of the selected tile."""
        place = self.current_place()
        return place if isinstance(place, ArmPlace) else None

    def shown_places(self) -> list[Place]:
        """Places as the board draws them (spider: with the close mark on the current one)."""
        arms = self.arm_places()
        if self.variant != "spider":
            return self.places()
        if self.place_index is not None and arms:
            i = self.place_index % len(arms)
            p = arms[i]
            arms[i] = ArmPlace(p.tile, p.arm, self.close and self.can_close(p))
        return list(arms)

    def can_close(self, place: Place | None) -> bool:
        """A double on an arm: it may close the arm, and join other doubles in one turn."""
        return isinstance(place, ArmPlace) and place.double and place.arm != "center"

    # -- changing the choice -------------------------------------------------------------------

    def move_tile(self, delta: int) -> None:
        if not self.hand:
            return
        self.chosen_by = "player"
        i = self.tile_index if self.tile_index is not None else -delta
        self.tile_index = (i + delta) % len(self.hand)
        self.close = False
        self._reset_place()

    def select_tile(self, index: int) -> None:
        if 0 <= index < len(self.hand):
            self.chosen_by = "player"
            self.tile_index = index
            self.close = False
            self._reset_place()

    def cycle_place(self, delta: int) -> None:
        places = self.places()
        if not places or self.place_index is None:
            return
        self.chosen_by = "player"
        if self.variant == "triominos":
            moves = self.move_places()
            cells = list(dict.fromkeys(m.cell for m in moves))
            cur = moves[self.place_index].cell
            nxt = cells[(cells.index(cur) + delta) % len(cells)]
            self.place_index = next(i for i, m in enumerate(moves) if m.cell == nxt)
        else:
            self.place_index = (self.place_index + delta) % len(places)
        self.close = False

    def select_place(self, index: int) -> None:
        if 0 <= index < len(self.places()):
            self.chosen_by = "player"
            self.place_index = index
            self.close = False

    def rotate(self) -> bool:
        """Triominos: the next rotation at the same cell; False when there is none."""
        moves = self.move_places()
        if self.variant != "triominos" or self.place_index is None or not moves:
            return False
        cur = moves[self.place_index]
        same = [i for i, m in enumerate(moves) if m.cell == cur.cell]
        if len(same) < 2:
            return False
        self.chosen_by = "player"
        self.place_index = same[(same.index(self.place_index) + 1) % len(same)]
        return True

    def rotations_here(self) -> int:
        place = self.current_place()
        if self.variant != "triominos" or not isinstance(place, rules.Move):
            return 0
        return sum(1 for m in self.move_places() if m.cell == place.cell)

    def toggle_close(self) -> bool:
        place = self.current_place()
        if not self.can_close(place):
            return False
        self.chosen_by = "player"
        self.close = not self.close
        return True

    def toggle_mark(self) -> str:
        """Spider: adds the current double (on its chosen arm) to this turn's doubles, or
        takes the selected tile back out. Returns a word for what happened."""
        self.chosen_by = "player"
        tile = self.current_tile()
        for p in self.pending:
            if p.tile == tile:
                self.pending.remove(p)
                self._reset_place()
                return "removed"
        place = self.current_arm()
        if place is None and tile is not None and len(set(tile)) == 1:
            return "no-arm"  # a double, but no open arm ends in its number
        if place is None or not place.double:
            return "not-double"
        if not self.can_close(place):  # a double, but the centre one: it opens a round alone
            return "centre"
        self.pending.append(ArmPlace(place.tile, place.arm, self.close and self.can_close(place)))
        self.close = False
        # move on to the next double that still has an arm
        for step in range(1, len(self.hand) + 1):
            j = ((self.tile_index or 0) + step) % len(self.hand)
            t = self.hand[j]
            if t[0] == t[1] and j in self.playable():
                self.tile_index = j
                if self.places():
                    break
        self._reset_place()
        return "added"

    def build_move(self) -> rules.Move | None:
        """The move the player means by pressing Enter, or None without a place."""
        if self.variant == "spider":
            chosen = list(self.pending)
            place = self.current_arm()
            if place is not None and (not chosen or place.double):
                chosen.append(ArmPlace(place.tile, place.arm, self.close and self.can_close(place)))
            if not chosen:
                return None
            order = {"center": -1, "N": 0, "E": 1, "S": 2, "W": 3}
            chosen.sort(key=lambda p: order[p.arm])
            return rules.move_from_json(
                "spider",
                {
                    "kind": "place",
                    "placements": [
                        {"tile": list(p.tile), "arm": p.arm, "close": p.close} for p in chosen
                    ],
                },
            )
        move = self.current_place()
        return move if isinstance(move, rules.Move) else None

    def describe(self, place: Place, board_taken: bool = True) -> str:
        """The hint line's words for playing ``place``'s tile there, one whole sentence for
        each kind of place ("⏎ play 3-3 on the North arm and close it", "⏎ play 6-3 on the
        left end", "⏎ play 1-2-3 at b, turn 2/3"); ``board_taken``: Triominos has a tile
        down already (else the first tile opens the round, with no place to name)."""
        tile = "-".join(str(n) for n in place.tile or ())
        if isinstance(place, ArmPlace):
            if place.arm == "center":
                # TRANSLATORS: the hint line's sentences to play a tile (this and the next
                # ones): ⏎ is the Enter key, {tile} a tile such as 6-3. The line has 80
                # columns, shared with the other keys' words: keep it short
                return _("⏎ play {tile} in the centre").format(tile=tile)
            arm = _(ARM_NAMES[place.arm])
            if self.close and self.can_close(place):
                # TRANSLATORS: {arm} is North, East, South or West (Spider's arms)
                return _("⏎ play {tile} on the {arm} arm and close it").format(tile=tile,
                                                                               arm=arm)
            # TRANSLATORS: {arm} is North, East, South or West (Spider's arms)
            return _("⏎ play {tile} on the {arm} arm").format(tile=tile, arm=arm)
        if place.end is not None:
            if place.end == "left":
                return _("⏎ play {tile} on the left end").format(tile=tile)
            if place.end == "right":
                return _("⏎ play {tile} on the right end").format(tile=tile)
            return _("⏎ play {tile} to open the round").format(tile=tile)
        named = place_names.triomino_place(place, self.legal, not board_taken)
        turn, n = named.turn, named.turns
        if named.letter is None:
            if n > 1:
                # TRANSLATORS: Triominos: {turn} of {turns} ways the tile can be turned here
                return _("⏎ play {tile} to open the round, turn {turn}/{turns}").format(
                    tile=tile, turn=turn, turns=n)
            return _("⏎ play {tile} to open the round").format(tile=tile)
        label = named.letter
        if n > 1:
            # TRANSLATORS: Triominos: {cell} is the letter of a place on the board, {turn} of
            # {turns} ways the tile can be turned there
            return _("⏎ play {tile} at {cell}, turn {turn}/{turns}").format(
                tile=tile, cell=label, turn=turn, turns=n)
        # TRANSLATORS: Triominos: {cell} is the letter of a place marked on the board
        return _("⏎ play {tile} at {cell}").format(tile=tile, cell=label)

    def pick(self, n: int, now: float) -> int | None:
        """The hand's index for the digit key ``n`` typed at ``now`` (seconds): 1-9 the
        first nine tiles, 0 the tenth, and a 1 followed within ``TWO_DIGITS`` by another
        digit the tenth on (1 then 2: the twelfth; a Triominos hand holds 16 and more).
        None when the hand has no such tile."""
        index = n - 1 if n else 9
        if self._digit_at is not None and now - self._digit_at < TWO_DIGITS:
            self._digit_at = None
            if 10 + n <= len(self.hand):
                index = 9 + n
        elif n == 1 and len(self.hand) >= 10:
            self._digit_at = now  # perhaps the first of two digits
        return index if 0 <= index < len(self.hand) else None
