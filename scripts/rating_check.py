"""A check that the ratings mean something: bot accounts of known strengths play rated matches
through the server's own rating code, and the leaderboard should order them by strength.

    python scripts/rating_check.py                   # 1,000 matches of classic, ~15 minutes
    python scripts/rating_check.py --matches 200 --iterations 200 --json

Three accounts per computer level (random, easy, normal, hard: strength 0 to 3; see
tui_domino/ai/levels.py) sign in by key to a fresh community database on a simulated clock.
Each rated match pairs two accounts drawn at random and plays a whole match to the variant's
usual target, headless, as ``tui-domino arena --matches`` plays one (match k deals from the
seed's k-th deal; a random seat for each side). Each seat's view of the end (a duel's
``MatchResult``) is judged by ``community.rated.judge``, the two agreed by ``agree``, and the
match settled by ``community.ratings.record``: the code a server uses. The clock moves
``--minutes`` between matches, so the limit of rated results a day between two accounts
applies as on a server (the matches it leaves unrated are counted).

Printed: the leaderboard, every account's rating and deviation by level, the Spearman rank
correlation between strength and rating (ties in strength take their mean rank), the spread
of the ratings (lowest, highest, standard deviation; the mean of each level), and for each
pair of levels the stronger one's score against the weaker next to the score the two levels'
mean ratings predict (``1 / (1 + 10^(-d/400))``). One process; the hard level searches
``--iterations`` deals a move (500 by default: fast, and still clearly the strongest).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from tui_domino.ai import arena
from tui_domino.ai.search import Budget
from tui_domino.community.accounts import Member, sign_in
from tui_domino.community.db import open_store
from tui_domino.community.leaderboard import leaderboard, leaderboard_text
from tui_domino.community.rated import Rated, agree, judge
from tui_domino.community.ratings import record, standing
from tui_domino.net.records import MatchResult

LEVELS = ("random", "easy", "normal", "hard")  # strength 0, 1, 2, 3
START = 1_750_000_000.0


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def ranks(xs: list[float]) -> list[float]:
    """Each value's rank, 1 for the smallest; tied values share their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (ties take their mean rank)."""
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = math.sqrt(sum((a - mx) ** 2 for a in rx))
    sy = math.sqrt(sum((b - my) ** 2 for b in ry))
    return cov / (sx * sy) if sx and sy else 0.0


def seat_results(variant: str, winner: int | None, names: list[str]) -> list[MatchResult]:
    """What each seat's duel core reports at the end of a match played to its end."""
    return [{"variant": variant, "totals": [0, 0], "winner": winner, "rounds": 1,
             "verified": True, "seat": seat, "names": names} for seat in (0, 1)]


