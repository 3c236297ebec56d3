"""The environment variables are read in one place (tui_domino/env.py), and the README lists
the same ones: every ``TUI_DOMINO_`` name in the package's source is one of env.py's, the
README names each of them, and no other module spells one out as a string."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tui_domino import env

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tui_domino"
NAME = re.compile(r"TUI_DOMINO_[A-Z_]*[A-Z]")


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_variable_in_the_source_is_in_env_and_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    mentioned = {name for path in sources()
                 for name in NAME.findall(path.read_text(encoding="utf-8"))}
    assert mentioned  # the pattern finds them
    assert mentioned <= set(env.VARIABLES), mentioned - set(env.VARIABLES)
    for name in env.VARIABLES:
        assert f"`{name}`" in readme, f"README.md does not list {name}"
        assert env.VARIABLES[name]  # and each has its description
    unknown = set(NAME.findall(readme)) - set(env.VARIABLES)
    assert not unknown, f"the README names variables the game does not read: {unknown}"


def test_only_env_spells_out_a_variable() -> None:
    for path in sources():
        if path.name == "env.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not NAME.fullmatch(node.value.strip()), \
                    f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}: use env.py's name"


def test_the_readers() -> None:
    environ = {env.DELAY: " 0.5 ", env.SEED: "12", env.COLORS: " Mono "}
    assert env.number(env.DELAY, environ) == 0.5
    assert env.whole(env.SEED, environ) == 12
    assert env.text(env.COLORS, environ=environ) == "Mono"
    assert env.text(env.MOUSE, "on", environ) == "on"
    bad = {env.DELAY: "soon", env.SEED: "-3"}
    assert env.number(env.DELAY, bad) is None and env.whole(env.SEED, bad) is None
    assert env.number(env.DELAY, {}) is None and env.whole(env.SEED, {}) is None
