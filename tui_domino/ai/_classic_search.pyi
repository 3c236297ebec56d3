"""The compiled twin of ``tui_domino.ai.classic_search.search_python`` (see that module).

``search`` refuses arguments out of range as ``classic_search.check`` does (the same
ValueError), and a generator state that is not one (625 numbers: 624 of 32 bits, not all of
the state zero, then an index from 0 to 624); ``target`` 0 with both totals 0 is no match."""

from collections.abc import Callable

def search(
    me: int, hand: int, hidden: int, opp_size: int, left: int, right: int, forced: int,
    reserve: int, points0: int, points1: int,
    pool: list[int], cum: list[float], erratic: list[float], erratic_all: float,
    group_tiles: list[list[int]], group_counts: list[int],
    ucb_c: float, win: float, scale: float, greedy: float, block: int,
    split_draws: bool,
    total0: int, total1: int, target: int,
    mt_state: list[int], iterations: int, deadline: float,
    stop: Callable[[], bool] | None, clock: Callable[[], float],
) -> tuple[int, dict[int, tuple[int, float]]]: ...
