"""The layers import downwards only, as the contracts in pyproject.toml say (import-linter):
__main__ and cli on top, then the SSH server, the app, the history, the duel, the computer
players and the rules; the shared helpers (files, text, terminal, logs, env) import nothing
else of the game; Textual only in the app and the server; the rules engine does no I/O.
Imports inside functions and relative imports count as any other."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_module_reaches_into_another_modules_private_members() -> None:
    """What a line count stood for: a module holds one idea and uses another's public face.
    ruff's SLF001 finds any ``obj._member`` read or written from outside its class."""
    package = ROOT / "tui_domino"
    found = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "SLF001",
         "--output-format", "concise", str(package)],
        capture_output=True, text=True, check=False)
    assert found.returncode == 0, found.stdout + found.stderr
