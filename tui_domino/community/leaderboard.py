"""The leaderboard of a variant: rank, name, rating, RD and rated games of every account past
the provisional mark (RD below 110, as of now: the deviation grows while one is away) that
played a rated match of the variant in the last ``ACTIVE_DAYS`` days; the highest rating
first. As text (a table, for the server's owner: ``tui-domino serve --leaderboard``) or as
JSON (to publish)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len

from tui_domino.community import glicko2
from tui_domino.community.db import Store
from tui_domino.i18n import _, ngettext
from tui_domino.text import one_line

ACTIVE_DAYS = 30
NAME_WIDTH = 16


@dataclass(frozen=True)
class Entry:
    rank: int
    account: int
    name: str
    rating: float
    rd: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "rating": round(self.rating, 1),
                "rd": round(self.rd, 1), "games": self.games}


def leaderboard(store: Store, variant: str, limit: int | None = None) -> list[Entry]:
    """The variant's leaderboard now (at most ``limit`` places)."""
    now = store.now()
    system = store.system
    rows = store.db.execute(
        """SELECT r.account, a.name, r.rating, r.rd, r.volatility, r.games, r.rated
           FROM ratings r JOIN accounts a ON a.id = r.account
           WHERE r.variant = ? AND r.rated >= ? AND r.rd < ?""",
        (variant, now - ACTIVE_DAYS * glicko2.DAY, system.provisional_rd))
    found: list[tuple[float, float, str, int, int]] = []
    for row in rows:
        aged = glicko2.age(glicko2.Rating(row["rating"], row["rd"], row["volatility"]),
                           now - row["rated"], system)
        if not glicko2.provisional(aged, system):
            found.append((aged.rating, aged.rd, str(row["name"]), int(row["account"]),
                          int(row["games"])))
    found.sort(key=lambda f: (-f[0], f[1], f[2], f[3]))
    if limit is not None:
        found = found[:limit]
    return [Entry(i, account, name, rating, rd, games)
            for i, (rating, rd, name, account, games) in enumerate(found, 1)]


def leaderboard_json(variant: str, entries: list[Entry], at: float) -> dict[str, Any]:
    """The leaderboard to publish: the variant, when it was taken (UTC) and its places."""
    when = datetime.datetime.fromtimestamp(at, datetime.UTC)
    return {"variant": variant, "at": when.isoformat(timespec="seconds"),
            "players": [e.to_json() for e in entries]}


def _pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - cell_len(text))
    return gap + text if right else text + gap


def empty_note(rd: float, days: int) -> str:
    """Why a leaderboard is empty (``rd``: the provisional mark, ``days``: how recent a
    rated match keeps a player on it)."""
    # TRANSLATORS: {rd}: 110; {days}: 30
    return ngettext(
        "Nobody yet: a player appears once his rating is past the provisional mark (RD "
        "below {rd}), while he has played a rated match in the last {days} day.",
        "Nobody yet: a player appears once his rating is past the provisional mark (RD "
        "below {rd}), while he has played a rated match in the last {days} days.",
        days).format(rd=f"{rd:g}", days=days)


def leaderboard_text(variant: str, entries: list[Entry]) -> str:
    """The leaderboard as a table of plain text, a title above it."""
    # TRANSLATORS: {variant}: the variant's name as typed (classic, spider, triominos)
    title = _("Leaderboard: {variant}").format(variant=variant)
    if not entries:
        # TRANSLATORS: {rd}: 110; {days}: 30
        return title + "\n" + empty_note(glicko2.DEFAULT.provisional_rd, ACTIVE_DAYS)
    heads = [_("Rank"), _("Name"), _("Rating"), _("RD"), _("Games")]
    cells = [[str(e.rank), one_line(e.name, NAME_WIDTH), f"{e.rating:.0f}", f"{e.rd:.0f}",
              str(e.games)] for e in entries]
    widths = [max(cell_len(row[i]) for row in [heads, *cells]) for i in range(len(heads))]
    lines = [title, ""]
    for row in [heads, *cells]:
        lines.append("  ".join(_pad(text, widths[i], right=i != 1)
                               for i, text in enumerate(row)).rstrip())
    return "\n".join(lines)


__all__ = ["ACTIVE_DAYS", "Entry", "empty_note", "leaderboard", "leaderboard_json",
           "leaderboard_text"]
