"""The environment variables the game reads, in one place: a named constant for each, what
it means, and small readers. Imports nothing else of the game (a shared helper: the
terminal's tuning reads it before Textual is imported). README.md lists the same variables.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

HOME = "TUI_DOMINO_HOME"
"""The directory of the game's files (settings, saved match, history, duel logs)."""
DELAY = "TUI_DOMINO_DELAY"
"""Seconds the computer pauses before its moves, instead of the setting (0: none)."""
COLORS = "TUI_DOMINO_COLORS"
"""The colours: auto (the default), truecolor, 256, 16 or mono."""
MOUSE = "TUI_DOMINO_MOUSE"
"""The mouse: on (the default), click (clicks and drags, no motion) or off."""
REMOTE = "TUI_DOMINO_REMOTE"
"""1 or 0 forces the remote terminal's defaults on or off (unset: decided from SSH_*)."""
SEED = "TUI_DOMINO_SEED"
"""A whole number: the deals of an SSH visitor's games come from it (tests, measurements)."""
PLAYER = "TUI_DOMINO_PLAYER"
"""The SSH visitor's name, given to the visitor's game process by the server."""
LOBBY_FD = "TUI_DOMINO_LOBBY_FD"
"""The file descriptor of the visitor's game process's socket to the server's lobby."""
FORK_SERVER = "TUI_DOMINO_FORK_SERVER"
"""0 makes ``tui-domino serve`` start every visitor's game in a fresh interpreter (as
``--no-fork-server``); else games are forked from a process that loaded the game once."""
CRASHES = "TUI_DOMINO_CRASHES"
"""Where the game writes the report of an error of its own (else the ``crashes`` folder of its
files): an SSH visitor's game writes it in the server's, where its operator finds it."""
SSH_PASSWORD = "TUI_DOMINO_SSH_PASSWORD"
"""The password of ``tui-domino serve``, kept out of the process list (as --password)."""

VARIABLES: dict[str, str] = {
    HOME: "the directory of the game's files (settings, saved match, history, duel logs)",
    DELAY: "seconds the computer pauses before its moves, instead of the setting",
    COLORS: "the colours: auto (the default), truecolor, 256, 16 or mono",
    MOUSE: "the mouse: on (the default), click (clicks and drags only) or off",
    REMOTE: "1 or 0 forces the remote terminal's defaults on or off",
    SEED: "the deals of an SSH visitor's games come from this whole number",
    PLAYER: "the SSH visitor's name (set by the server for the visitor's game)",
    LOBBY_FD: "the visitor's game's socket to the lobby (set by the server)",
    FORK_SERVER: "0: serve starts every visitor's game in a fresh interpreter (no fork server)",
    SSH_PASSWORD: "the password of tui-domino serve, kept out of the process list",
    CRASHES: "where the game writes the report of an error of its own (set by the server)",
}


def text(name: str, default: str = "", environ: Mapping[str, str] | None = None) -> str:
    """The variable's value without surrounding spaces, ``default`` when unset."""
    return (os.environ if environ is None else environ).get(name, default).strip()


def number(name: str, environ: Mapping[str, str] | None = None) -> float | None:
    """The variable as a number, None when unset or not a number."""
    try:
        return float(text(name, environ=environ))
    except ValueError:
        return None


def whole(name: str, environ: Mapping[str, str] | None = None) -> int | None:
    """The variable as a whole number (digits only), None when unset or not one."""
    value = text(name, environ=environ)
    return int(value) if value.isdigit() else None
