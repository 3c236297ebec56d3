"""The leaderboard: only accounts past the provisional mark and active in the last 30 days,
the highest rating first; as text and as JSON. How a rating reads next to a name."""

from __future__ import annotations

import json

from tests.community.conftest import Clock
from tui_domino.community import glicko2
from tui_domino.community.accounts import Member, sign_in
from tui_domino.community.db import Store
from tui_domino.community.display import change_text, rated_name, rating_text
from tui_domino.community.leaderboard import (
    ACTIVE_DAYS,
    leaderboard,
    leaderboard_json,
    leaderboard_text,
)
from tui_domino.community.rated import END, Rated
from tui_domino.community.ratings import record as record_result
from tui_domino.community.ratings import standing

DAY = glicko2.DAY


def account(store: Store, name: str) -> int:
    member = sign_in(store, name, f"SHA256:{name}")
    assert isinstance(member, Member)
    return member.account.id


def set_rating(store: Store, account: int, variant: str, rating: float, rd: float,
               games: int, rated: float) -> None:
    """An account's rating as the ratings table keeps it (what many matches would leave)."""
    store.db.execute(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, 0.09, ?, ?, 0, 0, ?)",
        (account, variant, rating, rd, games, games, rated))


def test_only_settled_and_active_players_are_listed_highest_first(store: Store,
                                                                  clock: Clock) -> None:
    now = clock.t
    ids = {name: account(store, name) for name in
           ("ann", "bob", "cid", "dan", "eve", "fay", "gus")}
    set_rating(store, ids["ann"], "classic", 1720.4, 60, 40, now - DAY)
    set_rating(store, ids["bob"], "classic", 1810.6, 80, 25, now - 2 * DAY)
    set_rating(store, ids["cid"], "classic", 1900.0, 130, 6, now - DAY)  # provisional
    set_rating(store, ids["dan"], "classic", 2000.0, 50, 99, now - (ACTIVE_DAYS + 1) * DAY)
    set_rating(store, ids["eve"], "classic", 1650.0, 109, 12, now - 20 * DAY)  # 109 grew
    set_rating(store, ids["fay"], "spider", 1999.0, 50, 30, now - DAY)  # another variant
    set_rating(store, ids["gus"], "classic", 1500.0, 70, 10, now - (ACTIVE_DAYS - 1) * DAY)
    board = leaderboard(store, "classic")
    assert [(e.rank, e.name, e.games) for e in board] == [
        (1, "bob", 25), (2, "ann", 40), (3, "gus", 10)]
    assert board[0].rating == 1810.6
    # the deviation as of now: grown for the day and the two days away
    assert board[1].rd == glicko2.age(glicko2.Rating(1720.4, 60, 0.09), DAY).rd > 60
    assert [e.name for e in leaderboard(store, "classic", limit=2)] == ["bob", "ann"]
    assert [e.name for e in leaderboard(store, "spider")] == ["fay"]
    clock.advance(2 * DAY)  # gus's last match is now 31 days old
    assert [e.name for e in leaderboard(store, "classic")] == ["bob", "ann"]


def test_rated_matches_bring_a_player_onto_the_board(store: Store, clock: Clock) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    n = 0
    while not leaderboard(store, "classic"):
        record_result(store, f"m{n}", Rated("classic", (ann, bob), float(n % 2), END))
        clock.advance(DAY / 3 + 1)  # three matches a day at most
        n += 1
    assert standing(store, ann, "classic").rating.rd < 110 <= glicko2.newcomer().rd
    assert {e.name for e in leaderboard(store, "classic")} == {"ann", "bob"}
    assert 4 <= n <= 30


def test_the_leaderboard_as_text_and_json(store: Store, clock: Clock) -> None:
    now = clock.t
    set_rating(store, account(store, "ann"), "classic", 1720.4, 60.2, 40, now)
    set_rating(store, account(store, "b\u202eob"), "classic", 1810.6, 80.7, 125, now)
    board = leaderboard(store, "classic")
    text = leaderboard_text("classic", board)
    assert text.splitlines() == [
        "Leaderboard: classic",
        "",
        "Rank  Name       Rating  RD  Games",
        "   1  b\\u202eob    1811  81    125",
        "   2  ann          1720  60     40",
    ]
    data = leaderboard_json("classic", board, now)
    assert data == {"variant": "classic", "at": "2025-06-15T15:06:40+00:00", "players": [
        {"rank": 1, "name": "b\u202eob", "rating": 1810.6, "rd": 80.7, "games": 125},
        {"rank": 2, "name": "ann", "rating": 1720.4, "rd": 60.2, "games": 40}]}
    assert json.loads(json.dumps(data)) == data
    assert "Nobody yet" in leaderboard_text("spider", [])


def test_a_rating_next_to_a_name() -> None:
    assert rating_text(glicko2.Rating(1511.6, 60, 0.09)) == "1512"
    assert rating_text(glicko2.Rating(1511.6, 110, 0.09)) == "1512?"
    assert rated_name("ann", glicko2.Rating(1511.6, 60, 0.09), before=1500.2) == "ann 1512 (+12)"
    assert change_text(1512.4, 1509.6) == "\u22122"
    assert change_text(1500.6, 1500.4) == "\u22121"  # as the figures shown differ
    assert change_text(1500.1, 1500.4) == "±0"
