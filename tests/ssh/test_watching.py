"""Watching: the frame a duel's host sends for its watchers carries no tile that is in a
hand, whatever the moment of a whole match; a watcher's game reads frames as hostile input
and draws the table from them with the game's own drawing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.net.duel import pair, run
from tests.ssh.test_duel import until
from tests.ssh.test_rated_lobby import meet, recv_all, report
from tests.ssh.test_seeks import arrive
from tui_domino import rules
from tui_domino.community.db import db_path, open_store
from tui_domino.community.rated import END, Rated
from tui_domino.net.core import DuelCore
from tui_domino.ssh import lobby as lobby_module
from tui_domino.ssh.lobby import Lobby
from tui_domino.ssh.watching import WatchTable, public_frame, public_view, read_frame
from tui_domino.ui.drawing.table import table_layout


@pytest.fixture(autouse=True)
def frames_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Watchers get each frame as it comes here (the delay has a test of its own)."""
    monkeypatch.setattr(lobby_module, "WATCH_DELAY", 0.0)

COUNTS = {"hand_sizes", "points", "totals", "match", "v", "round", "target", "left", "owes",
          "winner", "bazaar_size", "bazaar_reserve", "to_move", "draws_this_turn", "leader",
          "opener", "player", "format", "ends"}  # ("ends": the numbers open at the ends)


def tiles_in(value: Any, key: str = "") -> set[tuple[int, ...]]:
    """Every list of 2 or 3 small numbers in ``value`` (a tile, as any part of a frame
    would carry one), but under keys that hold counts and scores."""
    found: set[tuple[int, ...]] = set()
    if key in COUNTS:
        return found
    if isinstance(value, list):
        if 2 <= len(value) <= 3 and all(type(x) is int and 0 <= x <= 6 for x in value):
            found.add(tuple(sorted(value)))
        for item in value:
            found |= tiles_in(item)
    elif isinstance(value, dict):
        for k, item in value.items():
            found |= tiles_in(item, k)
    return found


def hands(cores: list[DuelCore]) -> set[tuple[int, ...]]:
    out: set[tuple[int, ...]] = set()
    for core in cores:
        view = core.view()
        if view is not None and not view["over"]:
            out |= {tuple(sorted(t)) for t in view["hand"]}
    return out


@pytest.mark.parametrize("variant", rules.VARIANTS)
def test_no_frame_of_a_whole_match_carries_a_tile_in_a_hand(variant: str) -> None:
    cores = pair(variant, target={"classic": 30, "spider": 40, "triominos": 150}[variant],
                 seed=3)
    checked = {"frames": 0, "tiles": 0, "drawn": 0}
    chat = [(0, "good luck"), (1, "you too")]

    def check() -> bool:
        frame = public_frame(cores[0], ["1500?", None], chat)
        wire = json.loads(json.dumps(frame))  # as the lobby relays it
        secret = hands(cores)
        shown = tiles_in(wire)
        assert not shown & secret, (shown & secret, wire)
        checked["frames"] += 1
        checked["tiles"] += len(shown)
        read = read_frame(wire)
        assert read is not None, wire
        table = WatchTable(read)
        if table.has_view():
            table_layout(variant, table.view(), [], None, [], 0)(60, 18)
            checked["drawn"] += 1
        return False

    run(cores, seed=3, stop=check)
    assert cores[0].finished and cores[1].finished
    final = read_frame(json.loads(json.dumps(public_frame(cores[0], [None, None], chat))))
    assert final is not None and final.over and final.winner == cores[0].match.result["winner"]
    # (a whole match: many frames, the board's tiles in them, each one drawn)
    assert checked["frames"] > 50 and checked["tiles"] > 20 and checked["drawn"] > 50


