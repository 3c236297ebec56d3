"""A visitor's game process: ``python -m tui_domino.ssh.visitor``, started by the server
on a pseudo-terminal of its own with the visitor's name, a private data directory and the
language variables his ssh client sent (``LANG``: the game speaks his language) in the
environment."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import termios

from tui_domino import env, i18n
from tui_domino.terminal import textual_follows_environment, tune_environment


def take_terminal() -> None:
    """Makes the pseudo-terminal on stdin this session's controlling terminal, so that
    resizes reach the game as SIGWINCH. (The server started us in a new session.)"""
    with contextlib.suppress(OSError):
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def speak_the_visitors_language() -> str:
    """The game speaks its visitor's language: the server put the LANG (LC_ALL,
    LC_MESSAGES) that his ssh client sent in this process's environment (``GameServer.
    visitor_env``), and the game takes it from there. Returns the language ("ru")."""
    return i18n.use(None)


def prepare() -> str:
    """Makes the game the visitor's: his terminal, Textual's settings from his terminal's
    environment (read again when Textual was loaded before: a game forked by the fork
    server), his language. Returns the language."""
    take_terminal()
    tune_environment()
    textual_follows_environment()
    return speak_the_visitors_language()  # (his Settings may choose another: DominoApp's)


def main() -> int:
    prepare()
    # (In a game forked by the fork server Textual is loaded already: prepare() had it read
    # his settings again.)
    # lazy: start-up (Textual loads after tune_environment(): it reads the settings at import)
    from tui_domino.ssh.visitor_app import run_visitor

    return run_visitor(
        name=os.environ.get(env.PLAYER, "guest"),
        lobby_fd=int(os.environ.get(env.LOBBY_FD, "-1")),
    )


if __name__ == "__main__":
    sys.exit(main())
