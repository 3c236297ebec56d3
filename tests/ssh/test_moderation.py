"""Moderation on the lobby's side: the command line read strictly, the operators file, what
operators may do and to whom, mutes (refused chat, their end, their memory), ignoring, and
the limits on chat, seeks and commands with the lobby's clock. Games are socket pairs the
tests speak for, as hostile as any visitor's."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ssh.test_duel import Game, until
from tests.ssh.test_rated_lobby import recv_all
from tests.ssh.test_watching import two_in_a_duel
from tui_domino.community import accounts, sanctions
from tui_domino.community.db import Store, db_path, open_store
from tui_domino.net.guessing import plain_address
from tui_domino.ssh.commands import MAX_DURATION, CommandError, Target, parse, parse_duration
from tui_domino.ssh.limits import Escalation
from tui_domino.ssh.lobby import Lobby, Member
from tui_domino.ssh.operators import OperatorsError, parse_operators

asyncssh = pytest.importorskip("asyncssh")

OP_KEY = asyncssh.generate_private_key("ssh-ed25519")
OP_FINGERPRINT = OP_KEY.get_fingerprint()


class Clock:
    """A clock the test moves (the lobby's, or the database's)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def wall() -> Clock:
    return Clock(1_800_000_000.0)  # 2027-01-15 08:00:00 UTC


@pytest.fixture
def store(tmp_path: Path, wall: Clock) -> Iterator[Store]:
    s = open_store(db_path(tmp_path), now=wall)
    yield s
    s.close()


def lobby_with(store: Store | None, clock: Clock | None = None) -> Lobby:
    lobby = Lobby(clock=clock or Clock(100.0))
    lobby.store = store
    lobby.moderation.operators = frozenset({OP_FINGERPRINT})
    lobby.moderation.dismissed = []  # type: ignore[attr-defined]
    lobby.moderation.dismiss = lambda m, why: (
        lobby.moderation.dismissed.append((m.name, why)),  # type: ignore[attr-defined]
        lobby.leave(m))
    return lobby


async def come(lobby: Lobby, name: str, store: Store | None = None, *, operator: bool = False,
               guest: bool = False, address: str = "203.0.113.7") -> tuple[Member, Game]:
    """``name`` in the lobby: with an account of his own (``operator``: signed in with the
    operators' key), or a guest."""
    key, account = None, None
    if store is not None and not guest:
        key = OP_FINGERPRINT if operator else f"SHA256:{name}"
        signed = accounts.sign_in(store, name, key)
        assert isinstance(signed, accounts.Member)
        account = signed.account.id
    ours, theirs = socket.socketpair()
    member = await lobby.join(name, ours, account, address=address, key=key)
    game = Game(theirs)
    welcome = await game.receive("welcome")
    assert welcome.get("operator", False) is operator
    await game.send({"t": "state", "state": "lobby"})
    await until(lambda: member.state == "lobby")
    return member, game


async def say(game: Game, text: str, kind: str = "notice") -> dict[str, Any]:
    await game.send({"t": "command", "text": text})
    return await game.receive(kind)


# -- the command line ------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [("30s", 30), ("10m", 600), ("2h", 7200),
                                               ("7d", 604800), ("365d", MAX_DURATION)])
def test_a_duration_reads_strictly(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "10", "m", "0m", "10 m", "1.5h", "-5m", "10min", "1w",
                                  "366d", "8761h", "９m", "10M", "99999999999d"])
def test_a_duration_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(CommandError):
        parse_duration(text)


def test_commands_read_strictly() -> None:
    mute = parse("/mute bob 10m  spamming\x1b[31m the chat")
    assert (mute.verb, mute.target, mute.seconds) == ("mute", Target("name", "bob"), 600)
    assert mute.reason == "spamming [31m the chat"  # one printable line
    assert parse(":kick bob").reason == ""
    ban = parse("/ban key:SHA256:" + "A" * 43 + " 1d")
    assert ban.target == Target("key", "SHA256:" + "A" * 43) and ban.seconds == 86400
    assert parse("/ban addr:2001:db8::1 2h x").target == Target("addr", "2001:db8::1")
    assert parse("/unban addr:203.0.113.7").target == Target("addr", "203.0.113.7")
    # as a dual-stack listener reports an IPv4 client, and as the server counts him
    assert parse("/ban addr:::ffff:203.0.113.7 1d").target == Target("addr", "203.0.113.7")
    assert parse("/ignore bob").verb == "ignore" and parse("/help").verb == "help"
    for bad, says in [("/frobnicate bob", "There is no command"),
                      ("/mute bob", "Type: /mute"),
                      ("/mute bob soon", "is not a duration"),
                      ("/ban bob", "Type: /ban"),
                      ("/kick", "Type: /kick"),
                      ("/unmute bob now", "Type: /unmute"),
                      ("/ban key:SHA256:short 1d", "key: takes"),
                      ("/kick key:SHA256:" + "A" * 43, "key: takes"),
                      ("/ban addr:1.2.3.999 1d", "addr: takes"),
                      ("/mute bob 400d", "too long"),
                      ("/ignore " + "x" * 400, "too long"),
                      ("/", "There is no command")]:
        with pytest.raises(CommandError) as refused:
            parse(bad)
        assert says in str(refused.value), bad


