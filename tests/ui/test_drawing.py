"""The pure drawing code: layouts stay inside the table, places are clickable."""

from __future__ import annotations

import pytest

from tests.ui.helpers import DOMINOES, played
from tui_domino.ui.drawing.canvas import ASCII_MAP, Canvas
from tui_domino.ui.drawing.hand import layout_hand
from tui_domino.ui.drawing.snake import layout_classic, opener_index
from tui_domino.ui.drawing.spinner import layout_spider
from tui_domino.ui.drawing.triangle_grid import (
    LABELS,
    corner_points,
    label_spot,
    layout_triominos,
)
from tui_domino.ui.selection import Selection


@pytest.mark.parametrize("width", [16, 40, 54, 120])
def test_snake_turns_inside_the_table(width: int) -> None:
    for seed in range(6):
        state = played("classic", seed, 60)
        view = state.to_json()
        cv = layout_classic(view, width, [], None)
        assert cv.width <= max(width, 16) + 2  # one blank column of padding each side
        text = cv.plain()
        # every tile on the line appears, each pair of numbers in a box
        assert text.count("┌") == len(view["line"])


def test_snake_keeps_the_first_tile_in_place() -> None:
    state = played("classic", 3, 30)
    history = state.to_json()["history"]
    k = opener_index(history)
    first = next(r for r in history if r["move"]["kind"] == "place")["move"]["tile"]
    assert sorted(state.to_json()["line"][k]) == sorted(first)


def test_classic_places_are_clickable_ghosts() -> None:
    state = played("classic", 5, 6)
    sel = Selection("classic")
    sel.update(state.hands[state.to_move or 0], state.legal_moves())
    places = sel.places()
    assert places, "the fixed position has a place to play"
    cv = layout_classic(state.to_json(), 50, places, 0)
    keys = {h.key for h in cv.hits}
    assert keys == set(range(len(places)))
    h = cv.hits[0]
    assert cv.lookup(h.x0 - cv.min_x, h.y0 - cv.min_y) == h.key
    assert cv.sel_focus is not None


def test_spider_draws_four_arms_and_closed_bars() -> None:
    state = played("spider", 2, 40)
    view = state.to_json()
    cv = layout_spider(view, [], None, [])
    text = cv.plain()
    tiles = 1 + sum(len(a["tiles"]) for a in view["arms"].values())
    assert text.count("┌") == tiles
    closed = [a for a in view["arms"].values() if a["closed"]]
    assert (("━" in text) or ("┃" in text)) == bool(closed)


def test_triominos_numbers_sit_on_grid_points() -> None:
    state = played("triominos", 4, 40)
    view = state.to_json()
    cv = layout_triominos(view, [], None)
    for tile in view["board"]:
        for (vr, vx), n in zip(corner_points(*tile["cell"]), tile["corners"], strict=True):
            assert cv.get(3 * vx, 3 * vr) == (str(n), "point")


def test_triominos_places_get_letters() -> None:
    state = played("triominos", 4, 12)
    sel = Selection("triominos")
    sel.update(state.hands[state.to_move or 0], state.legal_moves())

    def cells_for(i: int) -> int:
        sel.select_tile(i)
        return len({p.cell for p in sel.places()})

    sel.select_tile(max(sel.playable(), key=cells_for))  # the tile with the most places
    places = sel.places()
    cells = list(dict.fromkeys(tuple(p.cell) for p in places))  # as the hint names them
    assert len(cells) >= 2
    for chosen in (0, len(places) - 1):
        cv = layout_triominos(state.to_json(), places, chosen)
        assert len({id(h) for h in cv.hits}) == len(cells)
        for n, cell in enumerate(cells):  # the chosen cell keeps its letter under the preview
            style = "selcell" if cell == tuple(places[chosen].cell) else "place-num"
            assert cv.get(*label_spot(*cell)) == (LABELS[n], style)


def test_hand_scrolls_to_the_selection() -> None:
    # 20 triominos (after draws) do not fit 80 columns even edge to edge: a window shows
    hand = [(a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)][:20]
    cv = layout_hand("triominos", hand, 19, set(range(20)), set(), 80)
    assert cv.width <= 80
    assert any(h.key == 19 for h in cv.hits)
    assert not any(h.key == 0 for h in cv.hits)


def _drawn_spans(cv: Canvas) -> list[tuple[int, int]]:
    """Each tile shown in a hand: the first and the last column anything of it is drawn in
    (its clickable region holds the gap after it too)."""
    spans = []
    for h in sorted((h for h in cv.hits if isinstance(h.key, int)), key=lambda h: h.x0):
        xs = [x for y in range(h.y0, h.y1) for x, (ch, _) in cv.cells.get(y, {}).items()
              if h.x0 <= x < h.x1 and ch != " "]
        spans.append((min(xs), max(xs)))
    return spans


TRIOMINOS = [(a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)]


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
@pytest.mark.parametrize("width", [80, 120])
def test_every_tile_of_a_hand_stands_apart_however_many_there_are(variant: str,
                                                                  width: int) -> None:
    # 16 triominos at 80 columns ran together edge to edge ("0───02───03───0"): a tile's
    # right number touched the next one's left number
    tiles = TRIOMINOS if variant == "triominos" else [tuple(t) for t in DOMINOES]
    for pips in (False, True):
        for n in range(1, len(tiles) + 1):
            hand = tiles[:n]
            for selected in (0, n - 1):
                cv = layout_hand(variant, hand, selected, set(range(n)), set(), width,
                                 pips=pips)
                assert cv.width <= width, (n, pips)
                spans = _drawn_spans(cv)
                assert spans, (n, pips)
                assert all(a[1] + 1 < b[0] for a, b in zip(spans, spans[1:], strict=False)), (
                    variant, width, n, pips, cv.plain())
                assert any(h.key == selected for h in cv.hits)  # the chosen tile shows
                assert max(s[1] for s in spans) < width


