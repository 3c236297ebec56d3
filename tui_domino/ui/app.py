"""The Textual app: menu, new game, the game screens, settings, help, saving."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.command import CommandPalette
from textual.events import Event, MouseDown, Resize
from textual.events import Key as KeyEvent
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES, Theme

from tui_domino import ai, i18n, rules
from tui_domino.i18n import N_, _
from tui_domino.terminal import is_remote, is_terminal
from tui_domino.text import visible
from tui_domino.ui import storage
from tui_domino.ui.ascii import AsciiFilter, key_words
from tui_domino.ui.contrast import muted, readable_variables
from tui_domino.ui.keys import Key
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.menu import MenuScreen
from tui_domino.ui.screens.table_screen import TableScreen
from tui_domino.ui.screens.too_small import TooSmallScreen
from tui_domino.ui.session import COMPUTER, Seat, Session, shown_name, two_people
from tui_domino.ui.widgets import motion

if TYPE_CHECKING:
    from tui_domino.net.records import MatchResult
    from tui_domino.net.transport import DuelSession

MIN_SIZE = (60, 20)  # the compact table: the score panel beside a narrower board


def screenshot_dir() -> Path:
    """Where the command palette's Screenshot saves its pictures."""
    return storage.data_dir() / "screenshots"


def theme_variables(theme: Theme) -> dict[str, str]:
    """``theme``'s CSS variables, as Textual's ``App.get_css_variables`` makes them for an
    app that adds none of its own (ours)."""
    return {**theme.to_color_system().generate(), **theme.variables}


def warm_themes(names: Iterable[str]) -> None:
    """Works out the colours of the themes ``names`` for both kinds of terminal (millions
    of colours, 256), as a game does as it starts: a fork server does it once for all its
    games (``contrast.readable_variables`` keeps the answers)."""
    for name in names:
        theme = BUILTIN_THEMES.get(name)
        if theme is not None:
            for eight_bit in (False, True):
                readable_variables(theme_variables(theme), eight_bit=eight_bit)


_modules_frozen = 0  # how many modules were loaded when settle_memory last ran


def settle_memory() -> None:
    """Collects what start-up left behind and moves every object alive now (modules, classes,
    the screens' widgets) out of the collector's reach, so that a full collection during play
    scans only what play creates: unfrozen, one took about 100 ms, a visible stall."""
    global _modules_frozen
    gc.collect()
    gc.freeze()
    _modules_frozen = len(sys.modules)


def settle_new_modules() -> None:
    """``settle_memory`` when modules were loaded since it last ran (the first game, or the
    first of a kind, loads its rules, the computer's process pool, the saving). A frozen
    object is never collected: frozen at every game's start, each game's screen and match
    stayed in memory for good once it ended (about 1 MB a game, without end in a long
    visit); now only those of a game that loaded modules do."""
    if len(sys.modules) != _modules_frozen:
        settle_memory()


# Textual's own words the game shows: its command palette's commands and footer key.
TEXTUAL_WORDS = (
    N_("Theme"), N_("Change the current theme"),
    N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Keys"), N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"), N_("Minimize the widget and restore to normal size"),
    N_("Maximize"), N_("Maximize the focused widget"),
    # TRANSLATORS: the footer's last key, ^p, opens the command palette (one short word)
    N_("palette"),
)


