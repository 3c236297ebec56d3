"""A visitor's game process: ``python -m tui_domino.ssh.visitor``, started by the server
on a pseudo-terminal of its own with the visitor's name and a private data directory in
the environment."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import termios


def take_terminal() -> None:
    """Makes the pseudo-terminal on stdin this session's controlling terminal, so that
    resizes reach the game as SIGWINCH. (The server started us in a new session.)"""
    with contextlib.suppress(OSError):
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def main() -> int:
    take_terminal()
    from tui_domino.terminal import tune_environment

    tune_environment()
    from tui_domino import env
    from tui_domino.ssh.visitor_app import run_visitor

    return run_visitor(
        name=os.environ.get(env.PLAYER, "guest"),
        lobby_fd=int(os.environ.get(env.LOBBY_FD, "-1")),
    )


if __name__ == "__main__":
    sys.exit(main())
