"""Where the test suite's time goes: each test's wall time, the CPU time of its process and
of the processes it started and waited for (servers, games, the command line), and what is
left: time spent waiting (on a sample of idleness, a timer, a process not yet reaped).
A process's CPU is counted when it is reaped: one that outlives its test (the fork server
the test servers share) is counted in the test that ends it, and a folder's waiting can then
come out below zero.

    python3 scripts/suite_profile.py [pytest's arguments...]

runs the README's test command (``python3 -m pytest``, its workers included) with this file
as a plugin, then prints the totals, the figures of each folder of tests, and the tests that
take the most CPU and that wait the most. With SUITE_PROFILE_ROWS=FILE in the environment it
also writes every test's figures there, as JSON rows [test, wall, CPU, their CPU]. The suite
is CPU-bound once its CPU over the machine's cores comes near its wall time."""

from __future__ import annotations

import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

OUT = "SUITE_PROFILE_DIR"  # where each pytest process writes its tests' figures
KEEP = "SUITE_PROFILE_ROWS"  # if set, a file that keeps every test's figures (JSON) after the run

_rows: list[tuple[str, float, float, float]] = []


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


# -- the plugin (loaded in pytest and in each of its workers) -----------------------------------

try:
    import pytest
except ImportError:  # (run as a script without the test tools)
    pytest = None  # type: ignore[assignment]

if pytest is not None:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
        wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        yield
        _rows.append((item.nodeid, time.perf_counter() - wall, time.process_time() - cpu,
                      _children_cpu() - children))


def pytest_sessionfinish(session: Any) -> None:
    folder = os.environ.get(OUT)
    if folder and _rows:
        Path(folder, f"{os.getpid()}.json").write_text(json.dumps(_rows), encoding="utf-8")


# -- the report -----------------------------------------------------------------------------------

def report(rows: list[tuple[str, float, float, float]], wall: float, cpu: float) -> None:
    tests_wall = sum(r[1] for r in rows)
    own = sum(r[2] for r in rows)
    children = sum(r[3] for r in rows)
    print(f"{len(rows)} tests in {wall:.1f} s; CPU of the run {cpu:.1f} s "
          f"({cpu / wall:.2f} cores busy on average, {os.cpu_count()} here)")
    print(f"summed over the tests: {tests_wall:.1f} s, of it CPU {own:.1f} s in pytest's "
          f"processes and {children:.1f} s in theirs, {tests_wall - own - children:.1f} s "
          "waiting")
    folders: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for name, w, c, k in rows:
        path = name.split("::")[0]
        folder = str(Path(path).parent)
        f = folders[folder]
        f[0] += w
        f[1] += c
        f[2] += k
        f[3] += 1
    print(f"\n{'folder':<22}{'tests':>6}{'wall':>9}{'CPU':>9}{'theirs':>9}{'waiting':>9}")
    for folder, (w, c, k, n) in sorted(folders.items(), key=lambda x: -x[1][0]):
        print(f"{folder:<22}{int(n):>6}{w:>9.1f}{c:>9.1f}{k:>9.1f}{w - c - k:>9.1f}")
    print("\nthe most CPU (own + theirs, s):")
    for name, _w, c, k in sorted(rows, key=lambda r: -(r[2] + r[3]))[:15]:
        print(f"{c + k:7.2f}  {name}")
    print("\nthe most waiting (s):")
    for name, w, c, k in sorted(rows, key=lambda r: -(r[1] - r[2] - r[3]))[:15]:
        print(f"{w - c - k:7.2f}  {name}")


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ)
        env[OUT] = folder
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(here),
                                                          env.get("PYTHONPATH", "")]))
        started, cpu = time.perf_counter(), _children_cpu()
        status = subprocess.call([sys.executable, "-m", "pytest", "-p", "suite_profile",
                                  *argv], env=env, cwd=here.parent)
        wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
        rows: list[tuple[str, float, float, float]] = []
        for path in sorted(Path(folder).glob("*.json")):
            rows += [tuple(r) for r in json.loads(path.read_text(encoding="utf-8"))]
    if rows:
        keep = os.environ.get(KEEP)
        if keep:
            Path(keep).write_text(json.dumps(rows), encoding="utf-8")
        print()
        report(rows, wall, cpu)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
