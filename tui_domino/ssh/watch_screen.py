"""Watching a lobby duel: the table as anybody may see it (``ssh/watching.py``), drawn by the
game's own board, with the score, both hands' sizes, the bazaar, whose step it is and how
long he has, the moves, the players' chat, and the watchers' own chat (``t``), which the
players never see. What the lobby sends (a frame, the watchers' count, the end) is set on
Textual ``var``s whose watchers draw what depends on them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Input, Static

from tui_domino.i18n import _, ngettext, npgettext
from tui_domino.ssh.watching import Frame, WatchTable
from tui_domino.text import one_line
from tui_domino.ui.drawing.table import table_layout, table_shape
from tui_domino.ui.host import settings_of
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_words import game_title
from tui_domino.ui.session import fold
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.scoreboard import LOG_WIDTH

WATCH_LINES = 40  # the watchers' chat lines kept on the screen


class WatchScreen(Screen[None]):
    """One lobby duel, watched; ``say(text)`` sends a line to the other watchers."""

    BINDINGS = [
        # TRANSLATORS: the footer: write to the other watchers
        Key("t", "chat", "Chat"),
        Key("c", "recentre", "Recentre"),
        # TRANSLATORS: the footer: back to the lobby
        Key("escape", "back", "Lobby"),
    ]

    DEFAULT_CSS = """
    WatchScreen { layout: vertical; }
    WatchScreen #watch-status { height: 1; background: $boost; padding: 0 1; }
    WatchScreen #watch-table { height: 1fr; }
    WatchScreen #board { width: 1fr; }
    WatchScreen #watch-side { width: 26; padding: 0 1; background: $panel; }
    WatchScreen #watch-panel { height: auto; margin-bottom: 1; }
    WatchScreen #watch-log { height: 1fr; }
    WatchScreen #watch-chat { display: none; }
    WatchScreen.-chatting #watch-chat { display: block; }
    """

    # The table as the last frame showed it (None: none yet). Every frame is drawn, even one
    # equal to the last (its clock starts anew), and so is None set anew: a new duel.
    frame: var[Frame | None] = var(None, always_update=True, init=False)
    watchers = var(0, init=False)  # visitors who watch this duel (the status line)
    ended = var(False, init=False)  # neither player is at the table any more (the panel)

    def __init__(self, duel: int, names: list[str], variant: str,
                 say: Callable[[str], None],
                 chat: list[tuple[str, str]] | None = None) -> None:
        super().__init__()
        self.duel = duel
        self.names = names
        self.variant = variant
        self.say = say
        self.chat: list[tuple[str, str]] = list(chat or [])[-WATCH_LINES:]
        self.problem = ""
        self.ready = False  # composed and mounted: drawing may begin

    def compose(self) -> ComposeResult:
        yield Static("", id="watch-status")
        with Horizontal(id="watch-table"):
            yield BoardView(id="board")
            with Vertical(id="watch-side"):
                yield Static("", id="watch-panel")
                yield Static("", id="watch-log")
        # TRANSLATORS: the placeholder of the watchers' chat line
        yield Input(placeholder=_("To the other watchers (the players do not see it)"),
                    id="watch-chat", max_length=200)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        settings = settings_of(self)
        self.query_one(BoardView).set_ascii(bool(settings is not None and settings.ascii))
        self.set_interval(1.0, self.show_panel)  # the clock runs between frames
        self.ready = True  # (Textual says is_mounted only once this handler is done)
        self.refresh_all()  # the first frame shows the screen whole

    # -- what the lobby sends ------------------------------------------------------------------

    def follow(self, duel: int, names: list[str], variant: str) -> None:
        """The players went on to a rematch: the same screen follows the new duel."""
        self.duel, self.names, self.variant = duel, names, variant
        # (set without its watcher: the frame's, set next, draws the whole screen anew with
        # the new duel's names)
        self.set_reactive(WatchScreen.ended, False)
        self.frame = None

    def show_frame(self, frame: Frame, watchers: int) -> None:
        self.set_reactive(WatchScreen.watchers, watchers)  # (drawn with the frame, next)
        self.frame = frame

    def chat_line(self, name: str, text: str) -> None:
        self.chat = [*self.chat[-(WATCH_LINES - 1):], (one_line(name, 20), one_line(text, 200))]
        self.show_log()

    def duel_over(self) -> None:
        self.ended = True

    def watch_frame(self) -> None:
        self.refresh_all()

    def watch_watchers(self) -> None:
        if self.ready:
            self.show_status()

    def watch_ended(self) -> None:
        self.show_panel()

    # -- drawing -------------------------------------------------------------------------------

    def refresh_all(self) -> None:
        if not self.ready:
            return
        self.show_status()
        self.draw_board()
        self.show_panel()
        self.show_log()

    def show_status(self) -> None:
        frame = self.frame
        names = frame.names if frame is not None else self.names
        ratings = frame.ratings if frame is not None else [None, None]
        seats = [f"{n} {r}" if r else n for n, r in zip(names, ratings, strict=False)]
        # TRANSLATORS: the top line of the watching screen: the two players (with their
        # ratings) and the game's name
        line = _("Watching {first} – {second} · {game}").format(
            first=seats[0] if seats else "?", second=seats[1] if len(seats) > 1 else "?",
            game=game_title(self.variant))
        if self.watchers:
            line += " · " + ngettext("{n} watching", "{n} watching", self.watchers).format(
                n=self.watchers)
        self.query_one("#watch-status", Static).update(plain(line))

    def draw_board(self) -> None:
        board = self.query_one(BoardView)
        frame = self.frame
        if frame is None or frame.view is None:
            return
        settings = settings_of(self)
        shape = table_shape(frame.variant, self.app.size, settings is None or settings.pips)
        layout = table_layout(frame.variant, frame.view, [], None, [], 0, shape)
        try:  # a frame is another game's word: one that cannot be drawn is not drawn
            layout(max(board.size.width, 20), max(board.size.height, 6))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            # TRANSLATORS: the watching screen, when the table sent cannot be drawn
            self.problem = _("This position cannot be shown.")
            return
        self.problem = ""
        board.show(layout, follow=True)

    def panel_text(self) -> Text:
        """The side panel: scores, hands, bazaar, whose step and his time."""
        t = Text()
        frame = self.frame
        if frame is None:
            # TRANSLATORS: the watching screen before the first position arrives
            t.append(_("Waiting for the table…"), style="italic")
            return t
        table = WatchTable(frame)
        t.append(game_title(frame.variant) + "\n", style="bold")
        totals = table.scores() if table.has_view() else frame.totals
        state = table.state
        for p in (0, 1):
            mark = "▶ " if state.to_move == p else "  "
            t.append(mark, style="bold")
            t.append(f"{frame.names[p][:13]:<13}", style="bold" if state.to_move == p else "")
            t.append(f"{totals[p]:>5}\n", style="bold")
        if frame.view is not None:
            sizes = frame.view["hand_sizes"]
            for p in (0, 1):
                # TRANSLATORS: the side panel (24 columns): a player's name (at most 12
                # characters) and the tiles in his hand
                words = (npgettext("triominos", "{name}: {n} tile", "{name}: {n} tiles",
                                   sizes[p]) if frame.variant == "triominos"
                         else ngettext("{name}: {n} tile", "{name}: {n} tiles", sizes[p]))
                t.append(words.format(name=frame.names[p][:12], n=sizes[p]) + "\n")
            t.append(_("Bazaar: {count}").format(count=frame.view["bazaar_size"]) + "\n")
        if frame.over:
            # TRANSLATORS: the side panel of the watching screen: the match is over
            t.append(_("Match over"), style="bold")
            if frame.winner is not None:
                t.append("\n" + _("{name} wins the match.").format(
                    name=frame.names[frame.winner]))
        elif self.ended:
            # TRANSLATORS: the watching screen: both players left the table
            t.append(_("The players have left."), style="bold")
        elif state.is_over:
            t.append(_("Round over"), style="bold")
        elif frame.owes is not None:
            left = frame.time_left()
            # TRANSLATORS: the side panel of the watching screen: whose step it is
            t.append(_("{name} to play").format(name=frame.names[frame.owes][:12]))
            if left is not None:
                t.append(f"  {int(left) // 60}:{int(left) % 60:02d}")
        if self.problem:
            t.append("\n" + self.problem, style="italic")
        return t

    def show_panel(self) -> None:
        if self.ready:
            self.query_one("#watch-panel", Static).update(self.panel_text())

    def log_text(self) -> Text:
        """The watchers' chat, the players' chat and the round's moves, newest first."""
        t = Text()
        lines: list[tuple[str, str]] = []
        for name, text in reversed(self.chat):
            lines.append((f"{name}: {text}", "italic"))
        frame = self.frame
        if frame is not None:
            for seat, text in reversed(frame.chat):
                lines.append((f"<{frame.names[seat]}> {text}", "bold"))
            table = WatchTable(frame)
            if table.has_view():
                moves = table.log_lines(table.state.history)
                lines.extend((m, "") for m in reversed(moves))
        for line, style in lines[:WATCH_LINES]:
            for part in fold(line, LOG_WIDTH):
                t.append(part + "\n", style=style)
        return t

    def show_log(self) -> None:
        if self.ready:
            self.query_one("#watch-log", Static).update(self.log_text())

    # -- keys ----------------------------------------------------------------------------------

    def action_chat(self) -> None:
        self.add_class("-chatting")
        self.query_one("#watch-chat", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.say(text)
        self.remove_class("-chatting")
        self.query_one(BoardView).focus()

    def action_recentre(self) -> None:
        self.query_one(BoardView).recentre()

    def action_back(self) -> None:
        if self.has_class("-chatting"):
            self.remove_class("-chatting")
            self.query_one(BoardView).focus()
            return
        self.dismiss(None)

    def relabel(self) -> None:
        """The language changed: every word anew."""
        self.refresh_all()


def read_names(raw: Any) -> list[str]:
    """A duel's players' names as the lobby sent them, checked."""
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(n, str) for n in raw):
        return [one_line(n, 20) or "?" for n in raw]
    return ["?", "?"]


__all__ = ["WatchScreen", "read_names"]
