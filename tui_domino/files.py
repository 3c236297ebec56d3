"""File helpers shared by the game and the network duel."""

from __future__ import annotations

import os
import time
from pathlib import Path


def quarantine(path: Path) -> Path:
    """Moves a file that cannot be read aside, as ``<name>.unreadable-<time><suffix>``
    (never deletes it), and returns its new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.unreadable-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.stem}.unreadable-{stamp}-{n}{path.suffix}")
        n += 1
    os.replace(path, target)
    return target
