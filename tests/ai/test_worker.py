"""The worker process: moves come back legal, a cancelled search does not keep the process
busy, and shutdown leaves nothing running."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future

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


# How long a test waits for what must happen within moments before it gives up: a guard
# against hanging, not a measure (nothing here is slow unless it is broken).
GUARD = 120.0

# A search that only a request to stop can end (no time cap, 10**12 iterations).
ENDLESS = {"budget_ms": None, "iterations": 10**12}


def jobs_submitted(monkeypatch) -> list[Future]:
    """The worker's futures of the jobs submitted from now on, in order."""
    futures: list[Future] = []
    submit = worker._submit

    def spy(fn, *args):
        fut, cancel = submit(fn, *args)
        futures.append(fut)
        return fut, cancel

    monkeypatch.setattr(worker, "_submit", spy)
    return futures


async def until(condition) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), GUARD)


async def test_a_cancelled_search_stops_and_frees_the_worker(fresh_worker, monkeypatch):
    state = position("triominos", 2, 12)
    assert len(state.legal_moves()) > 1
    view = state.view(state.to_move)
    await worker.warm_up()
    jobs = jobs_submitted(monkeypatch)
    task = asyncio.create_task(worker.choose_in_process(view, "hard", seed=1, **ENDLESS))
    await until(lambda: jobs and jobs[0].running())  # handed to the worker: cannot be unqueued
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # Only the request to stop ends that search: its job comes back, and the worker is free.
    await asyncio.wait_for(asyncio.wrap_future(jobs[0]), GUARD)
    move = await worker.choose_in_process(view, "normal", seed=1)
    assert move in state.legal_moves()


async def test_shutdown_ends_a_running_search(fresh_worker, monkeypatch):
    state = position("classic", 4, 3)
    assert len(state.legal_moves()) > 1
    view = state.view(state.to_move)
    await worker.warm_up()
    (process,) = _worker_processes()
    jobs = jobs_submitted(monkeypatch)
    task = asyncio.create_task(worker.choose_in_process(view, "hard", seed=1, **ENDLESS))
    await until(lambda: jobs and jobs[0].running())
    worker.shutdown()
    assert not worker.is_running()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The process ends only once the search under way has stopped. (Polled rather than
    # joined: the pool's own thread joins it too, and the join that loses that race returns
    # before the process's end is recorded.)
    await until(lambda: not process.is_alive())
    assert not process.is_alive()


def _worker_processes() -> list:
    return list((getattr(worker._executor, "_processes", None) or {}).values())


@pytest.mark.parametrize("when", ["idle", "busy"])
async def test_a_killed_worker_is_replaced_and_the_move_still_comes(fresh_worker, monkeypatch,
                                                                    when):
    """The worker process dies (killed, out of memory): while idle, the pool is broken before
    the next move is asked for; while searching, the move under way fails and is asked for
    again. Either way the move comes back, from a new process."""
    state = position("triominos", 2, 12)  # a position with a long search
    view = state.view(state.to_move)
    await worker.warm_up()
    (old,) = _worker_processes()
    if when == "idle":
        old.kill()
        old.join(GUARD)
        await until(lambda: getattr(worker._executor, "_broken", False))  # the pool saw it
        move = await worker.choose_in_process(view, "hard", seed=5, iterations=200)
    else:
        jobs = jobs_submitted(monkeypatch)
        task = asyncio.create_task(  # a search of 1.5 s, killed once the worker has it
            worker.choose_in_process(view, "hard", budget_ms=1500, seed=5, iterations=10**9))
        await until(lambda: jobs and jobs[0].running())
        assert not task.done()
        old.kill()
        move = await asyncio.wait_for(task, GUARD)
        assert len(jobs) == 2  # asked for again, of the new process
    assert move in state.legal_moves()
    (new,) = _worker_processes()
    assert new.pid != old.pid and new.is_alive()
