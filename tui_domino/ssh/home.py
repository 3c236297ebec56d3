"""Where the server keeps its files, and each visitor's game its own: the game's data
directory (``tui_domino.files.data_dir``: ``$TUI_DOMINO_HOME`` when set, else the user's
data directory from platformdirs).

A visitor's game keeps its settings, its saved match and its history in a home folder of
its own (``TUI_DOMINO_HOME`` in its environment). An account's home is kept across visits
(``players/ID``): his History, Statistics, settings and saved match follow him. A guest's
home, and the home of an account's second visit at the same time (two games writing one
saved match would spoil it), is a folder of that visit's alone (``visitors/…``), removed
when it ends."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from tui_domino.files import data_dir


def private_folder(path: Path) -> Path:
    """``path``, made if missing, readable by the server's user only (whatever the umask:
    visitors' saves are private)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.chmod(0o700)
    return path


class Homes:
    """The visitors' home folders under ``root``."""

    def __init__(self, root: Path) -> None:
        self.players = root / "players"  # accounts' homes, kept
        self.visitors = root / "visitors"  # one visit's homes, removed as it ends
        self.in_use: dict[int, Path] = {}  # accounts' homes taken, by account

    def start(self) -> None:
        """The server starts: no visit's home is left from before."""
        shutil.rmtree(self.visitors, ignore_errors=True)
        private_folder(self.visitors)
        private_folder(self.players)

    def close(self) -> None:
        shutil.rmtree(self.visitors, ignore_errors=True)

    def take(self, account: int | None) -> Path:
        """A home for a visit of ``account`` (None: a guest)."""
        if account is not None and account not in self.in_use:
            home = private_folder(self.players / str(account))
            self.in_use[account] = home
            return home
        return private_folder(self.visitors / uuid.uuid4().hex)

    def give_back(self, home: Path) -> None:
        """The visit that had ``home`` ended."""
        for account, taken in list(self.in_use.items()):
            if taken == home:
                del self.in_use[account]
                return
        if home.parent == self.visitors:
            shutil.rmtree(home, ignore_errors=True)


__all__ = ["Homes", "data_dir", "private_folder"]
