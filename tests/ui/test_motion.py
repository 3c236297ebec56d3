"""The table moves: a tile laid slides to its place, a tile drawn slides into the hand, the
tiles of a hexagon flash; short, ended by any key (which still does its work), and off with
the animations setting and in ASCII mode. The clock is stepped by hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

from tests.ui.helpers import classic_state, session_with
from tests.ui.test_bonus_marks import _first_round_with
from tui_domino.ui.app import DominoApp
from tui_domino.ui.drawing.triangle_grid import layout_triominos
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.storage import Settings
from tui_domino.ui.widgets import motion
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView

SIZE = (80, 24)


@pytest.fixture
def now() -> Iterator[list[float]]:
    """The motions' clock, set by the test."""
    t = [100.0]
    saved = motion.clock
    motion.clock = lambda: t[0]
    yield t
    motion.clock = saved


@pytest.fixture(autouse=True)
def slow_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer waits long before its reply: only the player's own move moves."""
    monkeypatch.setenv("TUI_DOMINO_DELAY", "30")


def _app(**settings: object) -> DominoApp:
    app = DominoApp(settings=Settings(**settings), seed=1, autosave=False)  # type: ignore[arg-type]
    if app.settings.animations:  # (the tests run with Textual's animations off)
        app.animation_level = "full"
    return app


async def _open(pilot: Pilot[object]) -> GameScreen:
    # 2-4 fits the 4 at the right end only: Enter lays it there
    state = classic_state([[2, 4], [0, 1], [1, 1], [0, 3]], [[6, 5], [5, 4]], 8)
    screen = GameScreen(session_with(state, "classic"))
    await pilot.app.push_screen(screen)
    await pilot.pause()
    return screen


def _rows(board: BoardView) -> list[str]:
    return ["".join(seg.text for seg in board.render_line(y)) for y in range(board.size.height)]


def _where(rows: list[str], text: str) -> int | None:
    """The lowest row showing ``text`` (the tile on its way is below its faint place)."""
    return max((y for y, row in enumerate(rows) if text in row), default=None)


async def _tick(pilot: Pilot[object], mover: motion.Mover) -> None:
    mover._tick()  # the frame the timer would draw at this time
    await pilot.pause()


async def test_a_tile_laid_slides_up_from_the_hand_to_its_place_and_lands(now: list[float]
                                                                          ) -> None:
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot)
        board = screen.board
        before = _rows(board)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.state.history[-1]["move"]["tile"] == [2, 4]  # played at once
        assert board.mover.motion is not None
        start = _rows(board)
        await _tick(pilot, board.mover)
        # the new tile's numbers: │4│2│ (laid 4 to the 4 at the end); first near the hand
        first = _where(start, "│4│2│")
        assert first is not None and first >= board.size.height - 4
        now[0] += 0.1
        await _tick(pilot, board.mover)
        middle = _where(_rows(board), "│4│2│")
        assert middle is not None and middle < first  # on its way up
        now[0] += motion.DURATION
        await _tick(pilot, board.mover)
        assert board.mover.motion is None
        rest = _rows(board)
        final = _where(rest, "│4│2│")
        assert final is not None and final < middle
        assert _where(before, "│5│4│") == final  # in the line, beside the tile it matches


async def test_any_key_lands_the_tile_and_still_does_its_work(now: list[float]) -> None:
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot)
        await pilot.press("enter")
        await pilot.pause()
        hand = screen.query_one(HandView)
        assert screen.board.mover.motion is not None
        chosen = hand.selected
        await pilot.press("right")  # during the motion: another tile of the hand looked at
        await pilot.pause()
        assert screen.board.mover.motion is None
        assert hand.selected != chosen
        assert not motion.flying()


async def test_a_motion_lasts_no_more_than_a_quarter_second() -> None:
    assert motion.DURATION <= 0.25
    m = motion.Motion({(0, 0): ("x", "last")})
    assert not m.done(10.0)
    assert m.done(10.0 + 0.25)


async def test_a_tile_drawn_slides_into_the_hand_from_the_right(now: list[float]) -> None:
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        # nothing fits the 6s: d draws
        state = classic_state([[0, 1], [1, 2], [0, 2]], [[6, 6]], 10)
        screen = GameScreen(session_with(state, "classic"))
        await app.push_screen(screen)
        await pilot.pause()
        hand = screen.query_one(HandView)
        await pilot.press("d")
        await pilot.pause()
        drawn = tuple(screen.session.state.history[-1]["tile"])
        index = [tuple(t) for t in screen.session.view()["hand"]].index(drawn)
        assert hand.mover.motion is not None
        box = hand.tile_box(index)
        assert box is not None
        await _tick(pilot, hand.mover)
        row = "".join(seg.text for seg in hand.render_line(1))
        text = f"{drawn[0]}│{drawn[1]}"
        assert row.rfind(text) > box[0] + 4  # still to the right of its place
        now[0] += 1.0
        await _tick(pilot, hand.mover)
        assert hand.mover.motion is None
        row = "".join(seg.text for seg in hand.render_line(1))
        assert text in row[box[0]:box[2]]  # landed in its place


async def test_a_hexagon_flashes_its_tiles(now: list[float]) -> None:
    state, _ = _first_round_with("hexagon")
    view = state.view(0)
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        board = BoardView()
        await app.screen.mount(board)
        board.show(lambda w, h: layout_triominos(view, [], None, 0))
        await pilot.pause()
        board.launch(None, from_below=False)
        m = board.mover.motion
        assert m is not None and len(m.flash) >= 6  # the stars of the hexagon's six tiles
        cv = board.canvas()
        (x, y) = sorted(m.flash)[0]
        drawn = m.draw_row(y, cv.cells[y], board.mover.time, (0, 0))
        assert drawn[x] == ("*", "sel-num")  # lit
        off = m.draw_row(y, cv.cells[y], board.mover.time + 1.5 * motion.FLASH_STEP, (0, 0))
        assert off[x] == ("*", "bonus")  # and back


@pytest.mark.parametrize("settings", [{"animations": False}, {"ascii": True}])
async def test_no_motion_with_animations_off_or_in_ascii(now: list[float],
                                                         settings: dict[str, bool]) -> None:
    app = _app(**settings)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.state.history[-1]["move"]["tile"] == [2, 4]
        assert screen.board.mover.motion is None


async def test_a_redraw_of_the_same_position_moves_nothing(now: list[float]) -> None:
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(pilot)
        await pilot.press("right")  # a look through the hand
        await pilot.pause()
        await pilot.resize_terminal(90, 26)
        await pilot.pause()
        app.set_language("ru")
        await pilot.pause()
        assert screen.board.mover.motion is None
        assert screen.query_one(HandView).mover.motion is None
