"""Which deals make a good tutorial round: every lesson's moment comes when the player does
what the lessons say (and otherwise lays the tile chosen, or draws, or passes), and the round
ends in a few dozen keys.

    python scripts/tutorial_deals.py [--variant triominos] [--seeds 300] [--check 5]

Plays each seed's tutorial round without a screen (the tutor and the selection the screen
uses, the easy computer as the game runs it) and prints the seeds that teach every lesson,
fewest keys first; then plays the first ``--check`` of them in the real screen (headless, the
computer at once) to confirm. The deals in ``tui_domino/ui/tutorial_deals.py`` were chosen
from its output.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino import rules  # noqa: E402
from tui_domino.ui.selection import Selection  # noqa: E402
from tui_domino.ui.tutor import LESSONS, Tutor, obedient_keys  # noqa: E402
from tui_domino.ui.tutorial_deals import DEALS, Deal, tutorial_session  # noqa: E402


class Round:
    """A tutorial round without a screen: the keys do what the table's keys do."""

    def __init__(self, variant: str, deal: Deal) -> None:
        self.session = tutorial_session(variant, deal)
        self.sel = Selection(variant)
        self.tutor = Tutor(variant, self.session.match.options)
        self.helped = 0
        self.refresh()

    def refresh(self) -> None:
        s = self.session
        while not s.state.is_over and not s.is_human_turn():
            self.sel.update(s.view()["hand"], [])
            self.see()
            s.play(s.computer_move())
            self.sel.reset()
        self.sel.update(s.view()["hand"], s.state.legal_moves() if s.is_human_turn() else [])
        self.see()

    def see(self) -> None:
        self.tutor.see(self.tutor.observe(self.session, self.sel, self.helped))

    def press(self, key: str) -> None:
        action = {"right": "tile", "down": "place", "enter": "play", "d": "draw", "p": "pass",
                  "r": "rotate", "c": "close", "m": "mark", "question_mark": "help"}.get(key)
        if key == "escape":  # the help closed: the table is drawn again as it resumes
            self.refresh()
            return
        look = self.tutor.observe(self.session, self.sel, self.helped)
        if action is None or not self.tutor.allows(action, look):
            return
        sel = self.sel
        move: rules.Move | None = None
        if action == "tile":
            sel.move_tile(1)
        elif action == "place":
            sel.cycle_place(1)
        elif action == "rotate":
            sel.rotate()
        elif action == "close":
            sel.toggle_close()
        elif action == "mark":
            sel.toggle_mark()
        elif action == "help":
            self.helped += 1
        elif action == "play":
            move = sel.build_move()
        elif sel.can(action):
            move = rules.DRAW if action == "draw" else rules.PASS
        if move is None:
            self.see()
            return
        self.session.play(move)
        sel.reset()
        self.refresh()


def guided(variant: str, deal: Deal, limit: int = 200) -> tuple[list[str], int, bool, bool]:
    """Plays the tutorial round as the lessons say: (lessons learned, keys pressed, whether
    the round ended, whether the player won it)."""
    game = Round(variant, deal)
    pressed = 0
    for _ in range(limit):
        if game.session.state.is_over:
            break
        for key in obedient_keys(game.tutor, game.sel):
            game.press(key)
            pressed += 1
    state = game.session.state
    return game.tutor.learned, pressed, state.is_over, state.winner == game.session.viewer


async def on_screen(variant: str, deal: Deal, limit: int = 300) -> tuple[list[str], int, bool]:
    """The same in the real screen."""
    from tui_domino.ui import tutorial_deals
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.screens.tutorial import TutorialScreen
    from tui_domino.ui.storage import Settings

    tutorial_deals.DEALS[variant] = deal
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1, autosave=False)
    pressed = 0
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TutorialScreen(variant)
        await app.push_screen(screen)
        for _ in range(limit):
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            if screen.session.state.is_over:
                break
            if not screen.session.is_human_turn() or app.screen is not screen:
                continue
            keys = obedient_keys(screen.tutor, screen.sel)
            await pilot.press(*keys)
            pressed += len(keys)
        return screen.tutor.learned, pressed, screen.session.state.is_over


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("classic", "spider", "triominos"))
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--check", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-tutorial-"))
    os.environ["TUI_DOMINO_DELAY"] = "0"
    for variant in [args.variant] if args.variant else list(LESSONS):
        every = len(LESSONS[variant])
        good = []
        for seed in range(args.seeds):
            deal = dataclasses.replace(DEALS[variant], seed=seed)
            learned, pressed, over, won = guided(variant, deal)
            if len(learned) == every and over:
                good.append((not won, pressed, seed))
                print(f"{variant:10} seed {seed:4}  {pressed:3} keys  "
                      f"{'won ' if won else 'lost'}  {' '.join(learned)}", flush=True)
        good.sort()
        print(f"{variant}: {len(good)} of {args.seeds} seeds teach every lesson; the player "
              f"winning first, then the fewest keys: {good[:10]}")
        for _lost, pressed, seed in good[:args.check]:
            deal = dataclasses.replace(DEALS[variant], seed=seed)
            learned, keys, over = asyncio.run(on_screen(variant, deal))
            ok = len(learned) == every and over
            print(f"  on the screen, seed {seed}: {'ALL' if ok else 'NOT ALL'} "
                  f"{len(learned)}/{every} lessons, {keys} keys (without a screen {pressed})",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