def test_the_hosts_own_draws_and_hand_are_taken_out() -> None:
    view = {"variant": "classic", "hand": [[1, 2], [3, 4]], "hand_sizes": [2, 5],
            "bazaar_size": 9, "points": [0, 0], "over": False, "forced": [6, 6],
            "line": [], "secret": "x",
            "history": [{"player": 0, "move": {"kind": "draw"}, "events": [],
                         "tile": [5, 5]}]}

    shown = public_view(view)
    assert "hand" not in shown and "forced" not in shown and "secret" not in shown
    assert shown["history"] == [{"player": 0, "move": {"kind": "draw"}, "events": []}]


@pytest.mark.parametrize("frame", [
    None, [], {"v": 2}, {"v": 1, "variant": "chess"},
    {"v": 1, "variant": "classic", "target": 50, "names": ["a"], "totals": [0, 0],
     "ratings": [None, None], "round": 1, "chat": []},
    {"v": 1, "variant": "classic", "target": 50, "names": ["a", "b"], "totals": [0, "0"],
     "ratings": [None, None], "round": 1, "chat": []},
    {"v": 1, "variant": "classic", "target": 50, "names": ["a", "b"], "totals": [0, 0],
     "ratings": [None, None], "round": 1, "chat": [], "view": {"hand_sizes": [7]}},
])
def test_a_frame_that_is_not_one_is_refused(frame: Any) -> None:
    assert read_frame(frame) is None


def test_a_frames_words_are_made_plain_and_short() -> None:
    frame = read_frame({"v": 1, "variant": "spider", "target": 100,
                        "names": ["\x1b[31mann\n", "b" * 99], "totals": [3, 4],
                        "ratings": ["1512?", "[red]x"], "round": 2, "view": None,
                        "chat": [[0, "hi\x07 there\r\n"], [5, "bad seat"], "junk"],
                        "owes": 7, "left": -3})
    assert frame is not None
    assert "\x1b" not in frame.names[0] and len(frame.names[1]) <= 21  # (…)
    assert frame.ratings == ["1512?", None]
    assert "\x07" not in frame.chat[0][1] and "\n" not in frame.chat[0][1]
    assert len(frame.chat) == 1 and frame.owes is None and frame.left is None


# -- the lobby's side ------------------------------------------------------------------------

async def two_in_a_duel(lobby: Any, store: Any = None) -> tuple[Any, Any, Any, Any, dict]:
    ann, ann_game = await arrive(lobby, "ann")
    bob, bob_game = await arrive(lobby, "bob")
    await bob_game.send({"t": "challenge", "to": ann.id, "variant": "spider"})
    await ann_game.receive("challenged")
    await ann_game.send({"t": "answer", "to": bob.id, "accept": True})
    host = await ann_game.receive("host")
    await ann_game.send({"t": "hosting", "duel": host["duel"], "port": 40404})
    await bob_game.receive("join")
    for game in (ann_game, bob_game):
        await game.send({"t": "state", "state": "duel", "duel": host["duel"]})
    await until(lambda: ann.playing and bob.playing)
    return ann, ann_game, bob, bob_game, host


