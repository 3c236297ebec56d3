"""What stays in memory as one player plays game after game: after each new game (against
the computer, in one headless app at 80x24), how many earlier games' screens are still
alive after a full collection, how many objects are frozen out of the collector's reach,
and the process's peak memory.

    python scripts/game_memory.py               # 12 classic games
    python scripts/game_memory.py --games 30 --variant spider

A game's screen that outlives its game holds its match, its board and its widgets: about
1 MB each. Only the first games, which load modules, should stay (their objects are frozen
with the modules, ``ui.app.settle_new_modules``)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import sys
import tempfile
import weakref
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-memory-"))
os.environ["TEXTUAL_ANIMATIONS"] = "none"

from tui_domino.ui.app import DominoApp  # noqa: E402
from tui_domino.ui.screens.game import GameScreen  # noqa: E402
from tui_domino.ui.session import Seat  # noqa: E402
from tui_domino.ui.storage import Settings  # noqa: E402


async def play(games: int, variant: str) -> None:
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1)
    screens: list[weakref.ref[GameScreen]] = []
    print("game  earlier screens alive  frozen objects  peak MB")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for n in range(1, games + 1):
            app.start_match(variant, [Seat("You"), Seat("Computer", "computer", "random")])
            for _ in range(3):
                await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            screens.append(weakref.ref(app.screen))
            gc.collect()
            alive = sum(ref() is not None for ref in screens[:-1])
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(f"{n:4d}  {alive:21d}  {gc.get_freeze_count():14d}  {peak:7d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--variant", default="classic",
                        choices=["classic", "spider", "triominos"])
    args = parser.parse_args()
    asyncio.run(play(args.games, args.variant))


if __name__ == "__main__":
    main()
