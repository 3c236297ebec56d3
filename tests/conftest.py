"""For every test: the game speaks English unless a test asks for another language (the
machine's own locale variables do not leak into the tests or the programs they start), a
test that switched the language leaves English behind it, and the game's data is never the
machine's."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

from tui_domino import i18n

for _var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"
# A test that reads the game's data without choosing a home of its own reads an empty one,
# never the machine's (a saved language or match there would change what it sees).
os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-tests-"))


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")
