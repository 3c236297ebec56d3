"""Running a computer player's choice in a separate process, for an asyncio program.

A pure-Python search holds the GIL; run in the UI's process it would freeze the screen. Here
the choice runs in a worker process of a reused ``ProcessPoolExecutor`` (spawn context: no
fork of a running event loop), and the caller only awaits a future:

    move = await worker.choose_in_process(view, "hard", budget_ms=800, seed=7)

Cancelling that await (leaving the game, a worker cancelled by Textual) cancels the job if it
has not started, and otherwise tells the running search to stop at its next check (a shared
integer holds the id of the job to stop), so the process is free again within milliseconds
and never left stuck. ``shutdown()`` stops everything, for leaving the game or the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import random
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Protocol, TypeVar

from tui_domino import rules
from tui_domino.rules.types import MoveJSON, SeatView

if TYPE_CHECKING:
    from tui_domino.ai.coach import RankedJSON

T = TypeVar("T")


class Flag(Protocol):
    """A shared integer (a multiprocessing ``RawValue("q")``)."""

    value: int


_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None
# A multiprocessing RawValue: every job whose id is at most this value must stop. Jobs run one
# at a time in submission order, so raising it to a running job's id stops only that job.
_cancel: Flag | None = None
_jobs = itertools.count(1)

# In the worker process: the shared cancel value.
_worker_cancel: Flag | None = None


def _init_worker(cancel: Flag) -> None:
    global _worker_cancel
    _worker_cancel = cancel


def _choose(view: SeatView, level: str, budget_ms: float | None, seed: int,
            iterations: int | None, stop: Callable[[], bool]) -> rules.Move:
    """The level's move in ``view`` (in the worker, or in a thread when it cannot run)."""
    # lazy: worker (the worker process loads the players, not the UI's)
    from tui_domino.ai.levels import LEVELS
    from tui_domino.ai.search import DEFAULT_ITERATIONS, Budget, hard

    rng = random.Random(seed)
    if level == "hard":
        budget = Budget(iterations or DEFAULT_ITERATIONS[view["variant"]], budget_ms)
        return hard(view, rng, budget, stop=stop)
    return LEVELS[level](view, rng, None)


def _stop_flag(job: int) -> Callable[[], bool]:
    """In the worker: whether job ``job`` was told to stop."""
    cancel = _worker_cancel

    def stop() -> bool:
        return cancel is not None and cancel.value >= job

    return stop


def _run(view: SeatView, level: str, budget_ms: float | None, seed: int,
         job: int, iterations: int | None = None) -> MoveJSON:
    """In the worker: the level's move in ``view`` as JSON."""
    return _choose(view, level, budget_ms, seed, iterations, _stop_flag(job)).to_json()


def _ping() -> bool:
    # lazy: worker (warms the worker process up, not the UI's)
    import tui_domino.ai.levels  # noqa: F401  (imports the players and their tables)

    return True


def _start_tracker() -> None:
    """multiprocessing's helper process (the pool's locks are registered with it), started
    with the process's own standard error: a running Textual app puts a stand-in in
    ``sys.stderr`` whose descriptor (-1) the helper's start refuses. Started with the pool,
    not with every game: a game that never plays the computer (most SSH visitors') starts
    no process of its own."""
    # lazy: start-up (only a game that makes the pool needs it)
    from multiprocessing import resource_tracker

    # (failed, the pool's start says what is wrong, and the computer plays in a thread)
    with contextlib.redirect_stderr(sys.__stderr__), contextlib.suppress(OSError, ValueError):
        resource_tracker.ensure_running()


def _get_executor() -> tuple[ProcessPoolExecutor, Flag]:
    global _executor, _cancel
    with _lock:
        if _executor is None:
            _start_tracker()
            ctx = multiprocessing.get_context("spawn")
            cancel: Flag = ctx.RawValue("q", 0)
            _cancel = cancel
            _executor = ProcessPoolExecutor(
                max_workers=1, mp_context=ctx, initializer=_init_worker, initargs=(cancel,)
            )
        assert _cancel is not None
        return _executor, _cancel


def _submit(fn: Callable[..., T], *args: object) -> tuple[Future[T], Flag]:
    """``fn(*args)`` submitted to the worker, and the worker's cancel flag. A pool found broken
    (its process died while idle: ``submit`` raises at once) is replaced, once."""
    for attempt in (0, 1):
        ex, cancel = _get_executor()
        try:
            return ex.submit(fn, *args), cancel
        except BrokenProcessPool:
            _discard_executor()
            if attempt:
                raise
    raise AssertionError("unreachable")


async def warm_up() -> None:
    """Starts the worker process now (it takes a moment), so the first move is quick."""
    fut, _ = _submit(_ping)
    await asyncio.wrap_future(fut)


def submit(
    view: SeatView,
    level: str,
    budget_ms: float | None = None,
    seed: int = 0,
    iterations: int | None = None,
) -> Future[rules.Move]:
    """The same choice as ``choose_in_process`` as a ``concurrent.futures.Future``, for code
    that waits in a thread (``future.result()`` releases the GIL while it waits)."""
    job = next(_jobs)
    inner: Future[MoveJSON]
    inner, _ = _submit(_run, view, level, budget_ms, seed, job, iterations)
    outer: Future[rules.Move] = Future()

    def done(f: Future[MoveJSON]) -> None:
        if f.cancelled():
            outer.cancel()
        elif f.exception() is not None:
            outer.set_exception(f.exception())
        else:
            outer.set_result(rules.move_from_json(view["variant"], f.result()))

    inner.add_done_callback(done)
    return outer


