"""The game as a visitor sees it: the game's own app, with the lobby on top."""

from __future__ import annotations

from tui_domino.ui import storage
from tui_domino.ui.app import main_app


def run_visitor(name: str, lobby_fd: int) -> int:
    settings = storage.Settings.load()
    settings.name = name
    settings.save()
    return main_app() or 0
