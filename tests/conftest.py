"""For every test: the game speaks English unless a test asks for another language (the
machine's own locale variables do not leak into the tests or the programs they start), and
a test that switched the language leaves English behind it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tui_domino import i18n

for _var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")