async def choose_in_process(
    view: SeatView,
    level: str,
    budget_ms: float | None = None,
    seed: int = 0,
    iterations: int | None = None,
) -> rules.Move:
    """The move of the player at ``level`` in ``view``, computed in the worker process.

    ``budget_ms`` caps the hard player's thinking time (None: its default cap) and
    ``iterations`` its search iterations (None: the variant's default). Deterministic for a
    given ``seed`` unless the time cap cuts the search short.
    """
    job = next(_jobs)
    for attempt in (0, 1):
        fut: Future[MoveJSON]
        fut, cancel = _submit(_run, view, level, budget_ms, seed, job, iterations)
        try:
            result = await asyncio.wrap_future(fut)
        except asyncio.CancelledError:
            if not fut.cancel():
                cancel.value = max(cancel.value, job)  # running: ask the search to stop now
            raise
        except BrokenProcessPool:
            _discard_executor()
            if attempt:
                raise
            continue
        return rules.move_from_json(view["variant"], result)
    raise AssertionError("unreachable")


def _run_coach(view: SeatView, seed: int, iterations: int | None,
               budget_ms: float | None, job: int) -> list[RankedJSON]:
    """In the worker: the coach's ranked moves of ``view`` as JSON (``coach.rank_json``)."""
    # lazy: worker (the coach loads in the worker process, not the UI's)
    from tui_domino.ai import coach

    return coach.rank_json(view, seed, iterations, budget_ms, _stop_flag(job))


async def rank_in_process(
    view: SeatView,
    seed: int = 0,
    iterations: int | None = None,
    budget_ms: float | None = None,
) -> list[RankedJSON]:
    """The coach's figures for every legal move of ``view`` (best first: {"move", "expected",
    "visits"}), computed in the worker process; cancelling the await stops the search, as for
    ``choose_in_process``."""
    job = next(_jobs)
    for attempt in (0, 1):
        fut: Future[list[RankedJSON]]
        fut, cancel = _submit(_run_coach, view, seed, iterations, budget_ms, job)
        try:
            return await asyncio.wrap_future(fut)
        except asyncio.CancelledError:
            if not fut.cancel():
                cancel.value = max(cancel.value, job)
            raise
        except BrokenProcessPool:
            _discard_executor()
            if attempt:
                raise
    raise AssertionError("unreachable")


async def _in_thread(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args, stop)`` in a thread of this process; cancelling the await makes ``stop()``
    true, so the search ends at its next look at it."""
    stopped = threading.Event()
    try:
        return await asyncio.to_thread(fn, *args, stopped.is_set)
    except asyncio.CancelledError:
        stopped.set()
        raise


class Searcher:
    """The computer's choices and the coach's figures for one table: searched in the worker
    process, and in a thread of this process once the worker could not run (there the
    compiled classic search lets the screen run between its looks at the clock). The first
    failure is kept in ``failure`` for the table to tell; later searches go to the thread
    without trying the worker again."""

    def __init__(self) -> None:
        self.failure: Exception | None = None

    @property
    def here(self) -> bool:
        """Whether the searches run in this process (the worker failed)."""
        return self.failure is not None

    async def choose(self, view: SeatView, level: str, budget_ms: float | None = None,
                     seed: int = 0, iterations: int | None = None) -> rules.Move:
        """``choose_in_process``, or the same search in a thread."""
        if self.failure is None:
            try:
                return await choose_in_process(view, level, budget_ms, seed, iterations)
            except Exception as exc:  # the worker could not run (a cancel is not an Exception)
                self.failure = exc
        return await _in_thread(_choose, view, level, budget_ms, seed, iterations)

    async def rank(self, view: SeatView, seed: int = 0, iterations: int | None = None,
                   budget_ms: float | None = None) -> list[RankedJSON]:
        """``rank_in_process``, or the same figures worked out in a thread."""
        if self.failure is None:
            try:
                return await rank_in_process(view, seed, iterations, budget_ms)
            except Exception as exc:  # the worker could not run
                self.failure = exc
        # on demand: the coach and its search load with the first hint in a thread (worker)
        from tui_domino.ai import coach

        return await _in_thread(coach.rank_json, view, seed, iterations, budget_ms)


def _discard_executor() -> None:
    global _executor
    with _lock:
        ex, _executor = _executor, None
    if ex is not None:
        ex.shutdown(wait=False, cancel_futures=True)


def shutdown(wait: bool = False) -> None:
    """Stops the worker: queued jobs are dropped, a running search is told to stop."""
    global _executor
    with _lock:
        ex, _executor = _executor, None
        if _cancel is not None:
            _cancel.value = next(_jobs)  # every job issued so far stops
    if ex is not None:
        ex.shutdown(wait=wait, cancel_futures=True)


def kill() -> None:
    """Ends the worker process at once, for a program about to end without its usual
    cleanup (a process left behind would wait for jobs for ever)."""
    with _lock:
        ex = _executor
    # the executor's own map of its worker processes (CPython's ProcessPoolExecutor)
    processes = list((getattr(ex, "_processes", None) or {}).values())
    shutdown()
    for process in processes:
        with contextlib.suppress(ProcessLookupError, OSError, ValueError):  # gone or closed
            process.kill()


def is_running() -> bool:
    """Whether a worker process exists (for tests and diagnostics)."""
    return _executor is not None


__all__ = ["Searcher", "choose_in_process", "is_running", "kill", "rank_in_process", "shutdown",
           "submit", "warm_up"]
