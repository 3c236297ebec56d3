"""For every test: the game speaks English unless a test asks for another language (the
machine's own locale variables do not leak into the tests or the programs they start)."""

from __future__ import annotations

import os

for _var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"
