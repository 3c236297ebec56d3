"""The game screen's keys, with the words the footer shows for them."""

from __future__ import annotations

from textual.binding import BindingType

from tui_domino.ui.keys import Key

# The arrows choose in the hand. They are bound here, not in the hand widget, so that they
# run in order with ⏎ and the other keys when a terminal read brings several at once.
# The footer's words share one line of 80 columns: one short word each.
GAME_KEYS: list[BindingType] = [
    # TRANSLATORS: the footer, 80 columns for every key: ←→ choose another tile
    Key("left", "step('tile', -1)", "Tile", show=False),
    Key("right", "step('tile', 1)", "Tile", key_display="←→"),
    # TRANSLATORS: the footer, 80 columns for every key: ↑↓ choose where the tile goes
    Key("up", "step('place', -1)", "Place", show=False),
    Key("down", "step('place', 1)", "Place", key_display="↑↓"),
    # TRANSLATORS: the footer (80 columns for every key): play the chosen tile
    Key("enter", "play", "Play", key_display="⏎"),
    # TRANSLATORS: the footer (80 columns for every key): draw from the bazaar
    Key("d", "draw", "Draw"),
    # TRANSLATORS: the footer (80 columns for every key): pass the turn
    Key("p", "pass_turn", "Pass"),
    # TRANSLATORS: the footer (80 columns for every key): turn the Triominos tile
    Key("r", "rotate", "Rotate"),
    # TRANSLATORS: the footer (80 columns for every key): close Spider's arm with a double
    Key("c", "close_arm", "Close"),
    # TRANSLATORS: the footer (80 columns for every key): add a double to the turn (Spider)
    Key("m", "mark", "Add"),
    # TRANSLATORS: the keys panel: bring the table's middle back into view
    Key("z", "recentre", "Centre", show=False),
    # TRANSLATORS: the keys panel: the help at what the table's colours and signs mean
    Key("g", "help('marks')", "Legend", show=False),
    # TRANSLATORS: the keys panel: the coach's hint
    Key("h", "hint", "Hint", show=False),
    # TRANSLATORS: the keys panel: take your last move back
    Key("u", "take_back", "Take back", show=False),
    # TRANSLATORS: the keys panel: move the view of the table
    Key("H", "pan(-4, 0)", "Pan", show=False),
    Key("l", "pan(4, 0)", "Pan", show=False),
    Key("k", "pan(0, -2)", "Pan", show=False),
    Key("j", "pan(0, 2)", "Pan", show=False),
    # TRANSLATORS: the footer (80 columns for every key)
    Key("question_mark", "help", "Help", key_display="?"),
    # TRANSLATORS: the footer (80 columns for every key): back to the main menu
    Key("escape", "menu", "Menu"),
    # TRANSLATORS: the keys panel: a digit picks that tile of the hand
    *[Key(str(n), "pick(" + str(n) + ")", "Pick", show=False) for n in range(0, 10)],
]
