"""Glicko-2: Glickman's worked example, one game by the paper's formulas, time away and the
bounds of the deviation, the provisional mark."""

from __future__ import annotations

import math

import pytest

from tui_domino.community import glicko2
from tui_domino.community.glicko2 import DAY, Game, Rating, System

PAPER = System(tau=0.5)


def test_glickmans_worked_example() -> None:
    """The paper's example (tau 0.5): 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    1700/300, in one rating period: 1464.06 / 151.52 / 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [Game(Rating(1400, 30, 0.06), 1.0), Game(Rating(1550, 100, 0.06), 0.0),
             Game(Rating(1700, 300, 0.06), 0.0)]
    after = glicko2.update(player, games, PAPER)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_the_papers_volatility_step() -> None:
    """Step 5 of the example: v = 1.7785, delta = -0.4834, phi = 1.1513 give sigma' 0.05999."""
    assert glicko2._volatility(0.06, 1.1513, 1.7785, -0.4834, 0.5) == pytest.approx(
        0.05999, abs=1e-5)


def by_the_formulas(me: Rating, other: Rating, score: float, tau: float) -> Rating:
    """One game by the paper's steps, written out again here, the new volatility found by
    bisection (not the module's Illinois iteration) to 1e-12."""
    mu, phi, sigma = (me.rating - 1500) / 173.7178, me.rd / 173.7178, me.volatility
    mu_j, phi_j = (other.rating - 1500) / 173.7178, other.rd / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g**2 * e * (1 - e))
    delta = v * g * (score - e)
    a = math.log(sigma**2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta**2 - phi**2 - v - math.exp(x))
                / (2 * (phi**2 + v + math.exp(x)) ** 2) - (x - a) / tau**2)

    lo, hi = a - 20, a + 20  # f is decreasing: f(lo) > 0 > f(hi)
    while hi - lo > 1e-12:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    new_sigma = math.exp(lo / 2)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * g * (score - e)
    return Rating(173.7178 * new_mu + 1500, 173.7178 * new_phi, new_sigma)


@pytest.mark.parametrize(("a", "b"), [
    (Rating(1500, 500, 0.09), Rating(1500, 500, 0.09)),  # two newcomers
    (Rating(1700, 80, 0.09), Rating(1450, 120, 0.08)),
    (Rating(1300, 60, 0.06), Rating(1900, 200, 0.09)),
])
def test_one_game_moves_the_winner_up_and_the_loser_down_by_the_formulas(
        a: Rating, b: Rating) -> None:
    winner, loser = glicko2.rate_match(a, b, 1.0)
    want_w, want_l = by_the_formulas(a, b, 1.0, 0.75), by_the_formulas(b, a, 0.0, 0.75)
    assert winner.rating > a.rating and loser.rating < b.rating
    for got, want in ((winner, want_w), (loser, want_l)):
        assert got.rating == pytest.approx(want.rating, abs=1e-6)
        assert got.rd == pytest.approx(want.rd, abs=1e-6)
        assert got.volatility == pytest.approx(want.volatility, abs=1e-9)


def test_two_newcomers_move_by_the_same_amount() -> None:
    winner, loser = glicko2.rate_match(glicko2.newcomer(), glicko2.newcomer(), 1.0)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd == loser.rd < 500
    drawn = glicko2.rate_match(glicko2.newcomer(), glicko2.newcomer(), 0.5)
    assert drawn[0].rating == pytest.approx(1500) and drawn[1].rating == pytest.approx(1500)


def test_the_deviation_grows_with_time_away() -> None:
    settled = Rating(1620, 45, 0.09)
    assert glicko2.age(settled, 0) == settled
    month = glicko2.age(settled, 30 * DAY)
    # phi* = sqrt(phi^2 + t sigma^2) with t = 30 days x 0.21436 periods a day
    want = 173.7178 * math.sqrt((45 / 173.7178) ** 2 + 30 * 0.21436 * 0.09**2)
    assert month.rd == pytest.approx(want) and month.rd == pytest.approx(60.0, abs=0.1)
    assert month.rating == 1620 and month.volatility == 0.09
    year = glicko2.age(settled, 365 * DAY)
    assert year.rd > 110 and glicko2.provisional(year)
    assert glicko2.age(settled, 100 * 365 * DAY).rd == 500  # clamped


def test_time_away_is_counted_before_the_match() -> None:
    """A player back after a year moves more than one who played yesterday."""
    me, other = Rating(1600, 50, 0.09), Rating(1600, 50, 0.09)
    fresh, _ = glicko2.rate_match(me, other, 1.0, away_a=DAY, away_b=DAY)
    back, _ = glicko2.rate_match(me, other, 1.0, away_a=365 * DAY, away_b=DAY)
    assert back.rating - 1600 > 2 * (fresh.rating - 1600) > 0
    aged = glicko2.age(me, 365 * DAY)
    assert back == glicko2.update(aged, [Game(glicko2.age(other, DAY), 1.0)])


def test_the_deviation_stays_within_its_bounds() -> None:
    """Each game is a rating period that adds the volatility to the deviation, so a steady
    player's RD settles where the two balance: near 73 at volatility 0.09; a very steady one
    (0.03) would go below 45 and stops there. A period without games at the top leaves RD
    at 500."""
    other = Rating(1500, 45, 0.06)
    for volatility, settles in ((0.09, 73.3), (0.03, 45.0)):
        me = Rating(1500, 500, volatility)
        for i in range(400):
            me = glicko2.update(me, [Game(other, float(i % 2))])
            assert 45 <= me.rd <= 500
        assert me.rd == pytest.approx(settles, abs=0.1)
    assert glicko2.update(Rating(1500, 500, 0.09), []).rd == 500
    assert glicko2.update(Rating(1500, 100, 0.06), []).rd == pytest.approx(
        173.7178 * math.sqrt((100 / 173.7178) ** 2 + 0.06**2))


def test_provisional_while_the_deviation_is_at_least_110() -> None:
    assert glicko2.provisional(glicko2.newcomer())
    assert glicko2.provisional(Rating(1500, 110, 0.09))
    assert not glicko2.provisional(Rating(1500, 109.9, 0.09))