def test_the_operators_file_is_read_and_a_bad_line_is_refused_with_its_number() -> None:
    other = asyncssh.generate_private_key("ssh-ed25519")
    text = ("# the operators\n\n"
            + OP_KEY.export_public_key().decode().strip() + " ann@home\n"
            + 'from="10.0.0.0/8",no-pty ' + other.export_public_key().decode())
    assert parse_operators(text) == {OP_FINGERPRINT, other.get_fingerprint()}
    with pytest.raises(OperatorsError, match=r"ops, line 3: not an OpenSSH public key"):
        parse_operators(text.replace("AAAA", "!!!!", 1), "ops")
    with pytest.raises(OperatorsError, match=r"line 2"):
        parse_operators("# ok\nann ALL=(ALL) ALL\n")


def test_serve_refuses_a_bad_operators_file_at_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tui_domino.ssh.cli import main

    bad = tmp_path / "operators"
    bad.write_text(OP_KEY.export_public_key().decode() + "ssh-ed25519 nonsense\n")
    assert main(["serve", "--data", str(tmp_path), "--operators", str(bad)]) == 2
    assert "operators, line 2: not an OpenSSH public key" in capsys.readouterr().err
    bad.write_text(OP_KEY.export_public_key().decode())
    assert main(["serve", "--data", str(tmp_path), "--operators", str(bad),
                 "--password", "x"]) == 2
    assert "--operators needs a server with accounts" in capsys.readouterr().err
    assert main(["serve", "--operators", str(tmp_path / "missing")]) == 2
    assert "cannot read" in capsys.readouterr().err


# -- operators -------------------------------------------------------------------------------

async def test_a_visitor_who_is_no_operator_is_refused_every_operators_command(
        store: Store) -> None:
    lobby = lobby_with(store)
    ann, ann_game = await come(lobby, "ann", store)
    bob, _bob_game = await come(lobby, "bob", store)
    for line in ("/mute bob 10m", "/kick bob", "/ban bob 1d", "/unban bob", "/unmute bob",
                 "/MUTE bob nonsense"):
        refused = await say(ann_game, line, "refused")
        assert refused["said"] == "Only the server's operators may do that.", line
    assert "/mute" not in (await say(ann_game, "/help"))["why"]
    assert bob.id in lobby.members and bob.muted_until == 0
    assert store.db.execute("SELECT COUNT(*) FROM sanctions").fetchone()[0] == 0
    # an operator is told so, and only he
    _op, op_game = await come(lobby, "olga", store, operator=True)
    assert "/mute" in (await say(op_game, "/help"))["why"]
    refused = await say(op_game, "/kick nobody-here", "refused")
    assert refused["said"] == "Nobody here is called {name}."
    for m in list(lobby.members.values()):
        lobby.leave(m)


