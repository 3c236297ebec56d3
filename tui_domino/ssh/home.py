"""Where the server keeps its files: ``$TUI_DOMINO_HOME`` when set (tests point it at a
temporary directory), else the user's data directory from platformdirs -- the same
rule as the game's own settings."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    home = os.environ.get("TUI_DOMINO_HOME")
    path = Path(home) if home else Path(platformdirs.user_data_dir("tui-domino", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
