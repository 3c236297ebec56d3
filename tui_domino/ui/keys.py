"""Key bindings whose words follow the game's language.

``Key`` is Textual's ``Binding``, written so that the catalogs' tool finds its description
(``Key(key, action, description)``); ``Footer`` is Textual's footer showing each key's
description in the language in use, looked up each time the footer is drawn (Textual copies
a screen's bindings once, in English; a language chosen in Settings shows at the next
redraw)."""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from tui_domino import i18n
from tui_domino.i18n import N_, _

ARROWS = set("←→↑↓ ")  # a key shown as arrows alone says what it does

# Keys that Textual's own widgets put in the footer, their words in the catalogs too
TEXTUAL_KEYS = (
    # TRANSLATORS: the footer's key (Esc) that closes an open drop-down list
    N_("Dismiss menu"),
)


class Key(Binding):
    """A ``Binding`` whose description is a message of the catalogs."""


# A box of buttons: ← and → move between them, as Tab and Shift+Tab do.
BUTTON_ARROWS = [Binding("left", "app.focus_previous", show=False),
                 Binding("right", "app.focus_next", show=False)]


def _made_compact(key: FooterKey, compact: bool) -> None:
    """``key``, not shown yet, made compact or not without its style worked out again."""
    key.set_class(compact, "-compact", update=False)
    key.set_reactive(FooterKey.compact, compact)


class Footer(TextualFooter):
    """The footer, its keys' words in the language in use."""

    _compact_in_english: bool | None = None  # as the screen made it
    _shows: tuple[object, ...] | None = None  # what the keys shown were made from
    fitted_to: int | None = None  # the terminal's width the keys shown were fitted to

    def compose(self) -> ComposeResult:
        # Russian and Bulgarian words run longer than the English: the keys sit closer.
        if self._compact_in_english is None:
            self._compact_in_english = self.compact
        self.compact = self._compact_in_english or i18n.current() != i18n.DEFAULT
        self._shows = self.would_show()
        widgets = list(super().compose())
        for widget in widgets:
            if isinstance(widget, FooterKey):
                if widget.description:
                    widget.description = _(widget.description)
                # Styled so from the start: each change of a key's compactness once it is
                # shown works out its style again, and a key took Textual's default (compact)
                # first, then the footer's. Every key follows the footer's but the palette's,
                # compact always (Textual binds the others to the footer).
                _made_compact(widget, self.compact or widget.has_class("-command-palette"))
        yield from self.fitted(widgets)

    def key_width(self, key: FooterKey) -> int:
        """The columns ``key`` takes in this footer (its margin, or the palette key's border
        and padding, included), as Textual's footer draws it."""
        words = cell_len(key.description)
        palette = key.has_class("-command-palette")
        if self.compact:  # the key, a space and its words; a space after (the palette's: a
            # border before)
            return cell_len(key.key_display) + (1 + words if words else 0) + 1
        # the key between two spaces, its words and a space; the palette's: a border before
        # and a space after
        width = cell_len(key.key_display) + (3 + words if words else 0)
        return width + (2 if palette else 0)

    def fitted(self, widgets: list[Widget]) -> list[Widget]:
        """The keys, fitted to the terminal's width: where they do not all fit, first the
        palette's key goes (Ctrl+P still opens it), then the keys sit closer, then the
        arrows' words go (the arrows say it), then the other keys' words from the first on,
        each key still shown."""
        room = self.fitted_to = self.app.size.width
        keys = [w for w in widgets if isinstance(w, FooterKey)]
        if len(keys) != len(widgets):
            return widgets  # (groups of keys: as Textual lays them out)

        def width() -> int:
            return sum(self.key_width(k) for k in keys)

        if width() <= room:
            return widgets
        keys = [k for k in keys if not k.has_class("-command-palette")]
        if not self.compact and width() > room:
            self.compact = True  # (the keys closer together)
            for key in keys:
                _made_compact(key, True)
        arrows = [k for k in keys if set(k.key_display) <= ARROWS]
        for key in [*arrows, *(k for k in keys if k not in arrows)]:
            if width() <= room:
                break
            if key.description and not key.tooltip:
                key.tooltip = key.description  # (its words on the mouse's hover)
            key.description = ""
        return list(keys)

    def would_show(self) -> tuple[object, ...] | None:
        """What the keys would be made from now: the screen's keys shown, how each
        reads and whether it is enabled, and the language (None: not known yet)."""
        if not self._bindings_ready or not self.is_attached:
            return None
        display = self.app.get_key_display
        shown = tuple((b.key, display(b), b.action, b.description, b.group, enabled, tooltip)
                      for (_node, b, enabled, tooltip) in self.screen.active_bindings.values()
                      if b.show)
        return (shown, i18n.current(), self._compact_in_english, self.app.size.width)

    def on_mount(self) -> None:
        # Textual's footer shows no key until its screen next says its keys changed (a
        # change of focus, the screen shown again). A screen opened as another opens (the
        # hand-over over a new hot-seat match) may have said so before its footer listened:
        # its footer stayed empty. Once mounted, the footer asks.
        self.call_after_refresh(self.screen.refresh_bindings)

    def on_resize(self) -> None:
        # Another width may fit more of the keys' words, or fewer.
        self.call_after_refresh(self.recompose)

    async def recompose(self) -> None:
        # Textual makes the keys anew whenever the screen's keys may have changed (the focus
        # moved, a check said so): most times they have not, and making them is not free.
        shows = self.would_show()
        if shows is not None and shows == self._shows:
            return
        await super().recompose()


__all__ = ["BUTTON_ARROWS", "TEXTUAL_KEYS", "Footer", "Key"]