async def test_a_watcher_gets_the_latest_frame_at_once_then_each_new_one() -> None:

    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await two_in_a_duel(lobby)
    duel = host["duel"]
    await ann_game.send({"t": "frame", "duel": duel, "frame": {"n": 1}})
    await bob_game.send({"t": "frame", "duel": duel, "frame": {"n": 666}})  # not the host
    cat, cat_game = await arrive(lobby, "cat")
    listed = await cat_game.receive("people")
    assert [d["names"] for d in listed["duels"]] == [["ann", "bob"]]
    await cat_game.send({"t": "watch", "duel": duel})
    watching = await cat_game.receive("watching")
    assert watching["names"] == ["ann", "bob"] and watching["variant"] == "spider"
    assert (await cat_game.receive("frame"))["frame"] == {"n": 1}  # mid-match: at once
    for game in (ann_game, bob_game):
        assert (await game.receive("watchers"))["n"] == 1
    await ann_game.send({"t": "frame", "duel": duel, "frame": {"n": 2}})
    assert (await cat_game.receive("frame"))["frame"] == {"n": 2}
    # the watcher's chat: to the watchers, never to the players
    await cat_game.send({"t": "wchat", "text": "nice\n move\x1b"})
    said = await cat_game.receive("wchat")
    assert said["name"] == "cat" and said["text"] == "nice move\x1b"

    for game in (ann_game, bob_game):
        assert b"wchat" not in game.buffer + await recv_all(game)
    # leaving and coming back
    await cat_game.send({"t": "unwatch"})
    await until(lambda: cat.watching is None)
    assert (await ann_game.receive("watchers"))["n"] == 0
    await cat_game.send({"t": "watch", "duel": duel})
    assert (await cat_game.receive("watching"))["chat"] == [["cat", "nice move\x1b"]]
    assert (await cat_game.receive("frame"))["frame"] == {"n": 2}
    # one player has left: the duel is over, off the list; its watcher still sees the end
    await bob_game.send({"t": "state", "state": "lobby"})
    await until(lambda: bob.duel is None)
    assert lobby.duels() == [] and cat.watching == duel
    # neither player at the table: the watcher is told
    await ann_game.send({"t": "state", "state": "lobby"})
    assert (await cat_game.receive("watch_over"))["duel"] == duel
    assert not lobby.live
    for m in (ann, bob, cat):
        lobby.leave(m)


async def test_a_watcher_follows_the_rematch_and_the_list_puts_the_highest_rated_first(
        tmp_path: Any) -> None:

    with open_store(db_path(tmp_path), now=lambda: 1_000_000.0) as store:
        lobby = Lobby()
        ann, ann_game, bob, bob_game, host = await meet(lobby, store)
        cat, cat_game = await arrive(lobby, "cat", store)
        await cat_game.send({"t": "watch", "duel": host["duel"]})
        await cat_game.receive("watching")
        won = Rated("classic", (ann.account, bob.account), 1.0, END)
        for game in (ann_game, bob_game):
            await game.send(report(host, won))
        await ann_game.receive("rated")
        for game in (ann_game, bob_game):
            await game.send({"t": "rematch", "accept": True})
        new = await bob_game.receive("host")
        follow = await cat_game.receive("watching")
        assert follow["duel"] == new["duel"] != host["duel"]
        assert cat.watching == new["duel"] and lobby.live[new["duel"]].watchers == {cat.id}
        # a second duel of two newcomers (1500) lists after ann and bob (one of them won)
        dan, dan_game = await arrive(lobby, "dan", store)
        eve, eve_game = await arrive(lobby, "eve", store)
        await eve_game.send({"t": "challenge", "to": dan.id, "variant": "classic"})
        await dan_game.receive("challenged")
        await dan_game.send({"t": "answer", "to": eve.id, "accept": True})
        await dan_game.receive("host")
        duels = lobby.duels()
        assert [d["names"] for d in duels] == [["bob", "ann"], ["dan", "eve"]]
        for m in (ann, bob, cat, dan, eve):
            lobby.leave(m)


async def test_a_watcher_writes_at_most_three_lines_in_three_seconds() -> None:

    lobby = Lobby(clock=lambda: 5.0)  # time stands still
    ann, ann_game, bob, bob_game, host = await two_in_a_duel(lobby)
    cat, cat_game = await arrive(lobby, "cat")
    await cat_game.send({"t": "watch", "duel": host["duel"]})
    await cat_game.receive("watching")
    for i in range(4):
        await cat_game.send({"t": "wchat", "text": f"line {i}"})
    refused = await cat_game.receive("refused")
    assert refused["said"] == "Not so fast: at most 3 lines in 3 seconds."
    assert [line[1] for line in lobby.live[host["duel"]].chat] == ["line 0", "line 1",
                                                                    "line 2"]
    for m in (ann, bob, cat):
        lobby.leave(m)