class DominoApp(App[None]):
    """tui-domino: classic dominoes, Domino Spider and Triominos."""

    TITLE = "tui-domino"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [Key("question_mark", "help", "Help", key_display="?", show=False)]
    # Whether this game may listen on a port or connect to an address (the menu's Network
    # duel). Not in an SSH visitor's game: the server is no stepping stone to its network.
    NETWORK_DUELS = True

    def __init__(
        self,
        *,
        settings: storage.Settings | None = None,
        seed: int | None = None,
        autosave: bool = True,
        min_size: tuple[int, int] = MIN_SIZE,
        settings_problem: str | None = None,
    ) -> None:
        """``settings_problem``: what was wrong with the settings file (told on mount);
        without ``settings`` they are read here, and so is what was wrong."""
        super().__init__()
        if settings is None:
            i18n.use(None)  # what is wrong with the settings is told in the environment's
            settings, settings_problem = storage.load_settings()
        self.settings = settings
        self.settings_problem = settings_problem
        i18n.use(settings.language or None)
        self.seed = seed
        self.autosave = autosave
        self.min_size = min_size
        self._too_small: TooSmallScreen | None = None
        self._finished = threading.Event()  # run_async has returned: see _watch_terminal
        self._ascii_filter = AsciiFilter()
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        if not self.settings.animations:
            self.animation_level = "none"

    crash_path: Path | None = None  # the report of an unhandled error, once written

    async def on_event(self, event: Event) -> None:
        # any key or click first ends the table's motions (the tile lands), then does its work
        if isinstance(event, (KeyEvent, MouseDown)) and not event.is_forwarded:
            motion.land_all()
        await super().on_event(event)

    def _handle_exception(self, error: Exception) -> None:
        """An error of ours nobody caught: Textual ends the app (and shows the traceback);
        first the report goes to a file whose path the player is told after the exit."""
        # lazy: start-up (the app alone loads no logging: cli.main starts the log first)
        from tui_domino import logs

        try:
            self.crash_path = logs.crash_report(error)
        except OSError:
            self.crash_path = None
        super()._handle_exception(error)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables, with every text colour readable on its ground (WCAG AA)
        and, in a 256-colour terminal, each colour the palette's nearest to the eye."""
        variables = readable_variables(theme_variables(self.current_theme),
                                       eight_bit=self.console.color_system == "256")
        self.theme_variables = variables
        return variables

    def muted(self, ground: str = "panel") -> str:
        """The style of secondary words on ``ground`` ("panel", "background", "surface"):
        fainter than the text, but readable (AA) in this theme."""
        return muted(self.theme_variables or self.get_css_variables(), ground)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notification is plain text: what it tells often holds what someone else
        wrote (a chat line, a name, a reason), which must never be read as markup or reach
        the terminal as control characters. (No notification of ours uses markup.)"""
        super().notify(visible(str(message), lines=True), title=visible(str(title)),
                       severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """Ctrl+C: says how to quit, in plain words of the language in use (Textual's own
        words are markup, which the game's plain notifications would show as tags)."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                # TRANSLATORS: told when Ctrl+C is pressed; {key} is the key that quits
                # ("ctrl+q"), kept as it is
                self.notify(_("Press {key} to quit the game.").format(key=key),
                            title=_("Do you want to quit?"))
                return

    def first_screen(self) -> Screen[Any]:
        """The screen the game opens on: the menu."""
        return MenuScreen()

    def on_mount(self) -> None:
        self.push_screen(self.first_screen())
        self.call_after_refresh(self.check_size)
        self.call_after_refresh(settle_memory)
        if self.settings_problem is not None:
            self.notify(self.settings_problem, severity="warning", timeout=15)
        if not self.is_headless and is_terminal(sys.__stdin__):
            loop = asyncio.get_running_loop()
            threading.Thread(target=self._watch_terminal, args=(loop,), daemon=True,
                             name="terminal-watch").start()

    def _watch_terminal(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread of its own: leaves when the terminal has gone (closed while its
        hang-up signal was ignored). Its input then reads as ended for ever, which Textual's
        input thread spins on, and writing to it fails, which can stop the event loop itself.
        The match was saved after its last move (a duel's log, after every action)."""
        while not self._finished.wait(1.0):
            if is_terminal(sys.__stdin__):  # where the game reads its keys
                continue
            # lazy: start-up (the worker's process pool loads with the first search)
            from tui_domino.ai import worker

            worker.kill()
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                loop.call_soon_threadsafe(lambda: self.exit(return_code=1))
            # Unless the app finishes by then (its exit writes to the terminal, and may wait
            # for ever on a writer that the hang-up has stopped), the process ends here.
            if not self._finished.wait(3.0):
                os._exit(1)
            return

    async def run_async(self, *args: Any, **kwargs: Any) -> None:  # as App.run_async's
        try:
            return await super().run_async(*args, **kwargs)
        finally:
            self._finished.set()

    def on_unmount(self) -> None:
        # lazy: start-up (the worker's process pool loads with the first search)
        from tui_domino.ai import worker

        if worker.is_running():
            worker.shutdown()

    # -- matches -------------------------------------------------------------------------------

    def start_match(
        self,
        variant: str,
        seats: list[Seat],
        target: int | None = None,
        options: rules.Options | None = None,
    ) -> None:
        session = Session.new(
            variant, seats, target=target, seed=self.seed, options=options, autosave=self.autosave
        )
        self._show_game(session)

    def _warm_up(self, session: Session) -> None:
        """Starts the searching players' process early, so the first move is quick."""
        # lazy: start-up (the worker's process pool loads with the first search)
        from tui_domino.ai import worker

        if any(s.is_computer and s.level in ai.SEARCHING for s in session.seats):
            self.run_worker(worker.warm_up(), group="warm-up", exit_on_error=False)

    def _show_game(self, session: Session) -> None:
        # The game sits directly above the menu: Esc goes back there. (The notice that the
        # terminal is too small may pop on the way; it goes back on top of the game.)
        if not any(isinstance(s, MenuScreen) for s in self.screen_stack):
            self.push_screen(MenuScreen())
        else:
            while not isinstance(self.screen, MenuScreen):
                self.pop_screen()
        self._warm_up(session)
        self.push_screen(GameScreen(session))
        self.call_after_refresh(settle_new_modules)

    async def action_quit(self) -> None:
        """Quits; a duel on the screens is left first (asked while its match is in play),
        so that the opponent hears of it."""
        # lazy: start-up (the duel screen and the network layer load with a duel)
        from tui_domino.ui.screens.duel import DuelScreen, LeaveScreen

        duel = next((s for s in reversed(self.screen_stack) if isinstance(s, DuelScreen)),
                    None)
        if duel is None:
            self.exit()
        elif not any(isinstance(s, LeaveScreen) for s in self.screen_stack):
            duel.quit_app()

    def action_help(self) -> None:
        # lazy: start-up (the menu shows without this screen)
        from tui_domino.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen | TooSmallScreen):
            self.push_screen(HelpScreen())

    def continue_match(self) -> None:
        try:
            session = Session.load_saved()
        except storage.SaveError as exc:
            self.notify(str(exc), title=_("Saved match unreadable"), severity="error",
                        timeout=12)
            if isinstance(self.screen, MenuScreen):
                self.screen.fill()
            return
        if session is None:
            self.notify(_("There is no saved match."), title=_("Continue"))
            return
        session.autosave = self.autosave
        self._show_game(session)

    # -- settings ------------------------------------------------------------------------------

    def apply_ascii(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.apply_settings()
                screen.show_hint()
            for widget in screen.walk_children(with_self=True):
                widget.refresh()  # drops the lines drawn through the other filters
            screen.refresh_bindings()  # the footer's keys are named anew

    def choose_language(self, language: str) -> None:
        """The palette's choice: kept in the settings, and spoken at once."""
        self.set_language(language)
        try:
            self.settings.save()
        except OSError as exc:
            self.notify(_("Settings not saved: {error}").format(error=exc), severity="error")

    def set_language(self, language: str) -> None:
        """Speaks ``language`` from now on ("": the environment's), keeping the game: every
        screen shows its words anew (a screen's ``relabel`` when it has one: the game keeps
        its board and choice), and the footers their keys."""
        self.settings.language = language
        i18n.use(language or None)
        for screen in self.screen_stack:
            relabel = getattr(screen, "relabel", None)
            if callable(relabel):
                relabel()
            screen.refresh_bindings()

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        return [*filters, self._ascii_filter] if self.settings.ascii else filters

    def get_key_display(self, binding: Binding) -> str:
        display = super().get_key_display(binding)
        return key_words(display) if self.settings.ascii else display

    # -- terminal size -------------------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def push_screen(self, screen: Any, *args: Any, **kw: Any) -> Any:  # as App.push_screen's
        """As ``App.push_screen``, but the notice that the terminal is too small stays on top:
        a screen that opens under it (the menu at start-up, a game started from the command
        line, the round summary after the computer's move, a duel's question) goes beneath the
        notice and shows once the terminal is large enough."""
        cover = self._too_small
        if cover is None or screen is cover or self.screen is not cover or kw.get("mode"):
            return super().push_screen(screen, *args, **kw)
        super().pop_screen()  # (not ours: that would check the size again, later)
        result = super().push_screen(screen, *args, **kw)
        self._too_small = TooSmallScreen(self.min_size)
        super().push_screen(self._too_small)
        return result

    def pop_screen(self) -> AwaitComplete:
        """As ``App.pop_screen``; when what pops is the notice that the terminal is too small
        (a screen that pops all above another, say), the notice goes back on top."""
        result = super().pop_screen()
        if self._too_small is not None and self._too_small not in self.screen_stack:
            self._too_small = None
            self.call_later(self.check_size)
        return result

    def check_size(self, w: int | None = None, h: int | None = None) -> None:
        if w is None or h is None:
            w, h = self.size
        small = w < self.min_size[0] or h < self.min_size[1]
        if small and self._too_small is None:
            self._too_small = TooSmallScreen(self.min_size)
            self.push_screen(self._too_small)
        elif small and self._too_small is not None and self._too_small.is_mounted:
            self._too_small.show_size(w, h)
        elif small and self._too_small is not None:
            self._too_small.need = self.min_size
        elif not small and self._too_small is not None:
            if self.screen is self._too_small:
                self.pop_screen()
            self._too_small = None

    # -- the command palette -------------------------------------------------------------------

    def action_command_palette(self) -> None:
        """As ``App.action_command_palette``, but not while the terminal is too small (the
        palette would open beneath the notice), nor a second time beneath it (Textual looks
        only at the top screen, and two palettes would share one id)."""
        if self._too_small is None and not any(
            isinstance(s, CommandPalette) for s in self.screen_stack
        ) and self.use_command_palette:
            # TRANSLATORS: the command palette's search field, before anything is typed
            self.push_screen(CommandPalette(id="--command-palette",
                                            placeholder=_("Search for commands…")))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        # lazy: start-up (the menu shows without these screens)
        from tui_domino.ui.screens.help import HelpScreen
        from tui_domino.ui.screens.new_game import NewGameScreen
        from tui_domino.ui.screens.settings import SettingsScreen

        duel_commands = getattr(screen, "system_commands", None)
        if duel_commands is not None:
            for title, help_text, callback in duel_commands():
                yield SystemCommand(title, help_text, callback)
        elif isinstance(screen, GameScreen):
            # TRANSLATORS: the command palette's commands (Ctrl+P), a short title and a line
            # on what it does, each: play the chosen tile.
            yield SystemCommand(_("Play"), _("Play the selected tile at the selected place"),
                                screen.action_play)
            yield SystemCommand(_("Draw"), _("Draw a tile from the bazaar"), screen.action_draw)
            yield SystemCommand(_("Pass"), _("Pass when nothing fits"), screen.action_pass_turn)
            yield SystemCommand(_("Recentre"), _("Recentre the table on the play"),
                                screen.action_recentre)
            # TRANSLATORS: h is the key, kept as it is.
            yield SystemCommand(_("Hint"), _("The coach's best moves from what you see (h)"),
                                screen.action_hint)
            yield SystemCommand(_("Rules"), _("The rules and keys of this game"),
                                screen.action_help)
            yield SystemCommand(_("Main menu"), _("Leave the table (the match is saved)"),
                                screen.action_menu)
            if screen.session.variant == "triominos":
                yield SystemCommand(_("Rotate"), _("Turn the triomino"), screen.action_rotate)
            if screen.session.variant == "spider":
                yield SystemCommand(_("Close arm"), _("Close the arm with this double"),
                                    screen.action_close_arm)
                yield SystemCommand(_("Add double"), _("Play this double with others"),
                                    screen.action_mark)
        else:
            yield SystemCommand(_("New game"), _("Start a new match"),
                                lambda: self.push_screen(NewGameScreen()))
            yield SystemCommand(_("Continue"), _("Resume the saved match"), self.continue_match)
            yield SystemCommand(_("Rules"), _("How each game is played"),
                                lambda: self.push_screen(HelpScreen()))
            yield SystemCommand(_("History"), _("Every match played, its rounds and reviews"),
                                self.show_history)
            yield SystemCommand(_("Statistics"), _("Wins, margins and the coach's figures"),
                                self.show_stats)
        yield SystemCommand(_("Settings"), _("Theme, ASCII mode, animations, names"),
                            lambda: self.push_screen(SettingsScreen()))
        for code, name in i18n.LANGUAGES.items():
            if code != i18n.current():
                # TRANSLATORS: the command palette: switch the game to the language {name}
                # (named in itself: English, Русский, Български)
                yield SystemCommand(_("Language: {name}").format(name=name),
                                    _("The game in {name} from now on (the match is kept)")
                                    .format(name=name),
                                    lambda code=code: self.choose_language(code))
        yield SystemCommand(_("ASCII mode"), _("Toggle drawing with plain ASCII characters"),
                            self.toggle_ascii)
        # TRANSLATORS: the terminal's bell (a beep), which the command turns on or off.
        yield SystemCommand(_("Bell"), _("Toggle the bell on a refused move and on your turn "
                                         "after a long think"), self.toggle_bell)
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot":  # Textual's saves where there may be no folder
                yield SystemCommand(
                    _("Screenshot"),
                    # TRANSLATORS: {folder} is where the picture is saved.
                    _("Save a picture of the screen (SVG) in {folder}").format(
                        folder=screenshot_dir()),
                    self.screenshot_soon)
            else:  # Textual's own, in the game's language (TEXTUAL_WORDS)
                yield SystemCommand(_(command.title), _(command.help), command.callback,
                                    command.discover)

    def show_history(self) -> None:
        # lazy: start-up (the menu shows without this screen)
        from tui_domino.ui.screens.history import HistoryScreen

        self.push_screen(HistoryScreen())

    def show_stats(self) -> None:
        # lazy: start-up (the menu shows without this screen)
        from tui_domino.ui.screens.history import StatsScreen

        self.push_screen(StatsScreen())

    def screenshot_soon(self) -> None:
        """The palette's Screenshot: ``take_screenshot`` once the palette has closed."""
        self.set_timer(0.1, self.take_screenshot)

    def take_screenshot(self) -> None:
        """Saves the screen as an SVG file in the screenshots folder and says where; the
        file is written in a thread (the game never waits on the disk)."""
        svg = self.export_screenshot()
        folder = screenshot_dir()
        path = folder / time.strftime("tui-domino-%Y%m%d-%H%M%S.svg")

        def write() -> None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                target, n = path, 1
                while target.exists():
                    target, n = path.with_name(f"{path.stem}-{n}.svg"), n + 1
                target.write_text(svg, encoding="utf-8")
            except OSError as exc:
                # TRANSLATORS: {error} is the system's reason, in English.
                told = _("The screenshot could not be saved in {folder}: {error}").format(
                    folder=folder, error=exc.strerror or exc)
                self.call_from_thread(self.notify, told, title=_("Screenshot"),
                                      severity="error")
                return
            # TRANSLATORS: {path} is the picture's file.
            self.call_from_thread(self.notify, _("Saved the screen as {path}").format(
                path=target), title=_("Screenshot"), timeout=8)

        self.run_worker(write, thread=True, group="screenshot", exit_on_error=False)

    def bell_on(self) -> bool:
        """Whether the game rings the terminal's bell: the setting, else on locally and off
        over ssh (where a bell reaches someone else's speaker)."""
        if self.settings.bell is not None:
            return self.settings.bell
        return not is_remote(os.environ)

    def ring(self) -> None:
        """The bell, when it is on: a move refused, your turn after a long think."""
        if self.bell_on():
            self.bell()

    def toggle_bell(self) -> None:
        self.settings.bell = not self.bell_on()
        with contextlib.suppress(OSError):
            self.settings.save()
        self.notify(_("The bell is on.") if self.settings.bell else _("The bell is off."))

    def toggle_ascii(self) -> None:
        self.settings.ascii = not self.settings.ascii
        with contextlib.suppress(OSError):
            self.settings.save()
        self.apply_ascii()
        # TRANSLATORS: the screen is drawn with plain ASCII characters now, or with the
        # terminal's box-drawing characters.
        self.notify(_("ASCII drawing on.") if self.settings.ascii else _("Box drawing on."))


def main_app(
    variant: str | None = None,
    opponent: str | None = None,
    seed: int | None = None,
    ascii_mode: bool | None = None,
) -> int:
    """Runs the game. ``variant`` and ``opponent`` (a computer level or "person") start a
    match straight away; otherwise the main menu shows."""
    if opponent is not None and opponent != "person" and opponent not in ai.NAMES:
        names = ", ".join([*ai.NAMES, "person"])
        # TRANSLATORS: the command line's error; {names} are the names the option takes
        # (random, easy, …, person), kept as they are.
        raise SystemExit(_("unknown opponent {opponent}: choose one of {names}").format(
            opponent=repr(opponent), names=names))
    if variant is not None and variant not in rules.VARIANTS:
        # TRANSLATORS: the command line's error; {names} are the names the option takes
        # (classic, spider, triominos), kept as they are.
        raise SystemExit(_("unknown game {variant}: choose one of {names}").format(
            variant=repr(variant), names=", ".join(rules.VARIANTS)))
    settings, problem = storage.load_settings()
    if ascii_mode is not None:
        settings.ascii = ascii_mode
    if settings.last_level not in ai.NAMES:
        settings.last_level = "normal"
    app = DominoApp(settings=settings, seed=seed, settings_problem=problem)
    if variant is not None:

        def begin() -> None:
            level = opponent or settings.last_level
            if level == "person":
                seats = two_people(settings.name, settings.second_name)
            else:
                seats = [Seat(shown_name(settings.name)),
                         Seat(_(COMPUTER), "computer", level)]
            app.start_match(variant, seats)

        app.call_later(begin)
    app.run()
    if app.crash_path is not None:
        # TRANSLATORS: printed after the game ended on an error of its own; {path} is the
        # report's file; Continue is the menu's choice of that name.
        print("\n" + _("tui-domino stopped on an error of its own. A report is in {path} "
                       "(your saved match is kept: Continue resumes it).").format(
                           path=app.crash_path), file=sys.stderr)
    return app.return_code or 0


async def run_duel_app(session: DuelSession) -> MatchResult | None:
    """The game's app on the duel screen (for ``tui-domino host|join``); returns the
    match's result when it ended."""
    # lazy: start-up (the duel's screen and the network layer load only for a duel)
    from tui_domino.logs import logged
    from tui_domino.ui.screens.duel_run import push_duel

    app = DominoApp(settings=storage.Settings.load())
    app.call_later(lambda: push_duel(app, session, then=app.exit))
    await app.run_async()
    with logged("closing the duel"):
        async with asyncio.timeout(3):
            await session.close()
    return session.core.match.result


def run_app(args: argparse.Namespace | None = None) -> int:
    """For the command line: reads ``variant``, ``opponent``, ``seed``, ``ascii`` from an
    argparse namespace when they are there."""
    return main_app(
        variant=getattr(args, "variant", None),
        opponent=getattr(args, "opponent", None),
        seed=getattr(args, "seed", None),
        ascii_mode=getattr(args, "ascii", None),
    )


if __name__ == "__main__":
    raise SystemExit(main_app())
