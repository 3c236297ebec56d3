"""The layers import downwards only, as the contracts in pyproject.toml say (import-linter):
__main__ and cli on top, then the SSH server, the app, the community, the history, the duel,
the computer players and the rules; the shared helpers (files, text, names, terminal, logs,
env, formats) import nothing else of the game; Textual only in the app and the server; the rules
engine does no I/O. Imports inside functions and relative imports count as any other; no two
modules import each other, however late."""

from __future__ import annotations

import ast
import logging
import subprocess
import sys
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    # import-linter configures logging as a command does (logging.config.dictConfig), which
    # silences every logger made before it: the later tests of this process need theirs
    logging.getLogger("tui_domino")  # (made by now in a process that ran other tests)
    loggers = logging.Logger.manager.loggerDict
    silenced = {name: lg.disabled for name, lg in loggers.items()
                if isinstance(lg, logging.Logger)}
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0
    finally:
        for name, lg in loggers.items():
            if isinstance(lg, logging.Logger):
                lg.disabled = silenced.get(name, False)
        for handler in root.handlers:
            if handler not in handlers:
                handler.close()
        root.handlers[:], root.level = handlers, level
    assert not logging.getLogger("tui_domino").disabled


def test_no_module_reaches_into_another_modules_private_members() -> None:
    """What a line count stood for: a module holds one idea and uses another's public face.
    ruff's SLF001 finds any ``obj._member`` read or written from outside its class."""
    package = ROOT / "tui_domino"
    found = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated", "--select", "SLF001",
         "--output-format", "concise", str(package)],
        capture_output=True, text=True, check=False)
    assert found.returncode == 0, found.stdout + found.stderr


def module_graph(package: Path) -> dict[str, set[str]]:
    """Which of the package's modules each one imports when it runs: at its top or in a
    function (an import deferred is still a dependency), not under ``if TYPE_CHECKING:``.
    ``from p import m`` is an import of the module ``p.m`` where there is one; a module's
    import of a package it lies in is the package's own face, not an edge."""
    modules: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hidden = {id(node) for branch in ast.walk(tree)
                  if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                  for statement in branch.body for node in ast.walk(statement)}
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[:len(here.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                           for a in node.names]
            for target in targets:
                if target in modules and target != name and not name.startswith(target + "."):
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_hides_behind_a_deferred_import() -> None:
    """Two modules that need each other are one idea split in two, or a third idea between
    them: either way the cycle goes, even when one side defers its import into a function."""
    assert cycles(module_graph(ROOT / "tui_domino")) == []


def test_the_cycle_check_sees_a_deferred_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg import a\n")
    (package / "a.py").write_text("from pkg import b\n")
    (package / "b.py").write_text("def f():\n    from pkg.a import x\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from pkg import d\n")
    (package / "d.py").write_text("import pkg.c\n")
    assert cycles(module_graph(package)) == [["pkg.a", "pkg.b"]]
