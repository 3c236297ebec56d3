"""Random keys, clicks and terminal sizes through the whole app, seeded: nothing crashes.

Longer runs of input like this (300 steps) found a crash that no test of a single feature
had (the command palette opened twice beneath the too-small notice; its own test is in
test_terminal.py). These short runs are a net for that kind of fault, not a search.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from textual.pilot import OutOfBounds

from tests.ui.helpers import screen_lines
from tui_domino.ui.app import DominoApp
from tui_domino.ui.session import Seat
from tui_domino.ui.storage import DuelForm, Remembered, Settings

# The menus' and the games' keys, Enter most of all (it opens, chooses and plays).
KEYS = ["enter"] * 6 + [
    "n", "c", "d", "s", "?", "escape", "escape", "tab", "shift+tab", "up", "down", "left",
    "right", "f5", "p", "r", "m", "space", "1", "3", "9", "y", "a", "h", "j", "k", "l",
    "home", "end", "pageup", "pagedown", "ctrl+p", "x", "backspace", "t",
]
SIZES = [(80, 24), (120, 40), (60, 18), (100, 30), (81, 25), (200, 50)]


def staying(app: DominoApp) -> DominoApp:
    """The game, except that quitting it (the menu's Quit) leaves it running: a random run
    would often end there. (The test's end shuts the app down without ``exit``.)"""
    app.exit = lambda *args, **kw: None  # type: ignore[method-assign]
    return app


def quiet_settings() -> Settings:
    """No pause for the computer; a duel hosted from the menu listens on the loopback only,
    on a free port."""
    return Settings(computer_delay=0.0,
                    extra=Remembered(duel=DuelForm(
                        listen="127.0.0.1", port=0, join="127.0.0.1:9")))


async def drive(app: DominoApp, rng: random.Random, steps: int) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen_lines(app)  # what a player sees: looked at first, after every step, at the end
        for i in range(steps):
            r = rng.random()
            if r < 0.04:
                await pilot.resize_terminal(*rng.choice(SIZES))
            elif r < 0.14:
                w, h = app.size
                with contextlib.suppress(OutOfBounds):
                    await pilot.click(offset=(rng.randrange(w), rng.randrange(h)))
            else:
                await pilot.press(rng.choice(KEYS))
            if i % 5 == 0:
                await pilot.pause()
            screen_lines(app)  # (each widget drawn, or its error raised here)
        await pilot.pause()
        screen_lines(app)
        assert app.is_running


@pytest.mark.parametrize("seed", [2, 3])
async def test_random_input_through_the_menus_never_crashes(seed: int) -> None:
    await drive(staying(DominoApp(settings=quiet_settings(), seed=seed)), random.Random(seed), 120)


@pytest.mark.parametrize(("variant", "opponent"), [
    ("classic", "person"), ("spider", "easy"), ("triominos", "greedy")])
async def test_random_input_in_a_game_never_crashes(variant: str, opponent: str) -> None:
    app = staying(DominoApp(settings=quiet_settings(), seed=3))
    second = Seat("Bob") if opponent == "person" else Seat("Computer", "computer", opponent)
    target = {"classic": 50, "spider": 50, "triominos": 200}[variant]
    app.call_later(lambda: app.start_match(variant, [Seat("Ann"), second], target))
    await drive(app, random.Random(variant), 80)


async def test_a_widget_that_cannot_draw_itself_fails_a_random_run() -> None:
    """The tests' headless apps draw no frame that nobody reads (tests/conftest.py): a random
    run looks at the screen after every step, so a widget that fails to draw still fails
    it, as it would crash a player's game at its next frame."""
    from textual.strip import Strip
    from textual.widget import Widget

    class Broken(Widget):
        DEFAULT_CSS = "Broken { width: 10; height: 1; }"

        def render_line(self, y: int) -> Strip:
            raise RuntimeError("cannot draw")

    app = staying(DominoApp(settings=quiet_settings(), seed=2))
    app.call_later(lambda: app.screen.mount(Broken()))
    with pytest.raises(RuntimeError, match="cannot draw"):
        await drive(app, random.Random(2), 5)
