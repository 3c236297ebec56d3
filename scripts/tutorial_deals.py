"""Which deals make a good tutorial round: each lesson's moment comes when the player does
what the lessons say (and otherwise lays the tile chosen, or draws, or passes).

    python scripts/tutorial_deals.py [--variant spider] [--seeds 40]

Plays each seed's tutorial round in the real screen (headless, the computer at once) and
prints, per seed, the lessons learned, the keys pressed and the player's moves; the deals in
``tui_domino/ui/screens/tutorial.py`` (DEALS) were chosen from its output.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def guided(variant: str, seed: int | None = None, limit: int = 300) -> tuple[list[str],
                                                                                   int, bool]:
    """Plays the tutorial round as the lessons say: (lessons learned, keys pressed, whether
    the round ended)."""
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.screens import tutorial
    from tui_domino.ui.storage import Settings

    if seed is not None:
        tutorial.DEALS[variant] = seed
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1, autosave=False)
    pressed = 0
    async with app.run_test(size=(80, 24)) as pilot:
        screen = tutorial.TutorialScreen(variant)
        await app.push_screen(screen)
        for _ in range(limit):
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            if screen.session.state.is_over:
                break
            if not screen.session.is_human_turn() or app.screen is not screen:
                continue
            keys = tutorial.obedient_keys(screen)
            await pilot.press(*keys)
            pressed += len(keys)
        return screen.tutor.learned, pressed, screen.session.state.is_over


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("classic", "spider", "triominos"))
    parser.add_argument("--seeds", type=int, default=30)
    args = parser.parse_args()
    os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-tutorial-"))
    os.environ["TUI_DOMINO_DELAY"] = "0"
    from tui_domino.ui.screens.tutorial import LESSONS

    for variant in [args.variant] if args.variant else list(LESSONS):
        every = len(LESSONS[variant])
        for seed in range(args.seeds):
            learned, pressed, over = asyncio.run(guided(variant, seed))
            mark = "ALL" if len(learned) == every else "   "
            print(f"{variant:10} seed {seed:3}  {mark} {len(learned)}/{every} lessons, "
                  f"{pressed:3} keys, round {'over' if over else 'unfinished'}  "
                  f"{' '.join(learned)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
