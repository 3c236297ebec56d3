"""Settings: language, theme, ASCII mode, pips, animations, the bell, take-backs, the
computer's pause, default names."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center, Grid, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from tui_domino import i18n
from tui_domino.i18n import _, pgettext
from tui_domino.ui.host import game_app
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.session import GUEST, YOU, shown_name


class Tick(Checkbox):
    """A check box that shows its state by its mark, not only by the mark's colour: X when
    on, blank when off (in a monochrome terminal or ASCII mode the colours may not tell)."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # Textual's name for the mark
        return "X" if self.value else " "


class SettingsScreen(Screen[None]):
    BINDINGS = [Key("escape", "back", "Back")]

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical {
        width: 64; max-width: 100%; height: auto; border: round $primary; padding: 0 1;
    }
    SettingsScreen Grid {
        grid-size: 2; grid-columns: 24 1fr; grid-rows: 1; grid-gutter: 0 1; height: auto;
        margin-top: 1;
    }
    SettingsScreen #note { color: $text-muted; margin-top: 1; }
    SettingsScreen Button { margin: 1 0; }
    """

    def compose(self) -> ComposeResult:
        s = game_app(self).settings
        themes = sorted(self.app.available_themes)
        with Vertical() as box:
            box.border_title = _("Settings")
            with Grid():
                yield Label(_("Language"))
                yield Select([(_("as the terminal says (LANG)"), ""),
                              *((name, code) for code, name in i18n.LANGUAGES.items())],
                             value=s.language, allow_blank=False, id="language", compact=True)
                # TRANSLATORS: the settings' labels, at most 24 columns each.
                yield Label(_("Theme"))
                yield Select([(t, t) for t in themes], value=s.theme if s.theme in themes
                             else self.app.theme, allow_blank=False, id="theme", compact=True)
                # TRANSLATORS: how the screen is drawn (box characters, or ASCII only).
                yield Label(_("Drawing"))
                yield Tick(_("ASCII characters only"), s.ascii, id="ascii", compact=True)
                yield Label(_("Dominoes"))
                # TRANSLATORS: dominoes drawn with pips (dots) when the table has room,
                # else with digits.
                yield Tick(_("pips when there is room"), s.pips, id="pips", compact=True)
                yield Label(_("Animations"))
                # TRANSLATORS: tiles that slide into place (the computer's pause is below)
                yield Tick(_("tiles slide into place"), s.animations, id="animations",
                           compact=True)
                # TRANSLATORS: the terminal's bell (a beep)
                yield Label(_("Bell"))
                # TRANSLATORS: when the bell rings
                yield Tick(_("a refused move, your turn"), game_app(self).bell_on(),
                           id="bell", compact=True)
                # TRANSLATORS: taking a move back (the key u) against the computer.
                yield Label(_("Take-backs"))
                # TRANSLATORS: u is the key, kept as it is.
                yield Tick(_("u takes your last move back"), s.take_backs,
                           id="take_backs", compact=True)
                # TRANSLATORS: how long the computer waits before it moves.
                yield Label(_("Computer's pause"))
                # TRANSLATORS: the length of the computer's pause before its move.
                yield Select([(pgettext("pause", "none"), 0.0),
                              (pgettext("pause", "short"), 0.3),
                              (pgettext("pause", "normal"), 0.6),
                              (pgettext("pause", "long"), 1.2)],
                             value=s.computer_delay if s.computer_delay in (0.0, 0.3, 0.6, 1.2)
                             else 0.6, allow_blank=False, id="delay", compact=True)
                yield Label(_("Your name"))
                yield Input(shown_name(s.name), id="name", max_length=14, compact=True)
                yield Label(_("Second player's name"))
                yield Input(shown_name(s.second_name), id="second", max_length=14,
                            compact=True)
            yield Static(_("ASCII drawing helps terminals that misdraw box characters."),
                         id="note")
            with Center():
                # TRANSLATORS: the button that closes the settings (at least 12 columns).
                yield Button(_("Done"), variant="primary", id="done", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#language", Select).focus()

    def relabel(self) -> None:
        """The language changed: the screen is drawn anew in it, the language still chosen."""
        self.refresh(recompose=True)
        self.call_after_refresh(lambda: self.query_one("#language", Select).focus())

    def _save(self) -> None:
        try:
            game_app(self).settings.save()
        except OSError as exc:
            self.notify(_("Settings not saved: {error}").format(error=exc), severity="error")

    def on_select_changed(self, event: Select.Changed) -> None:
        s = game_app(self).settings
        if event.select.id == "language" and isinstance(event.value, str):
            if event.value != s.language:
                game_app(self).set_language(event.value)
        elif event.select.id == "theme" and isinstance(event.value, str):
            s.theme = event.value
            self.app.theme = event.value
        elif event.select.id == "delay":
            s.computer_delay = float(str(event.value))
        self._save()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        s = game_app(self).settings
        if event.checkbox.id == "ascii":
            s.ascii = event.value
            game_app(self).apply_ascii()
        elif event.checkbox.id == "pips":
            s.pips = event.value
            game_app(self).apply_ascii()
        elif event.checkbox.id == "animations":
            s.animations = event.value
            self.app.animation_level = "full" if event.value else "none"
        elif event.checkbox.id == "take_backs":
            s.take_backs = event.value
        elif event.checkbox.id == "bell":
            s.bell = event.value
        self._save()

    def on_input_changed(self, event: Input.Changed) -> None:
        s = game_app(self).settings
        if event.input.id == "name":
            name = event.value.strip()
            s.name = YOU if not name or name == _(YOU) else name  # the default stays one
        elif event.input.id == "second":
            name = event.value.strip()
            s.second_name = GUEST if not name or name == _(GUEST) else name
        self._save()

    def on_button_pressed(self) -> None:
        self.action_back()

    def action_back(self) -> None:
        self.app.pop_screen()
