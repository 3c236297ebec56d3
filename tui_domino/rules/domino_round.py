"""What classic dominoes and Domino Spider share: double-six hands as bit masks and a bazaar
drawn from the top."""

from __future__ import annotations

from typing import Any

from tui_domino.rules import dominoes as D
from tui_domino.rules.state import JSON, RoundState, Tile
from tui_domino.rules.types import Options


class DominoRound(RoundState):
    """A round with the double-six set: ``hand_masks`` and the bazaar ``bz[bz_pos:]``."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.hand_masks: list[int] = [0, 0]
        # The bazaar in draw order; draws advance bz_pos, so bz itself never changes and a
        # clone can share it.
        self.bz: list[int] = []
        self.bz_pos = 0

    @property
    def hands(self) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
        return (D.tiles_of(self.hand_masks[0]), D.tiles_of(self.hand_masks[1]))

    @property
    def bazaar(self) -> tuple[Tile, ...]:
        return tuple(D.TILES[i] for i in self.bz[self.bz_pos :])

    @property
    def bazaar_count(self) -> int:
        return len(self.bz) - self.bz_pos

    def _draw(self, player: int) -> Tile:
        """Moves the bazaar's top tile into ``player``'s hand and returns it."""
        t = self.bz[self.bz_pos]
        self.bz_pos += 1
        self.hand_masks[player] |= 1 << t
        return D.TILES[t]

    def _load_tiles(self, d: JSON, on_board: list[Any]) -> None:
        """Reads the hands and the bazaar of ``d``; ValueError unless hands, bazaar and
        ``on_board`` hold every tile of the set exactly once."""
        self.hand_masks = [D.mask_of(h) for h in d["hands"]]
        if len(self.hand_masks) != 2:
            raise ValueError("hands must be two lists of tiles")
        self.bz = [D.index_of(t) for t in d["bazaar"]]
        self.bz_pos = 0
        total = 0
        for m in [*self.hand_masks, D.mask_of(d["bazaar"]), D.mask_of(on_board)]:
            if total & m:
                raise ValueError("a tile appears twice")
            total |= m
        if total != D.FULL:
            raise ValueError("the tiles in play are not the double-six set")

    def detach(self) -> None:
        self.hand_masks = list(self.hand_masks)
