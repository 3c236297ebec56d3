"""How long the board takes to draw a full frame, for a big table.

    python scripts/bench_board.py [--tiles 64] [--frames 200] [--size 80x24]

Builds a Triominos table of ``--tiles`` triangles (a synthetic patch with consistent
numbers: the game's own 56 tiles cannot make 60) and a classic snake of as many
dominoes, opens each in the real game screen (headless), and times full frames: the
board's version is bumped (so the layout and every row strip are rebuilt) and every
visible line is rendered through the Line API. Prints the median and 95th percentile in
milliseconds per frame, and the same for a cached frame (a scroll, strips reused), and
for the frames of a motion (the last tile sliding up from the hand over the whole table,
the timer's 60 frames a second over its 220 ms: each frame renders every visible row).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino.ui.drawing.snake import layout_classic  # noqa: E402
from tui_domino.ui.drawing.triangle_grid import corner_points, layout_triominos  # noqa: E402


def triominos_view(tiles: int) -> dict[str, Any]:
    """A roughly round patch of ``tiles`` cells around (0, 0), in spiral order."""
    cells = sorted(
        ((r, c) for r in range(-12, 13) for c in range(-24, 25)),
        key=lambda rc: (abs(rc[0]) * 2.0) ** 2 + abs(rc[1] - 0.5) ** 2,
    )[:tiles]
    board = []
    for i, (r, c) in enumerate(cells):
        corners = [(vr * 7 + vx * 3) % 6 for vr, vx in corner_points(r, c)]
        board.append({"cell": [r, c], "corners": corners, "player": i % 2})
    history = [{"player": 0, "move": {"kind": "place", "cell": list(cells[-1])}, "events": []}]
    return {"variant": "triominos", "board": board, "history": history}


def classic_view(tiles: int) -> dict[str, Any]:
    line = []
    a = 0
    for i in range(tiles):
        b = (a + 1 + i % 5) % 7 if i % 9 else a
        line.append([a, b])
        a = b
    history = [{"player": 0, "move": {"kind": "place", "end": "right"}, "events": []}]
    return {"variant": "classic", "line": line, "ends": [line[0][0], line[-1][1]],
            "history": history}


Result = tuple[str, list[float], list[float], list[float]]


async def measure(size: tuple[int, int], tiles: int, frames: int) -> list[Result]:
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.screens.game import GameScreen
    from tui_domino.ui.screenshots import session_after
    from tui_domino.ui.storage import Settings
    from tui_domino.ui.widgets import motion
    from tui_domino.ui.widgets.board import BoardView

    results = []
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1, autosave=False)
    async with app.run_test(size=size) as pilot:
        await app.push_screen(GameScreen(session_after("triominos", 3, 4)))
        await pilot.pause()
        board = app.screen.query_one(BoardView)
        height = board.size.height
        for name, view, layout in (
            ("triominos", triominos_view(tiles), layout_triominos),
            ("classic", classic_view(tiles), layout_classic),
        ):
            if layout is layout_classic:
                def draw(width: int, height: int, view: dict[str, Any] = view) -> Any:
                    return layout_classic(view, width, [], None)
            else:
                def draw(width: int, height: int, view: dict[str, Any] = view) -> Any:
                    return layout_triominos(view, [], None)
            full: list[float] = []
            cached: list[float] = []
            for _ in range(frames):
                t0 = time.perf_counter()
                board.show(draw, follow=False)
                for y in range(height):
                    board.render_line(y)
                full.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                for y in range(height):
                    board.render_line(y)
                cached.append((time.perf_counter() - t0) * 1000)
            moving: list[float] = []
            clock = [0.0]

            def tick(clock: list[float] = clock) -> float:
                return clock[0]

            motion.clock = tick
            steps = int(motion.DURATION * motion.FPS) + 1
            for _ in range(max(1, frames // steps)):
                board.show(draw, follow=False)
                board.launch(None, from_below=True)
                for _step in range(steps):
                    clock[0] += 1 / motion.FPS
                    t0 = time.perf_counter()
                    board.mover._tick()
                    for y in range(height):
                        board.render_line(y)
                    moving.append((time.perf_counter() - t0) * 1000)
                board.mover.land()
            results.append((name, full, cached, moving))
            cv = board.canvas()
            print(f"# {name}: {tiles} tiles, canvas {cv.width}x{cv.height}, "
                  f"board view {board.size.width}x{height}")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, default=64)
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--size", default="80x24")
    args = parser.parse_args()
    w, h = (int(x) for x in args.size.split("x"))
    os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-bench-"))
    for name, full, cached, moving in asyncio.run(measure((w, h), args.tiles, args.frames)):
        full.sort()
        cached.sort()
        moving.sort()
        p95 = full[int(len(full) * 0.95) - 1]
        print(f"{name:10} {args.size:>8}  full frame: median {statistics.median(full):.2f} ms, "
              f"p95 {p95:.2f} ms;  cached frame: median {statistics.median(cached):.3f} ms")
        print(f"{'':10} {'':>8}  motion frame: median {statistics.median(moving):.2f} ms, "
              f"p95 {moving[int(len(moving) * 0.95) - 1]:.2f} ms, max {moving[-1]:.2f} ms "
              f"({len(moving)} frames)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
