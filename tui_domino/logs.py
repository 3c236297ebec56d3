"""The game's log and its crash reports, in the data directory.

``start`` sends the log (Python ``logging``) to ``logs/tui-domino.log``, a file that rotates
at 1 MB and keeps three old ones; it is opened at the first record, so starting the game
writes nothing. ``crash_report`` writes an unhandled error's traceback to
``crashes/crash-<time>.txt`` (private to the user) and says where, so that a player whose
game stopped has something to send."""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import platform
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path

from tui_domino import env
from tui_domino.files import data_dir
from tui_domino.text import visible

LOG_NAME = "tui-domino.log"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def log_path() -> Path:
    return data_dir() / "logs" / LOG_NAME


class LogFile(logging.handlers.RotatingFileHandler):
    """The rotating log file. When a record cannot be written (the file cannot be opened:
    the process is out of file descriptors, the disk is full) the record goes to the
    standard error as one plain line instead of logging's "--- Logging error ---"
    traceback, and the file is tried again with the next record."""

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        if self.stream is not None:  # a half-written stream: start afresh next time
            with contextlib.suppress(OSError, ValueError):
                self.stream.close()
            self.stream = None
        reason = sys.exc_info()[1]
        # a message whose arguments do not fit it; a standard error closed or full
        with contextlib.suppress(OSError, ValueError, TypeError):
            line = (f"tui-domino: {record.levelname.lower()}: {record.getMessage()} "
                    f"(not in the log: {reason})")
            sys.stderr.write(visible(line) + "\n")


def start(level: int = logging.INFO) -> Path:
    """Logs to the rotating file (once per process); returns its path."""
    path = log_path()
    root = logging.getLogger()
    for h in root.handlers:
        if isinstance(h, logging.handlers.RotatingFileHandler) and \
                Path(h.baseFilename) == path.resolve():
            return path
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handler = LogFile(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)
    return path


def crash_report(error: BaseException, where: str = "the game") -> Path:
    """Writes ``error``'s report; returns its path (OSError when it cannot be written)."""
    # lazy: start-up (importlib.metadata only for a crash report)
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("tui-domino")
    except PackageNotFoundError:  # run from a checkout
        ours = "unknown"
    chosen = env.text(env.CRASHES)  # (an SSH visitor's game: the server's folder)
    folder = Path(chosen) if chosen else data_dir() / "crashes"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = folder / time.strftime("crash-%Y%m%d-%H%M%S.txt")
    n = 1
    while path.exists():
        path = folder / time.strftime(f"crash-%Y%m%d-%H%M%S-{n}.txt")
        n += 1
    text = (f"tui-domino {ours} stopped on an error in {where}\n"
            f"{time.strftime('%Y-%m-%d %H:%M:%S %z')} · Python {platform.python_version()} · "
            f"{platform.platform()} · {' '.join(sys.argv[1:]) or '(no arguments)'}\n\n"
            + "".join(traceback.format_exception(error)))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    logging.getLogger("tui_domino").error("stopped on an error (%s): the report is %s",
                                          type(error).__name__, path)
    return path


@contextlib.contextmanager
def logged(what: str, level: int = logging.WARNING,
           exceptions: tuple[type[Exception], ...] = (Exception,)) -> Iterator[None]:
    """Instead of ``contextlib.suppress(Exception)``: an error in the block (closing a
    connection that is gone, say) does not stop the game, but goes to the log with its
    traceback instead of vanishing."""
    try:
        yield
    except exceptions:
        logging.getLogger("tui_domino").log(level, "%s failed", what, exc_info=True)
