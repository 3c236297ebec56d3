"""A lobby duel's screen: the game's duel screen, which also tells the lobby how the match
ended, for the ratings. Each seat's moves are counted as the events come (``rated.Moves``);
the match's result is reported once: at its end, or as the screen goes (the visitor left
the duel, or quit the game), from what the session holds then."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path

from tui_domino.community.rated import Moves
from tui_domino.net import events as ev
from tui_domino.net.records import MatchResult
from tui_domino.net.transport import DuelSession
from tui_domino.ui.screens.duel import DuelScreen

Report = Callable[[MatchResult, bool], None]  # (the result, whether each seat moved)


class LobbyDuelScreen(DuelScreen):
    # (Textual finds a relative stylesheet beside the module of the class that names it)
    CSS_PATH = [str(Path(inspect.getfile(DuelScreen)).with_name(name))
                for name in ("game.tcss", "duel.tcss")]

    def __init__(self, session: DuelSession, report: Report | None = None) -> None:
        super().__init__(session)
        self.moves = Moves()
        self._report = report
        self._reported = False

    def handle(self, e: ev.Event) -> None:
        self.moves.see(e)
        super().handle(e)
        if isinstance(e, ev.MatchOver):
            self.report_result(e.result)

    def on_unmount(self) -> None:
        self.report_result()

    def report_result(self, result: MatchResult | None = None) -> None:
        """Reports this side's result of the match (the session's when not given), once."""
        if result is None:
            result = self.duel.core.match.result
        if result is None or self._reported or self._report is None:
            return
        self._reported = True
        self._report(result, self.moves.both)


__all__ = ["LobbyDuelScreen", "Report"]
