"""The lobby's duel hand-off: host on loopback, pass the port, join, play a move over
the duel protocol; and the lobby hub's side of it."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable

import pytest

from tui_domino.net import events as ev
from tui_domino.ssh.duel import connect_duel
from tui_domino.ssh.lobby import Lobby

# the lobby's key of a duel's channel (it hands one to both games)
SECRET = "0123456789abcdef" * 2


async def test_a_lobby_duel_connects_on_loopback_and_carries_a_move() -> None:
    from tui_domino.net import events as ev

    ports: asyncio.Queue[int] = asyncio.Queue()
    host = await connect_duel(role="host", name="ann", variant="classic", port=0,
                              on_hosting=ports.put_nowait, secret=SECRET)
    join = await connect_duel(role="join", name="bob", variant="classic",
                              port=await ports.get(), on_hosting=lambda port: None, secret=SECRET)
    try:
        async with asyncio.timeout(30):
            while not (host.my_turn() or join.my_turn()):
                await asyncio.sleep(0.02)
            mover, other = (host, join) if host.my_turn() else (join, host)
            move = mover.legal_moves()[0]
            await mover.play(move)
            while True:
                e = await other.next_event(timeout=30)
                if isinstance(e, ev.Moved):
                    break
        assert e.player == (0 if mover is host else 1)
        # no code to type, but the channel is keyed and sealed all the same
        assert host.secure and join.secure and host.phrase == join.phrase != ""
    finally:
        await asyncio.gather(host.close(), join.close())


async def test_a_lobby_duel_lets_nobody_else_in_without_its_secret() -> None:
    from tui_domino.net.channel import Refused
    from tui_domino.net.transport import DuelSession

    ports: asyncio.Queue[int] = asyncio.Queue()
    host = await connect_duel(role="host", name="ann", variant="classic", port=0,
                              on_hosting=ports.put_nowait, secret=SECRET)
    port = await ports.get()
    try:
        # a local user who found the port, with no code, a guessed one or another key
        for code in (None, "7-classic-orlando", "f" * 32):
            with pytest.raises(Refused):
                stranger = await DuelSession.join("127.0.0.1", port, name="eve", code=code)
                async with asyncio.timeout(30):
                    async for e in stranger.events():
                        if isinstance(e, ev.ProtocolError) and e.from_peer:
                            raise Refused(e.code, e.message)
        assert not host.core.started
        join = await connect_duel(role="join", name="bob", variant="classic", port=port,
                                  on_hosting=lambda port: None, secret=SECRET)
        async with asyncio.timeout(30):
            while not join.core.started:
                await join.next_event(timeout=30)
        assert join.phrase == host.phrase != ""
        await join.close()
    finally:
        await host.close()


@pytest.mark.parametrize("gone", ["join", "host"])
async def test_a_lobby_duel_ends_soon_when_the_other_game_goes(gone, monkeypatch) -> None:
    # The other visitor's game ends (his ssh connection went): his duel connection closes
    # without a word. The one who stays wins by forfeit after the lobby's short window, not
    # after the 15 minutes a duel over the internet waits.
    from tui_domino.net import events as ev
    from tui_domino.ssh import duel

    monkeypatch.setattr(duel, "RESUME_WINDOW", 0.3)
    ports: asyncio.Queue[int] = asyncio.Queue()
    host = await connect_duel(role="host", name="ann", variant="classic", port=0,
                              on_hosting=ports.put_nowait, secret=SECRET)
    join = await connect_duel(role="join", name="bob", variant="classic",
                              port=await ports.get(), on_hosting=lambda port: None, secret=SECRET)
    going, staying = (join, host) if gone == "join" else (host, join)
    try:
        async with asyncio.timeout(30):
            while not (host.my_turn() or join.my_turn()):
                await asyncio.sleep(0.02)
            # the going game's process ends: its sockets close, nothing is said
            if going._server is not None:
                going._server.close()
            for task in list(going._tasks):
                task.cancel()
            assert going._writer_obj is not None
            going._writer_obj.transport.abort()
            verdict = None
            while verdict is None:
                e = await staying.next_event(timeout=30)
                if isinstance(e, ev.Verdict):
                    verdict = e
        assert verdict.kind == "forfeit" and verdict.player == going.core.me
        name = "bob" if gone == "join" else "ann"
        assert f"{name} did not come back" in verdict.reason
    finally:
        await asyncio.gather(host.close(), join.close(), return_exceptions=True)


async def until(condition: Callable[[], bool], timeout: float = 10) -> None:
    """Returns once ``condition()`` holds; fails after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.005)


