"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", glicko.net/glicko/
glicko2.pdf), updated after every rated match: each match is a rating period of one game.

A player's rating is three numbers: the rating ``r`` (the strength, 1500 a newcomer), its
deviation ``RD`` (how unsure the rating is: a 95% interval is ``r ± 2 RD``) and the
volatility ``σ`` (how erratic the player's results are). ``update`` is the paper's steps 2 to
8 for one player and a rating period of any number of games, so it reproduces the paper's
worked example; ``rate_match`` applies it to both players of one match, each against the
other's rating before the match.

Time away: a rating period is a game, not a stretch of the calendar, so the deviation could
never grow for a player who stops playing. ``age`` grows it as the paper does for a period
without games, ``φ* = √(φ² + t σ²)``, with ``t = days away × PERIODS_PER_DAY`` periods:
lichess's figure, 0.21436 periods a day. With σ = 0.09 a settled RD of 45 becomes about 60
after 30 days away and about 146 after a year, so a player back after a long absence is
provisional again and his first results move him further. ``rate_match`` ages both players
to the moment of the match before the update.

The constants are lichess's (``System``): a newcomer starts at 1500 with RD 500 and
volatility 0.09, τ = 0.75 (how fast the volatility may change), and RD stays within 45 and
500 after every step. A rating is provisional (shown with ``?``) while RD ≥ 110. As every
match is a period of its own, the deviation takes on the volatility at each one (the paper's
step 6) and loses what the result teaches: a steady player's RD settles near 73 (volatility
0.09; near 60 at 0.06), so each result still moves him by about 15 points, and the lower
bound of 45 binds only for very steady players.

Pure functions over frozen values; no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

# The Glicko-2 scale: r = SCALE μ + 1500, RD = SCALE φ (the paper's 173.7178 = 400 / ln 10).
SCALE = 173.7178
CENTRE = 1500.0
# The convergence tolerance of the volatility's iteration (the paper's ε).
EPSILON = 1e-6
# How many rating periods a day away counts as (lichess's figure).
PERIODS_PER_DAY = 0.21436
DAY = 86_400.0


@dataclass(frozen=True)
class System:
    """The rating system's constants."""

    rating: float = 1500.0  # a newcomer's rating
    rd: float = 500.0  # a newcomer's deviation
    volatility: float = 0.09  # a newcomer's volatility
    tau: float = 0.75  # the paper's τ: how much the volatility may change in a period
    min_rd: float = 45.0
    max_rd: float = 500.0
    provisional_rd: float = 110.0  # provisional while RD is at least this
    periods_per_day: float = PERIODS_PER_DAY


LICHESS = System()
DEFAULT = LICHESS


@dataclass(frozen=True)
class Rating:
    """A player's rating on the Glicko scale (the one shown): r, RD and σ."""

    rating: float
    rd: float
    volatility: float


@dataclass(frozen=True)
class Game:
    """One game of a rating period, from the rated player's side: the opponent's rating
    before the period, and the player's score (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def newcomer(system: System = DEFAULT) -> Rating:
    return Rating(system.rating, system.rd, system.volatility)


def provisional(r: Rating, system: System = DEFAULT) -> bool:
    """Whether the rating is still provisional (RD at or above the mark): shown with ``?``."""
    return r.rd >= system.provisional_rd


def clamp_rd(rd: float, system: System = DEFAULT) -> float:
    return min(max(rd, system.min_rd), system.max_rd)


def age(r: Rating, seconds: float, system: System = DEFAULT) -> Rating:
    """``r`` after ``seconds`` without a rated game: its deviation grows by the volatility
    over ``days × periods_per_day`` rating periods (clamped); the rating stays."""
    if seconds <= 0:
        return r
    periods = seconds / DAY * system.periods_per_day
    phi = r.rd / SCALE
    grown = math.sqrt(phi * phi + periods * r.volatility * r.volatility) * SCALE
    return replace(r, rd=clamp_rd(grown, system))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """The paper's step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Sequence[Game], system: System = DEFAULT) -> Rating:
    """The player's rating after one rating period with ``games`` (the paper's steps 2 to
    8; no games: only the deviation grows, by one period's volatility). RD is clamped to
    the system's bounds."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return replace(player, rd=clamp_rd(math.sqrt(phi * phi + sigma * sigma) * SCALE,
                                           system))
    terms: list[tuple[float, float, float]] = []  # g(φj), E(μ, μj, φj), sj
    for game in games:
        g_j = _g(game.opponent.rd / SCALE)
        e_j = _expected(mu, (game.opponent.rating - CENTRE) / SCALE, g_j)
        terms.append((g_j, e_j, game.score))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _s in terms)
    improvement = sum(g * (s - e) for g, e, s in terms)
    delta = v * improvement
    new_sigma = _volatility(sigma, phi, v, delta, system.tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + CENTRE, clamp_rd(new_phi * SCALE, system), new_sigma)


def rate_match(a: Rating, b: Rating, score_a: float, away_a: float = 0.0,
               away_b: float = 0.0, system: System = DEFAULT) -> tuple[Rating, Rating]:
    """Both players' ratings after one match that ``a`` scored ``score_a`` in (1, 0.5 or 0);
    ``away_a``, ``away_b``: seconds since each one's last rated match (``age``). Each is
    rated against the other's aged rating before the match."""
    a0, b0 = age(a, away_a, system), age(b, away_b, system)
    return (update(a0, [Game(b0, score_a)], system),
            update(b0, [Game(a0, 1.0 - score_a)], system))


__all__ = ["DAY", "DEFAULT", "LICHESS", "PERIODS_PER_DAY", "Game", "Rating", "System", "age",
           "clamp_rd", "newcomer", "provisional", "rate_match", "update"]
