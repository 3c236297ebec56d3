"""The review of a finished round: step through it move by move with the coach's judgement.

The board is drawn as it was before each move, with the move played and the coach's best
move on it (the best one chosen), both hands shown (the round is over). The judgements are
made in the worker process, from the view the player had at each move, one after another in
the background with a progress bar; leaving stops them. Once complete they are kept in the
round's record (and the history), so a second look is instant.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from tui_domino import rules
from tui_domino.ai import coach, worker
from tui_domino.history.records import RoundRecord, start_of
from tui_domino.i18n import _, ngettext
from tui_domino.rules import places as place_names
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.snake import layout_classic
from tui_domino.ui.drawing.spinner import layout_spider
from tui_domino.ui.drawing.tiles import DIGITS
from tui_domino.ui.drawing.triangle_grid import layout_triominos
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import assemble, plain
from tui_domino.ui.session import is_you, tile_text
from tui_domino.ui.widgets.board import BoardView

if TYPE_CHECKING:
    from tui_domino.ai.coach import JudgementJSON

OnReview = Callable[[list["JudgementJSON"]], None]

log = logging.getLogger(__name__)


class ReviewScreen(Screen[None]):
    """One round of a match, move by move."""

    BINDINGS = [
        # TRANSLATORS: the review's footer, a short word under each key: a move back, the
        # next move, the round's first move ("First": its beginning, not the game's Start
        # button), its end, the next move the coach marked, close.
        # (before the board's own: a board larger than its box scrolls with these keys)
        Key("left", "step(-1)", "Back", key_display="←", priority=True),
        Key("right", "step(1)", "Next", key_display="→", priority=True),
        Key("home", "jump(0)", "First", priority=True),
        Key("end", "jump(-1)", "End", priority=True),
        Key("n", "next_mark", "Next mistake"),
        Key("escape", "close", "Close"),
    ]

    DEFAULT_CSS = """
    ReviewScreen #top { height: auto; padding: 0 1; }
    ReviewScreen ProgressBar { width: 40; }
    ReviewScreen #table { height: 1fr; }
    ReviewScreen #board { width: 1fr; height: 1fr; border: round $primary; }
    ReviewScreen #side { width: 30; height: 1fr; border: round $accent; padding: 0 1; }
    """

    def __init__(self, variant: str, options: rules.Options | None, rnd: RoundRecord,
                 names: list[str], me: int | None, on_review: OnReview | None = None) -> None:
        super().__init__()
        self.variant = variant
        self.rnd = rnd
        self.names = names
        self.seats: tuple[int, ...] = (me,) if me is not None else (0, 1)
        self.me = me if me is not None else 0
        self.on_review = on_review
        self.start = start_of(variant, rnd, options)
        self.moves: list[rules.HistoryRecord] = rnd["moves"]
        # the round after each number of moves
        self.states = [self.start.clone()]
        for rec in self.moves:
            st = self.states[-1].clone()
            st.apply(rec["move"])
            self.states.append(st)
        self.todo = coach.choices(self.start, self.moves, self.seats)
        self.judged: dict[int, coach.Judgement] = {}
        self.complete = False
        cached = rnd.get("review")
        if isinstance(cached, list):
            try:
                self.judged = {j.index: j for j in map(coach.Judgement.from_json, cached)}
                self.complete = True
            except ValueError as exc:  # kept, but not as the coach writes it: judged again
                log.warning("a round's kept review cannot be read (%s); the round is "
                            "reviewed again", exc)
        self.pos = 0
        self._board: BoardView | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="top"):
            yield Static(id="summary")
            yield ProgressBar(total=max(1, len(self.todo)), show_eta=False, id="progress")
        with Horizontal(id="table"):
            self._board = BoardView(id="board")
            yield self._board
            yield Static(id="side")
        yield Footer()

    def on_mount(self) -> None:
        self.title_board()
        bar = self.query_one(ProgressBar)
        if self.complete:
            bar.display = False
        else:
            self.analyse()
        self.show()

    def title_board(self) -> None:
        # TRANSLATORS: the title of the review's board: the coach's review of round {n}.
        self.query_one(BoardView).border_title = _("Round {n}: review").format(
            n=self.rnd.get("number", 1))

    def relabel(self) -> None:
        """The language changed: the review's words anew, at the same move."""
        self.title_board()
        self.show()

    # -- the analysis ---------------------------------------------------------------------------

    @work(exclusive=True, group="review")
    async def analyse(self) -> None:
        bar = self.query_one(ProgressBar)
        searcher = worker.Searcher()
        for k, (i, view, played) in enumerate(self.todo):
            ranked = await searcher.rank(view, coach.move_seed(i))
            j = coach.judge(view, i, played, ranked)
            if j is not None:
                self.judged[i] = j
            bar.update(progress=k + 1)
            self.show()
        self.complete = True
        bar.display = False
        review = [self.judged[i].to_json() for i in sorted(self.judged)]
        self.rnd["review"] = review
        if self.on_review is not None:
            self.on_review(review)
        self.show()

    # -- drawing --------------------------------------------------------------------------------

    def summary_line(self) -> str:
        done = [j for j in self.judged.values() if j.player in self.seats]
        if not self.complete:
            # TRANSLATORS: the review's first line while the coach works: {done} of the
            # round's {n} choices judged so far.
            return ngettext("The coach is looking at the round: {done} of {n} choice.",
                            "The coach is looking at the round: {done} of {n} choices.",
                            len(self.todo)).format(done=len(done), n=len(self.todo))
        final = self.states[-1]
        judged = list(self.judged.values())
        if len(self.seats) == 1:
            mine = self.names[self.me]
            name = None if is_you(mine) else mine
            return coach.summary(judged, self.me, name=name, margin=self.margin(final, self.me))
        return " · ".join(coach.summary(judged, p, name=self.names[p],
                                        margin=self.margin(final, p)) for p in self.seats)

    def margin(self, final: rules.RoundState, player: int) -> int | None:
        """The round's final score difference for ``player`` (None while it is not over)."""
        if not final.is_over:
            return None
        return coach.margin_of(self.variant, final.points, player)

    def show(self) -> None:
        if self._board is None:
            return
        self.query_one("#summary", Static).update(plain(self.summary_line()))
        state = self.states[self.pos]
        j = self.judged.get(self.pos)
        played = (rules.move_from_json(self.variant, self.moves[self.pos]["move"])
                  if self.pos < len(self.moves) else None)
        best = rules.move_from_json(self.variant, j.best) if j is not None else None
        self.draw_board(state, played, best)
        self.query_one("#side", Static).update(self.side_text(state, played, j))

    def draw_board(self, state: rules.RoundState, played: rules.Move | None,
                   best: rules.Move | None) -> None:
        view = state.view(self.me)
        moves = [m for m in (played, best) if m is not None and m.kind == "place"]
        moves = list(dict.fromkeys(moves))
        # each Triominos place lettered as the table letters it for its own tile, as the side
        # panel names it (the best one's letter shown where both share a cell)
        legal = state.legal_moves() if self.variant == "triominos" else []
        opening = place_names.opening(state.history)
        letters = {m.cell: place_names.triomino_place(m, legal, opening).letter or " "
                   for m in moves if m.cell is not None}
        selected = len(moves) - 1 if best is not None and best.kind == "place" else None
        variant = self.variant
        arms = [p for m in moves for p in (m.placements or ())]
        if selected is not None:
            selected = len(arms if variant == "spider" else moves) - 1

        def layout(width: int, height: int) -> Canvas:
            if variant == "classic":
                return layout_classic(view, width, moves, selected, DIGITS)
            if variant == "spider":
                return layout_spider(view, arms, selected, [], DIGITS)
            return layout_triominos(view, moves, selected, self.me, letters)

        assert self._board is not None
        self._board.show(layout, follow=True)

    def side_text(self, state: rules.RoundState, played: rules.Move | None,
                  j: coach.Judgement | None) -> Text:
        n = len(self.moves)
        out = Text()
        if played is None:
            # TRANSLATORS: the review's side panel (28 columns) at the end of the round.
            out.append(ngettext("The round is over ({n} move).", "The round is over ({n} moves).",
                                n).format(n=n) + "\n", style="bold")
        else:
            who = self.names[self.moves[self.pos]["player"]]
            name = coach.Namer(state)  # the moves named as the table names them
            # TRANSLATORS: the review's side panel: which move of the round this is.
            out.append(_("Move {move} of {n}").format(move=self.pos + 1, n=n) + "\n",
                       style="bold")
            out.append_text(assemble((who, "bold"), ": ", name(played), "\n"))
            if j is not None:
                if j.loss >= 0.05:
                    out.append(_("Best: {move}").format(move=name(j.best)) + "\n",
                                style="bold")
                    # TRANSLATORS: under the move played and the coach's best in the review's
                    # side panel (28 columns): what the move played gives up against the
                    # best, {behind} as "about 3 points less on average"
                    out.append(_("The move played: {behind}").format(
                        behind=coach.behind_text(j.loss)), style="bold")
                    if j.mark:
                        out.append(" · " + coach.mark_word(j.mark),
                                   style="bold red" if j.mark == "mistake" else "bold yellow")
                    out.append("\n")
                else:
                    # TRANSLATORS: the move played was the coach's best move too.
                    out.append(_("The coach's move too.") + "\n")
            elif any(i == self.pos for i, _view, _move in self.todo):
                out.append("  " + _("(the coach is still looking)") + "\n")
            else:
                # TRANSLATORS: a forced move (the only legal one): nothing to judge.
                out.append("  " + _("(no choice to judge)") + "\n")
        # TRANSLATORS: the review's side panel: the tiles each player holds at this move.
        out.append("\n" + _("Hands now:") + "\n")
        for p in (0, 1):
            # TRANSLATORS: an empty hand in the review ("Ann: nothing").
            tiles = " ".join(tile_text(t) for t in state.hands[p]) or _("nothing")
            out.append_text(assemble((f"{self.names[p][:14]}", "bold"), f": {tiles}\n"))
        return out

    # -- keys -----------------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        self.pos = max(0, min(len(self.moves), self.pos + delta))
        self.show()

    def action_jump(self, where: int) -> None:
        self.pos = len(self.moves) if where < 0 else where
        self.show()

    def action_next_mark(self) -> None:
        marked = sorted(i for i, j in self.judged.items() if j.mark)
        after = [i for i in marked if i > self.pos] or marked
        if after:
            self.pos = after[0]
            self.show()
        else:
            # TRANSLATORS: the key n found no move the coach marked (a mistake or an
            # inaccuracy) in the round.
            self.notify(_("No move of this round is marked."), timeout=3)

    def action_close(self) -> None:
        self.workers.cancel_group(self, "review")
        self.dismiss(None)
