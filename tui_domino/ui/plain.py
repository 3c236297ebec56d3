"""The one way the screens show text that someone else controls (a name, a chat line, a
reason, a lobby message, an error echoed back): as a rich ``Text`` of plain characters,
never parsed as markup, its control characters shown as escapes
(``tui_domino.text.visible``). ``Text`` works wherever a widget takes content: ``Static``,
``Button`` labels, options of an ``OptionList``, table cells and border titles."""

from __future__ import annotations

from rich.text import Text

from tui_domino.text import visible


def plain(text: str, style: str = "") -> Text:
    """``text`` to show as it is: no markup, control characters made visible (line breaks
    stay line breaks: a ``Text`` draws them, they never reach the terminal)."""
    return Text(visible(text, lines=True), style=style)


def assemble(*parts: str | Text | tuple[str, str], style: str = "") -> Text:
    """A line built from pieces: a plain ``str`` is shown as it is (``plain``), a ``Text``
    is kept, a ``(text, style)`` pair is ``plain(text, style)``."""
    out = Text(style=style)
    for part in parts:
        if isinstance(part, Text):
            out.append_text(part)
        elif isinstance(part, tuple):
            out.append_text(plain(*part))
        else:
            out.append_text(plain(part))
    return out
