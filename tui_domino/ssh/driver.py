"""Textual's Linux driver with the mouse made optional (``TUI_DOMINO_MOUSE``): ``off``
asks for no mouse reports at all, ``click`` for button presses and drags only (no stream
of motion reports on every move, which costs a slow link)."""

from __future__ import annotations

import os
from typing import Any

from textual.drivers.linux_driver import LinuxDriver

from tui_domino.terminal import mouse_mode


class TerminalDriver(LinuxDriver):
    def __init__(self, app: Any, *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        self._mouse_mode = mouse_mode(os.environ)
        super().__init__(app, debug=debug, mouse=mouse and self._mouse_mode != "off",
                         size=size)

    def _enable_mouse_support(self) -> None:
        if not self._mouse:
            return
        if self._mouse_mode != "click":
            super()._enable_mouse_support()
            return
        self.write("\x1b[?1000h")  # button presses
        self.write("\x1b[?1002h")  # motion only while a button is held
        self.write("\x1b[?1006h")  # SGR coordinates
        self.flush()

    def _disable_mouse_support(self) -> None:
        if not self._mouse:
            return
        if self._mouse_mode != "click":
            super()._disable_mouse_support()
            return
        self.write("\x1b[?1000l")
        self.write("\x1b[?1002l")
        self.write("\x1b[?1006l")
        self.flush()
