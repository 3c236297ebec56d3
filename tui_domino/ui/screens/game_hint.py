"""The game screen's words: the hint line (what Enter does now, what the other keys do, and
why nothing can be played when nothing can: 80 columns, less the legend's arrows at its
right) and the hand box's title."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len

from tui_domino.i18n import _, ngettext, npgettext, pgettext
from tui_domino.rules.places import arm_letter
from tui_domino.ui.selection import Selection
from tui_domino.ui.session import tile_text
from tui_domino.ui.widgets.board import BoardView

# Columns of the hint row that the hint line leaves to its padding and to the legend at its
# right ("more ↓→"): a line that says who chose the tile drops its last keys to fit.
HINT_ROOM = 12

if TYPE_CHECKING:  # the screen imports this module
    from tui_domino.ui.screens.table_screen import TableScreen
    from tui_domino.ui.table import Table


def hand_title(s: Table) -> str:
    """The title of the hand's box: whose hand, and how many tiles."""
    n = len(s.view()["hand"])
    tri = s.variant == "triominos"
    if not s.hot_seat:
        # TRANSLATORS: the title of the hand's box (the "triominos" one: of triominos)
        return (npgettext("triominos", "Your hand · {n} tile", "Your hand · {n} tiles", n)
                if tri else ngettext("Your hand · {n} tile", "Your hand · {n} tiles", n)
                ).format(n=n)
    # TRANSLATORS: the title of the hand's box when two people share the terminal;
    # {name} is a player's name as given ("Hand: {name}" spares declining it)
    words = (npgettext("triominos", "{name}'s hand · {n} tile", "{name}'s hand · {n} tiles", n)
             if tri else ngettext("{name}'s hand · {n} tile", "{name}'s hand · {n} tiles", n))
    return words.format(name=s.seats[s.viewer].name, n=n)


def chooser(sel: Selection, play: str) -> str:
    """The hint line's sentence to play the chosen tile, with who chose it when a player
    might take it for advice: the game ("first that fits": the first tile of the hand that
    fits, at its first place) or the coach (asked with h). Not said of the player's own."""
    if sel.chosen_by == "first" and not sel.pending:
        # TRANSLATORS: the hint line (80 columns): the tile and place chosen by the game,
        # not advice: the first tile of the hand that fits, at its first place
        # ("⏎ play 6-3 on the left end (first that fits)")
        return _("{play} (first that fits)").format(play=play)
    if sel.chosen_by == "coach":
        # TRANSLATORS: the hint line (80 columns): the tile and place the coach chose
        # when asked (h) ("⏎ play 6-3 on the left end (the coach's move)")
        return _("{play} (the coach's move)").format(play=play)
    return play


