"""Key bindings whose words follow the game's language: ``Key`` is Textual's ``Binding``
with its description (what the footer and the key panel show) looked up in the language
in use each time it is read, so a language chosen in Settings shows at the next redraw."""

from __future__ import annotations

from textual.binding import Binding

from tui_domino.i18n import _


class Key(Binding):
    """A ``Binding`` whose description is translated where it is shown."""

    def __getattribute__(self, name: str) -> object:
        value = super().__getattribute__(name)
        if name == "description" and isinstance(value, str) and value:
            return _(value)
        return value


__all__ = ["Key"]
