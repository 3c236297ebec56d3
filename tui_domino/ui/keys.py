"""Key bindings whose words follow the game's language.

``Key`` is Textual's ``Binding``, written so that the catalogs' tool finds its description
(``Key(key, action, description)``); ``Footer`` is Textual's footer showing each key's
description in the language in use, looked up each time the footer is drawn (Textual copies
a screen's bindings once, in English; a language chosen in Settings shows at the next
redraw)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from tui_domino import i18n
from tui_domino.i18n import N_, _

# Keys that Textual's own widgets put in the footer, their words in the catalogs too
TEXTUAL_KEYS = (
    # TRANSLATORS: the footer's key (Esc) that closes an open drop-down list
    N_("Dismiss menu"),
)


class Key(Binding):
    """A ``Binding`` whose description is a message of the catalogs."""


class Footer(TextualFooter):
    """The footer, its keys' words in the language in use."""

    _compact_in_english: bool | None = None  # as the screen made it

    def compose(self) -> ComposeResult:
        # Russian and Bulgarian words run longer than the English: the keys sit closer.
        if self._compact_in_english is None:
            self._compact_in_english = self.compact
        self.compact = self._compact_in_english or i18n.current() != i18n.DEFAULT
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            yield widget


__all__ = ["TEXTUAL_KEYS", "Footer", "Key"]
