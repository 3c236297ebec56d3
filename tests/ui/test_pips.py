"""One choice for the table and the hand: dominoes with pips in both where the terminal
gives the table room for them (classic from 140x45, ``drawing.table.STYLE_ROOM``; the setting
allowing), digits in both below it."""

from __future__ import annotations

import pytest

from tests.ui.conftest import make_app, settle, until
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screenshots import session_after
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView


def _drawn(widget: BoardView | HandView) -> str:
    return widget.canvas().plain()


@pytest.mark.parametrize(("size", "pips"), [((140, 45), True), ((120, 40), False),
                                            ((80, 24), False), ((200, 50), True)])
async def test_the_table_and_the_hand_show_tiles_alike(size: tuple[int, int], pips: bool
                                                        ) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await app.push_screen(GameScreen(session_after("classic", 4, 9)))
        await settle(pilot)
        hand, board = app.screen.query_one(HandView), app.screen.query_one(BoardView)
        assert ("•" in _drawn(hand)) is pips
        assert ("•" in _drawn(board)) is pips
        assert hand.size.height == (6 if pips else 4)


async def test_without_the_pips_setting_both_show_digits_at_any_size() -> None:
    app = make_app()
    app.settings.pips = False
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(GameScreen(session_after("spider", 5, 10)))
        await settle(pilot)
        assert "•" not in _drawn(app.screen.query_one(HandView))
        assert "•" not in _drawn(app.screen.query_one(BoardView))


async def test_growing_the_terminal_brings_the_pips_to_both() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(GameScreen(session_after("classic", 4, 9)))
        await settle(pilot)
        assert "•" not in _drawn(app.screen.query_one(HandView))
        await pilot.resize_terminal(140, 45)
        # (the new size is laid out a frame or two later: on a busy machine, more)
        await until(pilot, lambda: "•" in _drawn(app.screen.query_one(HandView))
                    and "•" in _drawn(app.screen.query_one(BoardView)), "the pips")


async def test_at_200x50_spiders_tiles_have_pips_and_triominos_triangles_grow() -> None:
    """"At 200x50 the tiles do not grow": Spider's table has room for pips there (9 rounds
    of 10 fit, ``scripts/board_styles.py``), and Triominos draws its triangles four cells
    a side instead of three."""
    from tui_domino.ui.drawing.triangle_grid import unit_for

    app = make_app()
    async with app.run_test(size=(200, 50)) as pilot:
        await app.push_screen(GameScreen(session_after("spider", 5, 10)))
        await settle(pilot)
        assert "•" in _drawn(app.screen.query_one(BoardView))
        assert "•" in _drawn(app.screen.query_one(HandView))
        await app.push_screen(GameScreen(session_after("triominos", 3, 26)))
        await settle(pilot)
        board = app.screen.query_one(BoardView)
        assert unit_for(*board.size) == 4
        rows = _drawn(board).splitlines()
        # a triangle's lower edge: 2u - 1 = 7 dashes between two numbers (5 at 80x24)
        assert any("─" * 7 in row and "─" * 8 not in row for row in rows)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        rows = _drawn(app.screen.query_one(BoardView)).splitlines()
        assert any("─" * 5 in row for row in rows) and not any("─" * 6 in row for row in rows)
