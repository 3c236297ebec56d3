"""A seat that survives its connection, with real asyncssh clients and keys: a player whose
connection drops mid-duel and who comes back with his key within the seat's time is at his
table again (the same hand, moves and chat), his opponent reads that he is away and back
and no forfeit, and the match goes on to its end, rated once. A second connection takes the
seat over from one still open; one who does not come back loses by his own game's word; a
guest is told at the duel's start that a key keeps his seat."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
from collections.abc import Callable
from typing import Any

import pytest

from tests.ssh.conftest import TEST_LIMITS, Terminal, eventually, visit
from tests.ssh.playing import SshPlayer, play_out
from tests.ssh.test_accounts import come, new_key
from tests.ssh.test_rated_duel import results
from tui_domino.community import ratings
from tui_domino.ssh.limits import Limits
from tui_domino.ssh.server import GameServer


def limits(**kw: Any) -> Limits:
    values = {**TEST_LIMITS.__dict__, **kw}
    return Limits(**values)


async def keyed_duel(server: GameServer) -> tuple[Terminal, Terminal, Any]:
    """ann and bob, each with his key, in a rated duel that each has made a move in;
    returns bob's key too."""
    bob_key = new_key()
    ann, bob = await come(server, "ann", new_key()), await come(server, "bob", bob_key)
    await asyncio.gather(ann.wait_for("bob 1500?"), bob.wait_for("ann 1500?"))
    bob.press("enter")
    await ann.wait_for("bob challenges you")
    ann.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
    await eventually(lambda: "Your turn" in ann.text() or "Your turn" in bob.text(),
                     "someone to play")
    first, second = (ann, bob) if "Your turn" in ann.text() else (bob, ann)
    first.press("enter")
    shown = await second.wait_until(
        lambda s: "Your turn" in s and "Your hand · 7 tiles" in s
        and ("⏎ play" in s or "press d to draw" in s), "the second player's hint")
    second.press("enter" if "⏎ play" in shown else "d")
    await second.wait_until(lambda s: "Your hand · 7 tiles" not in s, "the second move")
    return ann, bob, bob_key


def hand(screen: str) -> str:
    """The hand as the screen shows it: its title's words and its tiles (whatever the
    terminal's width)."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "Your hand" in line)
    title = re.search(r"Your hand · \d+ tiles?", lines[start])
    assert title is not None
    return "\n".join([title.group(0), *(line.rstrip() for line in lines[start + 1:start + 4])])


async def still(term: Terminal, *texts: str, quiet: float = 0.3) -> str:
    """The screen once it shows ``texts`` and has not changed for ``quiet`` seconds (a
    frame can reach the client in pieces)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    shown, since = term.text(), loop.time()
    while True:
        await asyncio.sleep(0.05)
        now = term.text()
        if now != shown:
            shown, since = now, loop.time()
        elif loop.time() - since >= quiet and all(t in shown for t in texts):
            return shown
        assert loop.time() < deadline, f"never still with {texts!r}:\n{shown}"


async def back(server: GameServer, name: str, key: Any) -> Terminal:
    """``name`` connects again with ``key`` (his seat is still in the lobby: no wait)."""
    return await visit(server.port, name, client_keys=[key], password="", kbdint_auth=True)


@pytest.fixture
async def open_server(make_server: Callable[..., Any]) -> GameServer:
    return await make_server(accounts=True, duel_target=1)


async def test_a_dropped_player_comes_back_to_his_table_and_the_match_goes_on(
        open_server: GameServer) -> None:
    ann, bob, bob_key = await keyed_duel(open_server)
    bob.press("t")
    await bob.wait_for("Say something to ann")
    bob.press(*"see you")
    bob.press("enter")
    await ann.wait_for("see you")
    before = hand(await still(bob, "see you"))
    bob.conn.abort()  # his client is killed: the connection drops without a word
    await ann.wait_for("away, seat kept", "bob's connection is")
    bob = await back(open_server, "bob", bob_key)
    await bob.wait_for("Your hand", "Welcome back: your seat", "◷ ")
    await bob.wait_until(lambda s: hand(s) == before,  # the same hand (and moves, chat)
                         f"the same hand as\n{before}")
    await ann.wait_for("bob is back.")
    assert "forfeit" not in ann.text()
    await play_out([SshPlayer(ann), SshPlayer(bob)])
    await eventually(lambda: results(open_server) == [(1, ratings.RATED)], "rated once")
    assert "forfeit" not in ann.text() + bob.text()
    await asyncio.gather(ann.close(), bob.close())


async def test_a_new_connection_takes_the_seat_over_from_one_still_open(
        open_server: GameServer) -> None:
    ann, bob, bob_key = await keyed_duel(open_server)
    before = hand(await still(bob, "◷ "))
    again = await back(open_server, "bob", bob_key)  # (his old client never said goodbye)
    await again.wait_until(lambda s: "Your hand" in s and hand(s) == before,
                           f"the same hand as\n{before}")
    await bob.wait_until(lambda _s: bob.closed.is_set(), "the old connection closed")
    assert "Your game continues on your new connection." in bob.output()
    assert "forfeit" not in ann.text() and "connection is lost" not in ann.text()
    await asyncio.gather(ann.close(), again.close())


