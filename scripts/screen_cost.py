"""What each screen costs to open: the CPU time of showing it over the menu and going back,
in one headless app at 80x24 (``App.run_test``, motions off), the median of several times.

    python scripts/screen_cost.py               # every screen, 8 times each
    python scripts/screen_cost.py --times 20 game help

A screen's opening is most of what a player waits for after a key (a game, the help, the
round's summary), and the UI tests open screens about a thousand times: what makes one
cheaper speeds up both. The host's own speed moves these figures a good deal from one minute
to the next: compare two versions in turns, not one run of each."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-screens-"))
os.environ["TEXTUAL_ANIMATIONS"] = "none"

from textual.screen import Screen  # noqa: E402

from tui_domino.ui.app import DominoApp  # noqa: E402
from tui_domino.ui.screens.game import GameScreen  # noqa: E402
from tui_domino.ui.screens.help import HelpScreen  # noqa: E402
from tui_domino.ui.screens.new_game import NewGameScreen  # noqa: E402
from tui_domino.ui.screens.settings import SettingsScreen  # noqa: E402
from tui_domino.ui.screens.tutorial import TutorialScreen  # noqa: E402
from tui_domino.ui.screenshots import session_after, session_round_over  # noqa: E402
from tui_domino.ui.storage import Settings  # noqa: E402

SCREENS: dict[str, Callable[[int], Screen[Any]]] = {
    # a round in play, a different deal each time (classic, Spider, Triominos in turn)
    "game": lambda i: GameScreen(session_after(("classic", "spider", "triominos")[i % 3],
                                               i, 10)),
    # a round just over: the table and its summary over it
    "round over": lambda i: GameScreen(session_round_over("classic", 11)),
    "help": lambda i: HelpScreen(("classic", "spider", "triominos", None)[i % 4]),
    "tutorial": lambda i: TutorialScreen("classic"),
    "new game": lambda i: NewGameScreen(),
    "settings": lambda i: SettingsScreen(),
}


async def measure(names: list[str], times: int) -> dict[str, list[float]]:
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1)
    out: dict[str, list[float]] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for name in names:
            SCREENS[name](0)  # what the screen loads on first use is not counted
            costs = []
            for i in range(times):
                screen = SCREENS[name](i)
                start = time.process_time()
                await app.push_screen(screen)
                await pilot.pause()
                while len(app.screen_stack) > 2:  # a summary over the table, say
                    app.pop_screen()
                app.pop_screen()
                await pilot.pause()
                costs.append(time.process_time() - start)
            out[name] = costs
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="screen",
                        help=f"the screens to open: {', '.join(SCREENS)} (all when none is named)")
    parser.add_argument("--times", type=int, default=8, help="how many times each opens")
    args = parser.parse_args()
    names = args.names or list(SCREENS)
    unknown = [n for n in names if n not in SCREENS]
    if unknown:
        parser.error(f"no such screen: {', '.join(unknown)}")
    costs = asyncio.run(measure(names, args.times))
    print(f"{'screen':12} {'median':>9} {'least':>9}   CPU to open and close, "
          f"{args.times} times each")
    for name, values in costs.items():
        print(f"{name:12} {statistics.median(values) * 1000:7.1f} ms {min(values) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
