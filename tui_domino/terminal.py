"""Settings that keep the game comfortable in a remote terminal, decided from the
environment before Textual is imported (Textual reads them once, at import).

Called by the command line before the game starts, and by the SSH server for every
visitor. Each decision can be overridden by the player:

``TUI_DOMINO_COLORS``  ``auto`` (default), ``truecolor``, ``256``, ``16`` or ``mono``.
    ``auto`` uses ``COLORTERM`` (``truecolor``/``24bit``) and then ``TERM``; ssh does
    not forward ``COLORTERM`` unless asked, so a remote game falls back on ``TERM``.
``TUI_DOMINO_MOUSE``   ``on`` (default), ``click`` (clicks and drags only, no motion
    reports: less traffic on a slow link) or ``off``.
``ESCDELAY``           milliseconds to wait for the rest of an escape sequence; 250 over
    ssh (a sequence split across packets must not read as a lone Esc), else Textual's 100.
``TEXTUAL_FPS``        the highest frame rate; 30 over ssh, else Textual's 60.
``TUI_DOMINO_REMOTE``  ``1``/``0`` forces the remote defaults on or off; unset, a session
    is remote when ``SSH_CONNECTION``, ``SSH_CLIENT`` or ``SSH_TTY`` is set.

No module here imports Textual. A game forked by the SSH server's fork server finds
Textual loaded before its environment was its own: ``textual_follows_environment`` makes
Textual read it again.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import MutableMapping
from typing import TextIO

from tui_domino import env

REMOTE_ESCDELAY_MS = 250
REMOTE_FPS = 30

COLOR_CHOICES = ("auto", "truecolor", "256", "16", "mono")
MOUSE_CHOICES = ("on", "click", "off")

# Terminals known to draw 24-bit colour whose TERM says so (COLORTERM rarely crosses ssh).
TRUECOLOR_TERMS = ("xterm-kitty", "alacritty", "wezterm", "foot", "xterm-ghostty", "contour",
                   "iterm2", "mintty")

DRIVER = "tui_domino.ssh.driver:TerminalDriver"


def is_remote(environ: MutableMapping[str, str]) -> bool:
    forced = env.text(env.REMOTE, environ=environ)
    if forced in ("0", "1"):
        return forced == "1"
    return any(environ.get(name) for name in ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"))


def color_system(environ: MutableMapping[str, str]) -> str | None:
    """The colour system for the terminal ``environ`` describes: ``truecolor``, ``256``,
    ``standard`` (16 colours) or None for no colour."""
    choice = env.text(env.COLORS, "auto", environ).lower()
    if choice in ("truecolor", "24bit"):
        return "truecolor"
    if choice == "256":
        return "256"
    if choice in ("16", "standard"):
        return "standard"
    if choice in ("mono", "none", "no"):
        return None
    if "NO_COLOR" in environ:
        return None
    if environ.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return "truecolor"
    term = environ.get("TERM", "").strip().lower()
    if term in ("", "dumb", "unknown"):
        return None
    if term.endswith("-direct") or term.startswith(TRUECOLOR_TERMS):
        return "truecolor"
    if "256color" in term or term.startswith(("kitty", "tmux", "screen.xterm-256")):
        return "256"
    return "standard"


def mouse_mode(environ: MutableMapping[str, str]) -> str:
    mode = env.text(env.MOUSE, "on", environ).lower()
    if mode in ("0", "no", "false"):
        return "off"
    return mode if mode in MOUSE_CHOICES else "on"


def tune_environment(environ: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """Sets Textual's variables in ``environ`` (default ``os.environ``) from the rules
    above, never overriding one the player set. Returns what it set. Must run before
    ``textual`` is imported to take effect in this process."""
    if environ is None:
        environ = os.environ
    out: dict[str, str] = {}

    def default(name: str, value: str) -> None:
        if name not in environ:
            environ[name] = value
            out[name] = value

    colors = color_system(environ)
    if colors is None:
        default("NO_COLOR", "1")
    else:
        default("TEXTUAL_COLOR_SYSTEM", colors)
    if is_remote(environ):
        default("ESCDELAY", str(REMOTE_ESCDELAY_MS))
        default("TEXTUAL_FPS", str(REMOTE_FPS))
    if mouse_mode(environ) != "on" and sys.platform != "win32":
        default("TEXTUAL_DRIVER", DRIVER)
    return out


def textual_follows_environment() -> bool:
    """Makes Textual read this process's environment again when it was loaded before the
    environment was the process's own (a game forked by the SSH server's fork server, which
    loads Textual once for every game): its settings (colour system, frame rate, escape
    delay, driver) are read at import, and the screen's frame period is derived from the
    frame rate there too. Call it after ``tune_environment``. Where Textual is not loaded yet
    (it reads them as it loads) there is nothing to do: returns False."""
    constants = sys.modules.get("textual.constants")
    if constants is None:
        return False
    importlib.reload(constants)
    screen = sys.modules.get("textual.screen")
    if screen is not None:
        screen.UPDATE_PERIOD = 1 / constants.MAX_FPS  # type: ignore[attr-defined]
    return True


def is_terminal(stream: TextIO | None) -> bool:
    """Whether ``stream`` is a terminal: not a pipe or a file, not closed, and not a terminal
    that has hung up (which stops being one)."""
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):  # closed
        return False


def login_name(default: str = "player") -> str:
    """The name a duel goes by when none is given: the login name, else ``default``."""
    return os.environ.get("USER", "").strip()[:20] or default