async def test_a_player_who_does_not_come_back_loses_by_his_own_games_word(
        make_server: Callable[..., Any]) -> None:
    server = await make_server(accounts=True, limits=limits(seat_window=1.0))
    ann, bob, _key = await keyed_duel(server)
    bob.conn.abort()
    await ann.wait_for("away, seat kept")
    shown = await ann.wait_for("Match over")
    assert re.search(r"bob left the match \(did not come back\)", shown), shown
    await eventually(lambda: results(server) == [(1, ratings.RATED)], "rated once")
    await eventually(lambda: not server.seats.held, "the seat given up")
    await ann.close()


async def test_a_guest_is_told_that_a_key_keeps_his_seat(open_server: GameServer) -> None:
    ann, bob = await come(open_server, "ann"), await come(open_server, "bob")
    await asyncio.gather(ann.wait_for("bob"), bob.wait_for("ann"))
    await eventually(lambda: "bob" in ann.text(), "bob listed")
    bob.press("enter")
    await ann.wait_for("bob challenges you")
    ann.press("a")
    for term in (ann, bob):
        await term.wait_for("Your hand", "You play as a guest")
    bob.conn.abort()  # a guest's seat ends with his connection
    await ann.wait_until(lambda s: "connection is lost" in s or "reconnect" in s.lower()
                         or "waiting for it" in s, "the drop seen")
    assert not open_server.seats.held
    await ann.close()


async def test_a_staller_loses_on_both_screens_and_is_rated_once(
        make_server: Callable[..., Any]) -> None:
    server = await make_server(accounts=True, turn_seconds=10)
    ann, bob, _key = await keyed_duel(server)
    await eventually(lambda: "Your turn" in ann.text() or "Your turn" in bob.text(),
                     "someone to play")
    staller, other = (ann, bob) if "Your turn" in ann.text() else (bob, ann)
    name = "ann" if staller is ann else "bob"
    said = f"{name} took more than 10 seconds over one move"
    lost = await staller.wait_for("Match over", "You lose the match:", said.split(" over")[0])
    won = await other.wait_for("Match over", said.split(" over")[0], "You win the match!")
    assert "You win" not in lost and "You lose" not in won
    assert "did not come back" not in staller.text() + other.text()
    await eventually(lambda: results(server) == [(1, ratings.RATED)], "rated once")
    store = server.store
    assert store is not None
    from tui_domino.community import accounts
    loser = accounts.account_named(store, name)
    assert loser is not None
    assert ratings.standing(store, loser.id, "classic").losses == 1
    await asyncio.gather(ann.close(), bob.close())


def kill_game(server: GameServer, name: str) -> None:
    """Kills ``name``'s game process (as a crash would end it), not his connection."""
    visit = next(v for v in server.visits if v.member is not None and v.member.name == name)
    proc = getattr(visit, "proc", None)
    assert proc is not None
    os.killpg(proc.pid, signal.SIGKILL)


async def test_a_game_killed_mid_duel_is_taken_up_from_its_log_by_a_fresh_one(
        open_server: GameServer) -> None:
    """His game's process killed (not his connection): a fresh game starts on the same
    connection, its lobby offers the duel first, and b takes it up from the log."""
    ann, bob, _bob_key = await keyed_duel(open_server)
    before = hand(await still(bob, "◷ "))
    kill_game(open_server, "bob")
    await ann.wait_for("away, seat kept")
    await bob.wait_for("Your duel with ann waits for you: b takes you back")
    told = " ".join(bob.output().split())
    assert "The game stopped unexpectedly" in told and "A new one starts" in told
    bob.press("b")
    shown = await bob.wait_for("Your hand", "◷ ")
    await bob.wait_until(lambda s: hand(s) == before, f"the same hand as\n{before}")
    await ann.wait_for("bob is back")
    assert "forfeit" not in ann.text() and "forfeit" not in shown
    await play_out([SshPlayer(ann), SshPlayer(bob)])
    await eventually(lambda: results(open_server) == [(1, ratings.RATED)], "rated once")
    await asyncio.gather(ann.close(), bob.close())


