"""Building exact positions for Pilot tests, and pressing keys like a player."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Any

from textual.geometry import Offset

from tui_domino import rules
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.session import Seat, Session
from tui_domino.ui.widgets.board import BoardView
from tui_domino.ui.widgets.hand import HandView

DOMINOES = [list(t) for t in combinations_with_replacement(range(7), 2)]


def seats(level: str = "greedy") -> list[Seat]:
    return [Seat("You"), Seat("Computer", "computer", level)]


def session_with(state: rules.RoundState, variant: str, level: str = "greedy") -> Session:
    match = rules.new_match(variant, seed=1)
    match.round = state
    return Session(match, seats(level), autosave=True)


def played(variant: str, seed: int, moves: int) -> rules.RoundState:
    """A round of ``variant`` dealt with ``seed`` after ``moves`` random legal moves (fewer
    when it ends first), the moves chosen with the same seed."""
    state = rules.new_round(variant, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def rest(used: list[list[int]]) -> list[list[int]]:
    taken = {tuple(sorted(t)) for t in used}
    return [t for t in DOMINOES if tuple(t) not in taken]


def classic_state(
    hand0: list[list[int]], line: list[list[int]], bazaar_size: int
) -> rules.RoundState:
    """Player 0 to move, ``line`` on the table, ``bazaar_size`` tiles in the bazaar."""
    others = rest(hand0 + line)
    bazaar = others[:bazaar_size]
    hand1 = others[bazaar_size:]
    d: dict[str, Any] = {
        "format": 1, "variant": "classic", "options": {"hand_size": 7, "bazaar_reserve": 2},
        "to_move": 0, "points": [0, 0], "winner": None, "over": False, "end_reason": None,
        "hands": [sorted(hand0), sorted(hand1)], "bazaar": bazaar, "history": [],
        "line": line, "ends": [line[0][0], line[-1][1]], "forced": None, "leader": 0,
        "bazaar_reserve": 2,
    }
    return rules.state_from_json(d)


def spider_state(hand0: list[list[int]], center: int, arms: dict[str, list[list[int]]]
                 ) -> rules.RoundState:
    on_board = [[center, center]] + [t for a in arms.values() for t in a]
    others = rest(hand0 + on_board)
    hand1, bazaar = others[:7], others[7:]
    arm_json = {}
    for name in "NESW":
        tiles = arms.get(name, [])
        arm_json[name] = {"tiles": tiles, "end": tiles[-1][1] if tiles else center,
                          "closed": False}
    d: dict[str, Any] = {
        "format": 1, "variant": "spider", "options": {"hand_size": 7, "lone_blank_double": 25},
        "to_move": 0, "points": [0, 0], "winner": None, "over": False, "end_reason": None,
        "hands": [sorted(hand0), sorted(hand1)], "bazaar": bazaar, "history": [],
        "center": center, "arms": arm_json, "opener": 1, "opening_double": center,
    }
    return rules.state_from_json(d)


def game(app: Any) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    return screen


def board_offset(app: Any, key: int) -> Offset:
    """Where to click on the board to hit the place ``key`` (in screen coordinates)."""
    board = app.screen.query_one(BoardView)
    cv = board.canvas()
    ox, oy = board._offsets()
    for h in cv.hits:
        if h.key == key:
            x = (h.x0 + h.x1) // 2 - cv.min_x + ox - int(board.scroll_x)
            y = (h.y0 + h.y1) // 2 - cv.min_y + oy - int(board.scroll_y)
            region = board.content_region
            return Offset(region.x + x, region.y + y)
    raise AssertionError(f"no place {key} on the board")


def hand_offset(app: Any, index: int | tuple[str, int]) -> Offset:
    """Where to click in the hand to hit tile ``index``, or ("scroll", ±1), the arrow at
    either edge of a hand too long to show whole."""
    hand = app.screen.query_one(HandView)
    cv = hand.canvas()
    for h in cv.hits:
        if h.key == index:
            region = hand.content_region
            return Offset(region.x + (h.x0 + h.x1) // 2 - cv.min_x, region.y + 1)
    raise AssertionError(f"{index} not shown in the hand")


def footer_keys(screen: Any) -> list[Any]:
    from textual.widgets._footer import FooterKey

    return list(screen.query(FooterKey))


def footer_actions(screen: Any) -> set[str]:
    return {k.action for k in footer_keys(screen)}


def assert_footer_fits(screen: Any, width: int = 80) -> set[str]:
    """Every key of the screen's footer shows whole: none runs past ``width`` or hides
    another (the palette's key is docked on the right). Returns the keys' actions."""
    keys = footer_keys(screen)
    spans = sorted((k.region.x, k.region.right) for k in keys)
    assert spans and spans[-1][1] <= width, spans
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:], strict=False)), spans
    return {k.action for k in keys}


def screen_lines(app: Any) -> list[str]:
    """The screen's text as the terminal gets it, after the app's line filters."""
    return [strip.text for strip in app.screen._compositor.render_strips()]
