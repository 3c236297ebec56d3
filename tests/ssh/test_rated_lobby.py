"""Rated lobby duels on the lobby's side: a challenge between two accounts is rated; the
games' reports at the duel's end are read as hostile input; the match is settled once, from
both reports or from one and the other side's leaving, and both are told the new ratings."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.ssh.test_duel import Game, until
from tui_domino.community import accounts, glicko2, ratings
from tui_domino.community.db import Store, db_path, open_store
from tui_domino.community.rated import ABANDONED, END, FORFEIT, UNFINISHED, NotRated, Rated
from tui_domino.ssh.lobby import Lobby, Member
from tui_domino.ssh.rated_report import decision_json


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = open_store(db_path(tmp_path), now=lambda: 1_000_000.0)
    yield s
    s.close()


async def meet(lobby: Lobby, store: Store, names: tuple[str, str] = ("ann", "bob"),
               guest: str | None = None) -> tuple[Member, Game, Member, Game, dict[str, Any]]:
    """Two visitors (accounts, but ``guest``) in the lobby; the second challenges, the
    first accepts; returns the first's ``host`` message."""
    lobby.store = store
    games = {}
    for name in names:
        signed = accounts.sign_in(store, name, None if name == guest else f"SHA256:{name}")
        account = signed.account.id if isinstance(signed, accounts.Member) else None
        ours, theirs = socket.socketpair()
        games[name] = (await lobby.join(name, ours, account), Game(theirs))
    (ann, ann_game), (bob, bob_game) = games[names[0]], games[names[1]]
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
    challenged = await ann_game.receive("challenged")
    assert challenged["rated"] is (guest is None)
    await ann_game.send({"t": "answer", "to": bob.id, "accept": True})
    host = await ann_game.receive("host")
    await ann_game.send({"t": "hosting", "duel": host["duel"], "port": 40404})
    join = await bob_game.receive("join")
    assert join["match"] == host["match"] and join["rated"] == host["rated"]
    for game in (ann_game, bob_game):
        await game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await until(lambda: ann.playing and bob.playing)
    return ann, ann_game, bob, bob_game, host


def report(host: dict[str, Any], decision: Rated | NotRated) -> dict[str, Any]:
    return {"t": "result", "match": host["match"], "decision": decision_json(decision)}