def hint_text(screen: TableScreen) -> str:
    """The hint line of ``screen`` as it stands."""
    s = screen.session
    state = s.state
    # The hint line: 80 columns (less the legend's arrows at its right).
    if isinstance(screen.focused, BoardView) and not state.is_over:
        # TRANSLATORS: the hint line (80 columns) while the table has the focus
        if s.variant == "triominos":
            return pgettext("triominos", "The arrows pan the table · Tab or a click on the "
                            "hand: back to the tiles")
        return _("The arrows pan the table · Tab or a click on the hand: back to the tiles")
    if state.is_over:
        if screen.looking_back:  # the hands the others kept (the viewer's is in the hand box)
            kept = []
            for p in (0, 1):
                if p == s.viewer:
                    continue
                tiles = " ".join(tile_text(t) for t in screen.kept_hand(p))
                # TRANSLATORS: the hint line (80 columns) after a round: the tiles a
                # player kept, "Ann kept 6-6 5-3"
                kept.append(_("{name} kept {tiles}").format(name=s.seats[p].name,
                                                            tiles=tiles) if tiles
                            else _("{name} kept nothing").format(name=s.seats[p].name))
            # TRANSLATORS: the hint line (80 columns) after a round; {kept} is the tiles
            # the other player kept; ⏎ (Enter) brings the round summary back
            return _("The final table · {kept} · ⏎ the summary").format(kept="; ".join(kept))
        return _("The round is over.")
    if screen.hands_hidden:
        # TRANSLATORS: the hint line (80 columns): two people share the terminal
        return _("Hand hidden: pass the keyboard to {name}.").format(
            name=s.seats[state.to_move or 0].name)
    if not s.is_human_turn():
        return _("{name} is thinking…").format(name=s.seats[state.to_move or 0].name)
    sel = screen.sel
    tile = sel.current_tile()
    place = sel.current_place()
    opts = s.state.options
    # The hint line's parts after the first are joined by " · ": each is a key (a
    # letter or an arrow) and what it does.
    if place is not None and tile is not None:
        places = sel.places()
        taken = s.variant != "triominos" or bool(s.view()["board"])
        text = sel.describe(place, taken)
        keys = []
        if s.variant == "triominos":
            cells = len(set(m.cell for m in sel.move_places()))
            if cells > 1:
                # TRANSLATORS: the hint line (80 columns): ↑↓ choose among {n} places
                keys.append(ngettext("↑↓ {n} place", "↑↓ {n} places", cells).format(n=cells))
            if sel.rotations_here() > 1:
                # TRANSLATORS: the hint line (80 columns): the key r turns the tile
                keys.append(_("r turn"))
        elif len(places) > 1:
            keys.append(ngettext("↑↓ {n} place", "↑↓ {n} places", len(places)).format(
                n=len(places)))
        if s.variant == "spider" and sel.can_close(place):  # a double on an arm
            # TRANSLATORS: the hint line (80 columns): the key c closes the arm, or
            # keeps it open (Spider)
            keys.append(_("c close") if not sel.close else _("c keep open"))
            # TRANSLATORS: the hint line (80 columns): the key m adds another double
            # to the turn (Spider)
            keys.append(_("m +double"))
        said = chooser(sel, text) if screen.SAYS_WHO_CHOSE else text
        width = (screen.size.width or 80) - HINT_ROOM
        if said != text:  # who chose comes first: the keys (the footer has them) give way
            while keys and cell_len(" · ".join([said, *keys])) > width:
                keys.pop()
            if cell_len(said) > width:  # (a narrow terminal: the move alone)
                said = text
        text = " · ".join([said, *keys])
        if sel.pending:
            chosen = ", ".join(
                _("{tile} {arm} closed").format(tile=tile_text(p.tile), arm=arm_letter(p.arm))
                if p.close else f"{tile_text(p.tile)} {arm_letter(p.arm)}"
                for p in sel.pending
            )
            # TRANSLATORS: the hint line (80 columns) in Spider: the doubles chosen for
            # this turn ("3-3 N, 5-5 E closed"), then the hint to play the next one
            text = _("with {chosen}: {hint}").format(chosen=chosen, hint=text)
        return text
    if sel.pending:
        chosen = ", ".join(f"{tile_text(p.tile)} {arm_letter(p.arm)}" for p in sel.pending)
        # TRANSLATORS: the hint line (80 columns) in Spider: {tiles} are the doubles
        # chosen for this turn, "3-3 N, 5-5 E"; m is a key
        return _("⏎ play {tiles} · m on a chosen tile takes it back").format(tiles=chosen)
    if sel.playable():
        if tile:
            # TRANSLATORS: the hint line (80 columns): ←→ are the arrow keys; the tiles
            # that fit are drawn bright
            if s.variant == "triominos":
                return pgettext("triominos", "{tile} does not fit: ←→ choose a bright "
                                "tile").format(tile=tile_text(tile))
            return _("{tile} does not fit: ←→ choose a bright tile").format(
                tile=tile_text(tile))
        if s.variant == "triominos":
            return pgettext("triominos", "This tile does not fit: ←→ choose a bright tile")
        return _("This tile does not fit: ←→ choose a bright tile")
    if sel.can("draw"):
        pen = opts.get("draw_penalty") if s.variant == "triominos" else 0
        if pen:
            # TRANSLATORS: the hint line (80 columns): d is a key; drawing costs points
            return ngettext("No tile fits: press d to draw from the bazaar ({n} point off)",
                            "No tile fits: press d to draw from the bazaar ({n} points off)",
                            pen).format(n=pen)
        # TRANSLATORS: the hint line (80 columns): d is a key
        return _("No tile fits: press d to draw from the bazaar")
    if sel.can("pass"):
        pen = opts.get("stuck_penalty") if s.variant == "triominos" else 0
        if pen:
            # TRANSLATORS: the hint line (80 columns): p is a key; passing costs points
            return ngettext(
                "Nothing fits and you cannot draw: press p to pass ({n} point off)",
                "Nothing fits and you cannot draw: press p to pass ({n} points off)",
                pen).format(n=pen)
        # TRANSLATORS: the hint line (80 columns): p is a key
        return _("Nothing fits and you cannot draw: press p to pass")
    return ""
