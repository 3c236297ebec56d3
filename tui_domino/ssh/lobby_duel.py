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

    def __init__(self, session: DuelSession, report: Report | None = None,
                 ratings: tuple[str | None, str | None] = (None, None)) -> None:
        super().__init__(session)
        self.ratings = ratings  # the seats' (0: the host), as they read: "1512?"
        self.moves = Moves()
        self._report = report
        self._reported = False

    def opponent_label(self) -> str:
        """The opponent's name with his rating in this game, where he has one."""
        rating = self.ratings[self.duel.core.peer] if self.duel.core.peer in (0, 1) else None
        name = super().opponent_label()
        return f"{name} {rating}" if rating else name

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
