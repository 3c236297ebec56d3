"""``tui-domino arena``: two computer players against each other, for measuring strength.

Plays ``--games`` rounds of one variant between level A and level B. The deals come from the
seed: games 2k and 2k+1 play the same deal (deal number k) with the seats swapped, so each
side plays every deal from both chairs and the luck of the deal cancels out. A game is one
round, opened by the opening rule. It counts as a win for the side that won the round
(classic and spider) or that scored more points in it (Triominos); a round without a winner is
half a win each. The report gives each side's win rate with a 95% Wilson interval, the mean
points margin per game (Spider: points charged to the other side minus points charged to
it), the Elo difference that the win rate implies, and the time per move (every call of the
player, median and 95th percentile; forced moves are answered at once).

With ``--matches`` a game is a whole match to the variant's usual target (``--target`` to
change it), played as in the game: the players see the match totals, and the winner of a
round leads the next one freely (not in Spider). Games 2k and 2k+1 play match k, the same
deals with the seats swapped. A game counts as a win for the side that won the match (its
margin: the difference of the final totals); the report adds the share of the rounds in
those matches that A won.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NotRequired, TextIO, TypedDict

from tui_domino import rules
from tui_domino.ai import PLAYERS
from tui_domino.ai.search import DEFAULT_ITERATIONS, Budget, BudgetLike
from tui_domino.i18n import _
from tui_domino.rules.options import check_target

VARIANTS = ("classic", "spider", "triominos")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", choices=VARIANTS, required=True)
    parser.add_argument("--a", choices=tuple(PLAYERS), required=True,
                        help=_("level of side A"))
    parser.add_argument("--b", choices=tuple(PLAYERS), required=True,
                        help=_("level of side B"))
    parser.add_argument("--games", type=int, default=100,
                        help=_("rounds (with --matches: matches) to play (default 100)"))
    parser.add_argument("--seed", type=int, default=1,
                        help=_("seed of the deals (default 1)"))
    parser.add_argument("--budget-ms", type=float, default=None,
                        help=_("cap on the hard player's time per move, in milliseconds"))
    parser.add_argument("--iterations", type=int, default=None,
                        help=_("the hard player's iterations per move (default: per variant)"))
    parser.add_argument("--matches", action="store_true",
                        help=_("each game is a whole match (the winner of a round leads the "
                               "next)"))
    parser.add_argument("--target", type=int, default=None,
                        help=_("with --matches: the match target (default: the variant's "
                               "usual)"))
    parser.add_argument("--jobs", type=int, default=1,
                        help=_("games played in this many processes at once (the same "
                               "results; the times per move are those of a machine that busy)"))
    parser.add_argument("--json", action="store_true", help=_("end with one line of JSON"))
    parser.add_argument("--quiet", action="store_true", help=_("no line per game"))


def deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"tui-domino/arena/{seed}/{deal}").getrandbits(63)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratio_interval(clusters: list[list[float]], z: float = 1.96) -> tuple[float, float]:
    """A 95% interval of sum(wins) / sum(trials) from clusters [trials, wins] that are
    independent of each other though the trials within one are not (the delta method)."""
    n = sum(c[0] for c in clusters)
    k = len(clusters)
    if n == 0 or k < 2:
        return (0.0, 1.0)
    r = sum(c[1] for c in clusters) / n
    var = k / (k - 1) * sum((w - r * t) ** 2 for t, w in clusters) / (n * n)
    half = z * math.sqrt(var)
    return (max(0.0, r - half), min(1.0, r + half))


def elo(p: float, n: int) -> float:
    """The Elo difference implied by score ``p`` (clamped to half a game from 0 or 1)."""
    eps = 0.5 / max(1, n)
    p = min(max(p, eps), 1 - eps)
    return -400.0 * math.log10(1 / p - 1)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    k = (len(s) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def margin_of(state: rules.RoundState, side_seat: int) -> int:
    pts = state.points
    if state.variant == "spider":
        return pts[1 - side_seat] - pts[side_seat]
    return pts[side_seat] - pts[1 - side_seat]


@dataclass
class Pairing:
    """Two levels of one variant in the arena, and the time each side took per move."""

    variant: str
    levels: tuple[str, str]  # side A, side B
    seed: int
    budget: BudgetLike = None
    # Per side (A, B): every move's time, and the time of the moves with a choice, in ms.
    times: Times = field(default_factory=lambda: ([], []))
    choice_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    def seats(self, seat_of_a: int, key: str) -> tuple[list[str], list[random.Random]]:
        """The level in each seat, and each seat's generator (seat p of game pair ``key``
        gets the same one in both games of the pair)."""
        seat_level = [self.levels[1], self.levels[1]]
        seat_level[seat_of_a] = self.levels[0]
        rngs = [random.Random(f"tui-domino/arena/{self.seed}/{key}/{p}") for p in (0, 1)]
        return seat_level, rngs

    def play_round(self, state: rules.RoundState, seat_of_a: int,
                   seats: tuple[list[str], list[random.Random]],
                   match: rules.Match | None = None) -> None:
        """Plays ``state`` to its end with ``seats`` (from :meth:`seats`); with ``match``
        (whose current round ``state`` is) the players' views carry its totals."""
        seat_level, rngs = seats
        clock = time.perf_counter
        while not state.is_over:
            p = state.to_move
            assert p is not None
            view = state.view(p) if match is None else match.player_view(p)
            t0 = clock()
            move = PLAYERS[seat_level[p]](view, rngs[p], self.budget)
            dt = (clock() - t0) * 1000.0
            side = 0 if p == seat_of_a else 1
            self.times[side].append(dt)
            if len(state.legal_moves()) > 1:
                self.choice_times[side].append(dt)
            state.apply(move)


