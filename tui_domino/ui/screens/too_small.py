"""Shown instead of everything while the terminal is smaller than the game needs."""

from __future__ import annotations

from rich.markup import escape
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from tui_domino.i18n import _


class TooSmallScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }  /* opaque: app.tcss, over ModalScreen's */
    TooSmallScreen Static { width: 100%; text-align: center; }
    """

    def __init__(self, need: tuple[int, int]) -> None:
        super().__init__()
        self.need = need

    def compose(self) -> ComposeResult:
        yield Static(id="msg")

    def show_size(self, width: int, height: int) -> None:
        w, h = self.need
        self.query_one("#msg", Static).update(
            "[b]" + escape(_("Please enlarge the terminal")) + "[/b]\n\n"
            # TRANSLATORS: {need} and {size} are terminal sizes in columns × lines, "80×24";
            # the terminal is small: keep the line break and the lines short
            + escape(_("The game needs {need};\nthis one is {size}.").format(
                need=f"{w}×{h}", size=f"{width}×{height}"))
        )

    def on_mount(self) -> None:
        size = self.app.size
        self.show_size(size.width, size.height)
