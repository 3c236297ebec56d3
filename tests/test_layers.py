"""The layers import downwards only: rules imports nothing of ours and no UI; ai and net
never import textual or the UI."""

from __future__ import annotations

import ast
from pathlib import Path

import tui_domino

PKG = Path(tui_domino.__file__).parent


def imports_of(layer: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in (PKG / layer).rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        out[str(path.relative_to(PKG))] = names
    return out


def offenders(layer: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{f} imports {n}"
        for f, names in imports_of(layer).items()
        for n in names
        if any(n == x or n.startswith(x + ".") for x in forbidden)
    ]


def test_rules_imports_nothing_of_the_other_layers():
    forbidden = ("textual", "rich", "asyncio", "socket", "tui_domino.ui", "tui_domino.ai",
                 "tui_domino.net", "tui_domino.cli")
    assert offenders("rules", forbidden) == []


def test_ai_and_net_never_import_the_ui():
    forbidden = ("textual", "tui_domino.ui", "tui_domino.cli")
    assert offenders("ai", forbidden) == []
    assert offenders("net", forbidden) == []
