"""Help on `?`: the rules of the variant and the keys of the screen.

The texts are Markdown, one message for translation per paragraph or list item, with its
inline markup (**bold**, `code`) in the message; key names (d, Enter) stay as they are in
every language. The keys are a message a row too, written as a row of a Markdown table
(``| key | does |``), but drawn by ``KeysTable``: each key whole on its line, what it does
wrapped beside it. They are translated when the help is drawn."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from tui_domino.i18n import N_, _
from tui_domino.ui.keys import Key
from tui_domino.ui.screens.marks import marks
from tui_domino.ui.widgets.keys_table import KeysTable, Row, split_row

Translate = Callable[[str], str]

# The rules of each game: a heading and the items of its list.
RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "classic": (N_("Classic dominoes (draw game)"), (
        # TRANSLATORS: the help's rules of Classic dominoes, an item of a list each. Keep the
        # Markdown (**…**) and the key names in parentheses (d, p) as they are.
        N_("28 tiles, 0-0 to 6-6; 7 each, 14 in the **bazaar**."),
        N_("The first round opens with the highest double (else the highest tile); "
           "later rounds, the last winner leads with any tile."),
        N_("Lay a tile whose number matches an open **end** of the line; its other "
           "number becomes the new end. Doubles lie crosswise."),
        N_("Nothing fits: **draw** (d) until something fits; the last **2** tiles stay "
           "in the bazaar. Nothing fits and no drawing: **pass** (p)."),
        N_("Play your last tile to win the round and score the pips left in your "
           "opponent's hand. A **blocked** round goes to the lighter hand, which scores "
           "the difference."),
        N_("First to the target wins the match."),
    )),
    "spider": (N_("Domino Spider"), (
        # TRANSLATORS: the help's rules of Domino Spider, an item of a list each. Keep the
        # Markdown (**…**) and the key names (m, c, d, p, Enter) as they are.
        N_("28 tiles; 7 each, 14 in the bazaar. The lowest double from 1-1 up opens in "
           "the **centre**: four arms, North, East, South, West."),
        N_("Lay one tile on an open arm end, or **several doubles at once**, each on a "
           "different arm (choose a double, **m** to add it, choose the next, Enter)."),
        N_("Laying a double on an arm, you may **close** that arm (**c**): nothing more "
           "goes there. A closed arm ends in a bar."),
        N_("Nothing fits: draw (d) until something does; bazaar empty: pass (p)."),
        N_("Points are **bad**: when someone goes out, the other is charged his pips "
           "(a lone 0-0 costs 25). A **fish** (blocked, or every arm closed): the "
           "heavier hand is charged its pips."),
        N_("Reach the limit and you **lose** the match."),
    )),
    "triominos": (N_("Triominos"), (
        # TRANSLATORS: the help's rules of Triominos, an item of a list each. Keep the
        # Markdown (**…**) and the key names (r, d, p) as they are.
        N_("56 triangles with 0-5 at each corner; 16 each, 24 in the bazaar."),
        N_("A tile must share a whole edge with the board, and every corner it touches "
           "must show the same number. Tiles turn (**r**) but never flip."),
        N_("You score the tile's value; **bonuses**: opening triple +10 (0-0-0 +40), "
           "a hexagon +50 (two +100, three +150), a bridge +40."),
        N_("Nothing fits: draw (d), 5 points off each; empty bazaar: pass (p), 10 off."),
        N_("Going out: +25 and the value of the other hand. A blocked round costs each "
           "player 10 and the fewer tiles win the difference."),
        N_("Highest total at or above the target wins."),
    )),
}


def rules_text(variant: str, tr: Translate = _) -> str:
    """The rules of ``variant`` as Markdown, in the language in use (``tr``)."""
    title, items = RULES[variant]
    return f"## {tr(title)}\n\n" + "".join(f"- {tr(item)}\n" for item in items)

# The heading row of a table of keys.
# TRANSLATORS: the heading row of the help's tables of keys (Markdown): the key, what it
# does. Keep the | as they are.
KEYS_HEAD = N_("| key | does |")

# The keys of a game, a row of a Markdown table each, with the variants it is for (None: all).
KEY_ROWS: list[tuple[str, tuple[str, ...] | None]] = [
    # TRANSLATORS: a row of the help's table of a game's keys (Markdown): the key, what it
    # does. Keep the | and the key names (← →, 1-9, Enter, Esc, Tab, Ctrl+P, letters) as
    # they are; translate the words between them.
    (N_("| ← → or 1-9, 0 | choose a tile of your hand (bright tiles fit), even while the "
        "other side plays |"), None),
    (N_("| 1 then a digit | the tenth tile on, typed at once: 1 2 is the twelfth |"),
     ("triominos",)),
    (N_("| ↑ ↓ | choose where it goes (highlighted on the table) |"), None),
    (N_("| Enter | play it (or click the tile / the place twice) |"), None),
    (N_("| r | turn the triomino at its place |"), ("triominos",)),
    (N_("| c | close the arm with this double |"), ("spider",)),
    (N_("| m | add this double to the turn / take it back |"), ("spider",)),
    (N_("| d / p | draw / pass, when the rules allow it |"), None),
    (N_("| h | the coach's best moves from what you can see |"), None),
    (N_("| u | take your last move back, and the computer's reply (not in duels) |"), None),
    # TRANSLATORS: H j k l are keys (vi's), kept as they are.
    (N_("| H j k l | pan the table; mouse wheel too |"), None),
    (N_("| Tab | move the focus between hand and table (arrows then pan) |"), None),
    (N_("| z | recentre the table on the play |"), None),
    (N_("| g | the table's marks: what its colours and signs mean |"), None),
    (N_("| Esc | back to the menu (the match is saved after every move) |"), None),
    (N_("| Ctrl+P | the command palette |"), None),
    (N_("| ? | this help |"), None),
]


def key_rows(variant: str) -> list[Row]:
    """The keys of ``variant``'s game (no key of another game), each with what it does, in
    the language in use."""
    return [split_row(_(row)) for row, only in KEY_ROWS if only is None or variant in only]


def keys_head() -> Row:
    """The heading row of a table of keys, in the language in use."""
    return split_row(_(KEYS_HEAD))


# The help of the menu: its paragraphs, then the rows of its table of keys.
MENU_PARAGRAPHS = (
    # TRANSLATORS: the help's first paragraph (Markdown: keep the **…** and *…*); *New
    # game* is the menu's choice of that name.
    N_("Three games: **classic dominoes**, **Domino Spider** and **Triominos**, against the "
       "computer or against a person on this terminal. Pick *New game*, choose the variant "
       "and the opponent, and play with the keyboard or the mouse."),
    # TRANSLATORS: *Continue* is the menu's choice of that name.
    N_("The match is saved after every move; *Continue* resumes it."),
)
MENU_KEY_ROWS = (
    # TRANSLATORS: a row of the menu's table of keys (Markdown): keep the | and the key
    # names (↑ ↓ Enter, n / c / s, d, h, Ctrl+P, ?, q) as they are.
    N_("| ↑ ↓ Enter | choose in the menu |"),
    N_("| n / c / s | new game, continue, settings |"),
    N_("| l | learn to play: a guided round of a game, the keys taught by doing |"),
    N_("| d | a network duel (host one or join one) |"),
    N_("| h | the history of your matches, and your statistics |"),
    N_("| Ctrl+P | the command palette |"),
    N_("| ? | this help |"),
    N_("| q | quit |"),
)


def menu_help(tr: Translate = _) -> str:
    """The help of the menu as Markdown (its table of keys apart: ``menu_key_rows``), in the
    language in use (``tr``)."""
    return "## tui-domino\n\n" + "".join(f"{tr(p)}\n\n" for p in MENU_PARAGRAPHS)


def menu_key_rows() -> list[Row]:
    """The keys of the menu, each with what it does, in the language in use."""
    return [split_row(_(row)) for row in MENU_KEY_ROWS]


# The table's colours, each with what it marks (the colours are the theme's: see
# contrast.table_marks); a swatch drawn in the mark's own colour beside its words.
MARK_COLOURS = (
    # TRANSLATORS: the help's legend of the table's colours: what each colour marks
    ("last", N_("the last move")),
    ("sel", N_("where the chosen tile goes (⏎)")),
    ("place", N_("the other places it fits (↑↓)")),
    ("dim", N_("tiles that cannot be played now")),
)


class MarkColours(Vertical):
    """The colours of the table's marks, each drawn beside what it marks."""

    DEFAULT_CSS = """
    MarkColours { height: auto; margin: 0 1 1 3; }
    MarkColours Horizontal { height: auto; }
    MarkColours Horizontal > Static { width: 1fr; }
    MarkColours .swatch { width: 4; }
    MarkColours .-last { color: $mark-last; }
    MarkColours .-sel { color: $mark-sel; }
    MarkColours .-place { color: $mark-place; }
    MarkColours .-dim { color: $mark-dim; }
    """

    def compose(self) -> ComposeResult:
        # TRANSLATORS: the head of the help's legend of the table's colours
        yield Static(_("The table's colours:"))
        for mark, words in MARK_COLOURS:
            with Horizontal():
                yield Static("██", classes=f"swatch -{mark}")
                yield Static(_(words))


