"""The Settings screen: what each choice changes, and that every choice has its place."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox

from tests.hostile import screen_text
from tests.ui.conftest import make_app
from tui_domino.ui.screens.settings import SettingsScreen
from tui_domino.ui.storage import Settings, effective_delay


def test_the_computers_pause_stays_with_the_animations_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pause has its own setting: turning the tiles' motion off kept the computer from
    pausing at all."""
    monkeypatch.delenv("TUI_DOMINO_DELAY", raising=False)
    assert effective_delay(Settings(animations=False, computer_delay=0.6)) == 0.6
    assert effective_delay(Settings(animations=True, computer_delay=0.0)) == 0.0
    monkeypatch.setenv("TUI_DOMINO_DELAY", "0")
    assert effective_delay(Settings(computer_delay=1.2)) == 0.0


async def test_the_bell_is_turned_on_and_off_in_settings(home: Path) -> None:
    """The bell could only be turned off from the palette."""
    app = make_app()
    rung: list[bool] = []
    app.bell = lambda: rung.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "Bell" in screen_text(app) and "a refused move, your turn" in screen_text(app)
        tick = app.screen.query_one("#bell", Checkbox)
        assert tick.value is True  # on where the game is not reached over ssh
        app.ring()
        assert rung == [True]
        tick.focus()
        await pilot.press("space")
        await pilot.pause()
        assert app.settings.bell is False and Settings.load().bell is False  # kept
        app.ring()
        assert rung == [True]  # silent
        await pilot.press("space")
        await pilot.pause()
        app.ring()
        assert rung == [True, True] and app.settings.bell is True