def run(matches: int, seed: int, iterations: int, per_level: int, variant: str,
        minutes: float, db: Path, progress: bool) -> dict[str, object]:
    clock = Clock(START)
    rng = random.Random(f"rating-check/{seed}")
    budget = Budget(iterations=iterations)
    with open_store(db, now=clock) as store:
        accounts: list[tuple[int, str, int]] = []  # (account, name, strength)
        for strength, level in enumerate(LEVELS):
            for i in range(1, per_level + 1):
                name = f"{level}-{i}"
                member = sign_in(store, name, f"bot:{name}")
                assert isinstance(member, Member)
                accounts.append((member.account.id, name, strength))
        scores: dict[tuple[int, int], list[float]] = defaultdict(list)  # (strong, weak)
        unrated: dict[str, int] = defaultdict(int)
        t0 = time.perf_counter()
        for k in range(matches):
            a, b = rng.sample(accounts, 2)
            seat_of_a = rng.randrange(2)
            pairing = arena.Pairing(variant, (LEVELS[a[2]], LEVELS[b[2]]), seed, budget)
            score_a, _margin, _rounds = arena.play_match(pairing, 2 * k + seat_of_a)
            winner = (None if score_a == 0.5
                      else seat_of_a if score_a == 1.0 else 1 - seat_of_a)
            seats = (a, b) if seat_of_a == 0 else (b, a)
            decision = agree([judge(r, rated=True, accounts=(seats[0][0], seats[1][0]),
                                    both_moved=True)
                              for r in seat_results(variant, winner, [s[1] for s in seats])])
            assert isinstance(decision, Rated)
            done = record(store, f"check-{seed}-{k}", decision)
            if not done.rated:
                unrated[done.reason] += 1
            elif a[2] != b[2]:
                strong, weak = (a, b) if a[2] > b[2] else (b, a)
                scores[(strong[2], weak[2])].append(score_a if strong is a else 1 - score_a)
            clock.t += minutes * 60
            if progress and (k + 1) % 100 == 0:
                print(f"{k + 1} matches, {time.perf_counter() - t0:.0f} s", file=sys.stderr,
                      flush=True)
        board = leaderboard(store, variant)
        table = leaderboard_text(variant, board)
        rows = []
        for account, name, strength in accounts:
            s = standing(store, account, variant)
            rows.append({"name": name, "level": LEVELS[strength], "strength": strength,
                         "rating": round(s.rating.rating, 1), "rd": round(s.rating.rd, 1),
                         "games": s.games})
    ratings = [float(r["rating"]) for r in rows]  # type: ignore[arg-type]
    level_mean = {level: statistics.fmean(float(r["rating"]) for r in rows  # type: ignore[arg-type]
                                          if r["level"] == level) for level in LEVELS}
    pairs = []
    for (strong, weak), got in sorted(scores.items()):
        d = level_mean[LEVELS[strong]] - level_mean[LEVELS[weak]]
        pairs.append({"stronger": LEVELS[strong], "weaker": LEVELS[weak], "matches": len(got),
                      "score": round(statistics.fmean(got), 3),
                      "predicted": round(1 / (1 + 10 ** (-d / 400)), 3)})
    return {
        "variant": variant, "matches": matches, "seed": seed, "iterations": iterations,
        "seconds": round(time.perf_counter() - t0, 1), "unrated": dict(unrated),
        "leaderboard": table, "accounts": rows,
        "spearman": round(spearman([float(r["strength"]) for r in rows],  # type: ignore[arg-type]
                                   ratings), 4),
        "spread": {"lowest": round(min(ratings), 1), "highest": round(max(ratings), 1),
                   "range": round(max(ratings) - min(ratings), 1),
                   "stdev": round(statistics.pstdev(ratings), 1),
                   "mean_by_level": {k: round(v, 1) for k, v in level_mean.items()}},
        "levels": pairs,
    }


def report(out: dict[str, object]) -> str:
    lines = [str(out["leaderboard"]), ""]
    lines.append(f"{out['matches']} rated matches of {out['variant']} (seed {out['seed']}, "
                 f"hard at {out['iterations']} iterations a move) in {out['seconds']} s; "
                 f"left unrated: {out['unrated'] or 'none'}")
    lines.append("")
    lines.append("account     level   rating     RD  games")
    for r in sorted(out["accounts"], key=lambda r: -r["rating"]):  # type: ignore[attr-defined]
        lines.append(f"{r['name']:<10}  {r['level']:<6}  {r['rating']:>6.0f}  {r['rd']:>5.0f}"
                     f"  {r['games']:>5}")
    spread = out["spread"]
    assert isinstance(spread, dict)
    lines.append("")
    lines.append(f"Spearman rank correlation, strength and rating: {out['spearman']:.3f}")
    lines.append(f"spread of the ratings: {spread['lowest']:.0f} to {spread['highest']:.0f} "
                 f"(range {spread['range']:.0f}, standard deviation {spread['stdev']:.0f})")
    lines.append("mean rating by level: " + ", ".join(
        f"{k} {v:.0f}" for k, v in spread["mean_by_level"].items()))
    lines.append("")
    lines.append("stronger  weaker  matches  score  predicted by the mean ratings")
    for p in out["levels"]:  # type: ignore[attr-defined]
        lines.append(f"{p['stronger']:<8}  {p['weaker']:<6}  {p['matches']:>7}  "
                     f"{p['score']:>5.3f}  {p['predicted']:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--iterations", type=int, default=500,
                   help="the hard level's search iterations a move (default 500)")
    p.add_argument("--per-level", type=int, default=3, help="accounts per level (default 3)")
    p.add_argument("--variant", choices=arena.VARIANTS, default="classic")
    p.add_argument("--minutes", type=float, default=30.0,
                   help="simulated minutes between two matches (default 30)")
    p.add_argument("--db", type=Path, default=None,
                   help="the community database to fill (default: a temporary one)")
    p.add_argument("--json", action="store_true", help="end with one line of JSON")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rating-check-") as tmp:
        db = args.db or Path(tmp) / "community.sqlite3"
        out = run(args.matches, args.seed, args.iterations, args.per_level, args.variant,
                  args.minutes, db, not args.quiet)
    print(report(out))
    if args.json:
        print(json.dumps({k: v for k, v in out.items() if k != "leaderboard"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
