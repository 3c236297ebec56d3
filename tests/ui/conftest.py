"""Pilot helpers: a private data directory, no computer pause, seeded matches."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.worker import WorkerCancelled

from tui_domino.ui.app import DominoApp
from tui_domino.ui.storage import Settings

DEADLINE = 30.0  # the longest wait for what a test waits for


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    d = tmp_path / "home"
    monkeypatch.setenv("TUI_DOMINO_HOME", str(d))
    monkeypatch.setenv("TUI_DOMINO_DELAY", "0")
    yield d


def make_app(seed: int = 1, **kw: object) -> DominoApp:
    return DominoApp(settings=Settings(computer_delay=0.0), seed=seed, **kw)  # type: ignore[arg-type]


async def workers_done(app: object, rounds: int = 100) -> None:
    """Waits until none of ``app``'s workers runs. One cancelled on the way (an exclusive
    worker replaced by the next: the computer's turn asked for again) is waited past;
    AssertionError when workers still come and go after ``rounds`` rounds."""
    for _ in range(rounds):
        try:
            await app.workers.wait_for_complete()  # type: ignore[attr-defined]
        except WorkerCancelled:
            continue
        return
    raise AssertionError(f"workers still cancelled and replaced after {rounds} rounds")


async def settle(pilot: object, rounds: int = 50) -> None:
    """Waits until the computer has nothing left to do (its moves run as workers) and the
    screen's footer shows its keys; AssertionError when the screen is still thinking after
    ``rounds`` rounds, or its footer still empty after the deadline."""
    app = pilot.app  # type: ignore[attr-defined]
    for _ in range(rounds):
        await pilot.pause()  # type: ignore[attr-defined]
        await workers_done(app)
        await pilot.pause()  # type: ignore[attr-defined]
        if not getattr(app.screen, "thinking", False):
            await until(pilot, lambda: footer_filled(app.screen), "the footer's keys")
            return
    raise AssertionError(f"the app never settled: {type(app.screen).__name__} still thinking "
                         f"after {rounds} rounds")


def footer_filled(screen: Screen[object]) -> bool:
    """Whether ``screen``'s footer, if it has one, shows a key when the screen has keys to
    show, fitted to the terminal's width. Textual fills a footer two frames after its screen
    opens (the footer asks for its screen's keys after a frame, then makes them after the
    next), and the game's footer fits its keys to a new width a frame after a resize: under
    load the Pilot's pause, judged by the process's CPU, could end in between."""
    from textual.widgets import Footer

    from tests.ui.helpers import footer_keys
    from tui_domino.ui import keys

    if not screen.query(Footer) or not any(binding.show for (_node, binding, _enabled, _tip)
                                           in screen.active_bindings.values()):
        return True
    width = screen.app.size.width
    return bool(footer_keys(screen)) and all(
        footer.fitted_to in (None, width) for footer in screen.query(keys.Footer))


async def until(pilots: object, test: Callable[[], object], what: str,
                timeout: float = DEADLINE) -> None:
    """Lets the apps of ``pilots`` (a pilot, or a list of them) run until ``test()`` holds
    (what an app does after its next frame, a duel's peer answering); AssertionError naming
    ``what`` when it never does."""
    each = pilots if isinstance(pilots, list) else [pilots]
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        for p in each:
            await p.pause(0.01)
