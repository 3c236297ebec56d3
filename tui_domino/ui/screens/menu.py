"""The main menu."""

from __future__ import annotations

import contextlib

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from tui_domino import i18n
from tui_domino.i18n import _
from tui_domino.ui import storage
from tui_domino.ui.host import NO_NETWORK, game_app
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.session import Session, saved_line

TITLE = """\
┌───┬───┐  ┌───┐
│ ● │ ● │  │ ● │
└───┴───┘  ├───┤
 tui-domino│ ● │
           └───┘"""

TITLE_ART = """\
┌─┬─┐┌─┬─┐┌─┬─┐
│6│4││4│4││4│1│
└─┴─┘└─┴─┘└─┴─┘"""


class MenuScreen(Screen[None]):
    BINDINGS = [
        # TRANSLATORS: the menu's footer, a word or two under each key; six of them share
        # one line of 80 columns with their keys.
        Key("n", "choose('new')", "New game"),
        Key("c", "choose('continue')", "Continue"),
        # TRANSLATORS: the footer's key for a network duel (one short word).
        Key("d", "choose('duel')", "Duel"),
        Key("s", "choose('settings')", "Settings"),
        Key("h", "choose('history')", "History", show=False),  # the footer is full
        Key("l", "choose('learn')", "Learn to play", show=False),
        Key("question_mark", "choose('rules')", "Rules", key_display="?"),
        Key("q", "choose('quit')", "Quit"),
    ]

    DEFAULT_CSS = """
    MenuScreen { align: center middle; }
    MenuScreen #title { width: auto; color: $accent; }
    MenuScreen #name { width: auto; text-style: bold; margin-bottom: 1; }
    MenuScreen OptionList { width: 32; height: auto; border: round $primary; }
    MenuScreen #menu-box { width: auto; height: auto; align-horizontal: center; }
    MenuScreen #saved { width: auto; color: $text-muted; margin-top: 1; }
    """

    _shows: tuple[object, ...] | None = None  # what the menu was made from

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Center(Static(TITLE_ART, id="title"))
            yield Center(Static("tui-domino", id="name"))
            yield Center(OptionList(id="menu"))
            yield Center(Static("", id="saved"))
        yield Footer()

    def network_duels(self) -> bool:
        return game_app(self).NETWORK_DUELS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # no Duel key in the footer of a game that may not duel, and the key does nothing
        return not (action == "choose" and parameters == ("duel",)
                    and not self.network_duels())

    def on_screen_resume(self) -> None:
        # Shown: first after its mount, then again each time a screen over it closes (the
        # saved match may have changed meanwhile).
        self.fill()

    def relabel(self) -> None:
        """The language changed: the menu's words anew, the same choice still highlighted."""
        menu = self.query_one(OptionList)
        index = menu.highlighted
        chosen = menu.get_option_at_index(index).id if index is not None else None
        self.fill()
        if chosen is not None:
            with contextlib.suppress(OptionDoesNotExist):
                menu.highlighted = menu.get_option_index(chosen)

    def fill(self) -> None:
        menu = self.query_one(OptionList)
        line = self.saved_match()
        saved = line is not None
        # Made anew only when what it says changed (a match saved or ended, another
        # language): back from a screen that changed nothing, only the choice goes back.
        shows = (line, i18n.current(), self.network_duels())
        if shows != self._shows:
            self._shows = shows
            self._make(menu, line)
        menu.highlighted = 1 if saved else 0
        menu.focus()

    def _make(self, menu: OptionList, line: str | None) -> None:
        saved = line is not None
        menu.clear_options()
        options = [
            # TRANSLATORS: the main menu's choices, in a box 30 columns wide.
            Option(_("New game"), id="new"),
            Option(_("Continue"), id="continue", disabled=not saved),
            Option(_("Learn to play"), id="learn"),
            Option(_("Network duel"), id="duel"),
            Option(_("History"), id="history"),
            Option(_("Rules"), id="rules"),
            Option(_("Settings"), id="settings"),
            Option(_("Quit"), id="quit"),
        ]
        if not self.network_duels():
            options = [o for o in options if o.id != "duel"]
        menu.add_options(options)
        self.query_one("#saved", Static).update(plain(line or _("No saved match.")))

    def saved_match(self) -> str | None:
        """A line on the saved match (None without one). A save that cannot be read is
        told now, and moved aside, rather than when Continue is chosen."""
        try:
            session = Session.load_saved()
        except storage.SaveError as exc:
            self.notify(str(exc), title=_("Saved match unreadable"), severity="error",
                        timeout=12)
            return None
        if session is None:
            return None
        return saved_line(session)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option.id or "")

    def action_choose(self, what: str) -> None:
        app = self.app
        if what == "new":
            # lazy: start-up (the menu shows without this screen)
            from tui_domino.ui.screens.new_game import NewGameScreen

            app.push_screen(NewGameScreen())
        elif what == "continue":
            game_app(self).continue_match()
        elif what == "duel":
            if not self.network_duels():
                self.notify(_(NO_NETWORK), title=_("Network duel"), severity="warning")
                return
            # lazy: start-up (the menu shows without this screen and the network layer)
            from tui_domino.ui.screens.net_setup import DuelSetupScreen

            app.push_screen(DuelSetupScreen())
        elif what == "learn":
            # lazy: start-up (the menu shows without the tutorial)
            from tui_domino.ui.screens.tutorial import TutorialChooser, TutorialScreen

            def learn(variant: str | None) -> None:
                if variant is not None:
                    app.push_screen(TutorialScreen(variant))

            app.push_screen(TutorialChooser(), learn)
        elif what == "history":
            # lazy: start-up (the menu shows without this screen and sqlite3)
            from tui_domino.ui.screens.history import HistoryScreen

            app.push_screen(HistoryScreen())
        elif what == "rules":
            # lazy: start-up (the menu shows without this screen)
            from tui_domino.ui.screens.help import HelpScreen

            app.push_screen(HelpScreen())
        elif what == "settings":
            # lazy: start-up (the menu shows without this screen)
            from tui_domino.ui.screens.settings import SettingsScreen

            app.push_screen(SettingsScreen())
        elif what == "quit":
            app.exit()
