"""The layers import downwards only, as the contracts in pyproject.toml say (import-linter):
__main__ and cli on top, then the SSH server, the app, the history, the duel, the computer
players and the rules; the shared helpers (files, text, terminal, logs, env) import nothing
else of the game; Textual only in the app and the server; the rules engine does no I/O.
Imports inside functions and relative imports count as any other."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_module_of_the_package_is_over_600_lines() -> None:
    """The house rebuilt: modules a newcomer can read through (tests are not counted)."""
    package = Path(__file__).resolve().parents[1] / "tui_domino"
    long = {str(p.relative_to(package)): n for p in package.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long
