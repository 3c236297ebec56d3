"""Helpers for tests that run ``tui-domino host``/``join`` as processes on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

PY = [sys.executable, "-m", "tui_domino"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def process_env(home: Path) -> dict[str, str]:
    """The environment of a seat's process: its own data folder, output unbuffered."""
    return dict(os.environ, TUI_DOMINO_HOME=str(home), PYTHONUNBUFFERED="1")
