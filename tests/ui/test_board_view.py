"""The table's view at 80x24: the last move is always in it, and the selected place with it
wherever both fit, in every variant, through seeded games played on the screen."""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Size

from tests.ui.conftest import make_app, settle, until
from tests.ui.helpers import seats
from tui_domino import ai
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.session import Session


async def assert_follows(pilot: Any, game: GameScreen, what: str) -> None:
    """The view shows the last move, and the selected place with it where both fit; the area
    the view scrolls over is the table's as laid out for the view (its scrollbars counted:
    one shown or hidden makes the view smaller or larger, and a Triominos table's triangles
    take their size from it). The board follows the play after its next frame: that is
    waited for (up to the deadline)."""
    board = game.board

    def problem() -> str | None:
        cv = board.canvas()
        view = board.scrollable_content_region.size
        area = Size(max(cv.width, view.width), max(cv.height, view.height))
        if board.virtual_size != area:
            return (f"the board scrolls over {board.virtual_size}, its table laid out for a "
                    f"view of {view} over {area} {what}")
        if cv.focus is not None and not board.shows(cv.focus):
            return f"the last move out of view {what}"
        if cv.sel_focus is not None:
            both = board.region_of(cv.sel_focus)
            if cv.focus is not None:
                both = both.union(board.region_of(cv.focus))
            if (both.width <= view.width and both.height <= view.height
                    and not board.shows(cv.sel_focus)):
                return f"the selected place out of view {what}"
        return None

    try:
        await until(pilot, lambda: problem() is None, f"the view to follow the play {what}")
    except AssertionError:
        raise AssertionError(problem() or f"the view followed late {what}") from None


async def play_on_screen(variant: str, seed: int, moves: int) -> int:
    """Plays ``moves`` moves of a seeded match at 80x24 (yours the greedy player's choice,
    made on the screen, with draws by the key), checking the view after every one, after
    every draw and after every other place chosen; returns the moves made."""
    app = make_app()
    made = 0
    async with app.run_test(size=(80, 24)) as pilot:
        session = Session.new(variant, seats(), seed=seed, autosave=False)
        game = GameScreen(session)
        await app.push_screen(game)
        await settle(pilot)
        state = session.state
        while made < moves and not state.is_over and app.screen is game:
            what = f"({variant}, seed {seed}, move {len(state.history)})"
            await assert_follows(pilot, game, what)
            legal = state.legal_moves()
            if any(m.kind == "place" for m in legal):
                for _ in range(3):  # other places of the chosen tile
                    await pilot.press("down")
                    await assert_follows(pilot, game, what + " on ↓")
                move: Any = ai.PLAYERS["greedy"](state.view(0), session.ai_rng(), None)
                game.apply_move(move)
            else:
                await pilot.press("d" if any(m.kind == "draw" for m in legal) else "p")
            made += 1
            await settle(pilot)
    return made


@pytest.mark.parametrize(("variant", "seed", "moves"), [
    # after 4 tiles drawn the view followed place a, the computer's last move below its edge
    ("triominos", 2, 14),
    ("triominos", 5, 16),
    ("classic", 3, 10),
    ("spider", 4, 10),
])
async def test_the_last_move_stays_in_view(variant: str, seed: int, moves: int) -> None:
    assert await play_on_screen(variant, seed, moves) > 5


async def test_the_classic_line_marks_its_ends_as_the_hint_line_names_them() -> None:
    # once the line turned at the table's edge, "⏎ play 1-3 on the right end" pointed at
    # the end at the lower left: each end now carries its mark, R under the right end's
    # outermost tile (the place offered there when there is one), L over the left end's
    from tui_domino.ui.screenshots import session_after

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        session = session_after("classic", 3, 26)
        game = GameScreen(session)
        await app.push_screen(game)
        await settle(pilot)
        for _ in range(8):  # the tiles and places in turn, to one on the right end
            place = game.sel.current_place()
            if getattr(place, "end", None) == "right":
                break
            await pilot.press("down" if len(game.sel.places()) > 1 else "right")
        assert "on the right end" in str(game.query_one("#hint").render())
        cv = game.board.canvas()
        assert cv.sel_focus is not None
        x0, _, x1, y1 = cv.sel_focus
        assert cv.get((x0 + x1 - 1) // 2, y1) == ("R", "label")
        opener_row = {y for y, row in cv.cells.items() for x, (ch, st) in row.items()
                      if ch == "L" and st == "label"}
        assert len(opener_row) == 1
        # the line has turned: the right end lies below and left of where it started
        assert y1 > 6 and x1 < cv.min_x + cv.width // 2
        assert game.board.shows(cv.sel_focus)


async def test_a_board_smaller_than_the_selected_place_before_any_move_follows_it() -> None:
    # A duel's board can be drawn before it is laid out (no room at all) while the first
    # tile's place is selected on the empty table: the game stopped on an AssertionError.
    session = Session.new("classic", seats(), seed=2, autosave=False)
    assert not session.state.history and session.state.to_move == 0  # yours, to open
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        game = GameScreen(session)
        await app.push_screen(game)
        await settle(pilot)
        board = game.board
        assert board.canvas().focus is None and board.canvas().sel_focus is not None
        board.styles.width = board.styles.height = 1
        await pilot.pause()
        assert board.scrollable_content_region.size.width == 0
        board.follow_play()
        board.styles.width = board.styles.height = "1fr"
        await pilot.pause()
        board.follow_play()
        await assert_follows(pilot, game, "(the first move's place)")