def test_a_triominos_hand_of_16_shows_whole_at_80_columns() -> None:
    # the hand a round starts with: every tile in view, none behind an arrow
    cv = layout_hand("triominos", TRIOMINOS[:16], 15, set(range(16)), set(), 80)
    assert {h.key for h in cv.hits} == set(range(16))
    assert "‹" not in cv.plain() and "›" not in cv.plain()
    assert cv.plain().splitlines()[2].split() == [f"{t[2]}─{t[1]}" for t in TRIOMINOS[:16]]


def test_ascii_map_covers_every_drawing_character() -> None:
    state = played("triominos", 4, 30)
    text = layout_triominos(state.to_json(), [], None).plain()
    text += layout_classic(played("classic", 1, 30).to_json(), 40, [], None).plain()
    text += layout_spider(played("spider", 1, 30).to_json(), [], None, []).plain()
    assert all(ord(ch) < 128 for ch in text.translate(ASCII_MAP))


def test_spider_arms_wind_round_the_centre_without_overlapping() -> None:
    from tui_domino.ui.drawing.tiles import COMPACT, DIGITS
    from tui_domino.ui.screenshots import session_after

    for seed in range(40):
        view = session_after("spider", seed, 200).view()  # the end of the round
        tiles = 1 + sum(len(a["tiles"]) for a in view["arms"].values())
        for shape in (DIGITS, COMPACT):
            cv = layout_spider(view, [], None, [], shape, width=53, height=17)
            text = cv.plain()
            # every number of every tile is drawn: no tile lies over another
            assert sum(ch.isdigit() for ch in text) == 2 * tiles, (seed, shape.compact, text)
            assert all(name in text for name in "NESW")  # where each arm leaves the centre


async def test_a_spider_board_fits_the_table_at_80x24_and_shows_the_last_move() -> None:
    from tests.ui.conftest import make_app, until
    from tui_domino.ui.screens.game import GameScreen
    from tui_domino.ui.screenshots import session_after

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for seed in range(12):
            for moves in (14, 30):
                game = GameScreen(session_after("spider", seed, moves))
                await app.push_screen(game)
                await pilot.pause()
                board = game.board
                if moves == 14:  # a typical board in the middle of a round: all of it
                    assert (board.max_scroll_x, board.max_scroll_y) == (0, 0), seed
                focus = board.canvas().focus
                assert focus is not None  # the last move, always in view
                # (the board follows the play after its first frame)
                await until(pilot, lambda: board.shows(focus),  # noqa: B023
                            f"the last move in view ({seed}, {moves})")
                while app.screen is not game:  # the round summary of a round just over
                    app.pop_screen()
                app.pop_screen()
                await pilot.pause()


def test_every_spider_tile_and_preview_touches_the_tile_it_joins() -> None:
    # a table too big for its board sent a tile that found no room in its own quarter "on
    # past whatever is in the way": the 5-5 preview was drawn away from the 4-5 it joins.
    # Here boards far too small for the tiles (pips and digits at 80x24) force that.
    from tui_domino.ui.drawing.spinner import touches
    from tui_domino.ui.drawing.tiles import COMPACT, DIGITS, PIPS_SHAPE
    from tui_domino.ui.screenshots import session_after
    from tui_domino.ui.selection import ArmPlace

    layouts = 0
    for seed in range(8):
        for moves in range(0, 40, 3):
            session = session_after("spider", seed, moves)
            if session.state.is_over:
                break
            view = session.view()
            sel = Selection("spider")
            sel.update(view["hand"], session.state.legal_moves())
            offers: list[tuple[list[ArmPlace], list[ArmPlace]]] = [([], [])]
            for i in sorted(sel.playable()):
                sel.select_tile(i)
                offers.append((sel.arm_places(), []))
            doubles = [p for places, _ in offers for p in places if p.double and p.arm != "center"]
            for first in doubles:  # a double chosen with m, and the places of another
                offers += [([p], [first]) for p in doubles if p.arm != first.arm
                           and p.tile != first.tile]
            for shape in (PIPS_SHAPE, DIGITS, COMPACT):
                for places, pending in offers:
                    for chosen in range(max(1, len(places))):
                        cv = layout_spider(view, places, chosen if places else None, pending,
                                           shape, width=53, height=17)
                        layouts += 1
                        boxes = [b for _, b in cv.joins]
                        for joined, box in cv.joins:
                            assert touches(joined, box), (seed, moves, shape.h_h, cv.plain())
                        for i, a in enumerate(boxes):  # and none over another
                            assert not any(a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3]
                                           and b[1] <= a[3] for b in boxes[i + 1:]), (
                                seed, moves, shape.h_h, cv.plain())
    assert layouts > 500


async def test_a_spider_round_keeps_one_drawing_style_at_80x24() -> None:
    # the table was drawn with boxed digits until the arms grew, then compact ([5│5],
    # ┌5┐├─┤└4┘) for the rest of the round
    from tests.ui.conftest import make_app
    from tui_domino.ui.screens.game import GameScreen
    from tui_domino.ui.screenshots import session_after

    app = make_app()
    styles = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for moves in (2, 10, 18):
            game = GameScreen(session_after("spider", 6, moves))
            await app.push_screen(game)
            await pilot.pause()
            text = game.board.canvas().plain()
            if "[" in text:
                styles.add("compact")
            if "┬" in text:  # a tile lengthwise in a box
                styles.add("digits")
            while app.screen is not game:
                app.pop_screen()
            app.pop_screen()
            await pilot.pause()
    assert len(styles) == 1, styles
