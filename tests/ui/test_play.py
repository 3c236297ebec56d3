"""Real turns of each variant through key presses and mouse clicks."""

from __future__ import annotations

from itertools import permutations

import pytest

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import (
    board_offset,
    classic_state,
    footer_actions,
    game,
    hand_offset,
    screen_lines,
    session_with,
    spider_state,
)
from tui_domino import rules
from tui_domino.ui import storage
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.match_over import MatchOverScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.selection import Selection
from tui_domino.ui.session import Seat, Session
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView


async def open_game(app, pilot, session: Session) -> GameScreen:  # type: ignore[no-untyped-def]
    await app.push_screen(GameScreen(session))
    await settle(pilot)
    return game(app)


@pytest.mark.parametrize("save_fails", [False, True])
async def test_the_round_summary_opens_clear_of_the_tables_notices(
    save_fails: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint raised before the last move does not sit over the summary; a failed save of
    the last move still shows there."""
    state = classic_state([[3, 6]], [[6, 6]], bazaar_size=3)
    if save_fails:
        def full_disk(self: Session) -> None:
            raise OSError("No space left on device")

        monkeypatch.setattr(Session, "save", full_disk)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_game(app, pilot, session_with(state, "classic"))
        await pilot.press("p")  # not allowed: he holds a tile that fits
        await settle(pilot)
        assert [n.title for n in app._notifications] == ["No passing"]
        await pilot.press("enter")  # his last tile: the round is over
        await settle(pilot)
        assert isinstance(app.screen, RoundSummary)
        shown = [n.message for n in app._notifications]
        assert not any("pass" in m for m in shown)
        assert any("could not be saved" in m for m in shown) == save_fails
        assert "No passing" not in "\n".join(screen_lines(app))


async def test_classic_keys_choose_tile_and_end() -> None:
    state = classic_state([[6, 1], [0, 5], [6, 3]], [[6, 4], [4, 2]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        # hand is sorted: 0-5 (dim), 1-6, 3-6; the first playable tile is chosen
        assert screen.sel.current_tile() == (1, 6)
        await pilot.press("right")  # 3-6
        assert screen.sel.current_tile() == (3, 6)
        await pilot.press("enter")
        await settle(pilot)
        first = state.history[0]
        assert first["player"] == 0
        assert first["move"] == {"kind": "place", "tile": [3, 6], "end": "left"}
        assert state.to_move == 0 or len(state.history) > 1  # the computer has answered


async def test_classic_draw_then_pass_with_explanations() -> None:
    state = classic_state([[0, 1], [0, 2]], [[6, 6]], bazaar_size=3)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        await pilot.press("p")  # passing is not allowed while drawing is
        assert not state.history
        assert any("draw" in n.message for n in app._notifications)
        await pilot.press("d")
        await settle(pilot)
        assert state.history[0]["move"] == {"kind": "draw"}
        assert "tile" in state.history[0]
        # it drew 0-0, which does not fit; the last 2 tiles stay: only passing is left
        assert state.history[0]["tile"] == [0, 0]
        assert state.to_move == 0 and not screen.sel.playable()
        assert screen.sel.can("pass") and "press p to pass" in screen.hint()
        # ⏎ with nothing to play lights the hint line up, which says why; no notice repeats it
        notices = len(app._notifications)
        await pilot.press("enter")
        assert screen.query_one("#hint-row").has_class("-flash")
        assert len(app._notifications) == notices and len(state.history) == 1
        await pilot.press("d")
        assert any("stay" in n.message for n in app._notifications)
        await pilot.press("p")
        await settle(pilot)
        assert state.history[1]["move"] == {"kind": "pass"}


async def test_classic_mouse_click_tile_and_place() -> None:
    state = classic_state([[6, 1], [0, 5], [4, 3]], [[6, 4], [4, 2]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        # the hand is 0-5, 1-6, 3-4 and the ends are 6 and 2: only 1-6 fits
        await pilot.click(offset=hand_offset(app, 2))
        assert screen.sel.current_tile() == (3, 4)
        assert screen.sel.places() == []
        await pilot.click(offset=hand_offset(app, 1))
        assert screen.sel.current_tile() == (1, 6)
        assert not state.history
        places = screen.sel.places()
        assert [p.end for p in places] == ["left"]
        await pilot.click(offset=board_offset(app, 0))  # click the selected place: play
        await settle(pilot)
        assert state.history[0]["move"] == {"kind": "place", "tile": [1, 6], "end": "left"}


async def test_spider_two_doubles_one_closed() -> None:
    state = spider_state([[3, 3], [5, 5], [0, 2], [2, 4]], 1, {"N": [[1, 3]], "E": [[1, 5]]})
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "spider"))
        await pilot.press("2")  # the hand: 0-2, 2-4, 3-3, 5-5 -> "3" picks 3-3
        await pilot.press("3")
        assert screen.sel.current_tile() == (3, 3)
        assert screen.sel.current_place().arm == "N"
        assert screen.hint() == "⏎ play 3-3 on the North arm · c close · m +double"
        await pilot.press("c")  # close the North arm with it
        await pilot.press("m")  # keep it, choose another double
        assert screen.sel.current_tile() == (5, 5)
        assert screen.sel.current_place().arm == "E"
        await pilot.press("enter")
        await settle(pilot)
        move = state.history[0]["move"]
        assert move == {
            "kind": "place",
            "placements": [
                {"tile": [3, 3], "arm": "N", "close": True},
                {"tile": [5, 5], "arm": "E", "close": False},
            ],
        }
        assert state.to_json()["arms"]["N"]["closed"] is True


def triominos_opening(leader_tiles: list[list[int]]) -> rules.RoundState:
    tiles = [sorted(t) for t in
             ([a, b, c] for a in range(6) for b in range(a, 6) for c in range(b, 6))]
    hand0 = leader_tiles + [t for t in tiles if t not in leader_tiles][: 16 - len(leader_tiles)]
    others = [t for t in tiles if t not in hand0]
    deal = {"hands": [hand0, others[:16]], "bazaar": others[16:]}
    return rules.new_round("triominos", deal=deal, leader=0)


async def test_triominos_placement_with_rotation() -> None:
    state = triominos_opening([[1, 2, 3]])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "triominos"))
        index = screen.sel.hand.index((1, 2, 3))
        screen.sel.select_tile(index)
        screen.redraw_choice()
        first = screen.sel.current_place()
        assert screen.sel.rotations_here() == 3
        assert screen.hint().startswith("⏎ play 1-2-3 to open the round, turn 1/3")
        await pilot.press("r")
        assert screen.hint().startswith("⏎ play 1-2-3 to open the round, turn 2/3")
        turned = screen.sel.current_place()
        assert turned.cell == first.cell and turned.corners != first.corners
        assert set(permutations(turned.corners)) == set(permutations((1, 2, 3)))
        await pilot.press("enter")
        await settle(pilot)
        rec = state.history[0]
        assert rec["move"]["corners"] == list(turned.corners)
        assert rec["events"][0]["points"] == 6


@pytest.mark.parametrize(
    ("variant", "target", "level"),
    [("classic", 50, "random"), ("spider", 50, "normal"), ("triominos", 200, "greedy")],
)
async def test_full_short_match_against_the_computer(variant: str, target: int, level: str) -> None:
    """A short match played to its end with the keys a player would press."""
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match(variant, [Seat("You"), Seat("Computer", "computer", level)], target)
        await settle(pilot)
        for _ in range(2000):
            screen = app.screen
            if isinstance(screen, MatchOverScreen):
                break
            if isinstance(screen, RoundSummary):
                await pilot.press("enter")
            elif isinstance(screen, GameScreen):
                sel = screen.sel
                if sel.places():
                    await pilot.press("enter")
                elif sel.can("draw"):
                    await pilot.press("d")
                elif sel.can("pass"):
                    await pilot.press("p")
                else:
                    await pilot.pause()
            await settle(pilot)
        assert isinstance(app.screen, MatchOverScreen)
        match = app.screen.session.match
        assert match.is_over and max(match.totals) >= target
        assert not storage.save_path().exists()  # a finished match leaves nothing to continue


async def test_triominos_mouse_click_on_a_place() -> None:
    from tui_domino.ui.screenshots import session_after

    def two_cell_tile(session: Session) -> int | None:
        sel = Selection("triominos")
        sel.update(session.state.hands[0], session.state.legal_moves())
        for i in sorted(sel.playable()):
            sel.select_tile(i)
            if len({m.cell for m in sel.places()}) > 1:
                return i
        return None

    session = next(
        s for s in (session_after("triominos", 3, n) for n in range(2, 40, 2))
        if s.state.to_move == 0 and two_cell_tile(s) is not None
    )
    session.autosave = True
    state = session.state
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session)
        tile_index = two_cell_tile(session)
        assert tile_index is not None
        await pilot.click(offset=hand_offset(app, tile_index))
        assert screen.sel.tile_index == tile_index
        places = screen.sel.places()
        other = next(i for i, m in enumerate(places) if m.cell != places[0].cell)
        await pilot.click(offset=board_offset(app, other))
        assert screen.sel.place_index == other
        before = len(state.history)
        await pilot.click(offset=board_offset(app, other))
        await settle(pilot)
        rec = state.history[before]
        assert rec["player"] == 0
        assert rec["move"]["cell"] == list(places[other].cell)
        assert rec["move"]["corners"] == list(places[other].corners)


async def test_keys_typed_in_one_burst_are_applied_in_order() -> None:
    """A terminal read can bring several keys at once (fast typing, key repeat): the tile
    chosen by → must be the one ⏎ plays, never the tile selected before the arrow."""
    from textual import events

    state = classic_state([[6, 1], [0, 5], [6, 3]], [[6, 4], [4, 2]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        assert screen.sel.current_tile() == (1, 6)
        driver = app._driver
        assert driver is not None
        for key in ("right", "enter"):  # no pause between them
            driver.send_message(events.Key(key, None))
        await settle(pilot)
        first = state.history[0]
        assert first["move"] == {"kind": "place", "tile": [3, 6], "end": "left"}


async def test_the_arrow_at_the_edge_of_a_long_hand_steps_like_the_arrow_key() -> None:
    hand = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 1], [1, 2], [1, 3], [2, 2], [2, 3], [3, 3],
            [0, 4], [1, 4], [2, 4], [3, 4], [0, 5], [1, 5], [2, 5]]  # 17: 80 columns show 15
    state = classic_state(hand, [[4, 4]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        first = screen.sel.tile_index
        screen.query_one(BoardView).focus()  # the click must bring the focus back
        await pilot.pause()
        await pilot.click(offset=hand_offset(app, ("scroll", 1)))
        await pilot.pause()
        assert isinstance(screen.focused, HandView)
        stepped = screen.sel.tile_index
        assert stepped != first
        await pilot.press("left", "right")
        assert screen.sel.tile_index == stepped
        assert state.history == []  # choosing plays nothing


async def test_the_hand_can_be_looked_through_while_the_computer_thinks() -> None:
    """←→ during the computer's turn choose a tile without a notice; the tile stays chosen
    for the player's turn when it fits then (not the first tile that fits)."""
    import threading

    state = classic_state([[6, 1], [0, 5], [6, 3], [2, 5]], [[6, 4], [4, 2]], bazaar_size=5)
    session = session_with(state, "classic")
    go = threading.Event()

    def computer_move() -> rules.Move:  # the computer thinks until the test lets it answer
        assert go.wait(10)
        return next(m for m in state.legal_moves() if m.tile == (1, 3))  # the ends: 3 and 2

    session.computer_move = computer_move  # type: ignore[method-assign]
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_game(app, pilot, session)
        hand = screen.query_one(HandView)
        assert screen.sel.current_tile() == (1, 6)
        await pilot.press("enter")  # 1-6 on the left: the ends are 1 and 2
        await pilot.pause()
        assert screen.thinking and hand.selected is None  # nothing raised while it thinks
        notices = len(app._notifications)
        await pilot.press("right", "right")  # 0-5, 2-5, 3-6: from 2-5 round to 0-5
        assert screen.sel.current_tile() == (0, 5)
        assert hand.selected == screen.sel.tile_index  # shown raised
        await pilot.press("left")
        assert screen.sel.current_tile() == (3, 6)
        await pilot.press("enter")  # playing still waits for the turn
        assert len(app._notifications) == notices + 1
        assert len(state.history) == 1
        go.set()
        await settle(pilot)
        assert state.to_move == 0 and len(state.history) == 2
        fits = screen.sel.playable()
        assert fits == {1, 2}  # 2-5 and 3-6 fit; without the look 2-5 would be chosen
        assert screen.sel.current_tile() == (3, 6) and hand.selected == screen.sel.tile_index


async def test_notices_stand_clear_of_the_board_the_hand_and_the_hint_line() -> None:
    from textual.widgets._toast import Toast

    state = classic_state([[6, 1], [0, 5], [6, 3], [2, 5], [1, 1], [3, 3], [4, 4]],
                          [[6, 4], [4, 2]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        await pilot.press("p")  # passing is not allowed: a notice with a title, two lines
        await pilot.pause()
        toasts = list(screen.query(Toast))
        assert toasts
        below = screen.query_one("#hint-row").region.union(screen.query_one("#hand-box").region)
        board = screen.query_one(BoardView).region
        for toast in toasts:
            assert toast.region.height >= 3
            assert not toast.region.overlaps(below), (toast.region, below)
            assert not toast.region.overlaps(board), (toast.region, board)


async def test_spider_the_centre_double_is_not_offered_with_other_doubles() -> None:
    tiles = [list(t) for t in permutations(range(7), 2) if t[0] < t[1]] + [[n, n] for n in range(7)]
    hand0 = [[1, 1], [3, 3], [0, 2], [2, 4], [4, 5], [5, 6], [0, 6]]
    others = [t for t in tiles if t not in hand0]
    state = rules.new_round("spider", deal={"hands": [hand0, others[:7]], "bazaar": others[7:]})
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_game(app, pilot, session_with(state, "spider"))
        assert state.to_move == 0 and screen.sel.current_tile() == (1, 1)
        assert screen.hint() == "⏎ play 1-1 in the centre (first that fits)"
        await pilot.press("m")
        assert screen.sel.pending == []
        assert any("alone" in n.message for n in app._notifications)
        await pilot.press("enter")
        await settle(pilot)
        assert state.history[0]["move"] == {
            "kind": "place", "placements": [{"tile": [1, 1], "arm": "center", "close": False}]}


async def test_a_game_screen_closed_as_it_opens_is_no_crash() -> None:
    from tui_domino.ui.screenshots import session_after

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameScreen(session_after("classic", 4, 3)))
        app.pop_screen()  # before the screen was ever shown
        for _ in range(5):
            await pilot.pause()
        assert app.is_running and type(app.screen).__name__ == "MenuScreen"


async def test_spider_m_on_a_double_that_fits_no_arm_names_the_real_cause() -> None:
    # the arms end in 3 (N), 5 (E), 2 (S) and 4 (W): 3-3 fits N, 6-6 fits nothing
    state = spider_state([[3, 3], [6, 6], [0, 2], [2, 4]], 1,
                         {"N": [[1, 3]], "E": [[1, 5]], "S": [[1, 2]], "W": [[1, 4]]})
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_game(app, pilot, session_with(state, "spider"))

        async def mark(n: int) -> str:
            app.clear_notifications()
            await pilot.press(str(n), "m")
            await pilot.pause()
            return " ".join(note.message for note in app._notifications)

        # the hand: 0-2, 2-4, 3-3, 6-6
        assert await mark(4) == "6-6 fits no arm: no open arm ends in 6."
        assert screen.sel.pending == []
        assert "Only doubles can be played together" in await mark(1)  # 0-2: no double
        assert await mark(3) == "" and [p.tile for p in screen.sel.pending] == [(3, 3)]
        assert await mark(4) == "6-6 fits no arm: no open arm ends in 6."
        assert [p.tile for p in screen.sel.pending] == [(3, 3)]


async def test_every_tile_of_a_triominos_hand_is_visible_and_reachable() -> None:
    state = triominos_opening([[5, 5, 5]])  # 16 tiles each
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "triominos"))
        hand = screen.query_one(HandView)
        assert len(screen.sel.hand) == 16
        text = "\n".join(screen_lines(app))
        assert "‹" not in text and "›" not in text  # no window: all 16 show
        assert {h.key for h in hand.canvas().hits} == set(range(16))  # each can be clicked
        now = [100.0]
        screen.clock = lambda: now[0]
        for n, keys_typed in ((10, ("0",)), (12, ("1", "2")), (16, ("1", "6")),
                              (3, ("3",)), (1, ("1",)), (2, ("2",))):
            await pilot.press(*keys_typed)
            await pilot.pause()
            assert screen.sel.tile_index == n - 1, (n, keys_typed)
            now[0] += 0.9  # (a 1 alone waits a moment for a second digit)