# The keys that scroll the help, and the scroll's action each does.
SCROLL_KEYS = (("up", "scroll_up"), ("down", "scroll_down"), ("pageup", "page_up"),
               ("pagedown", "page_down"), ("home", "scroll_home"), ("end", "scroll_end"))


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        # TRANSLATORS: the footer's key word: close the help.
        Key("escape", "close", "Close"),
        Key("question_mark", "close", "Close", show=False),
        Key("q", "close", "Close", show=False),
        # The text scrolls on the help's own keys: its scroll takes no focus, which restyled
        # all of the help twice (opened, then closed) for nothing it showed.
        *(Binding(key, f"scroll('{action}')", show=False) for key, action in SCROLL_KEYS),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 84; max-width: 100%; height: 100%; max-height: 40;
        border: round $accent; background: $panel;
    }
    HelpScreen VerticalScroll { height: 1fr; }
    HelpScreen Markdown { margin: 0 1; }
    HelpScreen KeysTable { margin: 0 1; padding: 0 2; }
    HelpScreen KeysTable:last-child { margin: 0 1 1 1; }
    """

    def __init__(self, variant: str | None = None, at: str | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.at = at  # "marks": opened at the table's marks (g on the table)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            # TRANSLATORS: the help's title; Esc is the key, kept as it is.
            box.border_title = _("Help · Esc closes")
            with VerticalScroll(can_focus=False):
                if self.variant is None:
                    yield Markdown(menu_help())
                    yield KeysTable(keys_head(), menu_key_rows())
                    yield Markdown("\n".join(rules_text(v) for v in RULES))
                else:
                    yield Markdown(rules_text(self.variant) + "\n" + marks(self.variant))
                    yield MarkColours()
                    yield Markdown("## " + _("Keys") + "\n")
                    yield KeysTable(keys_head(), key_rows(self.variant))

    def on_markdown_table_of_contents_updated(
            self, event: Markdown.TableOfContentsUpdated) -> None:
        if self.at != "marks":
            return
        for _level, title, block in event.table_of_contents:
            if title == _("The table's marks") and block is not None:
                heading = event.markdown.query_one(f"#{block}")
                self.call_after_refresh(heading.scroll_visible, top=True, animate=False)
                return

    def relabel(self) -> None:
        """The language changed: the help is written anew in it (from the top)."""
        self.refresh(recompose=True)

    async def action_scroll(self, action: str) -> None:
        """The text's scroll does ``action``, one of its own keys' (SCROLL_KEYS)."""
        await self.query_one(VerticalScroll).run_action(action)

    def action_close(self) -> None:
        self.dismiss(None)