async def test_the_watchers_screen_over_a_whole_match_names_no_tile_in_a_hand() -> None:
    """The screen draws what the frames carry: at every moment of a match its words (the
    moves, the chat, the panel) name no tile that is in a hand then."""
    import re

    from tests.ui.helpers import screen_lines
    from tui_domino.ssh.watch_screen import WatchScreen
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.storage import Settings

    cores = pair("classic", target=20, seed=5)
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1)
    frames: list[tuple[Any, set[tuple[int, ...]]]] = []

    def keep() -> bool:
        wire = json.loads(json.dumps(public_frame(cores[0], [None, None], [])))
        frames.append((read_frame(wire), hands(cores)))
        return False

    run(cores, seed=5, stop=keep)
    assert cores[0].finished
    async with app.run_test(size=(80, 24)) as pilot:
        screen = WatchScreen(1, ["Ann", "Bob"], "classic", lambda text: None)
        app.push_screen(screen)
        await pilot.pause()
        shown_moves = 0
        for frame, secret in frames[::3]:
            screen.show_frame(frame, 1)
            await pilot.pause()
            text = "\n".join(screen_lines(app))
            named = {tuple(sorted(map(int, m))) for m in re.findall(r"\b(\d)-(\d)\b", text)}
            assert not named & secret, (named & secret, text)
            shown_moves += len(named)
        assert shown_moves > 20


async def test_the_watchers_screen_draws_what_is_set_on_it_alone() -> None:
    """A frame, the count of watchers and the players' leaving, set on the screen, are drawn
    by the screen's own watchers (nothing asks it to draw); so is the next duel it follows."""
    from tests.ui.helpers import screen_lines
    from tui_domino.ssh.watch_screen import WatchScreen
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.storage import Settings

    cores = pair("classic", target=20, seed=5)
    run(cores, seed=5, stop=lambda: len((cores[0].view() or {}).get("history", [])) >= 2)
    frame = read_frame(json.loads(json.dumps(public_frame(cores[0], [None, None], []))))
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = WatchScreen(1, ["Ann", "Bob"], "classic", lambda text: None)
        app.push_screen(screen)
        await pilot.pause()

        def text() -> str:
            return "\n".join(screen_lines(app))

        assert "Waiting for the table" in text()
        screen.frame = frame
        await pilot.pause()
        assert "Waiting for the table" not in text() and "Bazaar:" in text()
        screen.watchers = 3
        await pilot.pause()
        assert "3 watching" in text()
        screen.ended = True
        await pilot.pause()
        assert "The players have left." in text()
        screen.follow(2, ["Cat", "Dan"], "classic")  # a rematch: the frame is gone
        await pilot.pause()
        assert "Watching Cat – Dan" in text() and "Waiting for the table" in text()


async def test_watchers_see_the_newest_frame_a_moment_after_the_players(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames that come within the delay reach a watcher as one, the newest, after it: a
    burst of moves costs each watcher one redraw, made after the players' own."""
    monkeypatch.setattr(lobby_module, "WATCH_DELAY", 0.3)
    lobby = Lobby()
    ann, ann_game, bob, bob_game, host = await two_in_a_duel(lobby)
    duel = host["duel"]
    cat, cat_game = await arrive(lobby, "cat")
    await cat_game.send({"t": "watch", "duel": duel})
    await cat_game.receive("watching")
    for n in (1, 2, 3):
        await ann_game.send({"t": "frame", "duel": duel, "frame": {"n": n}})
    await until(lambda: lobby.live[duel].frame == {"n": 3})
    assert lobby.live[duel].relay is not None  # due, not sent yet
    assert (await cat_game.receive("frame"))["frame"] == {"n": 3}
    await ann_game.send({"t": "frame", "duel": duel, "frame": {"n": 4}})
    assert (await cat_game.receive("frame"))["frame"] == {"n": 4}
    assert b'"frame"' not in cat_game.buffer + await recv_all(cat_game)  # one each time
    for m in (ann, bob, cat):
        lobby.leave(m)