async def test_with_the_table_focused_the_hint_and_footer_say_the_arrows_pan() -> None:
    state = classic_state([[6, 1], [0, 5], [6, 3], [2, 5]], [[6, 4], [4, 2]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        steps = {a for a in footer_actions(screen) if a.startswith("step")}
        assert steps and screen.hint().startswith("⏎ play")
        await pilot.click(offset=board_offset(app, 0))  # a click on the table focuses it
        await pilot.pause()
        if not isinstance(screen.focused, BoardView):  # (the click played a place: focus it)
            screen.board.focus()
            await pilot.pause()
        assert isinstance(screen.focused, BoardView)
        assert not steps & footer_actions(screen)  # no "Tile" or "Place" in the footer
        assert screen.hint().startswith("The arrows pan the table")
        assert "The arrows pan the table" in "\n".join(screen_lines(app))
        await pilot.press("tab")  # back to the hand: the tiles' keys again
        await pilot.pause()
        assert isinstance(screen.focused, HandView)
        assert steps <= footer_actions(screen) and not screen.hint().startswith("The arrows")


def _real_round(seed: int, human_draws: bool = False) -> Session:
    """A round dealt by the game (it keeps its deal), at the person's turn; with
    ``human_draws``, one where the person can only draw."""
    from tui_domino import ai
    from tui_domino.ui.session import Seat

    for n in range(seed, seed + 400):
        session = Session.new("classic", [Seat("You"), Seat("Computer", "computer", "greedy")],
                              seed=n, autosave=False)
        state = session.state
        while state.to_move == 1 and not state.is_over:
            state.apply(ai.PLAYERS["greedy"](state.view(1), session.ai_rng(), None))
        kinds = {m.kind for m in state.legal_moves()} if state.to_move == 0 else set()
        if kinds and (kinds == {"draw"}) == human_draws:
            return session
    raise AssertionError("no such round")


async def test_u_takes_back_my_move_and_the_computers_reply() -> None:
    from tui_domino.ui import history_db

    session = _real_round(1)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await open_game(app, pilot, session)
        before = session.state.to_json()
        await pilot.press("enter")  # my move, then the computer's reply
        await settle(pilot)
        assert len(session.state.history) > len(before["history"])
        await pilot.press("u")
        await settle(pilot)
        assert session.state.to_json() == before  # as it was before my move
        assert session.state.to_move == 0 and screen.sel.playable()
        assert history_db.log_for(session).take_backs == 1
        app.settings.take_backs = False  # the "no take-backs" setting
        await pilot.press("enter")
        await settle(pilot)
        moved = session.state.to_json()
        await pilot.press("u")
        await pilot.pause()
        assert session.state.to_json() == moved
        assert any("Take-backs are off" in n.message for n in app._notifications)


async def test_a_draw_taken_back_draws_the_same_tile_again() -> None:
    session = _real_round(1, human_draws=True)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_game(app, pilot, session)
        start = len(session.state.history)
        await pilot.press("d")
        await settle(pilot)
        drawn = session.state.history[start]["tile"]
        await pilot.press("u")
        await settle(pilot)
        assert len(session.state.history) == start
        await pilot.press("d")
        await settle(pilot)
        assert session.state.history[start]["tile"] == drawn  # the deal is fixed


async def test_nothing_of_mine_to_take_back_is_said() -> None:
    session = _real_round(1)
    assert not any(r["player"] == 0 for r in session.state.history)  # my first turn
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_game(app, pilot, session)
        before = session.state.to_json()
        await pilot.press("u")
        await pilot.pause()
        assert session.state.to_json() == before
        assert any("no move of yours" in n.message for n in app._notifications)


async def test_the_bell_rings_on_a_refused_key_and_not_when_off(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tui_domino.ui.app import DominoApp

    rung: list[int] = []
    monkeypatch.setattr(DominoApp, "bell", lambda self: rung.append(1))
    monkeypatch.delenv("SSH_CONNECTION", raising=False)
    monkeypatch.setenv("TUI_DOMINO_REMOTE", "0")
    state = classic_state([[6, 1], [0, 5], [6, 3], [2, 5]], [[6, 4], [4, 2]], bazaar_size=5)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "classic"))
        await pilot.press("1")  # 0-5 fits neither end (6, 2): Enter does nothing but say why
        await pilot.press("enter")
        await pilot.pause()
        assert rung == [1] and state.history == []
        app.settings.bell = False
        await pilot.press("enter")
        await pilot.pause()
        assert rung == [1]
        assert screen.sel.current_tile() == (0, 5)


def test_the_bell_is_off_by_default_over_ssh(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    assert app.settings.bell is None
    monkeypatch.setenv("TUI_DOMINO_REMOTE", "1")
    assert not app.bell_on()
    monkeypatch.setenv("TUI_DOMINO_REMOTE", "0")
    assert app.bell_on()
    app.settings.bell = False  # the palette's Bell sets it
    assert not app.bell_on()
