"""How long the menu takes to read the saved match, as at the game's start: each run a
fresh process that imports the app's session module (as the menu has), then times reading
the file (``storage.read_save``: its format learnt and checked), then the whole of
``Session.load_saved`` (the rules of its game imported, the match checked) and once more.

    python scripts/save_load.py                  # the saves in tests/data
    python scripts/save_load.py --runs 30 a.json b.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_RUN = """
import json, sys, time
from tui_domino.ui.session import Session
from tui_domino.ui import storage
t0 = time.perf_counter()
storage.read_save()
t1 = time.perf_counter()
Session.load_saved()
t2 = time.perf_counter()
Session.load_saved()
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""


def measure(save: Path, runs: int) -> tuple[list[float], list[float], list[float]]:
    read: list[float] = []
    first: list[float] = []
    again: list[float] = []
    home = Path(tempfile.mkdtemp(prefix="tui-domino-save-load-"))
    env = {**os.environ, "TUI_DOMINO_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: the bytecode cached
    try:
        for _ in range(runs):
            shutil.copy(save, home / "current-match.json")
            out = subprocess.run([sys.executable, "-c", ONE_RUN], env=env, check=True,
                                 cwd=home, capture_output=True, text=True).stdout
            a, b, c = json.loads(out)
            read.append(a * 1000)
            first.append(b * 1000)
            again.append(c * 1000)
    finally:
        shutil.rmtree(home)
    return read, first, again


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("saves", nargs="*", type=Path)
    p.add_argument("--runs", type=int, default=15)
    args = p.parse_args()
    saves = args.saves or sorted((ROOT / "tests" / "data").glob("save-*.json"))
    print(f"{'save':30} {'file ms':>8} {'load ms':>8} {'again ms':>9}"
          f"   (medians of {args.runs} runs)")
    for save in saves:
        read, first, again = (statistics.median(xs) for xs in measure(save, args.runs))
        print(f"{save.name:30} {read:8.2f} {first:8.2f} {again:9.2f}")


if __name__ == "__main__":
    main()
