"""Statistics of the history, for the player of this terminal (each match's seat ``me``).

Per variant and opponent: matches and rounds won with a 95% interval (Wilson's score
interval; a tie counts half a round), the mean round margin (his points less the other's;
Spider: the other's charge less his), the best round (the largest margin), the longest run
of matches won, and what his choices cost per reviewed round, by month (by day within one
month), drawn as a bar chart. Matches of two people at one terminal have no such player and
are left out.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from tui_domino import i18n
from tui_domino.history import db as hdb
from tui_domino.i18n import _, ngettext

Z95 = 1.959963984540054


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% score interval of a proportion ``wins / n`` (0, 1 for no trials)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Stats:
    variant: str | None
    opponent: str | None
    matches: int = 0
    matches_won: int = 0
    rounds: int = 0
    rounds_won: float = 0.0
    margin_total: int = 0
    best_round: int | None = None
    best_round_at: tuple[int, int] | None = None  # (match id, round number)
    longest_streak: int = 0
    # (period, mean cost per reviewed round, reviewed rounds), oldest first
    cost_by_period: list[tuple[str, float, int]] = field(default_factory=list)

    @property
    def match_rate(self) -> tuple[float, float, float]:
        return (self.matches_won / self.matches if self.matches else 0.0,
                *wilson(self.matches_won, self.matches))

    @property
    def round_rate(self) -> tuple[float, float, float]:
        return (self.rounds_won / self.rounds if self.rounds else 0.0,
                *wilson(self.rounds_won, self.rounds))

    @property
    def mean_margin(self) -> float:
        return self.margin_total / self.rounds if self.rounds else 0.0

    def to_json(self) -> dict[str, Any]:
        m, ml, mh = self.match_rate
        r, rl, rh = self.round_rate
        return {
            "variant": self.variant, "opponent": self.opponent,
            "matches": self.matches, "matches_won": self.matches_won,
            "match_rate": round(m, 4), "match_ci95": [round(ml, 4), round(mh, 4)],
            "rounds": self.rounds, "rounds_won": self.rounds_won,
            "round_rate": round(r, 4), "round_ci95": [round(rl, 4), round(rh, 4)],
            "mean_round_margin": round(self.mean_margin, 2),
            "best_round": self.best_round,
            "best_round_at": list(self.best_round_at) if self.best_round_at else None,
            "longest_winning_streak": self.longest_streak,
            "cost_per_round": [{"period": p, "mean_cost": round(c, 2), "rounds": n}
                               for p, c, n in self.cost_by_period],
        }


def compute(db: sqlite3.Connection, variant: str | None = None,
            opponent: str | None = None) -> Stats:
    st = Stats(variant, opponent)
    summary = hdb.stats_summary(db, variant, opponent)
    streak = 0
    for _match, won in summary["matches"]:
        st.matches += 1
        if won:
            st.matches_won += 1
            streak += 1
            st.longest_streak = max(st.longest_streak, streak)
        else:
            streak = 0
    st.rounds = summary["rounds"]
    st.rounds_won = summary["rounds_won"]
    st.margin_total = summary["margin_total"]
    if summary["best"] is not None:
        margin, mid, number = summary["best"]
        st.best_round, st.best_round_at = int(margin), (int(mid), int(number))
    st.cost_by_period = summary["cost_by_period"]
    return st

BARS = " ▏▎▍▌▋▊▉█"


def bar(value: float, top: float, width: int) -> str:
    """A horizontal bar of ``value`` out of ``top`` in ``width`` cells (eighths of a cell)."""
    if top <= 0 or value <= 0:
        return ""
    eighths = round(min(1.0, value / top) * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + (BARS[rest] if rest else "")


def chart(periods: list[tuple[str, float, int]], width: int = 40, rows: int = 8) -> list[str]:
    """The last ``rows`` periods as lines "2025-03 ████▌ 4.6 (12)": the mean cost per
    reviewed round, and how many rounds were reviewed."""
    shown = periods[-rows:]
    if not shown:
        return []
    top = max(c for _, c, _ in shown)
    # (the period as the history keys it, ISO: "2025-03", "2025-03-04", as the language
    # writes dates)
    return [f"{i18n.period(p):<10} {bar(c, top, width):<{width}} {i18n.decimal(c):>5} ({n})"
            for p, c, n in shown]


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def lines(st: Stats) -> list[str]:
    """The statistics as lines of text (the screen's and the command line's), in the
    language in use: a label, then its figures, the figures aligned in a column."""
    m, ml, mh = st.match_rate
    r, rl, rh = st.round_rate
    # TRANSLATORS: matches (or rounds) won of all those played, the share won, and the 95%
    # confidence interval of that share ("12 of 20: 60% (95% interval 39% to 78%)").
    rate = _("{won} of {n}: {rate} (95% interval {low} to {high})")
    best = "–" if st.best_round is None else f"{st.best_round:+d}"
    if st.best_round_at:
        # TRANSLATORS: the best round's margin ("+35"), then which match and round it was.
        best = _("{best} (match {match}, round {round})").format(
            best=best, match=st.best_round_at[0], round=st.best_round_at[1])
    half = st.rounds_won != int(st.rounds_won)  # a tied round counts half
    rows = [
        # TRANSLATORS: the statistics' labels, left of their figures (which line up after
        # the longest label).
        (_("Matches won"), rate.format(won=st.matches_won, n=st.matches, rate=pct(m),
                                       low=pct(ml), high=pct(mh))),
        (_("Rounds won"), rate.format(won=i18n.decimal(st.rounds_won, digits=1 if half else 0),
                                      n=st.rounds, rate=pct(r), low=pct(rl), high=pct(rh))),
        # TRANSLATORS: the mean margin of a round (his points less the other's).
        (_("Mean margin"),
         # TRANSLATORS: {margin} is a decimal number with its sign ("+3.5").
         _("{margin} points a round").format(margin=i18n.decimal(st.mean_margin, sign=True))),
        (_("Best round"), best),
        # TRANSLATORS: the longest run of matches won one after another.
        (_("Longest run"), ngettext("{n} match won in a row", "{n} matches won in a row",
                                    st.longest_streak).format(n=st.longest_streak)
         if st.longest_streak else "–"),  # (none won: no "0 matches won in a row")
    ]
    width = max(len(label) for label, _figures in rows) + 3
    return [f"{label:<{width}}{figures}" for label, figures in rows]


__all__ = ["Stats", "bar", "chart", "compute", "lines", "wilson"]