class Game:
    """A visitor's end of the lobby socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sock.setblocking(False)
        self.buffer = b""

    async def receive(self, kind: str) -> dict:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(10):
            while True:
                while b"\n" in self.buffer:
                    line, self.buffer = self.buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if message["t"] == kind:
                        return message
                self.buffer += await loop.sock_recv(self.sock, 4096)

    async def send(self, message: dict) -> None:
        await asyncio.get_running_loop().sock_sendall(self.sock,
                                                      json.dumps(message).encode() + b"\n")


async def test_the_lobby_asks_the_challenged_to_host_and_hands_the_port_on() -> None:
    lobby = Lobby()
    games = {}
    for name in ("ann", "bob"):
        ours, theirs = socket.socketpair()
        member = await lobby.join(name, ours)
        games[name] = (member, Game(theirs))
    (ann, ann_game), (bob, bob_game) = games["ann"], games["bob"]
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "spider"})
    challenged = await ann_game.receive("challenged")
    assert challenged["name"] == "bob" and challenged["variant"] == "spider"
    await ann_game.send({"t": "answer", "to": bob.id, "accept": True})
    host = await ann_game.receive("host")
    assert (await bob_game.receive("answered"))["accept"] is True
    await ann_game.send({"t": "hosting", "duel": host["duel"], "port": 40404})
    join = await bob_game.receive("join")
    assert join["port"] == 40404 and join["variant"] == "spider" and join["opponent"] == "ann"
    people = {p["name"]: p for p in lobby.people()}
    assert people["ann"]["state"] == "duel" and people["ann"]["with"] == "bob"
    # A third visitor cannot challenge someone in a duel.
    ours, theirs = socket.socketpair()
    carl = await lobby.join("carl", ours)
    carl_game = Game(theirs)
    await carl_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
    refused = await carl_game.receive("answered")
    assert refused["accept"] is False and "busy" in refused["why"]
    for member in (ann, bob, carl):
        lobby.leave(member)


async def _meet(lobby: Lobby) -> tuple[object, Game, object, Game, dict]:
    """ann and bob in the lobby; bob challenges, ann accepts; returns ann's ``host``."""
    games = {}
    for name in ("ann", "bob"):
        ours, theirs = socket.socketpair()
        member = await lobby.join(name, ours)
        games[name] = (member, Game(theirs))
    (ann, ann_game), (bob, bob_game) = games["ann"], games["bob"]
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
    await ann_game.receive("challenged")
    await ann_game.send({"t": "answer", "to": bob.id, "accept": True})
    host = await ann_game.receive("host")
    return ann, ann_game, bob, bob_game, host


async def test_a_state_report_crossing_the_hand_off_does_not_lose_the_duel() -> None:
    # Each game reports where its player is on a timer; under load the first "lobby"
    # report of either side can reach the lobby after the challenge was accepted.
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await _meet(lobby)
    await bob_game.send({"t": "state", "state": "lobby"})
    await ann_game.send({"t": "state", "state": "menu"})
    await ann_game.send({"t": "hosting", "duel": host["duel"], "port": 40404})
    join = await bob_game.receive("join")
    assert join["port"] == 40404 and join["duel"] == host["duel"]
    people = {p["name"]: p for p in lobby.people()}
    assert people["bob"]["state"] == "duel" and people["bob"]["with"] == "ann"
    # Both open the duel, then ann comes back to the lobby: the duel is over for her.
    for game in (ann_game, bob_game):
        await game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await ann_game.send({"t": "state", "state": "lobby"})
    await until(lambda: ann.state == "lobby")  # the lobby has taken her report
    assert ann.duel is None and bob.duel == host["duel"]
    for member in (ann, bob):
        lobby.leave(member)


async def test_a_duel_that_cannot_start_is_cancelled_for_the_other_side() -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await _meet(lobby)
    await ann_game.send({"t": "hosting", "duel": host["duel"], "port": 40404})
    await bob_game.receive("join")
    await ann_game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await bob_game.send({"t": "duel_failed", "duel": host["duel"]})
    cancelled = await ann_game.receive("cancelled")
    assert cancelled["duel"] == host["duel"] and "could not start" in cancelled["why"]
    assert ann.duel is None and bob.duel is None
    assert {p["state"] for p in lobby.people()} == {"lobby"}
    for member in (ann, bob):
        lobby.leave(member)


async def test_leaving_before_the_duel_is_opened_cancels_it_for_the_other() -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await _meet(lobby)
    await ann_game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await until(lambda: ann.playing)  # the lobby knows she has opened the duel
    lobby.leave(bob)  # before he ever heard the port
    cancelled = await ann_game.receive("cancelled")
    assert "bob left" in cancelled["why"] and ann.duel is None
    lobby.leave(ann)


async def test_a_lobby_duel_refuses_a_key_that_is_not_the_lobbys() -> None:
    from tui_domino.ssh.duel import DuelUnavailable

    for secret in (None, "", "abc", "G" * 32, "0" * 31, 7):
        with pytest.raises(DuelUnavailable, match="no valid key"):
            await connect_duel(role="host", name="ann", variant="classic", port=0,
                               on_hosting=lambda port: None, secret=secret)  # type: ignore


async def test_a_visitor_back_from_a_duel_is_no_longer_named_beside_the_other() -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await _meet(lobby)
    for game in (ann_game, bob_game):
        await game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await until(lambda: ann.playing and bob.playing)
    assert {p["name"]: p.get("with") for p in lobby.people()} == {"ann": "bob", "bob": "ann"}
    await ann_game.send({"t": "state", "state": "lobby"})  # she left the finished duel
    await until(lambda: ann.state == "lobby")
    people = {p["name"]: p for p in lobby.people()}
    assert "with" not in people["ann"] and "with" not in people["bob"]
    for member in (ann, bob):
        lobby.leave(member)


async def test_a_visitor_challenges_at_most_five_times_a_minute() -> None:
    now = [0.0]
    lobby = Lobby(clock=lambda: now[0])
    games = {}
    for name in ("ann", "bob"):
        ours, theirs = socket.socketpair()
        games[name] = (await lobby.join(name, ours), Game(theirs))
    (ann, ann_game), (bob, bob_game) = games["ann"], games["bob"]
    for _ in range(5):  # challenge and withdraw: each rings ann's bell
        await bob_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
        await ann_game.receive("challenged")
        await bob_game.send({"t": "withdraw"})
        await ann_game.receive("withdrawn")
        now[0] += 5.0
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
    refused = await bob_game.receive("answered")
    assert refused["accept"] is False and "Too many challenges" in refused["why"]
    assert bob.challenging is None
    now[0] = 60.0  # a minute after the first
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
    assert (await ann_game.receive("challenged"))["name"] == "bob"
    for member in (ann, bob):
        lobby.leave(member)
