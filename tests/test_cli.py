"""The command line without a terminal: a clear message, never a screen waiting for ever."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("args", [[], ["play", "--variant", "classic", "--opponent", "hard"]])
def test_the_game_without_a_terminal_says_so_and_stops(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "TUI_DOMINO_HOME": str(tmp_path)}
    # input at its end, as a closed terminal or `< /dev/null` gives: the screen used to wait
    # for keys for ever, spinning a core
    done = subprocess.run([sys.executable, "-m", "tui_domino", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "needs a terminal, and standard input is not one" in done.stderr
    assert "\x1b[" not in done.stderr + done.stdout  # no screen was drawn
    assert not any(tmp_path.iterdir())  # nothing written: no match started
