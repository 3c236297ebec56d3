"""The lobby's community over real ssh: the leaderboard screen at 80x24, a seek posted and
taken, a whole rated match and its rematch with the seats swapped."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.ssh import playing
from tests.ssh.conftest import Terminal, eventually
from tests.ssh.playing import SshPlayer
from tests.ssh.test_accounts import come, new_key
from tests.ssh.test_leaderboard_cli import DAY
from tui_domino.community import accounts, glicko2, ratings
from tui_domino.ssh.server import GameServer


@pytest.fixture
async def open_server(make_server: Callable[..., Any]) -> GameServer:
    # a match of one round: its end comes within a test's time
    return await make_server(accounts=True, duel_target=1)


def rate(server: GameServer, name: str, rating: float, rd: float, games: int) -> None:
    """``name``'s account with a rating of classic as many matches would leave it."""
    store = server.store
    assert store is not None
    signed = accounts.sign_in(store, name, f"SHA256:{name}")
    assert isinstance(signed, accounts.Member)
    store.db.execute("INSERT INTO ratings VALUES (?, 'classic', ?, ?, 0.09, ?, ?, 0, 0, ?)",
                     (signed.account.id, rating, rd, games, games, time.time() - DAY))


async def test_the_leaderboard_screen_at_80x24(open_server: GameServer) -> None:
    for i, (rating, rd, games) in enumerate([(1810.6, 80, 125), (1720.4, 60, 40),
                                             (1950, 150, 5)]):  # the last is provisional
        rate(open_server, f"player{i}", rating, rd, games)
    ann = await come(open_server, "ann", new_key())
    await ann.wait_for("Welcome, ann.", "l Leaders")
    ann.press("l")
    shown = await ann.wait_for("Leaderboard: Classic dominoes", "player0", "v Game")
    lines = [line.replace("│", " ") for line in shown.splitlines()]
    first = next(line for line in lines if "player0" in line).split()
    second = next(line for line in lines if "player1" in line).split()
    assert first[:5] == ["1", "player0", "1811", first[3], "125"] and int(first[3]) >= 80
    assert second[:3] == ["2", "player1", "1720"]
    assert "player2" not in shown  # provisional: not on the board
    assert "RD below 110" in shown
    ann.press("v")  # spider: nobody yet
    await ann.wait_for("Leaderboard: Domino Spider", "Nobody yet")
    ann.press("escape")
    await ann.wait_for("Welcome, ann.")
    await ann.close()


async def test_a_seek_posted_in_the_lobby_is_taken_with_enter(open_server: GameServer) -> None:
    ann = await come(open_server, "ann", new_key())
    bob = await come(open_server, "bob", new_key())
    await ann.wait_for("bob 1500?")
    ann.press("s")
    await ann.wait_for("Seek a duel", "any rating")
    ann.press("f5")
    await ann.wait_for("You seek Classic dominoes · rated")
    await bob.wait_for("ann 1500?", "seeks Classic dominoes · rated")
    bob.press("enter")
    await ann.wait_for("bob took your seek")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await asyncio.gather(ann.close(), bob.close())


async def play_out(players: list[Terminal]) -> None:
    """Plays the match to its end through both terminals (tests/ssh/playing.py)."""
    await playing.play_out([SshPlayer(p) for p in players], timeout=60)


