"""Where the server keeps its files: the game's own data directory
(``tui_domino.files.data_dir``: ``$TUI_DOMINO_HOME`` when set, else the user's data
directory from platformdirs)."""

from __future__ import annotations

from tui_domino.files import data_dir

__all__ = ["data_dir"]
