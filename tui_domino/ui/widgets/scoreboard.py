"""The side panel: round, target, both scores, whose turn, hand and bazaar sizes, and a
short log of recent moves."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from tui_domino.i18n import _, ngettext, npgettext
from tui_domino.ui.contrast import muted_of
from tui_domino.ui.session import VARIANT_TITLES, fold
from tui_domino.ui.table import Table

LOG_WIDTH = 24  # the panel's width (26, the game's .tcss) less its padding


class ScorePanel(Vertical):
    DEFAULT_CSS = """
    ScorePanel { padding: 0 1; background: $panel; }  /* its width: the game's .tcss */
    ScorePanel #score { height: auto; }
    ScorePanel #log-title { color: $text-muted; margin-top: 1; }
    ScorePanel #log { height: 1fr; color: $text-muted; }
    """

    _score_lines = -1
    # The log's title in the language it was last given in (a duel's screen gives it its own
    # title after every show: it is given again only when the language changed).
    _log_title = ""

    def compose(self) -> ComposeResult:
        yield Static(id="score")
        self._log_title = _("Recent moves")
        yield Static(self._log_title, id="log-title")
        yield Static(id="log")

    def show(self, session: Table, thinking: bool = False) -> None:
        state = session.state
        view = session.view()
        match = session.match
        spider = session.variant == "spider"
        quiet = muted_of(self, "panel")
        t = Text()
        # The panel is 24 columns wide: every line of it is short.
        t.append(f"{_(VARIANT_TITLES[session.variant])}\n", style="bold")
        if spider:
            # TRANSLATORS: the side panel (24 columns): the round's number and the points at
            # which Spider's match ends
            line = _("Round {number} · limit {limit}").format(number=match.round_no,
                                                              limit=match.target)
        else:
            # TRANSLATORS: the side panel (24 columns): the round's number and the points
            # that win the match
            line = _("Round {number} · target {target}").format(number=match.round_no,
                                                                target=match.target)
        t.append(line + "\n", style=quiet)
        totals = session.scores()
        for p in (0, 1):
            mark = "▶ " if state.to_move == p else "  "
            name = session.seats[p].name[:13]
            t.append(mark, style="bold")
            t.append(f"{name:<13}", style="bold" if state.to_move == p else "")
            t.append(f"{totals[p]:>5}\n", style="bold")
        if spider:
            # TRANSLATORS: the side panel (24 columns): Spider's scores are points charged
            t.append("  " + _("(points charged)") + "\n", style=quiet)
        sizes = view["hand_sizes"]
        other = 1 - session.viewer
        n = sizes[other]
        # TRANSLATORS: the side panel (24 columns): the other player's name (at most 12
        # characters) and the tiles in that hand
        words = (npgettext("triominos", "{name}: {n} tile", "{name}: {n} tiles", n)
                 if session.variant == "triominos"
                 else ngettext("{name}: {n} tile", "{name}: {n} tiles", n))
        t.append(words.format(name=session.seats[other].name[:12], n=n) + "\n")
        bazaar = view["bazaar_size"]
        reserve = view.get("bazaar_reserve") or 0
        # TRANSLATORS: the side panel (24 columns): the tiles left in the bazaar
        t.append(_("Bazaar: {count}").format(count=bazaar))
        if reserve:
            # TRANSLATORS: the side panel (24 columns), after "Bazaar: 9": of them, {n}
            # tiles stay in the bazaar (they may not be drawn)
            t.append("  " + ngettext("({n} stay)", "({n} stay)", reserve).format(n=reserve),
                     style=quiet)
        t.append("\n")
        if state.is_over:
            # TRANSLATORS: the side panel (24 columns)
            t.append(_("Round over"), style="bold")
        elif thinking:
            t.append(_("{name} is thinking…").format(name=session.seats[state.to_move or 0].name),
                     style="italic")
        elif session.is_human_turn():
            if not session.hot_seat:
                # TRANSLATORS: the side panel (24 columns)
                turn = _("Your turn")
            else:
                # TRANSLATORS: the side panel (24 columns): {name} is a player's name as given
                # ("Turn: {name}" spares declining it)
                turn = _("{name} to play").format(name=session.seats[state.to_move or 0].name)
            t.append(turn, style="bold reverse")
        # The panel's lines rarely change in number: then no layout pass is needed (a layout
        # of the whole screen costs more than everything else a move redraws).
        score_lines = t.plain.count("\n")
        self.query_one("#score", Static).update(t, layout=score_lines != self._score_lines)
        self._score_lines = score_lines
        title = _("Recent moves")
        if title != self._log_title:  # the language changed
            self._log_title = title
            self.query_one("#log-title", Static).update(title, layout=False)
        # 40 records make more than 12 lines: at most a bazaar (24 tiles) is drawn in a round,
        # and every other record is a line of its own
        lines = session.log_lines(state.history[-40:], session.viewer)[-12:]
        log = Text()
        for line in reversed(lines):
            for part in fold(line, LOG_WIDTH):
                log.append(part + "\n")
        if not lines:
            # TRANSLATORS: the side panel's log (24 columns) before the first move
            log.append(_("(no moves yet)"))
        self.query_one("#log", Static).update(log, layout=False)  # its size is fixed
