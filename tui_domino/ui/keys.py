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
    _shows: tuple[object, ...] | None = None  # what the keys shown were made from

    def compose(self) -> ComposeResult:
        # Russian and Bulgarian words run longer than the English: the keys sit closer.
        if self._compact_in_english is None:
            self._compact_in_english = self.compact
        self.compact = self._compact_in_english or i18n.current() != i18n.DEFAULT
        self._shows = self.would_show()
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                if widget.description:
                    widget.description = _(widget.description)
                # (styled so from the start: set once shown, each key's style is worked out
                # again)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def would_show(self) -> tuple[object, ...] | None:
        """What the keys would be made from now: the screen's keys shown, how each
        reads and whether it is enabled, and the language (None: not known yet)."""
        if not self._bindings_ready or not self.is_attached:
            return None
        display = self.app.get_key_display
        shown = tuple((b.key, display(b), b.action, b.description, b.group, enabled, tooltip)
                      for (_node, b, enabled, tooltip) in self.screen.active_bindings.values()
                      if b.show)
        return (shown, i18n.current(), self._compact_in_english)

    async def recompose(self) -> None:
        # Textual makes the keys anew whenever the screen's keys may have changed (the focus
        # moved, a check said so): most times they have not, and making them is not free.
        shows = self.would_show()
        if shows is not None and shows == self._shows:
            return
        await super().recompose()


__all__ = ["TEXTUAL_KEYS", "Footer", "Key"]
