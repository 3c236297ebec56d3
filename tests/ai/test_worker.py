"""The worker process: moves come back legal, a cancelled search does not keep the process
busy, and shutdown leaves nothing running."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.ai.positions import position
from tui_domino.ai import worker


@pytest.fixture
def fresh_worker():
    worker.shutdown(wait=True)
    yield
    worker.shutdown(wait=True)


async def test_a_move_comes_back_from_the_worker(fresh_worker):
    state = position("spider", 3, 5)
    view = state.view(state.to_move)
    for level in ("easy", "normal", "hard"):
        move = await worker.choose_in_process(view, level, budget_ms=300, seed=1, iterations=50)
        assert move in state.legal_moves()
    assert worker.is_running()


async def test_the_same_seed_gives_the_same_move(fresh_worker):
    state = position("classic", 8, 4)
    view = state.view(state.to_move)
    a = await worker.choose_in_process(view, "hard", budget_ms=None, seed=5, iterations=200)
    b = await worker.choose_in_process(view, "hard", budget_ms=None, seed=5, iterations=200)
    assert a == b


async def test_a_cancelled_search_stops_and_frees_the_worker(fresh_worker):
    state = position("triominos", 2, 12)
    view = state.view(state.to_move)
    await worker.warm_up()
    # A search that would run for a minute: cancelled after a moment.
    task = asyncio.create_task(
        worker.choose_in_process(view, "hard", budget_ms=60_000, seed=1, iterations=10**9)
    )
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    start = time.perf_counter()
    move = await worker.choose_in_process(view, "normal", seed=1)
    assert move in state.legal_moves()
    assert time.perf_counter() - start < 5.0  # the worker was free again


async def test_shutdown_ends_a_running_search(fresh_worker):
    state = position("classic", 4, 3)
    view = state.view(state.to_move)
    await worker.warm_up()
    task = asyncio.create_task(
        worker.choose_in_process(view, "hard", budget_ms=60_000, seed=1, iterations=10**9)
    )
    await asyncio.sleep(0.2)
    start = time.perf_counter()
    worker.shutdown(wait=True)
    assert time.perf_counter() - start < 5.0
    assert not worker.is_running()
    task.cancel()
    with pytest.raises((asyncio.CancelledError, Exception)):
        await task


def _worker_processes() -> list:
    return list((getattr(worker._executor, "_processes", None) or {}).values())


@pytest.mark.parametrize("when", ["idle", "busy"])
async def test_a_killed_worker_is_replaced_and_the_move_still_comes(fresh_worker, when):
    """The worker process dies (killed, out of memory): while idle, the pool is broken before
    the next move is asked for; while searching, the move under way fails and is asked for
    again. Either way the move comes back, from a new process."""
    state = position("triominos", 2, 12)  # a position with a long search
    view = state.view(state.to_move)
    await worker.warm_up()
    (old,) = _worker_processes()
    if when == "idle":
        old.kill()
        old.join(10)
        deadline = time.monotonic() + 10  # until the pool has seen its process die
        while not getattr(worker._executor, "_broken", False) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert worker._executor._broken
        move = await worker.choose_in_process(view, "hard", seed=5, iterations=200)
    else:
        task = asyncio.create_task(  # a search of 1.5 s, killed after 0.3 s
            worker.choose_in_process(view, "hard", budget_ms=1500, seed=5, iterations=10**9))
        await asyncio.sleep(0.3)
        assert not task.done()
        old.kill()
        move = await asyncio.wait_for(task, 30)
    assert move in state.legal_moves()
    (new,) = _worker_processes()
    assert new.pid != old.pid and new.is_alive()