async def test_a_rematch_offer_turns_grey_when_the_other_leaves_the_table(
        open_server: GameServer) -> None:
    """(A rematch both accept: tests/ssh/test_restart.py; the seats: test_seeks.py.)"""
    ann = await come(open_server, "ann", new_key())
    bob = await come(open_server, "bob", new_key())
    await ann.wait_for("bob 1500?")
    ann.press("enter")  # ann challenges bob: bob hosts the first match
    await bob.wait_for("ann challenges you")
    bob.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await play_out([ann, bob])
    # the new ratings in the match-over box, and the offer of a rematch
    await asyncio.gather(*(p.wait_for("(+", "Rematch (r)") for p in (ann, bob)))
    ann.press("r")
    await ann.wait_for("Waiting for bob to accept the rematch")
    await bob.wait_for("ann asks for a rematch: r accepts.")
    # bob leaves the table. A key as the box came up is not its answer (DuelOverScreen's
    # GUARD), so he presses again until it is taken, as a player would.
    for _ in range(10):
        bob.press("enter")
        with contextlib.suppress(AssertionError):
            await bob.wait_until(lambda s: "Match over" not in s, "the box gone", 1.5)
            break
    await bob.wait_for("Welcome, bob.")
    # ann stays at the table: the offer is off, and says why; her keys say where they go
    await ann.wait_for("bob left the table. No rematch.", "⏎ or Esc: back to the lobby")
    assert "r: ask for a rematch" not in ann.text()
    ann.press("r")  # nothing is asked of a player who is gone
    await ann.wait_for("bob left the table. No rematch.")
    ann.press("escape")
    await ann.wait_for("Welcome, ann.")
    store = open_server.store
    assert store is not None
    rows = store.db.execute("SELECT rated FROM results").fetchall()
    assert [r[0] for r in rows] == [1]  # the match rated, once
    # played to its end: both ratings moved by the Glicko-2 figures of that result
    players = {n: accounts.account_named(store, n) for n in ("ann", "bob")}
    assert all(players.values())
    won = {n: ratings.standing(store, players[n].id, "classic").wins  # type: ignore[union-attr]
           for n in players}
    winner = max(won, key=won.__getitem__)
    loser = "bob" if winner == "ann" else "ann"
    newcomer = glicko2.newcomer(store.system)
    score = 1.0 if won[winner] else 0.5  # (a match without a winner is a draw)
    after_w, after_l = glicko2.rate_match(newcomer, newcomer, score, system=store.system)
    for name, after in ((winner, after_w), (loser, after_l)):
        now = ratings.standing(store, players[name].id, "classic")  # type: ignore[union-attr]
        assert now.rating.rating == pytest.approx(after.rating)
    await asyncio.gather(ann.close(), bob.close())


async def test_an_accounts_history_follows_him_to_his_next_visit_and_a_guests_goes(
        open_server: GameServer) -> None:
    key = new_key()
    ann = await come(open_server, "ann", key)
    bob = await come(open_server, "bob")  # a guest
    await ann.wait_for("bob · guest")
    ann.press("enter")
    await bob.wait_for("ann challenges you")
    bob.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await play_out([ann, bob])
    guest_home = next(v.home for v in open_server.visits if v.account is None)
    assert guest_home is not None and guest_home.parent == open_server.homes.visitors
    await asyncio.gather(ann.close(), bob.close())
    await eventually(lambda: not open_server.visits, "both visits over")
    assert not guest_home.exists()
    again = await come(open_server, "ann", key)
    await again.wait_for("Welcome, ann.")
    again.press("p")
    await again.wait_for("New game")
    again.press("h")
    await again.wait_for("1 match (all games)", "bob", "ann", " duel ")
    await again.close()


async def test_a_visitor_watches_a_lobby_duel_mid_match_and_the_players_see_him(
        open_server: GameServer) -> None:
    ann = await come(open_server, "ann", new_key())
    bob = await come(open_server, "bob", new_key())
    await ann.wait_for("bob 1500?")
    ann.press("enter")
    await bob.wait_for("ann challenges you")
    bob.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await eventually(lambda: "Your turn" in ann.text() or "Your turn" in bob.text(),
                     "someone to play")
    first, second = (ann, bob) if "Your turn" in ann.text() else (bob, ann)
    first.press("enter")  # a move before anyone watches
    await second.wait_for("Your turn")
    cat = await come(open_server, "cat")  # a guest may watch
    await cat.wait_for("Live duels", "bob 1500? – ann 1500? · Classic dominoes")
    cat.press("tab", "enter")  # to the list of duels, and watch the first
    shown = await cat.wait_for("Watching bob 1500? – ann 1500?", "to play", "7 tiles")
    assert "6 tiles" in shown  # the first move is on the table: the position at once
    await asyncio.gather(ann.wait_for("1 watching"), bob.wait_for("1 watching"))
    cat.press("t")
    await cat.wait_for("To the other watchers")
    cat.press(*"what a start", "enter")
    await cat.wait_for("cat: what a start")
    second.press("t")
    await second.wait_for("Say something to")
    second.press(*"thanks", "enter")  # a player's chat reaches the watchers
    await cat.wait_for("thanks")
    assert "what a start" not in ann.text() + bob.text()
    cat.press("escape")
    await cat.wait_for("Welcome, cat.")
    await asyncio.gather(ann.wait_until(lambda s: "watching" not in s, "nobody watching"),
                         bob.wait_until(lambda s: "watching" not in s, "nobody watching"))
    await asyncio.gather(ann.close(), bob.close(), cat.close())
