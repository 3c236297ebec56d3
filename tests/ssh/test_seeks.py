"""Seeks, quick pairing, rematches and the leaderboard, on the lobby's side: games are
socket pairs that the tests speak for, as hostile as any visitor's."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

from tests.ssh.test_duel import Game, until
from tests.ssh.test_rated_lobby import meet, recv_all, report
from tui_domino.community import accounts
from tui_domino.community.db import Store, db_path, open_store
from tui_domino.community.rated import END, Rated
from tui_domino.ssh.lobby import Lobby, Member
from tui_domino.ssh.pairing import Seek, Waiting, quick_pairs, read_seek


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = open_store(db_path(tmp_path), now=lambda: 1_000_000.0)
    yield s
    s.close()


async def arrive(lobby: Lobby, name: str, store: Store | None = None,
                 account: bool = True) -> tuple[Member, Game]:
    """``name`` in the lobby (with an account of his own when the lobby has a store and
    ``account``)."""
    ours, theirs = socket.socketpair()
    number = None
    if store is not None and account:
        signed = accounts.sign_in(store, name, f"SHA256:{name}")
        assert isinstance(signed, accounts.Member)
        number = signed.account.id
    member = await lobby.join(name, ours, number)
    game = Game(theirs)
    await game.receive("welcome")
    await game.send({"t": "state", "state": "lobby"})
    await until(lambda: member.state == "lobby")
    return member, game


def test_quick_pairing_pairs_the_closest_ratings_first_and_the_longer_waiter_hosts() -> None:
    waiting = [Waiting("ann", 1500, 3.0), Waiting("bob", 1900, 1.0),
               Waiting("cat", 1530, 2.0), Waiting("dan", 1800, 0.0), Waiting("eve", 2400, 4.0)]
    # ann-cat (30) first, then dan-bob (100); eve waits for the next wave
    assert quick_pairs(waiting) == [("cat", "ann"), ("dan", "bob")]
    assert quick_pairs(waiting[:1]) == []
    # equal gaps: the pair with the longer waiter goes first
    assert quick_pairs([Waiting("a", 1500, 5.0), Waiting("b", 1600, 9.0),
                        Waiting("c", 1400, 1.0)]) == [("c", "a")]


@pytest.mark.parametrize("message", [
    {"variant": "chess", "rated": True},
    {"variant": "classic", "rated": 1},
    {"variant": "classic", "rated": True, "range": [1600, 1400]},
    {"variant": "classic", "rated": True, "range": [1400, 9999]},
    {"variant": "classic", "rated": True, "range": [1400.5, 1600]},
    {"variant": "classic", "rated": True, "range": [True, 1600]},
    {"variant": "classic", "rated": True, "range": "1400-1600"},
    {"variant": ["classic"], "rated": False},
])
def test_a_seek_that_is_not_one_is_refused(message: dict[str, Any]) -> None:
    assert read_seek(message) is None


def test_a_seek_admits_ratings_within_its_range_only() -> None:
    seek = Seek("classic", True, 1400, 1600)
    assert seek.admits(1400) and seek.admits(1599.6) is False or seek.admits(1600)
    assert not seek.admits(1399.4) and not seek.admits(1600.6) and not seek.admits(None)
    assert Seek("classic", False).admits(None)


async def test_a_seek_is_listed_and_taken_and_the_seeker_hosts(store: Store) -> None:
    lobby = Lobby()
    lobby.store = store
    ann, ann_game = await arrive(lobby, "ann", store)
    bob, bob_game = await arrive(lobby, "bob", store)
    await ann_game.send({"t": "seek", "variant": "spider", "rated": True})
    await until(lambda: ann.seek is not None)
    listed = await bob_game.receive("people")
    while not any("seek" in p for p in listed["people"]):
        listed = await bob_game.receive("people")
    seen = next(p for p in listed["people"] if p["name"] == "ann")
    assert seen["seek"] == {"variant": "spider", "rated": True}
    await bob_game.send({"t": "take", "seek": ann.id})
    host = await ann_game.receive("host")
    assert (host["variant"], host["opponent"], host["how"], host["rated"]) == (
        "spider", "bob", "seek", True)
    await ann_game.send({"t": "hosting", "duel": host["duel"], "port": 40404})
    join = await bob_game.receive("join")
    assert (join["port"], join["how"], join["match"]) == (40404, "seek", host["match"])
    assert ann.seek is None  # taken: gone from the lobby
    for m in (ann, bob):
        lobby.leave(m)


async def test_a_rated_seek_is_refused_to_a_guest_and_a_range_to_a_rating_outside_it(
        store: Store) -> None:
    lobby = Lobby()
    lobby.store = store
    ann, ann_game = await arrive(lobby, "ann", store)
    bob, bob_game = await arrive(lobby, "bob", store)
    dora, dora_game = await arrive(lobby, "dora", store, account=False)  # a guest
    await dora_game.send({"t": "seek", "variant": "classic", "rated": True})
    refused = await dora_game.receive("refused")
    assert refused["said"] == "Only a player signed in with his key plays rated games."
    await ann_game.send({"t": "seek", "variant": "classic", "rated": True})
    await until(lambda: ann.seek is not None)
    await dora_game.send({"t": "take", "seek": ann.id})
    refused = await dora_game.receive("refused")
    assert refused["values"] == {"name": "ann"}
    assert refused["said"].startswith("{name} seeks a rated game")
    # bob is a newcomer (1500): a seek for 1600-1800 is not his to take
    await ann_game.send({"t": "seek", "variant": "classic", "rated": True,
                         "range": [1600, 1800]})
    await until(lambda: ann.seek is not None and ann.seek.low == 1600)
    await bob_game.send({"t": "take", "seek": ann.id})
    refused = await bob_game.receive("refused")
    assert refused["said"] == "Your rating is outside the range this seek asks for."
    assert ann.opponent is None and ann.seek is not None
    # nor a seek that is gone, nor one's own
    await ann_game.send({"t": "unseek"})
    await until(lambda: ann.seek is None)
    await bob_game.send({"t": "take", "seek": ann.id})
    assert (await bob_game.receive("refused"))["said"] == "That seek is gone."
    for m in (ann, bob, dora):
        lobby.leave(m)


async def test_quick_pairing_pairs_those_waiting_in_a_wave() -> None:
    lobby = Lobby()
    lobby.wave = 0.01
    ann, ann_game = await arrive(lobby, "ann")
    bob, bob_game = await arrive(lobby, "bob")
    cat, cat_game = await arrive(lobby, "cat")
    await ann_game.send({"t": "quick", "variant": "triominos"})
    await cat_game.send({"t": "quick", "variant": "classic"})  # another game: not paired
    await until(lambda: ann.quick == "triominos" and cat.quick == "classic")
    await bob_game.send({"t": "quick", "variant": "triominos"})
    host = await ann_game.receive("host")  # ann waited longer: she hosts
    assert (host["variant"], host["opponent"], host["how"]) == ("triominos", "bob", "quick")
    assert ann.quick is None and bob.quick is None and cat.quick == "classic"
    await cat_game.send({"t": "unquick"})
    await until(lambda: cat.quick is None)
    for m in (ann, bob, cat):
        lobby.leave(m)


async def at_the_end(lobby: Lobby, store: Store) -> tuple[Member, Game, Member, Game,
                                                           dict[str, Any]]:
    """ann (hosting) and bob at the end of a rated duel that ann won, its result in."""
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    assert ann.account is not None and bob.account is not None
    won = Rated("classic", (ann.account, bob.account), 1.0, END)
    for game in (ann_game, bob_game):
        await game.send(report(host, won))
    for game in (ann_game, bob_game):
        await game.receive("rated")
    return ann, ann_game, bob, bob_game, host


async def test_a_rematch_both_accept_starts_at_once_with_the_seats_swapped(
        store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, first = await at_the_end(lobby, store)
    await bob_game.send({"t": "rematch", "accept": True})
    asked = await ann_game.receive("rematch")
    assert asked["name"] == "bob"
    await ann_game.send({"t": "rematch", "accept": True})
    host = await bob_game.receive("host")  # bob joined the first match: he hosts this one
    assert (host["how"], host["opponent"], host["rated"]) == ("rematch", "ann", True)
    assert host["duel"] != first["duel"] and host["match"] != first["match"]
    await bob_game.send({"t": "hosting", "duel": host["duel"], "port": 40405})
    join = await ann_game.receive("join")
    assert (join["port"], join["match"]) == (40405, host["match"])
    for m in (ann, bob):
        lobby.leave(m)


async def test_one_who_leaves_the_table_ends_the_rematch_and_the_other_is_told(
        store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, _ = await at_the_end(lobby, store)
    await ann_game.send({"t": "rematch", "accept": True})
    await bob_game.receive("rematch")
    await bob_game.send({"t": "state", "state": "lobby"})  # bob leaves the table
    left = await ann_game.receive("table_left")  # ann stays at the table, told why
    assert left["said"] == "{name} left the table." and left["values"] == {"name": "bob"}
    assert not ann.rematch and not bob.rematch
    rest = bob_game.buffer + await recv_all(bob_game)
    assert b"rematch_off" not in rest and b"table_left" not in rest


async def test_the_other_is_told_when_his_opponent_leaves_the_table_unasked(
        store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, _ = await at_the_end(lobby, store)
    await bob_game.send({"t": "state", "state": "lobby"})  # no rematch was asked
    left = await ann_game.receive("table_left")
    assert left["values"] == {"name": "bob"}
    await ann_game.send({"t": "rematch", "accept": True})  # too late: bob is gone
    assert b'"rematch"' not in bob_game.buffer + await recv_all(bob_game)
    for m in (ann, bob):
        lobby.leave(m)


async def test_a_rematch_not_answered_in_time_is_off_for_both(store: Store) -> None:
    lobby = Lobby()
    lobby.rematch_wait = 0.05
    ann, ann_game, bob, bob_game, _ = await at_the_end(lobby, store)
    await ann_game.send({"t": "rematch", "accept": True})
    await bob_game.receive("rematch")
    offs = [await g.receive("rematch_off") for g in (ann_game, bob_game)]
    assert all(o["said"] == "The rematch was not answered in time." for o in offs)
    assert not ann.rematch
    await bob_game.send({"t": "rematch", "accept": True})  # too late: asks anew
    await ann_game.receive("rematch")
    for m in (ann, bob):
        lobby.leave(m)


async def test_a_rematch_is_not_taken_before_the_matchs_result_is_in(store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    for game in (ann_game, bob_game):  # (both ask in the middle of the match)
        await game.send({"t": "rematch", "accept": True})
    await ann_game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await until(lambda: not ann.rematch and not bob.rematch and ann.duel == host["duel"])
    assert b'"t":"host"' not in bob_game.buffer + await recv_all(bob_game)
    for m in (ann, bob):
        lobby.leave(m)


async def test_the_leaderboard_is_sent_on_request_a_few_times_a_second_at_most(
        store: Store) -> None:
    lobby = Lobby()
    lobby.store = store
    ann, ann_game = await arrive(lobby, "ann", store)
    for _ in range(30):
        await ann_game.send({"t": "leaderboard", "variant": "classic"})
    await ann_game.send({"t": "leaderboard", "variant": "draughts"})  # no such game
    board = await ann_game.receive("leaderboard")
    assert (board["variant"], board["players"], board["days"]) == ("classic", [], 30)
    await ann_game.send({"t": "state", "state": "menu"})
    await until(lambda: ann.state == "menu")
    await asyncio.sleep(0)
    rest = ann_game.buffer + await recv_all(ann_game)
    assert rest.count(b'"t":"leaderboard"') == 9  # ten in ten seconds
    lobby.leave(ann)
