"""How live the game screen stays while the hard computer player thinks.

Runs the app headless (``App.run_test``) with a match between two hard computer players and a
timer ticking every 10 ms that records how late each tick fires (from the first computer move
on, so the app's start-up is not counted): that lateness is the time the event loop could not
answer a key press or repaint. Stops after 20 hard moves that needed a
search (forced moves are not counted) and prints the lag's median, p99 and maximum.

    python scripts/ui_lag.py                    # the search in the worker process
    python scripts/ui_lag.py --mode thread      # the search in a thread of the UI process
    python scripts/ui_lag.py --mode baseline    # no search: the app's own work per move
    python scripts/ui_lag.py --variant triominos --moves 20 --json

``--mode process`` lets the game choose as it does in play (``LocalTable.computer_move``
awaits ``tui_domino.ai.worker``); ``--mode thread`` runs the search in a thread of the app's own
process instead, which shows what the worker process saves (a pure-Python search holds the GIL).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_domino import ai  # noqa: E402
from tui_domino.ai import worker  # noqa: E402
from tui_domino.ai.levels import LEVELS  # noqa: E402
from tui_domino.ai.simulation import variant_of  # noqa: E402


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, round((len(s) - 1) * q)))
    return s[k]


async def measure(variant: str, moves: int, mode: str, seed: int, budget_ms: float | None
                  ) -> dict[str, object]:
    os.environ["TUI_DOMINO_DELAY"] = "0"
    from tui_domino.ui import storage
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.local_table import LocalTable
    from tui_domino.ui.session import Seat, Session

    # The game looks levels up in ai.PLAYERS; make sure "hard" is there for this run.
    ai.PLAYERS.setdefault("hard", LEVELS["hard"])
    searched = [0]
    think_ms: list[float] = []

    started = [False]

    def forced(session: Session) -> bool:
        started[0] = True  # lag is recorded from the first computer move on
        tm = session.state.to_move
        assert tm is not None
        view = session.state.view(tm)
        return len(variant_of(view).base_sim(view).legal()) == 1

    def count(is_forced: bool, t0: float) -> None:
        if not is_forced:
            searched[0] += 1
            think_ms.append((time.perf_counter() - t0) * 1000.0)

    if mode == "process":
        # The game's own path: LocalTable.computer_move awaits the worker process.
        original = LocalTable.computer_move

        async def in_process(self: LocalTable, *args: object, **kwargs: object) -> object:
            is_forced = forced(self.session)
            t0 = time.perf_counter()
            if budget_ms is not None:
                kwargs["budget_ms"] = budget_ms
            move = await original(self, *args, **kwargs)  # type: ignore[arg-type]
            count(is_forced, t0)
            return move

        LocalTable.computer_move = in_process  # type: ignore[method-assign,assignment]
        await worker.warm_up()
    elif mode == "baseline":
        # No search at all: the easy player, in the app's process; what remains is the app's
        # own work per move (redrawing the table and the hands).
        def easy(self: Session) -> object:
            is_forced = forced(self)
            t0 = time.perf_counter()
            tm = self.state.to_move
            assert tm is not None
            move = LEVELS["easy"](self.state.view(tm), self.ai_rng(), None)
            count(is_forced, t0)
            return move

        Session.computer_searches = lambda self: False  # type: ignore[method-assign,assignment]
        Session.computer_move = easy  # type: ignore[method-assign,assignment]
    else:
        # For comparison: the search in a thread of the app's own process.
        def in_thread(self: Session) -> object:
            is_forced = forced(self)
            t0 = time.perf_counter()
            tm = self.state.to_move
            assert tm is not None
            move = LEVELS["hard"](self.state.view(tm), self.ai_rng(),
                                  None if budget_ms is None else budget_ms / 1000.0)
            count(is_forced, t0)
            return move

        Session.computer_searches = lambda self: False  # type: ignore[method-assign,assignment]
        Session.computer_move = in_thread  # type: ignore[method-assign,assignment]

    settings = storage.Settings()
    settings.animations = False
    app = DominoApp(settings=settings, seed=seed, autosave=False)
    lags: list[float] = []
    interval = 0.010
    async with app.run_test(size=(100, 32)) as pilot:
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            if started[0]:
                lags.append(max(0.0, (now - last[0] - interval) * 1000.0))
            last[0] = now

        app.set_interval(interval, tick)
        app.start_match(variant, [Seat("North", "computer", "hard"),
                                  Seat("South", "computer", "hard")])
        deadline = time.perf_counter() + 600
        while searched[0] < moves and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
            name = type(app.screen).__name__
            if name in ("RoundSummary", "MatchOverScreen"):
                await pilot.press("enter")
    worker.shutdown()
    return {
        "variant": variant,
        "mode": mode,
        "hard_moves": searched[0],
        "think_ms_median": round(statistics.median(think_ms), 1) if think_ms else 0.0,
        "ticks": len(lags),
        "lag_ms": {
            "p50": round(percentile(lags, 0.50), 2),
            "p99": round(percentile(lags, 0.99), 2),
            "max": round(max(lags, default=0.0), 2),
        },
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", choices=("classic", "spider", "triominos"), default="classic")
    p.add_argument("--moves", type=int, default=20, help="hard moves to measure (default 20)")
    p.add_argument("--mode", choices=("process", "thread", "baseline"), default="process",
                   help="where the search runs (baseline: no search, the easy player)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--budget-ms", type=float, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    r = asyncio.run(measure(args.variant, args.moves, args.mode, args.seed, args.budget_ms))
    lag = r["lag_ms"]
    assert isinstance(lag, dict)
    print(f"{r['variant']}, search in a {r['mode']}: {r['hard_moves']} hard moves "
          f"(median {r['think_ms_median']} ms of thought), {r['ticks']} ticks; "
          f"event-loop lag p50 {lag['p50']} ms, p99 {lag['p99']} ms, max {lag['max']} ms")
    if args.json:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
