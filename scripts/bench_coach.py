"""The coach's and the history's speed: prints its figures (no assertion).

- hint: the coach's ranking of one position (as the worker process runs it), median and p95
  over random positions with a choice, per game;
- review: a whole round's choices of one seat judged one after another (as the review screen
  asks the worker), per game;
- history: a generated database of --matches matches; the History screen from the key to its
  filled table, the Statistics screen from opening to its figures (Pilot, headless, 80x24),
  and the queries alone.

    python scripts/bench_coach.py [--positions 40] [--rounds 5] [--matches 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui_domino import rules  # noqa: E402
from tui_domino.ai import coach  # noqa: E402


def positions(variant: str, n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    while len(out) < n:
        state = rules.new_round(variant, seed=rng.getrandbits(32))
        stop = rng.randint(0, 30)
        while not state.is_over and len(state.history) < stop:
            state.apply(rng.choice(state.legal_moves()))
        if not state.is_over and len(state.legal_moves()) > 1:
            out.append(state.view(state.to_move))
    return out


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def bench_hints(n: int) -> None:
    print(f"hint (one position, default budget: cap {coach.HINT_MS:.0f} ms)")
    for variant in rules.VARIANTS:
        times = []
        for i, view in enumerate(positions(variant, n, 11)):
            t = time.perf_counter()
            coach.rank_json(view, i)
            times.append((time.perf_counter() - t) * 1000)
        print(f"  {variant:<10} median {statistics.median(times):6.0f} ms   "
              f"p95 {pct(times, 0.95):6.0f} ms   ({n} positions)")


def bench_reviews(n: int) -> None:
    print("review (every choice of one seat in a whole round, one after another)")
    for variant in rules.VARIANTS:
        rng = random.Random(5)
        times, counts = [], []
        for _ in range(n):
            state = rules.new_round(variant, seed=rng.getrandbits(32))
            start = state.clone()
            while not state.is_over:
                state.apply(rng.choice(state.legal_moves()))
            todo = coach.choices(start, state.history, (0,))
            t = time.perf_counter()
            coach.review_round(start, state.history, (0,))
            times.append(time.perf_counter() - t)
            counts.append(len(todo))
        print(f"  {variant:<10} median {statistics.median(times):5.1f} s   "
              f"max {max(times):5.1f} s   ({statistics.median(counts):.0f} choices a round, "
              f"{n} rounds)")


async def bench_screens(home: Path) -> tuple[float, float]:
    from textual import events

    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.screens.history import HistoryScreen, StatsScreen
    from tui_domino.ui.storage import Settings

    def drawn(screen_type: type, text: str) -> bool:
        """The screen is up, loaded, and its last frame shows ``text``."""
        if not (isinstance(app.screen, screen_type) and app.screen.loaded):
            return False
        return any(text in strip.text for strip in app.screen._compositor.render_strips())

    app = DominoApp(settings=Settings(computer_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        # from the key reaching the app to the first frame that shows the figures (the
        # Pilot's own press waits for the app to go idle: ~40 ms and more of its own)
        t = time.perf_counter()
        app.post_message(events.Key("h", "h"))
        while not drawn(HistoryScreen, " – "):
            await asyncio.sleep(0.001)
        history = time.perf_counter() - t
        t = time.perf_counter()
        app.show_stats()
        while not drawn(StatsScreen, "%"):
            await asyncio.sleep(0.001)
        stats = time.perf_counter() - t
    return history * 1000, stats * 1000


def bench_history(matches: int) -> None:
    from tui_domino.history import db, stats
    from tui_domino.history.generate import generate

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        os.environ["TUI_DOMINO_HOME"] = tmp
        t = time.perf_counter()
        generate(home / db.DB_NAME, matches)
        made = time.perf_counter() - t
        size = (home / db.DB_NAME).stat().st_size
        print(f"history of {matches} matches (generated in {made:.1f} s, "
              f"{size / 1e6:.0f} MB)")
        con = db.connect()
        t = time.perf_counter()
        db.list_matches(con)
        q_list = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        stats.compute(con)
        q_stats = (time.perf_counter() - t) * 1000
        con.close()
        h, s = asyncio.run(bench_screens(home))
        print(f"  History screen open to its filled table   {h:6.0f} ms   (query {q_list:.0f} ms)")
        print(f"  Statistics screen open to its figures      {s:6.0f} ms   "
              f"(computation {q_stats:.0f} ms, all games)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--matches", type=int, default=10_000)
    args = ap.parse_args()
    print(f"compiled classic search: {coach.classic_search.native_available()}; "
          f"cores: {os.cpu_count()}")
    bench_hints(args.positions)
    bench_reviews(args.rounds)
    bench_history(args.matches)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
