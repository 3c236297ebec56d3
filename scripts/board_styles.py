"""How often a round's table outgrows the board in each drawing style, by terminal size.

    python scripts/board_styles.py [--rounds 200] [--sizes 80x24,100x30,120x40]

Plays ``--rounds`` seeded rounds of classic and of Spider (the greedy player against
itself), lays each round's final table (the largest it gets: tiles are only ever added) in
each style on the board a terminal of each size gives it, and prints the share of rounds
whose table does not fit whole. ``ui/drawing/table.STYLE_ROOM`` holds, for each style, the
smallest of these sizes from which 9 rounds of 10 fit. Triominos's rows give the same
share for its triangles at each unit (``ui/drawing/triangle_grid.UNIT_ROOM``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import ai  # noqa: E402
from tui_domino.rules.types import SeatView  # noqa: E402
from tui_domino.ui.drawing.table import table_layout  # noqa: E402
from tui_domino.ui.drawing.tiles import (  # noqa: E402
    COMPACT,
    DIGITS,
    PIPS_SHAPE,
    TileShape,  # noqa: E402
)
from tui_domino.ui.drawing.triangle_grid import layout_triominos  # noqa: E402
from tui_domino.ui.session import Seat, Session  # noqa: E402

SIZES = "80x24,90x27,100x30,110x33,120x40,132x43,140x45,150x48,160x50,180x55"


def board_size(size: tuple[int, ...], shape: TileShape) -> tuple[int, int]:
    """The table's width and height on a terminal of ``size`` (as ``BoardView`` gives them
    to a layout: the score panel's 26 columns, the scrollbar and a margin of a column each
    side; the hint line, the hand's box and the footer, two rows more with pips)."""
    return size[0] - 29, size[1] - (9 if shape.pips else 7)


def final_tables(variant: str, rounds: int) -> list[SeatView]:
    out = []
    for seed in range(rounds):
        session = Session.new(variant, [Seat("a", "computer", "greedy"),
                                        Seat("b", "computer", "greedy")], seed=seed,
                              autosave=False)
        state = session.state
        while not state.is_over:
            p = state.to_move
            assert p is not None
            state.apply(ai.PLAYERS["greedy"](state.view(p), session.ai_rng(), None))
        out.append(state.view(0))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--sizes", default=SIZES)
    args = parser.parse_args(argv)
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    styles = (("pips", PIPS_SHAPE), ("digits", DIGITS), ("compact", COMPACT))
    print("variant  terminal  " + "  ".join(f"{name:>8}" for name, _ in styles))
    for variant in ("classic", "spider"):
        tables = final_tables(variant, args.rounds)
        for columns, rows in sizes:
            shares = []
            for _name, shape in styles:
                width, height = board_size((columns, rows), shape)
                over = 0
                for view in tables:
                    cv = table_layout(variant, view, [], None, [], 0, shape)(width, height)
                    over += cv.width > width + 2 or cv.height > height
                shares.append(f"{100 * over / len(tables):7.1f}%")
            print(f"{variant:8} {columns:>4}x{rows:<4} " + "  ".join(shares))
    tables = final_tables("triominos", args.rounds)
    print("\nvariant  terminal  " + "  ".join(f"{'unit ' + str(u):>8}" for u in (3, 4, 5)))
    for columns, rows in sizes:
        width, height = board_size((columns, rows), DIGITS)
        shares = []
        for u in (3, 4, 5):
            over = 0
            for view in tables:
                cv = layout_triominos(view, [], None, 0, u=u)
                over += cv.width > width + 2 or cv.height > height
            shares.append(f"{100 * over / len(tables):7.1f}%")
        print(f"{'triominos':9}{columns:>4}x{rows:<4} " + "  ".join(shares))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
