"""The scenes of docs/screenshots/before-after/40-*.svg, drawn by the game at 80x24.

    PYTHONPATH=<checkout> python scripts/before_after_scenes.py SCENE OUT.svg [--figures F]

SCENE is one of: coach (Triominos, seed 15 after 8 random moves, where 0-5-5 fits two
places: h asks the coach), hand (Triominos, seed 3, the computer has opened and the hand
holds 16 tiles), spider-SEED-MOVES (Spider, the greedy player on both sides, stopped on
your turn after MOVES moves; spider-5-20 and spider-5-22 in the pictures), review (the
review of a Triominos round of the greedy player against itself, seed 2, at its costliest
choice). The same script draws the same scene with an older checkout of the game on
PYTHONPATH (so it does not put its own checkout first on the path).

The coach's figures are worked out once (1000 iterations, no time cap) and kept in the
JSON file F (default: the system's temporary folder), so that two checkouts draw the same
figures in their own words: run it with the newer checkout first. The game's files go to
a folder of their own (TUI_DOMINO_HOME), never the player's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-scenes-"))
os.environ["TUI_DOMINO_DELAY"] = "0"

from tui_domino import ai, rules  # noqa: E402
from tui_domino.ui.app import DominoApp  # noqa: E402
from tui_domino.ui.screens.game import GameScreen  # noqa: E402
from tui_domino.ui.session import Seat, Session  # noqa: E402
from tui_domino.ui.storage import Settings  # noqa: E402

SIZE = (80, 24)
ITERATIONS = 1000


def random_round(variant: str, seed: int, moves: int) -> rules.RoundState:
    """A round dealt with ``seed`` after ``moves`` random legal moves chosen with it."""
    state = rules.new_round(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def greedy_round(variant: str, seed: int) -> rules.RoundState:
    """A round dealt with ``seed`` played out by the greedy player on both sides."""
    state = rules.new_round(variant, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        p = state.to_move
        assert p is not None
        state.apply(ai.PLAYERS["greedy"](state.view(p), rng, None))
    return state


def session_of(state: rules.RoundState, variant: str) -> Session:
    match = rules.new_match(variant, seed=1)
    match.round = state
    return Session(match, [Seat("You"), Seat("Computer", "computer", "greedy")],
                   autosave=False)


def kept(figures: Path, key: str, work_out: Callable[[], Any]) -> Any:
    """The coach's figures under ``key`` in ``figures``, worked out the first time."""
    data = json.loads(figures.read_text()) if figures.exists() else {}
    if key not in data:
        data[key] = work_out()
        figures.write_text(json.dumps(data))
    return data[key]


async def settle(app: DominoApp, pilot: Any, rounds: int = 4) -> None:
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def coach_hint(app: DominoApp, pilot: Any, figures: Path) -> None:
    from tui_domino.ai import coach
    from tui_domino.ui import local_table

    state = random_round("triominos", 15, 8)
    ranked: list[coach.RankedJSON] = kept(figures, "coach", lambda: coach.rank_json(
        state.view(0), coach.move_seed(len(state.history)), ITERATIONS, 1e9))

    async def hint(table: local_table.LocalTable) -> list[coach.RankedJSON] | None:
        return ranked

    # the figures kept, instead of a search cut by the clock
    with patch.object(local_table.LocalTable, "hint", hint):
        await app.push_screen(GameScreen(session_of(state, "triominos")))
        await settle(app, pilot)
        await pilot.press("h")
        await settle(app, pilot, 8)


async def review(app: DominoApp, pilot: Any, figures: Path) -> None:
    from tui_domino.ai import coach
    from tui_domino.history.records import round_record
    from tui_domino.ui.screens.review import ReviewScreen

    state = greedy_round("triominos", 2)
    judged = kept(figures, "review", lambda: [j.to_json() for j in coach.review_round(
        rules.new_round("triominos", seed=2), state.history, (0,), ITERATIONS, 1e9)])
    rnd = round_record(state, 1)
    rnd["review"] = judged
    screen = ReviewScreen("triominos", None, rnd, ["You", "Computer"], 0)
    await app.push_screen(screen)
    await settle(app, pilot)
    screen.pos = max(judged, key=lambda j: j["loss"])["index"]
    screen.show()


async def shoot(scene: str, out: Path, figures: Path) -> None:
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1, autosave=False)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        if scene == "coach":
            await coach_hint(app, pilot, figures)
        elif scene == "hand":
            state = random_round("triominos", 3, 1)
            assert state.to_move == 0 and len(state.hands[0]) == 16
            await app.push_screen(GameScreen(session_of(state, "triominos")))
        elif scene.startswith("spider-"):
            from tui_domino.ui.screenshots import session_after

            _, seed, moves = scene.split("-")
            await app.push_screen(GameScreen(session_after("spider", int(seed), int(moves))))
        elif scene == "review":
            await review(app, pilot, figures)
        else:
            raise SystemExit(f"no scene {scene!r}")
        await settle(app, pilot)
        out.write_text(app.export_screenshot(title=out.stem))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scene")
    parser.add_argument("out", type=Path)
    parser.add_argument("--figures", type=Path,
                        default=Path(tempfile.gettempdir()) / "tui-domino-scene-figures.json")
    args = parser.parse_args(argv)
    asyncio.run(shoot(args.scene, args.out, args.figures))
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
