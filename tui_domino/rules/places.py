"""How the game names the place a tile goes, the same for the table and the coach.

Classic names an end of the line (left, right); Spider an arm (``ARM_NAMES``: North, East,
South, West, the centre). Triominos letters the places of one tile: the cells where that
tile fits, in reading order (top row first, then left to right: the engine's cell
``(row, column)`` sorted), are a, b, c, ...; a tile that fits a cell more than one way has its
turns there numbered 1, 2, ... in the order of its corners (``r`` on the table goes to the
next). The opening tile of a round has no place to name. The table draws these letters on
the board for the chosen tile (``ui/drawing/triangle_grid.py``), its hint line says them
(``ui/selection.py``), and the coach names every move with them (``ai/coach.py``): a letter
names a place only together with its tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tui_domino.i18n import N_, pgettext
from tui_domino.rules.moves import Move
from tui_domino.rules.types import HistoryRecord

LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Spider's arms by name (translated where shown: _(ARM_NAMES[arm])).
ARM_NAMES = {
    # TRANSLATORS: Spider's arm that runs up from the centre; "on the {arm} arm"
    "N": N_("North"),
    "E": N_("East"),
    "S": N_("South"),
    "W": N_("West"),
    "center": N_("centre"),
}


def arm_letter(arm: str) -> str:
    """Spider's arm by its letter, in the language in use (as the table and the moves' log
    show it: N, E, S, W in English, С, В, Ю, З in Russian)."""
    # TRANSLATORS: the letter of Spider's arm that runs up from the centre (North), shown
    # beside the arm on the table and after a tile in the moves' log ("3-5 N")
    letters = {"N": pgettext("arm", "N"),
               # TRANSLATORS: the letter of Spider's arm to the right (East)
               "E": pgettext("arm", "E"),
               # TRANSLATORS: the letter of Spider's arm that runs down (South)
               "S": pgettext("arm", "S"),
               # TRANSLATORS: the letter of Spider's arm to the left (West)
               "W": pgettext("arm", "W")}
    return letters.get(arm, arm)


def letter(n: int) -> str:
    """The letter of the ``n``-th place (0-based) of a tile."""
    return LETTERS[n % len(LETTERS)]


def tile_places(legal: Iterable[Move], tile: Sequence[int] | None) -> list[Move]:
    """The legal moves that put ``tile`` down, in the table's order (Triominos: by cell in
    reading order, then by corners; classic: as the engine lists them)."""
    key = tuple(tile) if tile is not None else None
    out = [m for m in legal if m.kind == "place" and m.placements is None and m.tile == key]
    if out and out[0].cell is not None:
        out.sort(key=lambda m: (m.cell, m.corners))
    return out


def cell_letters(places: Sequence[Move]) -> dict[tuple[int, int], str]:
    """Each cell of ``places`` (one tile's, in ``tile_places`` order) with its letter."""
    cells = dict.fromkeys(m.cell for m in places if m.cell is not None)
    return {cell: letter(i) for i, cell in enumerate(cells)}


@dataclass(frozen=True)
class TriominoPlace:
    """Where a Triominos move puts its tile, as the table says it: the place's ``letter``
    (None for the round's opening tile), and which of the ``turns`` ways the tile fits there
    it is (``turn``, from 1)."""

    letter: str | None
    turn: int
    turns: int


def triomino_place(move: Move, legal: Iterable[Move], opening: bool) -> TriominoPlace:
    """``move``'s place among the ``legal`` moves of its position; ``opening``: the board is
    still empty. A move that is not among them is named as if it were its tile's only one."""
    places = tile_places(legal, move.tile)
    if move not in places:
        places = [move]
    here = [m for m in places if m.cell == move.cell]
    mark = None if opening else cell_letters(places)[move.cell] if move.cell else None
    return TriominoPlace(mark, here.index(move) + 1, len(here))


def opening(history: Sequence[HistoryRecord]) -> bool:
    """No tile is down yet (Triominos: the next tile opens the round)."""
    return not any(rec["move"]["kind"] == "place" for rec in history)


__all__ = ["ARM_NAMES", "LETTERS", "TriominoPlace", "cell_letters", "letter", "opening",
           "tile_places", "triomino_place"]
