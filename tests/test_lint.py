"""The code is lint-clean (ruff) and the whole package, its rules engine with it, type-checks
under mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_ruff_is_clean():
    r = run("ruff", "check", "tui_domino", "tests")
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_whole_package_passes_mypy_strict():
    r = run("mypy", "--strict", "tui_domino")
    assert r.returncode == 0, r.stdout + r.stderr
