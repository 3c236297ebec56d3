"""Aborts and stalls cost something, on the lobby's side (games are socket pairs the tests
speak for; the store's clock is injected): a game's word on its own visitor's offence is
kept, the third within a day closes challenges, seeks, quick pairing and accepting to him for
10 minutes, told why and for how long each time he tries; the ban ends on time. How a match's
end maps to an offence: ``offence_of``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.community.test_playban import Clock
from tests.community.test_playban import clock as clock  # (the fixtures)
from tests.community.test_playban import store as store
from tests.ssh.test_duel import until
from tests.ssh.test_rated_lobby import meet
from tests.ssh.test_seeks import arrive
from tui_domino.community import playban
from tui_domino.community.db import Store
from tui_domino.net import events as ev
from tui_domino.ssh.lobby import Lobby
from tui_domino.ssh.lobby_duel import offence_of


async def test_the_third_offence_in_a_day_closes_pairing_for_ten_minutes(
        store: Store, clock: Clock) -> None:
    lobby = Lobby()
    told: dict[str, Any] = {}
    for n, offence in enumerate((playban.ABORT, playban.STALL, playban.WALKAWAY)):
        ann, ann_game, bob, bob_game, _host = await meet(lobby, store)
        await ann_game.send({"t": "conduct", "duel": ann.duel, "offence": offence})
        await ann_game.send({"t": "conduct", "duel": ann.duel, "offence": offence})  # (once)
        assert ann.account is not None
        await until(lambda a=ann.account, k=n: len(playban.offences(store, a)) == k + 1)
        if n == 2:
            told = await ann_game.receive("playban")
        for m in (ann, bob):
            lobby.leave(m)
    assert told["offences"] == 3 and told["seconds"] == pytest.approx(600)
    assert ann.account is not None
    assert len(playban.offences(store, ann.account)) == 3
    # every way to a duel is closed to her, and she is told each time
    ann, ann_game = await arrive(lobby, "ann", store)
    bob, bob_game = await arrive(lobby, "bob", store)
    clock.now += 60
    await ann_game.send({"t": "challenge", "to": bob.id, "variant": "classic"})
    assert (await ann_game.receive("playban"))["seconds"] == pytest.approx(540)
    await ann_game.send({"t": "seek", "variant": "classic", "rated": True})
    await ann_game.receive("playban")
    await ann_game.send({"t": "quick", "variant": "classic"})
    await ann_game.receive("playban")
    assert ann.seek is None and ann.quick is None and ann.challenging is None
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "classic"})
    await ann_game.receive("challenged")
    await ann_game.send({"t": "answer", "to": bob.id, "accept": True})
    await ann_game.receive("playban")
    answered = await bob_game.receive("answered")  # bob is not left waiting
    assert answered["accept"] is False and answered["values"] == {"name": "ann"}
    assert ann.duel is None and bob.duel is None
    # the ban ends on time: she challenges again
    clock.now += 541
    await ann_game.send({"t": "challenge", "to": bob.id, "variant": "classic"})
    await bob_game.receive("challenged")
    for m in (ann, bob):
        lobby.leave(m)


async def test_a_conduct_report_that_is_not_one_is_ignored(store: Store) -> None:
    lobby = Lobby()
    ann, ann_game, bob, bob_game, _host = await meet(lobby, store)
    for bad in ({"offence": "rudeness"}, {"offence": ["abort"]}, {"duel": 999},
                {"duel": "1"}, {}):
        await ann_game.send({"t": "conduct", "duel": ann.duel, "offence": "abort", **bad}
                            if "duel" in bad else {"t": "conduct", "duel": ann.duel, **bad})
    await ann_game.send({"t": "conduct", "duel": ann.duel, "offence": "stall"})  # (after
    assert ann.account is not None  # them, in order: once it is in, they were all read)
    await until(lambda: len(playban.offences(store, ann.account or 0)) == 1)
    assert [kind for _at, kind in playban.offences(store, ann.account)] == ["stall"]
    for m in (ann, bob):
        lobby.leave(m)


@pytest.mark.parametrize(("verdict", "moved", "offence"), [
    (ev.Verdict("forfeit", 0, "ann left the match"), False, playban.ABORT),
    (ev.Verdict("forfeit", 0, "ann left the match"), True, None),  # resigned: no offence
    (ev.Verdict("forfeit", 0, "ann took more than 20 seconds over one move"), True,
     playban.STALL),
    (ev.Verdict("forfeit", 0, "ann took more than 1 minute over one move"), False,
     playban.ABORT),
    (ev.Verdict("forfeit", 0, "ann did not come back"), True, playban.WALKAWAY),
    (ev.Verdict("forfeit", 1, "bob took more than 20 seconds over one move"), True, None),
    (ev.Verdict("cheat", 0, "ann: moved out of turn"), True, None),
    (ev.Verdict("error", 0, "internal error"), False, None),
    (None, False, None),
])
def test_how_a_matchs_end_maps_to_an_offence(verdict: ev.Verdict | None, moved: bool,
                                              offence: str | None) -> None:
    assert offence_of(verdict, 0, moved) == offence
