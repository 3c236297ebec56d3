"""The arena with the hard player's search constants changed, for tuning experiments.

    python scripts/arena_tuned.py --set UCB_C.classic=1.5 -- --variant classic --a hard \
        --b random --games 600 --seed 32 --quiet --json

Each ``--set NAME=VALUE`` (repeatable) overrides a constant of ``tui_domino.ai.search``
before the arena runs: ``NAME`` is a module constant, ``NAME.KEY`` one entry of a
per-variant table; ``VALUE`` is read as JSON (``0.95``, ``25``, ``{"classic": 0}``).
Everything after ``--`` goes to ``tui-domino arena`` unchanged. The experiments listed in
``scripts/results/ai-measurements.md`` that change a constant (the UCB constant, iterations,
playout greed and blocking bonus, margin scale, opponent model, endgame size) are reproduced
this way.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tui_domino.ai import arena, search  # noqa: E402


def apply(setting: str) -> str:
    """Applies one ``NAME[.KEY]=VALUE`` to the search module; returns what it did."""
    name, sep, raw = setting.partition("=")
    if not sep:
        raise ValueError(f"--set wants NAME=VALUE, not {setting!r}")
    value: Any = json.loads(raw)
    attr, _, key = name.partition(".")
    if not attr.isupper() or not hasattr(search, attr):
        raise ValueError(f"the search has no constant {attr!r}")
    if key:
        table = dict(getattr(search, attr))
        if key not in table:
            raise ValueError(f"{attr} has no entry {key!r} (it has {', '.join(table)})")
        table[key] = value
        setattr(search, attr, table)
    else:
        setattr(search, attr, value)
    return f"{name} = {value!r}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ours, rest = (argv[: argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv \
        else (argv, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(ours)
    try:
        for setting in args.set:
            print("search:", apply(setting), flush=True)
    except (ValueError, json.JSONDecodeError) as exc:
        print(f"arena_tuned: {exc}", file=sys.stderr)
        return 2
    arena_parser = argparse.ArgumentParser(prog="tui-domino arena")
    arena.add_arguments(arena_parser)
    arena_args = arena_parser.parse_args(rest)
    if arena_args.jobs != 1:
        print("arena_tuned: the constants set here stay in this process: use --jobs 1",
              file=sys.stderr)
        return 2
    return arena.main(arena_args)


if __name__ == "__main__":
    raise SystemExit(main())
