"""Rated lobby duels end to end, with real asyncssh clients and keys: the challenge box
says the duel is rated; at its end both games report to the lobby, which settles the match
once and tells both the new ratings."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.ssh.conftest import Terminal, eventually
from tests.ssh.test_accounts import come, new_key
from tui_domino.community import accounts, glicko2, ratings
from tui_domino.community.rated import ABANDONED
from tui_domino.ssh.server import GameServer


@pytest.fixture
async def open_server(make_server: Callable[..., Any]) -> GameServer:
    return await make_server(accounts=True)


async def duel(server: GameServer) -> tuple[Terminal, Terminal]:
    """ann and bob, each with his key, in a rated duel (bob challenged ann)."""
    ann, bob = await come(server, "ann", new_key()), await come(server, "bob", new_key())
    await asyncio.gather(ann.wait_for("bob 1500?"), bob.wait_for("ann 1500?"))
    bob.press("enter")
    await ann.wait_for("bob challenges you", "Rated: the result changes both your ratings.")
    ann.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    return ann, bob


def results(server: GameServer) -> list[tuple[int, str]]:
    assert server.store is not None
    return [(int(r[0]), str(r[1])) for r in
            server.store.db.execute("SELECT rated, reason FROM results")]


async def test_a_match_abandoned_before_the_first_moves_is_not_rated(
        open_server: GameServer) -> None:
    ann, bob = await duel(open_server)
    ann.press("escape")  # ann leaves before anyone moved
    await ann.wait_for("Leave the duel?")
    ann.press("y")
    await bob.wait_for("This match changes no rating.")
    await eventually(lambda: results(open_server) == [(0, ABANDONED)], "the match settled")
    store = open_server.store
    assert store is not None
    for name in ("ann", "bob"):
        account = accounts.account_named(store, name)
        assert account is not None
        assert ratings.standing(store, account.id, "classic").games == 0
    await asyncio.gather(ann.close(), bob.close())


async def test_a_forfeit_is_rated_a_loss_by_the_glicko2_figures(open_server: GameServer) -> None:
    ann, bob = await duel(open_server)
    await eventually(lambda: "Your turn" in ann.text() or "Your turn" in bob.text(),
                     "someone to play")
    first, second = (ann, bob) if "Your turn" in ann.text() else (bob, ann)
    first.press("enter")  # the first tile fits the empty table
    # the hint line is drawn after "Your turn": wait for it, or a key can go to a stale one
    shown = await second.wait_until(
        lambda s: "Your turn" in s and "Your hand · 7 tiles" in s
        and ("⏎ play" in s or "press d to draw" in s), "the second player's hint")
    second.press("enter" if "⏎ play" in shown else "d")  # a tile that fits, or a draw
    await second.wait_until(lambda s: "Your hand · 7 tiles" not in s, "the second move")
    ann.press("escape")  # each side has moved: ann leaves, and loses the match
    await ann.wait_for("Leave the duel?")
    ann.press("y")
    store = open_server.store
    assert store is not None
    newcomer = glicko2.newcomer(store.system)
    after_ann, after_bob = glicko2.rate_match(newcomer, newcomer, 0.0, system=store.system)
    gain = round(after_bob.rating) - 1500
    await bob.wait_for(f"ann {after_ann.rating:.0f}? (\u2212{gain}) · "
                       f"bob {after_bob.rating:.0f}? (+{gain})")
    assert results(open_server) == [(1, ratings.RATED)]
    for name, after, losses in (("ann", after_ann, 1), ("bob", after_bob, 0)):
        account = accounts.account_named(store, name)
        assert account is not None
        now = ratings.standing(store, account.id, "classic")
        assert now.rating.rating == pytest.approx(after.rating)
        assert now.rating.rd == pytest.approx(after.rd, abs=1e-6)  # (aged a moment since)
        assert (now.games, now.losses) == (1, losses)
    await asyncio.gather(ann.close(), bob.close())
