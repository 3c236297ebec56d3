"""Names that look alike on a terminal are told apart in the lobby."""

from __future__ import annotations

import asyncio
import socket

from tests.ssh.conftest import visit
from tui_domino.ssh.lobby import Lobby
from tui_domino.ssh.names import player_name, skeleton
from tui_domino.ssh.server import GameServer


def test_names_that_look_alike_have_one_skeleton() -> None:
    assert skeleton("\u0430nn") == skeleton("ann")  # Cyrillic a
    assert skeleton("b\u03bfb") == skeleton("bob")  # Greek omicron
    assert skeleton("\uff42ob") == skeleton("bob")  # fullwidth b
    assert skeleton("\u0406an") == skeleton("Ian")  # Cyrillic I
    assert skeleton("lan") == skeleton("Ian")  # l and I
    assert skeleton("ann") != skeleton("anne") and skeleton("Ann") != skeleton("bob")
    assert player_name("\uff41nn") == "ann"  # NFKC
    assert player_name("an\u200dn\u202e") == "ann"  # no invisible or bidi characters


async def test_a_name_that_looks_like_a_present_one_is_told_apart() -> None:
    lobby = Lobby()
    pairs = [socket.socketpair() for _ in range(4)]
    try:
        names = []
        for (ours, _theirs), name in zip(pairs, ["ann", "\u0430nn", "\u0430\u043f\u043f",
                                                 "bob"], strict=True):
            names.append((await lobby.join(name, ours)).name)
        # Cyrillic a with Latin nn is told apart; Cyrillic "апп" does not look like ann
        assert names == ["ann", "\u0430nn-2", "\u0430\u043f\u043f", "bob"]
        assert len({skeleton(n) for n in names}) == 4
    finally:
        for member in list(lobby.members.values()):
            lobby.leave(member)
        for _ours, theirs in pairs:
            theirs.close()


async def test_a_visitor_cannot_pass_for_another(server: GameServer) -> None:
    ann = await visit(server.port, "ann")
    await ann.wait_for("Welcome, ann.")
    fake = await visit(server.port, "\u0430nn")
    await fake.wait_for("Welcome, \u0430nn-2.")
    await ann.wait_for("\u0430nn-2")
    await asyncio.gather(ann.close(), fake.close())


