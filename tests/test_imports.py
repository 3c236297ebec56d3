"""Every import inside a function says why it is not at the top of its module.

An import placed in a function (or a method, or a lambda) rather than at module level, and
not in an ``if TYPE_CHECKING:`` block, must carry a one-line reason in a comment on its
first line or on the line just above it; a run of consecutive import statements shares the
comment above its first one. The reason says why, with one of these words:

``start-up``
    the module is loaded when a program starts (the game's menu, the command line's parser
    that every command builds, the SSH server, a visitor's game) and the imported one is
    not, or must load later (Textual after ``tune_environment()``);
``worker``
    it runs only in a worker: the searching players' process, or a thread (a Textual thread
    worker, the history's writer) that keeps SQLite off the screen's thread;
``optional``
    it is guarded by ``except ImportError`` (a module or a system call that may be missing);
``on demand``
    the module loads during play (a screen opening, a round's end) and the imported one
    would add a visible delay there (the coach and its search, ~160 ms; the duel's channel
    and screen) that only a later choice of the player needs;
``ruff``
    moved up, it would leave code that ruff asks to rewrite (the comment names the rule).

Anything else moves to the top of its module.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tui_domino"
REASON = re.compile(r"start-up|worker|optional|on demand|ruff")
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
IMPORTS = (ast.Import, ast.ImportFrom)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def function_imports(tree: ast.Module) -> list[tuple[ast.stmt, ast.stmt | None]]:
    """Each import in a function's scope (outside ``if TYPE_CHECKING:``), with the import
    statement just before it in the same block when there is one and it ends on the line
    above (the two are one run)."""
    found: list[tuple[ast.stmt, ast.stmt | None]] = []

    def walk(node: ast.AST, in_function: bool, in_type_checking: bool) -> None:
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            skip = in_type_checking or (
                field == "body" and isinstance(node, ast.If) and _is_type_checking(node.test))
            previous: ast.AST | None = None
            for child in block:
                if isinstance(child, IMPORTS) and in_function and not skip:
                    run = (previous if isinstance(previous, IMPORTS)
                           and previous.end_lineno == child.lineno - 1 else None)
                    found.append((child, run))
                previous = child
        for child in ast.iter_child_nodes(node):
            walk(child, in_function or isinstance(child, FUNCTIONS),
                 in_type_checking or (isinstance(node, ast.If) and _is_type_checking(node.test)
                                      and child in node.body))

    walk(tree, False, False)
    return found


def comment_of(line: str) -> str:
    """The comment at the end of ``line`` (an import's line has no ``#`` in a string)."""
    return line[line.index("#"):] if "#" in line else ""


def unexplained(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """``file:line: import`` (the file relative to ``root``) for each function-level import
    of ``path`` without a reason."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    imports = function_imports(ast.parse(source, filename=str(path)))
    first_of_run: dict[int, int] = {}
    problems = []
    for node, run in imports:
        first = first_of_run.get(run.lineno, run.lineno) if run is not None else node.lineno
        first_of_run[node.lineno] = first
        above = lines[first - 2].strip() if first >= 2 else ""
        said = comment_of(lines[node.lineno - 1]) + " " + (above if above.startswith("#")
                                                           else "")
        if not REASON.search(said):
            where = path.relative_to(root)
            problems.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return problems


def test_every_function_level_import_says_why() -> None:
    problems = [p for path in sorted(PACKAGE.rglob("*.py")) for p in unexplained(path)]
    assert not problems, (
        "imports inside functions without a reason (move them to the top of the module, "
        "or say why on the line or the one above: see this test's docstring):\n"
        + "\n".join(problems))


def test_the_check_sees_what_it_should(tmp_path: Path) -> None:
    """The rule itself: a bare import in a function is caught, at module level and under
    TYPE_CHECKING it is not, a run shares the comment above it, a stray word is no reason."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "import os\n"
        "if TYPE_CHECKING:\n"
        "    import json\n"
        "def f():\n"
        "    import re\n"
        "    # lazy: start-up (a run of two)\n"
        "    import csv\n"
        "    import sqlite3\n"
        "    x = 0\n"
        "    import zlib  # lazy: a cycle (no reason: tests/test_layers.py forbids cycles)\n"
        "    # a comment that gives no reason\n"
        "    import ast\n"
        "    g = lambda: __import__('x')\n"
        "    class C:\n"
        "        def m(self):\n"
        "            import array\n"
        "    return g, C\n",
        encoding="utf-8")
    found = unexplained(sample, tmp_path)
    assert [p.split(":")[1] for p in found] == ["6", "11", "13", "17"], found
