"""Accounts at connection, with real asyncssh clients and keys: a name is owned by the
first key that uses it, refused to any other key and to a visitor without one, in words
that say why; a second key comes in by a one-time code; a visitor without a key is a
guest, marked so in the lobby."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.ssh.conftest import Terminal, eventually, visit
from tui_domino.community import accounts
from tui_domino.ssh.server import GameServer

asyncssh = pytest.importorskip("asyncssh")


def new_key() -> Any:
    return asyncssh.generate_private_key("ssh-ed25519")


async def come(server: GameServer, name: str, key: Any = None) -> Terminal:
    """A visitor with ``key`` (None: none; keyboard-interactive then, as ssh clients do),
    once the lobby has seen the name's last visit go (a client's close returns before the
    server has heard of it: a second visit while the first is still there is ``ann-2``)."""
    base, lobby = name.split("+", 1)[0], getattr(server, "lobby", None)  # (a server in a
    if lobby is not None:  # process of its own, tests/ssh/test_restart.py, is not looked at)
        await eventually(lambda: all(m.name != base for m in lobby.members.values()),
                         f"{base}'s last visit over")
    return await visit(server.port, name, client_keys=[key] if key is not None else None,
                       password="", kbdint_auth=True)


async def refused(server: GameServer, name: str, key: Any = None) -> str:
    """Why the server refuses ``name`` with ``key``: during the login, or just after it
    (a code is checked once the key is proven)."""
    lost: asyncio.Future[Exception | None] = asyncio.get_running_loop().create_future()

    class Client(asyncssh.SSHClient):  # type: ignore[misc]
        def connection_lost(self, exc: Exception | None) -> None:
            if not lost.done():
                lost.set_result(exc)

    try:
        conn = await asyncssh.connect(
            "127.0.0.1", server.port, username=name, known_hosts=None, agent_path=None,
            client_keys=[key] if key is not None else None, password="", kbdint_auth=True,
            client_factory=Client)
    except asyncssh.DisconnectError as exc:
        return str(exc.reason)
    async with conn:
        exc = await asyncio.wait_for(lost, 10)
    assert isinstance(exc, asyncssh.DisconnectError)
    return str(exc.reason)


@pytest.fixture
async def open_server(make_server: Callable[..., Any]) -> GameServer:
    return await make_server(accounts=True)


async def test_a_claimed_name_is_refused_to_another_key_and_open_to_its_owner(
        open_server: GameServer) -> None:
    ann, eve = new_key(), new_key()
    first = await come(open_server, "ann", ann)
    await first.wait_for("Welcome, ann.")
    await first.close()
    assert open_server.store is not None
    owner = accounts.account_named(open_server.store, "ann")
    assert owner is not None
    assert accounts.keys_of(open_server.store, owner.id) == [ann.get_fingerprint()]
    why = await refused(open_server, "ann", eve)
    assert "The name ann belongs to another player's key" in why and "ann+CODE" in why
    # a look-alike (a Cyrillic а) is refused too, told the owned spelling
    assert "The name ann belongs" in await refused(open_server, "\u0430nn", eve)
    again = await come(open_server, "ann", ann)
    await again.wait_for("Welcome, ann.")
    await again.close()


async def test_a_guest_is_refused_a_claimed_name_and_marked_in_the_lobby(
        open_server: GameServer) -> None:
    ann = new_key()
    owner = await come(open_server, "ann", ann)
    await owner.wait_for("Welcome, ann.")
    assert "The name ann belongs to another player's key" in await refused(open_server, "ann")
    guest = await come(open_server, "bob")
    shown = await guest.wait_for("Welcome, bob.", "Play alone")
    assert "Key code" not in shown  # a guest has no keys to add to
    await owner.wait_for("bob · guest", "c: a one-time code")
    await guest.close()
    await owner.close()


async def test_a_key_that_owns_a_name_is_told_which(open_server: GameServer) -> None:
    ann = new_key()
    term = await come(open_server, "ann", ann)
    await term.wait_for("Welcome, ann.")
    await term.close()
    assert "This key belongs to ann: connect as ann." in await refused(open_server, "bob", ann)


async def test_a_second_key_is_added_by_its_code(open_server: GameServer) -> None:
    first, second = new_key(), new_key()
    term = await come(open_server, "ann", first)
    await term.wait_for("Welcome, ann.")
    store = open_server.store
    assert store is not None
    account = accounts.account_named(store, "ann")
    assert account is not None
    term.press("c")  # the lobby shows a one-time code for another key
    shown = await term.wait_until(lambda s: "ann+" in s, "the code")
    code = shown.split("ann+", 1)[1].split()[0]
    await term.close()
    assert "wrong, used or" in await refused(open_server, "ann+ABCD-EFGH", second)
    other = await come(open_server, f"ann+{code}", second)
    await other.wait_for("Welcome, ann.")
    await other.close()
    assert set(accounts.keys_of(store, account.id)) == {first.get_fingerprint(),
                                                      second.get_fingerprint()}
    # the code is spent; the new key now signs in as ann by itself
    again = await come(open_server, "ann", second)
    await again.wait_for("Welcome, ann.")
    await again.close()


async def test_the_lobby_shows_each_accounts_rating_for_the_game_chosen(
        open_server: GameServer) -> None:
    from tui_domino.community import glicko2, ratings
    from tui_domino.community.rated import END, Rated

    store = open_server.store
    assert store is not None
    ann, bob = new_key(), new_key()
    first = await come(open_server, "bob", bob)
    await first.wait_for("Welcome, bob.")
    await first.close()
    owner = accounts.account_named(store, "bob")
    other = accounts.sign_in(store, "carl", "SHA256:carl")
    assert owner is not None and isinstance(other, accounts.Member)
    # bob has played one rated match of spider (won), none of classic
    ratings.record(store, "m1", Rated("spider", (owner.id, other.account.id), 1.0, END))
    spider = ratings.standing(store, owner.id, "spider").rating
    assert glicko2.provisional(spider)
    term = await come(open_server, "ann", ann)
    bob_term = await come(open_server, "bob", bob)
    await bob_term.wait_for("Welcome, bob.")
    guest = await come(open_server, "dora")
    await guest.wait_for("Welcome, dora.")
    await term.wait_for("bob 1500?", "dora · guest")
    term.press("v")  # the game chosen: spider
    await term.wait_for(f"bob {spider.rating:.0f}?", "dora · guest")
    for t in (term, bob_term, guest):
        await t.close()


async def test_wrong_codes_at_the_ssh_door_are_failed_logins_of_the_address(
        make_server: Callable[..., Any]) -> None:
    """A stranger's wrong codes voided the owner's; now they lock the stranger's address
    out, and the owner's code still adds his key."""
    from dataclasses import replace

    from tests.ssh.conftest import TEST_LIMITS

    server = await make_server(accounts=True, limits=replace(TEST_LIMITS, fail_count=2))
    ann = new_key()
    first = await come(server, "ann", ann)
    await first.wait_for("Welcome, ann.")
    await first.close()
    assert server.store is not None
    owner = accounts.account_named(server.store, "ann")
    assert owner is not None
    code = accounts.new_code(server.store, owner.id)
    wrong = "ZZZZ-ZZZZ" if code != "ZZZZ-ZZZZ" else "YYYY-YYYY"
    said = [await refused(server, f"ann+{wrong}", new_key()) for _ in range(2)]
    assert "code" in said[0]
    assert "too many failed logins" in await refused(server, f"ann+{code}", new_key())
    server.failed = type(server.failed)(10, 600, 600)  # (the lockout lifted, for the owner)
    laptop = new_key()
    again = await come(server, f"ann+{code}", laptop)  # his code is still good
    await again.wait_for("Welcome, ann.")
    await again.close()
