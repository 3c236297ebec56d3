"""Help on `?`: the rules of the variant and the keys of the screen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

RULES = {
    "classic": """\
## Classic dominoes (draw game)

- 28 tiles, 0-0 to 6-6; 7 each, 14 in the **bazaar**.
- The first round opens with the highest double (else the highest tile);
  later rounds, the last winner leads with any tile.
- Lay a tile whose number matches an open **end** of the line; its other
  number becomes the new end. Doubles lie crosswise.
- Nothing fits: **draw** (d) until something fits; the last **2** tiles stay
  in the bazaar. Nothing fits and no drawing: **pass** (p).
- Play your last tile to win the round and score the pips left in your
  opponent's hand. A **blocked** round goes to the lighter hand, which scores
  the difference.
- First to the target wins the match.
""",
    "spider": """\
## Domino Spider

- 28 tiles; 7 each, 14 in the bazaar. The lowest double from 1-1 up opens in
  the **centre**: four arms, North, East, South, West.
- Lay one tile on an open arm end, or **several doubles at once**, each on a
  different arm (choose a double, **m** to add it, choose the next, Enter).
- Laying a double on an arm, you may **close** that arm (**c**): nothing more
  goes there. A closed arm ends in a bar.
- Nothing fits: draw (d) until something does; bazaar empty: pass (p).
- Points are **bad**: when someone goes out, the other is charged his pips
  (a lone 0-0 costs 25). A **fish** (blocked, or every arm closed): the
  heavier hand is charged its pips.
- Reach the limit and you **lose** the match.
""",
    "triominos": """\
## Triominos

- 56 triangles with 0-5 at each corner; 16 each, 24 in the bazaar.
- A tile must share a whole edge with the board, and every corner it touches
  must show the same number. Tiles turn (**r**) but never flip.
- You score the tile's value; **bonuses**: opening triple +10 (0-0-0 +40),
  a hexagon +50 (two +100, three +150), a bridge +40.
- Nothing fits: draw (d), 5 points off each; empty bazaar: pass (p), 10 off.
- Going out: +25 and the value of the other hand. A blocked round costs each
  player 10 and the fewer tiles win the difference.
- Highest total at or above the target wins.
""",
}

# The keys of a game, each with the variants it is for (None: all).
KEY_ROWS: list[tuple[str, str, tuple[str, ...] | None]] = [
    ("← → or 1-9, 0", "choose a tile of your hand (bright tiles fit), even while the other "
     "side plays", None),
    ("1 then a digit", "the tenth tile on, typed at once: 1 2 is the twelfth", ("triominos",)),
    ("↑ ↓", "choose where it goes (highlighted on the table)", None),
    ("Enter", "play it (or click the tile / the place twice)", None),
    ("r", "turn the triomino at its place", ("triominos",)),
    ("c", "close the arm with this double", ("spider",)),
    ("m", "add this double to the turn / take it back", ("spider",)),
    ("d / p", "draw / pass, when the rules allow it", None),
    ("h", "the coach's best moves from what you can see", None),
    ("u", "take your last move back, and the computer's reply (not in duels)", None),
    ("H j k l", "pan the table; mouse wheel too", None),
    ("Tab", "move the focus between hand and table (arrows then pan)", None),
    ("z", "recentre the table on the play", None),
    ("Esc", "back to the menu (the match is saved after every move)", None),
    ("Ctrl+P", "the command palette", None),
    ("?", "this help", None),
]


def keys_table(variant: str) -> str:
    """The keys of ``variant``'s game as a Markdown table (no key of another game)."""
    rows = [f"| {key} | {does} |" for key, does, only in KEY_ROWS
            if only is None or variant in only]
    return "## Keys\n\n| key | does |\n|---|---|\n" + "\n".join(rows) + "\n"


MENU_HELP = """\
## tui-domino

Three games: **classic dominoes**, **Domino Spider** and **Triominos**, against the
computer or against a person on this terminal. Pick *New game*, choose the variant
and the opponent, and play with the keyboard or the mouse.

The match is saved after every move; *Continue* resumes it.

| key | does |
|---|---|
| ↑ ↓ Enter | choose in the menu |
| n / c / s | new game, continue, settings |
| d | a network duel (host one or join one) |
| h | the history of your matches, and your statistics |
| Ctrl+P | the command palette |
| ? | this help |
| q | quit |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 84; max-width: 100%; height: 100%; max-height: 40;
        border: round $accent; background: $panel;
    }
    HelpScreen VerticalScroll { height: 1fr; }
    HelpScreen Markdown { margin: 0 1; }
    """

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self.variant = variant

    def compose(self) -> ComposeResult:
        if self.variant is None:
            text = MENU_HELP + "\n" + "\n".join(RULES.values())
        else:
            from tui_domino.ui.screens.marks import marks  # (drawn when the help opens)

            text = RULES[self.variant] + "\n" + marks(self.variant) + "\n" + keys_table(
                self.variant)
        with Vertical() as box:
            box.border_title = "Help · Esc closes"
            with VerticalScroll():
                yield Markdown(text)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
