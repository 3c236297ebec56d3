"""Where the game keeps its files, and file helpers shared by the game, the network duel,
the history and the SSH server: the one place the data directory is decided."""

from __future__ import annotations

import os
import time
from pathlib import Path

import platformdirs

from tui_domino import env

HOME_VARIABLE = env.HOME


def data_dir(create: bool = True) -> Path:
    """``$TUI_DOMINO_HOME`` when set (tests point it at a temporary directory), else the
    user's data directory from platformdirs; made (private to the user) when missing."""
    home = os.environ.get(HOME_VARIABLE)
    if home:
        path = Path(home)
    else:
        path = Path(platformdirs.user_data_dir("tui-domino", appauthor=False))
    if create:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def quarantine(path: Path, why: str = "unreadable") -> Path:
    """Moves a file that cannot be read aside, as ``<name>.<why>-<time><suffix>`` (never
    over another file, never deleting it), and returns its new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.{why}-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.stem}.{why}-{stamp}-{n}{path.suffix}")
        n += 1
    os.replace(path, target)
    return target