async def test_a_rated_lobby_duel_changes_both_ratings_by_the_glicko2_figures(
        store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    assert host["rated"] is True and host["accounts"] == [ann.account, bob.account]
    accounts_ = (ann.account, bob.account)
    assert accounts_[0] is not None and accounts_[1] is not None
    won = Rated("classic", (accounts_[0], accounts_[1]), 1.0, END)  # ann (the host) won
    await ann_game.send(report(host, won))
    await bob_game.send(report(host, won))
    told = [await g.receive("rated") for g in (ann_game, bob_game)]
    newcomer = glicko2.newcomer(store.system)
    after_ann, after_bob = glicko2.rate_match(newcomer, newcomer, 1.0, system=store.system)
    assert ratings.standing(store, accounts_[0], "classic").rating == after_ann
    assert ratings.standing(store, accounts_[1], "classic").rating == after_bob
    gain = round(after_ann.rating) - 1500
    assert told[0] == told[1]
    assert told[0]["rated"] is True
    assert told[0]["text"] == (f"ann {after_ann.rating:.0f}? (+{gain}) · "
                               f"bob {after_bob.rating:.0f}? (\u2212{gain})")
    assert ann.ratings["classic"] == f"{after_ann.rating:.0f}?"
    # settled once: a report sent again changes nothing
    await ann_game.send(report(host, won))
    assert ratings.standing(store, accounts_[0], "classic").games == 1
    for m in (ann, bob):
        lobby.leave(m)


async def test_a_forfeit_is_rated_a_loss_from_one_report_and_the_other_leaving(
        store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    assert ann.account is not None and bob.account is not None
    # bob left the duel after each side moved: ann's game has his forfeit; his game is gone
    lobby.leave(bob)
    assert ratings.settled(store, host["match"]) is None  # ann's report is awaited
    await ann_game.send(report(host, Rated("classic", (ann.account, bob.account), 1.0,
                                           FORFEIT)))
    told = await ann_game.receive("rated")
    assert told["rated"] is True
    settled = ratings.settled(store, host["match"])
    assert settled is not None and settled.rated
    assert ratings.standing(store, bob.account, "classic").losses == 1
    assert ratings.standing(store, ann.account, "classic").wins == 1
    lobby.leave(ann)


async def test_a_match_abandoned_before_the_first_moves_is_not_rated(store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    for game in (ann_game, bob_game):
        await game.send(report(host, NotRated(ABANDONED)))
    told = await ann_game.receive("rated")
    assert told["rated"] is False and told["said"] == "This match changes no rating."
    settled = ratings.settled(store, host["match"])
    assert settled is not None and not settled.rated and settled.reason == ABANDONED
    assert ann.account is not None
    assert ratings.standing(store, ann.account, "classic").games == 0
    for m in (ann, bob):
        lobby.leave(m)


@pytest.mark.parametrize("decision", [
    "won", [], {"rated": True}, {"rated": "yes"},
    {"rated": True, "variant": "spider", "accounts": [1, 2], "score": 1.0, "ending": "end"},
    {"rated": True, "variant": "classic", "accounts": [2, 1], "score": 1.0, "ending": "end"},
    {"rated": True, "variant": "classic", "accounts": [1, 2], "score": 2.0, "ending": "end"},
    {"rated": True, "variant": "classic", "accounts": [1, 2], "score": True, "ending": "end"},
    {"rated": True, "variant": "classic", "accounts": [1, 2], "score": 1.0, "ending": "won"},
    {"rated": False, "reason": "because"},
])
async def test_a_report_that_is_not_one_is_ignored(store: Store, decision: Any) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    assert (ann.account, bob.account) == (1, 2)
    lobby.leave(ann)  # gone without a report
    await bob_game.send({"t": "result", "match": host["match"], "decision": decision})
    await bob_game.send({"t": "result", "match": "another", "decision": decision})
    await bob_game.send({"t": "state", "state": "lobby"})  # back, his report was none
    await until(lambda: bob.state == "lobby")
    settled = ratings.settled(store, host["match"])
    assert settled is not None and not settled.rated and settled.reason == UNFINISHED
    assert ratings.standing(store, 2, "classic").games == 0
    lobby.leave(bob)


async def test_a_duel_with_a_guest_is_not_rated(store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store, guest="bob")
    assert host["rated"] is False and host["match"] not in lobby.matches
    for m in (ann, bob):
        lobby.leave(m)


async def test_only_an_accounts_owner_gets_a_code_for_another_key(store: Store) -> None:
    lobby = Lobby()
    lobby.store = store
    signed = accounts.sign_in(store, "ann", "SHA256:ann")
    assert isinstance(signed, accounts.Member)
    games = []
    for name, account in (("dora", None), ("ann", signed.account.id)):
        ours, theirs = socket.socketpair()
        member = await lobby.join(name, ours, account)
        game = Game(theirs)
        assert (await game.receive("welcome"))["account"] is (account is not None)
        games.append((member, game))
    (dora, dora_game), (ann, ann_game) = games
    await dora_game.send({"t": "code"})  # a guest: no account to add a key to
    await ann_game.send({"t": "code"})
    code = await ann_game.receive("code")
    assert code["name"] == "ann" and code["minutes"] == 10
    added = accounts.add_key(store, "ann", code["code"], "SHA256:laptop")
    assert isinstance(added, accounts.Member) and added.key_added
    await dora_game.send({"t": "state", "state": "lobby"})
    await until(lambda: dora.state == "lobby")  # the lobby has read dora's messages
    assert b'"t":"code"' not in dora_game.buffer + await recv_all(dora_game)
    for m in (dora, ann):
        lobby.leave(m)


async def recv_all(game: Game) -> bytes:
    """What the lobby has sent ``game`` and it has not read yet."""
    import asyncio

    data = b""
    while True:
        try:
            chunk = game.sock.recv(65536)
        except BlockingIOError:
            return data
        if not chunk:
            return data
        data += chunk
        await asyncio.sleep(0)


async def test_the_duel_is_told_each_seats_rating_in_its_game(store: Store) -> None:
    """The duel screen shows the opponent's rating beside his name: the lobby tells both
    games the seats' ratings (a guest has none)."""
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store, guest="bob")
    assert host["ratings"] == [ann.ratings["classic"], None] and host["ratings"][0] == "1500?"


def test_the_seats_ratings_from_the_lobby_are_checked() -> None:
    from tui_domino.ssh.visitor_app import seat_ratings

    assert seat_ratings(["1500?", "1512"]) == ("1500?", "1512")
    assert seat_ratings(["1500?", None]) == ("1500?", None)
    assert seat_ratings(["[b]1[/b]", "1512\x1b[2J"]) == (None, None)
    assert seat_ratings("1500") == seat_ratings([1500, 1]) == seat_ratings([]) == (None, None)
