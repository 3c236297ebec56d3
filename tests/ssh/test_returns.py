"""A duel whose game stopped, on the lobby's side (games are socket pairs the tests speak
for): it waits for a fresh game of the same account, which is told first and takes it up
with ``resume_duel`` (its ``host`` or ``join`` again, marked ``resume``, the same port; the
opponent is sent no new ``join``); an opponent gone meanwhile is said; a guest's duel does
not wait."""

from __future__ import annotations

import socket
from typing import Any

from tests.ssh.test_duel import Game, until
from tests.ssh.test_rated_lobby import meet, recv_all
from tests.ssh.test_seeks import store as store  # (the fixture)
from tui_domino.community import accounts
from tui_domino.community.db import Store
from tui_domino.ssh.lobby import Lobby, Member


async def again(lobby: Lobby, store: Store, name: str) -> tuple[Member, Game]:
    """``name``'s fresh game (his account) in the lobby."""
    signed = accounts.sign_in(store, name, f"SHA256:{name}")
    assert isinstance(signed, accounts.Member)
    ours, theirs = socket.socketpair()
    member = await lobby.join(name, ours, signed.account.id)
    return member, Game(theirs)


async def test_a_fresh_game_is_told_the_duel_waits_and_takes_it_up(store: Store) -> None:
    lobby = Lobby()
    lobby.seat_window = 60.0
    ann, ann_game, bob, bob_game, host = await meet(lobby, store)
    assert ann.port == bob.port == 40404
    lobby.leave(bob)  # bob's game stops mid-duel
    away = await ann_game.receive("away")
    assert away["name"] == "bob" and away["seconds"] == 60.0
    assert bob.account in lobby.returns
    fresh, fresh_game = await again(lobby, store, "bob")
    waits = await fresh_game.receive("duel_waits")
    assert waits["name"] == "ann" and 0 < waits["seconds"] <= 60
    await fresh_game.send({"t": "resume_duel"})
    join: dict[str, Any] = await fresh_game.receive("join")  # (bob joined: he joins again)
    assert join["resume"] is True and join["port"] == 40404
    assert (join["duel"], join["match"], join["secret"]) == (host["duel"], host["match"],
                                                             bob.secret)
    assert ann.opponent == fresh.id and fresh.opponent == ann.id and fresh.seat == 1
    assert lobby.matches[host["match"]].members == (ann.id, fresh.id)
    await fresh_game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await until(lambda: fresh.playing and not fresh.resuming)
    rest = ann_game.buffer + await recv_all(ann_game)
    assert b'"t":"join"' not in rest and b'"t":"host"' not in rest  # ann's game sees a resume
    for m in (ann, fresh):
        lobby.leave(m)


async def test_an_opponent_gone_meanwhile_is_said(store: Store) -> None:
    lobby = Lobby()
    lobby.seat_window = 60.0
    ann, _ann_game, bob, _bob_game, _host = await meet(lobby, store)
    lobby.leave(bob)
    lobby.leave(ann)  # ann leaves the server while bob's duel waits
    fresh, fresh_game = await again(lobby, store, "bob")
    await fresh_game.receive("duel_waits")
    await fresh_game.send({"t": "resume_duel"})
    refused = await fresh_game.receive("refused")
    assert refused["said"] == "Your opponent is gone."
    assert fresh.duel is None and not lobby.returns
    lobby.leave(fresh)


async def test_a_guests_duel_does_not_wait(store: Store) -> None:
    lobby = Lobby()
    lobby.seat_window = 60.0
    ann, ann_game, bob, _bob_game, _host = await meet(lobby, store, guest="bob")
    lobby.leave(bob)
    assert not lobby.returns
    left = await ann_game.receive("table_left")  # (his game's duel tells the rest)
    assert left["values"] == {"name": "bob"}
    lobby.leave(ann)
