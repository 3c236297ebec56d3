"""Renders SVG screenshots of the game into ``screenshots/``.

    python -m tui_domino.ui.screenshots [--out DIR] [--only NAME]

Each scene is seeded, so the pictures are the same on every run: the menu, every
variant in the middle of a game, a round summary and the help screen, at 80x24 and at
120x40.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from tui_domino import ai, env
from tui_domino.i18n import _
from tui_domino.ui.app import DominoApp
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.help import HelpScreen
from tui_domino.ui.session import COMPUTER, YOU, Seat, Session
from tui_domino.ui.storage import Settings

SIZES = ((80, 24), (120, 40))


def session_after(variant: str, seed: int, moves: int, target: int | None = None) -> Session:
    """A match against the greedy computer after ``moves`` moves (both seats played by
    the greedy player), stopped on the human's turn."""
    seats = [Seat(_(YOU)), Seat(_(COMPUTER), "computer", "greedy")]
    session = Session.new(variant, seats, target=target, seed=seed, autosave=False)
    state = session.state
    played = 0
    while not state.is_over and (played < moves or state.to_move != 0):
        p = state.to_move
        assert p is not None
        move = ai.PLAYERS["greedy"](state.view(p), session.ai_rng(), None)
        state.apply(move)
        played += 1
    return session


def session_round_over(variant: str, seed: int, seats: list[Seat] | None = None) -> Session:
    """A round played out by the greedy player for both seats (you and the computer, unless
    ``seats`` are given)."""
    seats = seats or [Seat(_(YOU)), Seat(_(COMPUTER), "computer", "greedy")]
    session = Session.new(variant, seats, seed=seed, autosave=False)
    state = session.state
    while not state.is_over:
        p = state.to_move
        assert p is not None
        state.apply(ai.PLAYERS["greedy"](state.view(p), session.ai_rng(), None))
    return session


Scene = Callable[[object], Awaitable[None]]


async def shoot(name: str, size: tuple[int, int], scene: str, out: Path) -> Path:
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1, autosave=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if scene.startswith("game-"):
            variant = scene.split("-", 1)[1]
            moves = {"classic": 9, "spider": 10, "triominos": 26}[variant]
            seed = {"classic": 4, "spider": 5, "triominos": 3}[variant]
            session = session_after(variant, seed, moves)
            await app.push_screen(GameScreen(session))
            await pilot.pause()
            if variant == "triominos":
                await pilot.press("down")
        elif scene == "summary":
            session = session_round_over("classic", 11)
            await app.push_screen(GameScreen(session))
        elif scene == "help":
            session = session_after("classic", 4, 5)
            await app.push_screen(GameScreen(session))
            await pilot.pause()
            await app.push_screen(HelpScreen("classic"))
        elif scene == "newgame":
            await pilot.press("n")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.pause()
        path = out / f"{name}-{size[0]}x{size[1]}.svg"
        app.save_screenshot(filename=path.name, path=str(out))
    return path


SCENES = {
    "menu": "menu",
    "new-game": "newgame",
    "classic": "game-classic",
    "spider": "game-spider",
    "triominos": "game-triominos",
    "round-summary": "summary",
    "help": "help",
}


async def main_async(out: Path, only: str | None) -> list[Path]:
    paths = []
    for name, scene in SCENES.items():
        if only and name != only:
            continue
        for size in SIZES:
            paths.append(await shoot(name, size, scene, out))
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="screenshots")
    parser.add_argument("--only", default=None, choices=list(SCENES))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault(env.HOME, tempfile.mkdtemp(prefix="tui-domino-shots-"))
    os.environ[env.DELAY] = "0"
    for p in asyncio.run(main_async(out, args.only)):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