async def test_a_mute_refuses_watcher_chat_until_its_time_and_follows_the_account(
        store: Store, wall: Clock, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock(100.0)
    lobby = lobby_with(store, clock)
    ann, ann_game, bob, bob_game, host = await two_in_a_duel(lobby)  # (guests)
    cat, cat_game = await come(lobby, "cat", store)
    dan, dan_game = await come(lobby, "dan", store)
    op, op_game = await come(lobby, "olga", store, operator=True)
    for game in (cat_game, dan_game):
        await game.send({"t": "watch", "duel": host["duel"]})
        await game.receive("watching")
    with caplog.at_level(logging.INFO, "tui_domino.ssh"):
        done = await say(op_game, "/mute cat 10m flooding the chat")
    assert done["said"] == "{name}'s chat is closed until {until}."
    assert done["values"] == {"name": "cat", "until": "2027-01-15 08:10:00 UTC"}
    assert "olga: mute cat (account" in caplog.text and "flooding the chat" in caplog.text
    # his game is told (its duel chat refuses), with the words and the time
    told = await cat_game.receive("mute")
    assert told["seconds"] == 600
    assert told["why"] == ("An operator closed your chat until 2027-01-15 08:10:00 UTC: "
                           "flooding the chat")
    await cat_game.send({"t": "wchat", "text": "hello?"})
    refused = await cat_game.receive("refused")
    assert refused["why"] == told["why"]
    assert b"wchat" not in await recv_all(dan_game)
    # kept in the database: a new visit of his account is still muted
    row = sanctions.history(store)[0]
    assert (row.operator, row.action, row.kind, row.shown, row.until, row.reason) == (
        "olga", "mute", "account", "cat", wall.now + 600, "flooding the chat")
    lobby.leave(cat)
    cat, cat_game = await come(lobby, "cat", store)
    assert (await cat_game.receive("mute"))["seconds"] == 600
    await cat_game.send({"t": "watch", "duel": host["duel"]})
    await cat_game.receive("watching")
    # ... until its time
    clock.now += 600
    wall.now += 600
    await cat_game.send({"t": "wchat", "text": "back"})
    assert (await dan_game.receive("wchat"))["text"] == "back"
    # an unmute lifts it early, and his game is told
    await say(op_game, "/mute cat 1h")
    await cat_game.receive("mute")
    assert (await say(op_game, "/unmute cat"))["values"] == {"name": "cat"}
    await cat_game.receive("unmute")
    await cat_game.send({"t": "wchat", "text": "free"})
    assert (await dan_game.receive("wchat"))["text"] == "free"
    assert sanctions.running(store, sanctions.MUTE, [("account", str(cat.account))]) is None
    for m in list(lobby.members.values()):
        lobby.leave(m)


async def test_kick_and_ban_end_the_visit_with_the_operators_words(store: Store) -> None:
    lobby = lobby_with(store)
    _op, op_game = await come(lobby, "olga", store, operator=True)
    bob, _ = await come(lobby, "bob", store)
    eve, _ = await come(lobby, "eve", store, guest=True, address="198.51.100.9")
    await say(op_game, "/kick bob calm down")
    assert lobby.moderation.dismissed == [  # type: ignore[attr-defined]
        ("bob", {"why": "An operator ended your visit: calm down",
                 "said": "An operator ended your visit: {reason}",
                 "values": {"reason": "calm down"}})]
    assert bob.id not in lobby.members
    # a guest's ban is his address's
    done = await say(op_game, "/ban eve 2h insults")
    assert done["values"]["name"] == "eve"
    assert eve.id not in lobby.members
    ban = sanctions.running(store, sanctions.BAN, [("address", "198.51.100.9")])
    assert ban is not None and ban.reason == "insults" and ban.operator == "olga"
    # an account not here is banned by its name
    await say(op_game, "/ban bob 1d")
    assert sanctions.running(store, sanctions.BAN, [("account", str(bob.account))])
    assert (await say(op_game, "/unban bob"))["said"] == "{name} is no longer banned."
    assert sanctions.running(store, sanctions.BAN, [("account", str(bob.account))]) is None
    assert (await say(op_game, "/unban bob", "refused"))["said"] == "{name} is not banned."
    kinds = [(s.action, s.kind) for s in reversed(sanctions.history(store))]
    assert kinds == [("kick", "account"), ("ban", "address"), ("ban", "account"),
                     ("unban", "account")]
    for m in list(lobby.members.values()):
        lobby.leave(m)


async def test_an_operator_is_not_sanctioned_from_the_lobby(store: Store) -> None:
    lobby = lobby_with(store)
    olga, olga_game = await come(lobby, "olga", store, operator=True)
    # a second operator's visit (the same key: one account), and a visitor at his address
    for line in ("/kick olga", "/mute olga 1m", "/ban olga 1d",
                 f"/ban key:{OP_FINGERPRINT} 1d", "/ban addr:203.0.113.7 1d"):
        refused = await say(olga_game, line, "refused")
        assert "is an operator" in refused["why"], line
    lobby.leave(olga)
    # not here: his account (it owns an operators' key) is still refused
    bob, bob_game = await come(lobby, "bob", store)
    bob.operator = True  # (as if bob's key were in the operators file too)
    refused = await say(bob_game, "/ban olga 1d", "refused")
    assert refused["values"] == {"name": "olga"}
    assert store.db.execute("SELECT COUNT(*) FROM sanctions").fetchone()[0] == 0
    lobby.leave(bob)


# -- ignoring --------------------------------------------------------------------------------

async def test_the_ignored_cannot_challenge_offer_a_seek_pair_or_chat_and_is_not_told(
        store: Store) -> None:
    lobby = lobby_with(store)
    lobby.wave = 3600.0  # (the test calls the wave)
    ann, ann_game, bob, bob_game, host = await two_in_a_duel(lobby)
    cat, cat_game = await come(lobby, "cat", store)
    dan, dan_game = await come(lobby, "dan", store)
    done = await say(cat_game, "/ignore dan")
    assert done["values"] == {"name": "dan"}
    assert b"ignore" not in await recv_all(dan_game)  # dan is not told
    # dan's challenge reads as declined
    await dan_game.send({"t": "challenge", "to": cat.id, "variant": "classic"})
    answered = await dan_game.receive("answered")
    assert answered["accept"] is False and answered["why"] == "cat declined."
    assert b"challenged" not in await recv_all(cat_game)
    # dan's seek: not listed for cat (dan marked ignored), and cat cannot take it
    await dan_game.send({"t": "seek", "variant": "classic", "rated": False})
    listed = await cat_game.receive("people")
    dan_listed = next(p for p in listed["people"] if p["id"] == dan.id)
    assert dan_listed["ignored"] is True and "seek" not in dan_listed
    assert "ignored" not in next(p for p in (await dan_game.receive("people"))["people"]
                                 if p["id"] == cat.id)
    await cat_game.send({"t": "take", "seek": dan.id})
    assert (await cat_game.receive("refused"))["said"] == "That seek is gone."
    await dan_game.send({"t": "unseek"})
    # quick pairing keeps them apart
    for game in (cat_game, dan_game):
        await game.send({"t": "quick", "variant": "classic"})
    await until(lambda: cat.quick is not None and dan.quick is not None)
    lobby.pair_wave()
    assert cat.opponent is None and dan.opponent is None
    for game in (cat_game, dan_game):
        await game.send({"t": "unquick"})
    # dan's watcher chat does not reach cat
    for game in (cat_game, dan_game):
        await game.send({"t": "watch", "duel": host["duel"]})
        await game.receive("watching")
    await dan_game.send({"t": "wchat", "text": "psst"})
    await dan_game.receive("wchat")
    assert b"psst" not in await recv_all(cat_game)
    # the list follows cat's account to his next visit; /unignore ends it
    assert sanctions.ignored_by(store, cat.account) == {dan.account}
    lobby.leave(cat)
    cat, cat_game = await come(lobby, "cat", store)
    assert cat.ignoring == {f"a:{dan.account}"}
    assert (await say(cat_game, "/unignore dan"))["said"] == "You no longer ignore {name}."
    assert sanctions.ignored_by(store, cat.account) == set()
    for m in list(lobby.members.values()):
        lobby.leave(m)


async def test_a_guest_ignores_for_his_visit_by_the_lists_key(store: Store) -> None:
    lobby = lobby_with(store)
    eve, eve_game = await come(lobby, "eve", store, guest=True)
    dan, dan_game = await come(lobby, "dan", store)
    await eve_game.send({"t": "ignore", "to": dan.id})
    assert (await eve_game.receive("notice"))["values"] == {"name": "dan"}
    await dan_game.send({"t": "challenge", "to": eve.id, "variant": "classic"})
    assert (await dan_game.receive("answered"))["why"] == "eve declined."
    await eve_game.send({"t": "ignore", "to": dan.id})  # the key again: no longer
    assert (await eve_game.receive("notice"))["said"] == "You no longer ignore {name}."
    assert (await say(eve_game, "/ignore eve", "refused"))["said"] == \
        "You cannot ignore yourself."
    assert store.db.execute("SELECT COUNT(*) FROM ignores").fetchone()[0] == 0
    for m in (eve, dan):
        lobby.leave(m)


# -- limits ----------------------------------------------------------------------------------

def test_the_automatic_mute_escalates_and_a_quiet_hour_resets_it() -> None:
    clock = Clock(0.0)
    esc = Escalation(clock=clock)
    given = []
    for _ in range(4):  # four bursts of three refusals, a few minutes apart
        given.append([esc.hit("eve") for _ in range(3)])
        clock.now += 400
    assert given == [[None, None, 30.0], [None, None, 120.0], [None, None, 300.0],
                     [None, None, 300.0]]
    # refusals spread wider than a minute do not add up
    for _ in range(3):
        assert esc.hit("bob") is None
        clock.now += 61
    clock.now += 3600  # a quiet hour: eve starts again from the first step
    assert [esc.hit("eve") for _ in range(3)] == [None, None, 30.0]


async def test_a_watcher_who_keeps_writing_too_fast_is_muted_30s_then_120s(
        store: Store, wall: Clock) -> None:
    clock = Clock(100.0)
    lobby = lobby_with(store, clock)
    ann, ann_game, bob, bob_game, host = await two_in_a_duel(lobby)
    cat, cat_game = await come(lobby, "cat", store)
    await cat_game.send({"t": "watch", "duel": host["duel"]})
    await cat_game.receive("watching")

    async def flood() -> dict[str, Any]:
        for i in range(6):  # three lines pass, three are refused
            await cat_game.send({"t": "wchat", "text": f"line {i}"})
        return await cat_game.receive("mute")

    muted = await flood()
    assert muted["seconds"] == 30
    assert muted["said"] == "Your chat is closed until {until}: too many lines too fast."
    await cat_game.send({"t": "wchat", "text": "again"})
    assert (await cat_game.receive("refused"))["said"] == muted["said"]
    clock.now += 31
    wall.now += 31
    assert (await flood())["seconds"] == 120
    auto = sanctions.history(store)
    assert [(s.operator, s.action, s.until - s.at) for s in auto] == [
        ("server", "mute", 120), ("server", "mute", 30)]
    for m in list(lobby.members.values()):
        lobby.leave(m)


async def test_seeks_and_commands_are_capped_per_minute() -> None:
    clock = Clock(100.0)
    lobby = lobby_with(None, clock)
    ann, ann_game = await come(lobby, "ann")
    bob, _bob_game = await come(lobby, "bob")
    for _ in range(10):
        await ann_game.send({"t": "seek", "variant": "classic", "rated": False})
        await ann_game.send({"t": "unseek"})
    await ann_game.send({"t": "quick", "variant": "classic"})  # the eleventh offer
    refused = await ann_game.receive("refused")
    assert refused["said"] == "Too many seeks in a minute: wait a little before the next."
    assert ann.quick is None
    clock.now += 60
    await ann_game.send({"t": "seek", "variant": "classic", "rated": False})
    await until(lambda: ann.seek is not None)
    # ten commands a minute (the ignore key counts)
    for i in range(10):
        await ann_game.send({"t": "ignore", "to": bob.id} if i % 2 else
                            {"t": "command", "text": "/help"})
    refused = await say(ann_game, "/help", "refused")
    assert refused["said"] == "Too many commands in a minute: wait a little."
    clock.now += 60
    assert "/ignore" in (await say(ann_game, "/help"))["why"]
    for m in (ann, bob):
        lobby.leave(m)


@pytest.mark.parametrize("message", [
    {"t": "command"}, {"t": "command", "text": 5}, {"t": "command", "text": ["/help"]},
    {"t": "command", "text": "/mute \x00 10m"}, {"t": "command", "text": "\u202e/kick ann"},
    {"t": "ignore"}, {"t": "ignore", "to": "2"}, {"t": "ignore", "to": True},
    {"t": "ignore", "to": 10**30}, {"t": "mute", "seconds": 600}, {"t": "unmute"},
])
async def test_a_hostile_moderation_message_changes_nothing(
        store: Store, message: dict[str, Any]) -> None:
    lobby = lobby_with(store)
    ann, ann_game = await come(lobby, "ann", store)
    bob, _bob_game = await come(lobby, "bob", store)
    await ann_game.send(message)
    assert "/ignore" in (await say(ann_game, "/help"))["why"]  # the lobby still answers
    assert not ann.ignoring and not bob.ignoring and bob.muted_until == 0
    assert bob.id in lobby.members and ann.id in lobby.members
    assert store.db.execute("SELECT COUNT(*) FROM sanctions").fetchone()[0] == 0
    for m in (ann, bob):
        lobby.leave(m)


@pytest.mark.parametrize(("seen", "counted"), [
    ("::ffff:203.0.113.7", "203.0.113.7"), ("203.0.113.7", "203.0.113.7"),
    ("2001:DB8:0::1", "2001:db8::1"), ("?", "?")])
def test_one_client_has_one_address_whatever_the_listener_reports(seen: str,
                                                                  counted: str) -> None:
    assert plain_address(seen) == counted
