"""The table on a screen, for a local match and a duel alike: the board, the hand, the score
panel, the hint line and the footer, drawn from a ``ui.table.Table``; the keys that choose a
tile and a place and make a move. Where a move goes and what comes after it is the screen's
that shows a table: ``GameScreen`` drives a local match (``ui.local_table.LocalTable``),
``DuelScreen`` a duel (``net.transport.DuelSession``).

The screen follows its table rather than being told to draw: a change of the table (a move,
a deal, a take-back) reaches it as a ``TableChanged`` message, drawn by one handler, and the
flags it shows (``thinking``, ``looking_back``) are Textual ``var``s whose watchers draw
what depends on them."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from tui_domino import rules
from tui_domino.i18n import _
from tui_domino.ui.ascii import key_words
from tui_domino.ui.drawing.table import table_layout, table_shape
from tui_domino.ui.drawing.tiles import PIPS_SHAPE, TileShape
from tui_domino.ui.host import game_app, settings_of
from tui_domino.ui.keys import Footer
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.game_hint import hand_title, hint_text
from tui_domino.ui.screens.game_keys import GAME_KEYS
from tui_domino.ui.screens.game_motion import Motions
from tui_domino.ui.selection import Selection
from tui_domino.ui.session import tile_text
from tui_domino.ui.table import Table
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView
from tui_domino.ui.widgets.scoreboard import ScorePanel


class TableScreen(Screen[None]):
    """A table in play: what every screen that shows one has in common."""

    CSS_PATH = "game.tcss"
    PALETTE_KEY = True  # the footer shows Ctrl+P's key (where it fits)
    # The hint line says who chose the move shown ("first that fits", the coach's), lest it
    # read as advice; a lesson, which says what to do, keeps its room for the keys instead.
    SAYS_WHO_CHOSE = True

    BINDINGS = GAME_KEYS

    # The other side is to move (the score panel says so; the hand may be looked through).
    thinking = var(False, init=False)
    # The round is over and the player looks at the final board (the hint line names the
    # hands kept; Enter brings the summary back).
    looking_back = var(False, init=False)

    class TableChanged(Message, bubble=False):
        """The table shown changed (a move, a deal, a take-back, a frame of a duel): the
        screen draws it anew (``follow``: the board scrolls to the last move; ``recentre``:
        a new round's board is centred once drawn). Changes posted in a row are drawn
        once."""

        def __init__(self, follow: bool = True, recentre: bool = False) -> None:
            super().__init__()
            self.follow = follow
            self.recentre = recentre

        def can_replace(self, message: Message) -> bool:
            if not isinstance(message, TableScreen.TableChanged):
                return False
            message.follow |= self.follow  # the later one is drawn, with what both asked
            message.recentre |= self.recentre
            return True

    def __init__(self, session: Table) -> None:
        # the game's class from the start: added once mounted, it restyled the whole screen
        super().__init__(classes=session.variant)
        self.session = session
        self.sel = Selection(session.variant)
        self._browsed = False  # the player has looked through the hand during the other's turn
        self._flash: Timer | None = None
        self._board: BoardView | None = None  # made in compose
        self.motions = Motions()  # the move just made, shown moving (game_motion.py)
        self._shape: TileShape | None = None  # the style the table was last drawn in
        # Drawn on mount, with the settings of the moment: the screen's first showing (the
        # resume that follows its mount) has nothing to draw again.
        self._drawn_on_mount = False
        self.clock: Callable[[], float] = time.monotonic  # (a digit's key: when it came)

    @property
    def hands_hidden(self) -> bool:
        """Whether the hand of the one to move is hidden (two people at one terminal)."""
        return False

    def kept_hand(self, player: int) -> list[Sequence[int]]:
        """The tiles ``player`` kept when the round ended, as the final table shows them
        (none here: a screen that knows them says so)."""
        return []

    def on_mount(self) -> None:
        # Textual calls each class's on_mount in turn (a subclass's first, this one's last):
        # a subclass adds its own and never calls this one itself.
        if self.taken_off():
            return
        self.apply_settings()
        self.query_one(HandView).focus()
        # drawn at once, not through a message: the first frame shows the table
        self.refresh_all(follow=True)
        self._drawn_on_mount = True
        self.restore_choice()
        self.call_after_refresh(self.next_step)

    def restore_choice(self) -> None:
        """Once mounted, the tile and place to choose first (none here: the first of the
        hand is chosen)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        variant = self.session.variant
        if action == "rotate":
            return variant == "triominos"
        if action in ("close_arm", "mark"):
            return variant == "spider"
        if action in ("hint", "take_back"):
            return False  # against the computer only (``GameScreen``)
        # the arrows pan the table while it has the focus: then no "Tile/Place" keys
        return not (action == "step" and isinstance(self.focused, BoardView))

    # -- what the screen that shows the table does ---------------------------------------------

    def next_step(self) -> None:
        """After a move, or once mounted: what comes next at this table."""
        raise NotImplementedError

    def apply_move(self, move: rules.Move) -> bool:
        """The player's move, sent to the table; False when it was refused."""
        raise NotImplementedError

    def action_menu(self) -> None:
        """Esc: away from the table."""
        raise NotImplementedError

    def action_play(self) -> None:
        if not self._my_turn():
            return
        move = self.sel.build_move()
        if move is None:
            self.flash_hint()  # it says why: nothing fits (d, p), or this tile does not
            return
        self.apply_move(move)

    def compose(self) -> ComposeResult:
        yield from self.compose_table()
        yield from self.compose_hand()

    def compose_table(self) -> ComposeResult:
        """The board beside the score panel, and the hint line under them."""
        with Horizontal(id="table"):
            yield from self.compose_board()
            yield ScorePanel(id="side")
        with Horizontal(id="hint-row"):
            yield Static(id="hint")
            yield Static(id="legend")

    def compose_board(self) -> ComposeResult:
        """The board (a screen that shows something under it adds it here)."""
        self._board = BoardView(id="board")
        yield self._board

    def compose_hand(self) -> ComposeResult:
        """The hand and the footer."""
        with Vertical(id="hand-box"):
            yield HandView(id="hand")
        yield Footer(compact=True)

    def taken_off(self) -> bool:
        """Whether the screen is closed or being closed, its widgets gone or going, e.g. a
        duel whose connection dropped as it opened: then nothing on it is to be drawn.
        Textual marks every node of a screen it removes as pruning at once, then removes the
        widgets one by one, so a single widget still attached proves nothing."""
        if getattr(self, "_pruning", False) or getattr(self, "_closing", False):
            return True
        return self._board is None or not self._board.is_attached

    def apply_settings(self) -> None:
        settings = settings_of(self)
        ascii_only = bool(settings is not None and settings.ascii)
        self.board.set_ascii(ascii_only)
        self.query_one(HandView).ascii_only = ascii_only
        self.set_class(ascii_only, "-ascii")
        self.show_palette_key()

    def show_palette_key(self) -> None:
        """The footer's ^p key, on a screen that offers it (the footer leaves it out where
        the keys would not all fit: ``keys.Footer.fitted``)."""
        self.query_one(Footer).show_command_palette = self.PALETTE_KEY

    def shape_now(self) -> TileShape:
        """The style of the dominoes at this terminal's size (``drawing.table``), the same
        through a round."""
        settings = settings_of(self)
        return table_shape(self.session.variant, self.app.size,
                           settings is None or settings.pips)

    def pips_now(self) -> bool:
        """Dominoes with pips, on the table and in the hand alike (``drawing.table``)."""
        pips = self.shape_now() is PIPS_SHAPE
        self.set_class(pips, "-pips")
        return pips

    # -- following the table ---------------------------------------------------------------------

    def table_changed(self, follow: bool = True, recentre: bool = False) -> None:
        """Tells the screen its table changed (the model's listener calls it, or the screen
        where it learns of a change). The choice follows the table at once, so that a key
        typed in the same burst acts on the new table; the drawing comes with the
        ``TableChanged`` message."""
        if self.taken_off():  # (not yet mounted: ``on_mount`` draws it as it then stands)
            return
        self.follow_table()
        self.post_message(self.TableChanged(follow, recentre))

    def on_table_screen_table_changed(self, message: TableChanged) -> None:
        self.show_table(message.follow, message.recentre)

    def show_table(self, follow: bool, recentre: bool) -> None:
        """The table drawn as it now stands, after a change."""
        self.draw_table(follow)
        if recentre and not self.taken_off():
            self.board.call_after_refresh(self.board.recentre)

    def watch_thinking(self) -> None:
        self.show_scores()

    def watch_looking_back(self, looking: bool) -> None:
        # Looking back, the final table is drawn anew where it stands (its hint line names
        # the hands kept); looking away, the next round or the match's end is drawn next.
        if looking:
            self.refresh_all(follow=False)

    def show_scores(self) -> None:
        """The score panel (whose turn, the scores, "thinking…")."""
        if self.is_mounted and not self.taken_off():
            self.query_one(ScorePanel).show(self.session, self.thinking)

    def on_resize(self) -> None:
        if not self.is_mounted or self.taken_off():
            return
        drawn = self._shape  # the style the table was drawn in (None: not drawn yet)
        if self.has_class("-pips") != self.pips_now() or (
                drawn is not None and drawn is not self.shape_now()):
            # at once: the tiles take the new size's style in the frame of that size
            self.draw_board(follow=True)
            self.draw_hand()
        self.show_hint()  # its keys fitted to the new width (made for a wider one, it is cut)

    def on_descendant_focus(self) -> None:
        """The footer and the hint line say what the arrows do now."""
        self.refresh_bindings()
        if self.is_mounted and not self.taken_off():
            self.show_hint()

    on_descendant_blur = on_descendant_focus

    @property
    def board(self) -> BoardView:
        assert self._board is not None
        return self._board

    def refresh_all(self, follow: bool = True) -> None:
        """The choice brought up to the table, and everything drawn, at once."""
        if self.taken_off():
            return
        self.follow_table()
        self.draw_table(follow)

    def follow_table(self) -> None:
        """The choice after a change of the table: the hand's tiles, the moves allowed."""
        s = self.session
        human = s.is_human_turn() and not self.hands_hidden
        self.update_choice(s.view()["hand"], s.state.legal_moves() if human else [])

    def draw_table(self, follow: bool = True) -> None:
        """The board, the hand, the score panel, the hint line and the hand's title, drawn
        from the table and the choice as they stand."""
        if self.taken_off():
            return
        self.draw_board(follow)
        self.draw_hand()
        self.query_one(ScorePanel).show(self.session, self.thinking)
        self.show_hint()
        self.title_hand()

    def relabel(self) -> None:
        """The language changed: every word is drawn anew, the choice and the view kept."""
        self.draw_table(follow=False)

    def title_hand(self) -> None:
        self.query_one(HandView).border_title = plain(hand_title(self.session))

    def update_choice(self, hand: Sequence[Sequence[int]], legal: list[rules.Move]) -> None:
        """The selection after a change of the round (``legal`` is empty unless it is the
        player's turn; a tile looked at during the other's turn stays chosen if it fits)."""
        if legal:
            self._browsed = False
        self.sel.update(hand, legal)

    def draw_board(self, follow: bool = True) -> None:
        s = self.session
        places = self.sel.shown_places()
        selected = self.sel.place_index
        if selected is not None and places:
            selected %= len(places)
        self.pips_now()
        self._shape = self.shape_now()
        self.board.show(table_layout(s.variant, s.view(), places, selected,
                                     list(self.sel.pending), s.viewer, self._shape),
                        follow=follow)

    def draw_hand(self) -> None:
        view = self.session.view()
        chosen = {p.tile for p in self.sel.pending}
        marked = {i for i, t in enumerate(self.sel.hand) if t in chosen}
        playable = self.sel.playable()
        if self.session.is_human_turn():
            selected = self.sel.tile_index if playable else None
        else:
            selected = self.sel.tile_index if self._browsed else None
        hand = self.query_one(HandView)
        self.motions.before_hand(hand)
        hand.show(self.session.variant, [tuple(t) for t in view["hand"]], selected, playable,
                  marked, hidden=self.hands_hidden, pips=self.pips_now())
        self.motions.after_draw(self.session, view, self.board, hand)

    def redraw_choice(self) -> None:
        self.draw_board(follow=True)
        self.draw_hand()
        self.show_hint()

    def show_hint(self) -> None:
        text = self.hint()
        if self.has_class("-ascii"):
            text = key_words(text)
        self.query_one("#hint", Static).update(plain(text), layout=False)

    def hint(self) -> str:
        """The hint line: what the keys do now (ui/screens/game_hint.py)."""
        return hint_text(self)

    def _my_turn(self) -> bool:
        if self.session.state.is_over:
            return False
        if not self.session.is_human_turn():
            self.notify(_("Wait for your turn."), severity="information", timeout=2)
            return False
        return not self.hands_hidden

    def flash_hint(self) -> None:
        """Lights the hint line up for a moment (and rings, when the bell is on): a key did
        nothing, and the line says why."""
        game_app(self).ring()
        row = self.query_one("#hint-row")
        row.add_class("-flash")
        if self._flash is not None:
            self._flash.stop()
        self._flash = self.set_timer(0.8, lambda: row.remove_class("-flash"))

    def action_draw(self) -> None:
        if not self._my_turn():
            return
        if not self.sel.can("draw"):
            s = self.session
            if self.sel.playable():
                msg = _("You can play a tile, so you may not draw.")
            elif s.view()["bazaar_size"] == 0:
                msg = _("The bazaar is empty.")
            else:
                msg = _("You may not draw now: the last tiles of the bazaar stay there.")
            game_app(self).ring()
            # TRANSLATORS: the title of a notice: drawing from the bazaar is refused
            self.notify(msg, title=_("No drawing"), severity="warning")
            return
        self.apply_move(rules.DRAW)

    def action_pass_turn(self) -> None:
        if not self._my_turn():
            return
        if not self.sel.can("pass"):
            if self.sel.playable():
                msg = _("You can play a tile, so you may not pass.")
            else:
                # TRANSLATORS: a notice; (d) is the key that draws
                msg = _("You can still draw from the bazaar (d).")
            game_app(self).ring()
            # TRANSLATORS: the title of a notice: passing is refused
            self.notify(msg, title=_("No passing"), severity="warning")
            return
        self.apply_move(rules.PASS)

    def action_rotate(self) -> None:
        if not self._my_turn():
            return
        if not self.sel.rotate():
            self.notify(_("This tile fits here only one way."), timeout=2)
        self.redraw_choice()

    def action_close_arm(self) -> None:
        if not self._my_turn():
            return
        if not self.sel.toggle_close():
            self.notify(_("Only a double laid on an arm can close it."), timeout=3)
        self.redraw_choice()

    def action_mark(self) -> None:
        if not self._my_turn():
            return
        what = self.sel.toggle_mark()
        if what == "not-double":
            self.notify(_("Only doubles can be played together, one per arm."), timeout=3)
        elif what == "centre":
            self.notify(_("The centre double opens the round alone."), timeout=3)
        elif what == "no-arm":
            tile = self.sel.current_tile() or (0, 0)
            # TRANSLATORS: a notice in Spider: {tile} is a double such as 3-3, {number} its
            # number
            self.notify(_("{tile} fits no arm: no open arm ends in {number}.").format(
                tile=tile_text(tile), number=tile[0]), timeout=4)
        self.redraw_choice()

    def action_recentre(self) -> None:
        self.board.recentre()

    def action_pan(self, dx: int, dy: int) -> None:
        self.board.scroll_relative(dx, dy, animate=False)

    def action_pick(self, n: int) -> None:
        """The n-th tile of the hand (``Selection.pick``: 0 the tenth, 1 and a digit at once
        the tenth on)."""
        index = self.sel.pick(n, self.clock())
        if index is None or self._browse(index) or not self._my_turn():
            return
        self.sel.select_tile(index)
        self.redraw_choice()

    def action_help(self, at: str | None = None) -> None:  # at "marks": on g
        # lazy: start-up (the menu shows without this screen)
        from tui_domino.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.session.variant, at))

    def action_step(self, what: str, delta: int) -> None:
        """Another tile (``what`` = "tile") or place ("place") for the one chosen, while the
        hand has the focus (the arrow keys in the chat's input are the input's; a click on
        the hand gives it the focus). During the other side's turn only the tile moves."""
        if not isinstance(self.focused, HandView):
            return
        if what == "tile" and self._browse(None, delta):
            return
        if not self._my_turn():
            return
        if what == "tile":
            self.sel.move_tile(delta)
        else:
            self.sel.cycle_place(delta)
        self.redraw_choice()

    def on_hand_view_step(self, message: HandView.Step) -> None:
        self.action_step(message.what, message.delta)

    def _browse(self, index: int | None, delta: int = 0) -> bool:
        """During the other side's turn, choose a tile of the hand to look at (``index``,
        or ``delta`` places on): it stays chosen for the player's turn if it fits then.
        False when it is not the other side's turn."""
        if not self.thinking or self.hands_hidden or not self.sel.hand:
            return False
        if index is None:
            self.sel.move_tile(delta)
        else:
            self.sel.select_tile(index)
        self._browsed = True
        self.draw_hand()
        return True

    def on_hand_view_tile_clicked(self, message: HandView.TileClicked) -> None:
        if self._browse(message.index) or not self._my_turn():
            return
        if message.index == self.sel.tile_index and self.sel.current_place() is not None:
            self.action_play()
            return
        self.sel.select_tile(message.index)
        self.redraw_choice()

    def on_board_view_panned(self, message: BoardView.Panned) -> None:
        # TRANSLATORS: at the right of the hint line: the arrows (↑↓←→) point where more of
        # the table is out of view; keep it short
        text = _("more {arrows}").format(arrows=message.more) if message.more else ""
        if text != getattr(self, "_legend_text", None):  # its width follows the text
            self._legend_text = text
            self.query_one("#legend", Static).update(text)

    def on_board_view_place_clicked(self, message: BoardView.PlaceClicked) -> None:
        if not self._my_turn() or not isinstance(message.key, int):
            return
        if message.key == self.sel.place_index:
            self.action_play()
            return
        self.sel.select_place(message.key)
        self.redraw_choice()

    def on_screen_resume(self) -> None:
        if self.taken_off():
            return
        if self._drawn_on_mount:  # (shown for the first time: drawn as it stands)
            self._drawn_on_mount = False
            return
        self.apply_settings()
        if self.redraws_on_resume():
            self.refresh_all()  # at once: the screen comes back on top as it now stands

    def redraws_on_resume(self) -> bool:
        """Whether the table is drawn anew as a screen over it closes (the settings may have
        changed meanwhile): not over, nor the other side's turn, here."""
        return not self.session.state.is_over and not self.thinking