async def test_a_duel_whose_game_stopped_is_taken_up_by_another_connection(
        open_server: GameServer) -> None:
    """His game killed and his connection gone too: his next connection's lobby offers the
    duel, and b takes it up."""
    ann, bob, bob_key = await keyed_duel(open_server)
    before = hand(await still(bob, "◷ "))
    bob.conn.abort()
    await ann.wait_for("away, seat kept")  # (his seat is held: his game lives on)
    held = open_server.seats.held
    await eventually(lambda: bool(held), "the seat held")
    game = next(iter(held.values())).game
    os.killpg(game.proc.pid, signal.SIGKILL)  # ... then it stops too
    await eventually(lambda: bool(open_server.lobby.returns), "the duel waits")
    again = await back(open_server, "bob", bob_key)
    await again.wait_for("Your duel with ann waits for you: b takes you back")
    again.press("b")
    await again.wait_until(lambda s: "Your hand" in s and hand(s) == before,
                           f"the same hand as\n{before}")
    await ann.wait_for("bob is back")
    await asyncio.gather(ann.close(), again.close())


async def test_a_killed_game_not_taken_up_in_time_loses_on_the_others_word(
        make_server: Callable[..., Any]) -> None:
    server = await make_server(accounts=True, limits=limits(seat_window=1.0))
    ann, bob, _key = await keyed_duel(server)
    kill_game(server, "bob")
    shown = await ann.wait_for("Match over", "You win the match!")
    assert "bob did not come back" in shown.replace("\n", " ") or "did not come" in shown
    await eventually(lambda: results(server) == [(1, ratings.RATED)], "rated once")
    await ann.close()


async def test_three_aborts_in_a_day_close_pairing_and_the_player_is_told_why(
        open_server: GameServer) -> None:
    """Leaving three duels before one's first move (his game reports it at each end): the
    third bans pairing, and he is told why and for how long, then and at each try."""
    ann = await come(open_server, "ann", new_key())
    bob = await come(open_server, "bob", new_key())
    await asyncio.gather(ann.wait_for("bob 1500?"), bob.wait_for("ann 1500?"))
    for n in range(3):
        ann.press("enter")  # ann challenges bob
        await bob.wait_for("ann challenges you")
        bob.press("a")
        await bob.wait_for("Your hand", "◷")
        bob.press("escape")  # bob looks at his hand and leaves
        await bob.wait_for("Leave the duel?")
        bob.press("y")
        await bob.wait_for("Welcome, bob.")
        await ann.wait_for("Match over")
        for _ in range(10):  # ann back to the lobby (a key as the box came is not taken)
            ann.press("escape")
            with contextlib.suppress(AssertionError):
                await ann.wait_for("Welcome, ann.", timeout=1.5)
                break
        await eventually(lambda k=n: len(offences(open_server, "bob")) == k + 1,
                         f"offence {n + 1} kept")
    await bob.wait_until(lambda _s: "You left or stalled 3 duels" in bob.output(),
                         "told at once (his screen, as drawn)")
    said = bob.output().count("stalled 3 duels")
    bob.press("k")  # quick pairing: refused, and told again
    await bob.wait_until(lambda _s: bob.output().count("stalled 3 duels") > said,
                         "told again")
    bob_member = next(m for m in open_server.lobby.members.values() if m.name == "bob")
    assert bob_member.quick is None and bob_member.seek is None
    await asyncio.gather(ann.close(), bob.close())


def offences(server: GameServer, name: str) -> list[tuple[float, str]]:
    from tui_domino.community import accounts, playban

    assert server.store is not None
    account = accounts.account_named(server.store, name)
    return playban.offences(server.store, account.id) if account is not None else []


async def test_a_new_connection_takes_over_the_duel_not_another_game_of_the_account(
        open_server: GameServer) -> None:
    key = new_key()
    ann = await come(open_server, "ann", key)
    other = await back(open_server, "ann", key)  # her second window, in the lobby
    await other.wait_for("Welcome, ann-2.")
    bob = await come(open_server, "bob", new_key())
    await ann.wait_for("bob 1500?")
    await eventually(lambda: "bob" in ann.text(), "bob listed")
    await bob.wait_until(lambda s: re.search(r"ann 1500\?", s) is not None, "ann listed")
    bob.press("enter")  # bob challenges the first listed: ann's first window
    await ann.wait_for("bob challenges you")
    ann.press("a")
    await ann.wait_for("Your hand", "◷")
    before = hand(await still(ann, "◷ "))
    third = await back(open_server, "ann", key)
    await third.wait_until(lambda s: "Your hand" in s and hand(s) == before, "her table")
    await ann.wait_until(lambda _s: ann.closed.is_set(), "the first window closed")
    assert "Welcome, ann-2." in other.text() and not other.closed.is_set()  # untouched
    await asyncio.gather(third.close(), other.close(), bob.close())


async def test_a_server_that_closes_stops_the_games_it_holds(open_server: GameServer) -> None:
    ann, bob, _key = await keyed_duel(open_server)
    bob.conn.abort()
    await eventually(lambda: bool(open_server.seats.held), "his seat held")
    held = next(iter(open_server.seats.held.values())).game
    await asyncio.wait_for(open_server.close("The tests are over."), 30)
    assert held.proc.returncode is not None and not open_server.seats.held
    await ann.wait_for("The tests are over.", where=Terminal.output)