def _round_score(state: rules.RoundState, seat_of_a: int) -> tuple[float, int]:
    """A's score in a finished round (1, 0.5 or 0) and A's points margin in it."""
    margin = margin_of(state, seat_of_a)
    if state.variant == "triominos":
        return (1.0 if margin > 0 else 0.0 if margin < 0 else 0.5), margin
    if state.winner is None:
        return 0.5, margin
    return (1.0 if state.winner == seat_of_a else 0.0), margin


def play_game(pairing: Pairing, game: int) -> tuple[float, int, bool]:
    """Plays game ``game``, one round (games 2k and 2k+1 play deal k, seats swapped: A sits
    in seat ``game % 2``); returns (A's score: 1, 0.5 or 0; A's points margin; whether A
    opened the round, by the opening rule)."""
    state = rules.new_round(pairing.variant, seed=deal_seed(pairing.seed, game // 2))
    seat_of_a = game % 2
    a_leads = state.to_move == seat_of_a
    pairing.play_round(state, seat_of_a, pairing.seats(seat_of_a, str(game // 2)))
    score, margin = _round_score(state, seat_of_a)
    return score, margin, a_leads


MAX_ROUNDS = 500  # a match that no round decides (every one tied) stops here, a tie


def play_match(pairing: Pairing, game: int,
               target: int | None = None) -> tuple[float, int, list[float]]:
    """Plays game ``game`` as one match (games 2k and 2k+1 play match k: the same deals,
    seats swapped); returns (A's score: 1 or 0, A's margin in the match totals, A's score in
    each round). Spider's totals are points charged, so its margin is the other side's minus
    A's."""
    variant = pairing.variant
    match = rules.new_match(variant, target=target, seed=deal_seed(pairing.seed, game // 2))
    seat_of_a = game % 2
    seats = pairing.seats(seat_of_a, f"match/{game // 2}")  # one generator per seat a match
    rounds: list[float] = []
    while len(rounds) < MAX_ROUNDS:
        pairing.play_round(match.round, seat_of_a, seats, match)
        rounds.append(_round_score(match.round, seat_of_a)[0])
        if match.is_over:
            break
        match.next_round()
    t = match.totals
    margin = t[seat_of_a] - t[1 - seat_of_a]
    if variant == "spider":
        margin = -margin
    if match.winner is None:  # only after MAX_ROUNDS rounds without a decision
        return 0.5, margin, rounds
    return (1.0 if match.winner == seat_of_a else 0.0), margin, rounds


class MoveTimes(TypedDict):
    median: float
    p95: float


class ChoiceTimes(MoveTimes):
    count: int


class SideReport(TypedDict):
    level: str
    win_rate: float
    ci95: list[float]
    mean_margin: float
    move_ms: MoveTimes


class LeadReport(TypedDict):
    games: int
    a_win_rate: float | None


class RoundsReport(TypedDict):
    played: int
    a_win_rate: float
    ci95: list[float]


class Report(TypedDict):
    """What ``run`` measured; ``--json`` prints it less ``choice_ms`` and ``lead``."""

    variant: str
    games: int
    a: SideReport
    b: SideReport
    elo_a_minus_b: float
    choice_ms: dict[str, ChoiceTimes]  # per side: the moves with more than one legal move
    target: NotRequired[int]  # matches
    rounds: NotRequired[RoundsReport]  # matches
    lead: NotRequired[dict[str, LeadReport]]  # rounds: A's score when it led and followed


# One game's result: its number, A's score (1, 0.5 or 0), A's points margin, and whether A
# opened the round (a round) or A's score in each round (a match).
Record = tuple[int, float, int, bool | list[float]]
# What a process of ``--jobs`` is given: variant, levels, seed, budget, matches, target.
Spec = tuple[str, tuple[str, str], int, BudgetLike, bool, int | None]
Times = tuple[list[float], list[float]]


def play(pairing: Pairing, game: int, matches: bool, target: int | None) -> Record:
    if matches:
        s, m, rs = play_match(pairing, game, target)
        return game, s, m, rs
    s, m, led = play_game(pairing, game)
    return game, s, m, led


def play_chunk(spec: Spec, games: list[int]) -> tuple[list[Record], Times, Times]:
    """Plays ``games`` in a process of ``--jobs``; returns their records and each side's
    times per move (all moves, and the moves with a choice)."""
    variant, levels, seed, budget, matches, target = spec
    pairing = Pairing(variant, levels, seed, budget)
    records = [play(pairing, g, matches, target) for g in games]
    return records, pairing.times, pairing.choice_times


def records(pairing: Pairing, games: int, matches: bool, target: int | None,
            jobs: int) -> Iterator[Record]:
    """Every game's record in the order of the games, played here or in ``jobs`` processes
    (each game depends only on the seed and its number, so the records are the same)."""
    if jobs <= 1:
        for g in range(games):
            yield play(pairing, g, matches, target)
        return
    # lazy: start-up (the parser loads this module for every command; the pool only for --jobs)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    size = 2 if matches else 10  # whole deals (pairs of games) in each chunk
    chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
    spec: Spec = (pairing.variant, pairing.levels, pairing.seed, pairing.budget, matches, target)
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for recs, times, choice_times in pool.map(play_chunk, [spec] * len(chunks), chunks):
            for side in (0, 1):
                pairing.times[side].extend(times[side])
                pairing.choice_times[side].extend(choice_times[side])
            yield from recs


def run(variant: str, a: str, b: str, games: int, seed: int, budget: BudgetLike,
        quiet: bool = True, out: TextIO | None = None, matches: bool = False,
        target: int | None = None, jobs: int = 1) -> Report:
    out = out or sys.stdout
    pairing = Pairing(variant, (a, b), seed, budget)
    times, choices = pairing.times, pairing.choice_times
    score = 0.0
    margins: list[int] = []
    per_deal: dict[int, list[float]] = {}  # deal k: [rounds played, rounds A won]
    lead = {True: [0, 0.0], False: [0, 0.0]}  # A led / followed: [games, A's score]
    for g, s, m, led_or_rounds in records(pairing, games, matches, target, jobs):
        if isinstance(led_or_rounds, list):  # a match: A's score in each round
            rs = led_or_rounds
            d = per_deal.setdefault(g // 2, [0, 0.0])
            d[0] += len(rs)
            d[1] += sum(rs)
            extra = f" ({len(rs)} rounds, A won {sum(rs):g})"
        else:
            lead[led_or_rounds][0] += 1
            lead[led_or_rounds][1] += s
            extra = ""
        score += s
        margins.append(m)
        if not quiet:
            print(f"{'match' if matches else 'game'} {g + 1:>4}: A ({a}) in seat {g % 2}: "
                  f"{'win' if s == 1 else 'loss' if s == 0 else 'tie'}, margin {m:+d}{extra}; "
                  f"A so far {score / (g + 1):.3f}", file=out, flush=True)
    n = max(1, games)
    pa = score / n
    lo, hi = wilson(score, games)
    mean_margin = statistics.fmean(margins) if margins else 0.0

    def side(level: str, rate: float, ci: tuple[float, float], mm: float,
             ts: list[float]) -> SideReport:
        return {
            "level": level,
            "win_rate": round(rate, 4),
            "ci95": [round(ci[0], 4), round(ci[1], 4)],
            "mean_margin": round(mm, 2),
            "move_ms": {"median": round(percentile(ts, 0.5), 2),
                        "p95": round(percentile(ts, 0.95), 2)},
        }

    choice_ms: dict[str, ChoiceTimes] = {
        key: {"median": round(percentile(ts, 0.5), 2), "p95": round(percentile(ts, 0.95), 2),
              "count": len(ts)}
        for key, ts in (("a", choices[0]), ("b", choices[1]))
    }
    report: Report = {
        "variant": variant,
        "games": games,
        "a": side(a, pa, (lo, hi), mean_margin, times[0]),
        "b": side(b, 1 - pa, (1 - hi, 1 - lo), -mean_margin, times[1]),
        "elo_a_minus_b": round(elo(pa, games), 1),
        "choice_ms": choice_ms,
    }
    if matches:
        # The rounds of a match depend on each other (the winner leads the next one), and
        # the two matches of a deal share its deals: the interval treats each deal's pair of
        # matches as one sample.
        clusters = list(per_deal.values())
        played = int(sum(c[0] for c in clusters))
        rlo, rhi = ratio_interval(clusters)
        report["target"] = check_target(variant, target)
        report["rounds"] = {"played": played,
                            "a_win_rate": round(sum(c[1] for c in clusters) / max(1, played), 4),
                            "ci95": [round(rlo, 4), round(rhi, 4)]}
    else:
        # Not in the JSON line: A's score in the games it led (by the opening rule) and in
        # those it followed.
        report["lead"] = {k: {"games": int(n), "a_win_rate": round(w / n, 4) if n else None}
                          for k, (n, w) in (("led", lead[True]), ("followed", lead[False]))}
    return report


def main(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("arena: --games must be at least 1", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("arena: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.budget_ms is not None and not 0 < args.budget_ms < float("inf"):
        print("arena: --budget-ms must be a number of milliseconds above 0", file=sys.stderr)
        return 2
    if args.iterations is not None and args.iterations < 1:
        print("arena: --iterations must be at least 1", file=sys.stderr)
        return 2
    if args.target is not None:
        if not args.matches:
            print("arena: --target needs --matches", file=sys.stderr)
            return 2
        try:
            check_target(args.variant, args.target)
        except ValueError as e:
            print(f"arena: {e}", file=sys.stderr)
            return 2
    budget = None
    if args.budget_ms is not None or args.iterations is not None:
        budget = Budget(iterations=args.iterations, ms=args.budget_ms)
        if args.iterations is None:
            budget = Budget(iterations=DEFAULT_ITERATIONS[args.variant], ms=args.budget_ms)
    t0 = time.perf_counter()
    r = run(args.variant, args.a, args.b, args.games, args.seed, budget, quiet=args.quiet,
            matches=args.matches, target=args.target, jobs=args.jobs)
    elapsed = time.perf_counter() - t0
    unit = f"matches to {r['target']}" if args.matches else "games"
    print(f"arena: {args.variant}, {args.games} {unit}, seed {args.seed}, "
          f"{elapsed:.1f} s")
    for key in ("a", "b"):
        s = r[key]
        print(f"  {key.upper()} {s['level']:<7} win rate {s['win_rate']:.3f} "
              f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]  mean margin {s['mean_margin']:+.2f}  "
              f"move ms median {s['move_ms']['median']:.1f} p95 {s['move_ms']['p95']:.1f}")
    for key, c in r["choice_ms"].items():
        print(f"  {key.upper()} moves with a choice (more than one legal move): {c['count']}, "
              f"median {c['median']:.1f} ms, p95 {c['p95']:.1f} ms")
    print(f"  Elo A - B: {r['elo_a_minus_b']:+.1f}")
    lead = r.get("lead")
    if lead is not None:
        parts = [f"{k} {v['games']} games, A won {v['a_win_rate']:.3f}"
                 for k, v in lead.items() if v["games"]]
        print(f"  A led (opening rule): {'; '.join(parts)}")
    if args.matches:
        rr = r["rounds"]
        print(f"  rounds in the matches: {rr['played']}, A won {rr['a_win_rate']:.3f} "
              f"[{rr['ci95'][0]:.3f}, {rr['ci95'][1]:.3f}] (ties half)")
    if args.json:  # without the times of the moves with a choice and the lead
        print(json.dumps({k: v for k, v in r.items() if k not in ("choice_ms", "lead")}))
    return 0
