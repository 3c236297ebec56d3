"""A community database in the test's own folder, on a clock the test turns."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_domino.community.db import Store, open_store

START = 1_750_000_000.0  # 2025-06-15 15:06:40 UTC


class Clock:
    """The store's clock: it stands still until the test moves it."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Iterator[Store]:
    with open_store(tmp_path / "community.sqlite3", now=clock) as s:
        yield s
