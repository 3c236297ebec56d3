"""Helpers for tests that run ``tui-domino host``/``join`` as processes on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

PY = [sys.executable, "-m", "tui_domino"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def process_env(home: Path) -> dict[str, str]:
    """The environment of a seat's process: its own data folder, output unbuffered."""
    return dict(os.environ, TUI_DOMINO_HOME=str(home), PYTHONUNBUFFERED="1")


def start_host(args: list[str], env: dict[str, str], timeout: float = 30.0,
               stderr: int | None = subprocess.DEVNULL) -> tuple[subprocess.Popen[str], str]:
    """Starts ``tui-domino host ARGS`` (headless, with a code) and reads its first line of
    output, the invitation code: then it listens. Returns the process and the code."""
    proc = subprocess.Popen([*PY, "host", *args], env=env, stdout=subprocess.PIPE,
                            stderr=stderr, text=True)
    assert proc.stdout is not None
    timer = threading.Timer(timeout, proc.kill)  # a bound on the wait for the first line
    timer.start()
    try:
        first = proc.stdout.readline()
    finally:
        timer.cancel()
    assert first, "the host printed no invitation code"
    line = json.loads(first)
    assert line["join"].endswith(line["code"])
    return proc, str(line["code"])
