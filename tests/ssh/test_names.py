"""Names that look alike on a terminal are told apart in the lobby."""

from __future__ import annotations

import asyncio
import socket
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from tests.ssh.conftest import visit
from tui_domino.names import player_name, skeleton
from tui_domino.ssh.lobby import Lobby
from tui_domino.ssh.server import GameServer
from tui_domino.text import one_line, visible

# Unicode's Default_Ignorable_Code_Point, as DerivedCoreProperties.txt lists it.
IGNORABLE_RANGES = """00AD 034F 061C 115F-1160 17B4-17B5 180B-180F 200B-200F 202A-202E
    2060-206F 3164 FE00-FE0F FEFF FFA0 FFF0-FFF8 1BCA0-1BCA3 1D173-1D17A E0000-E0FFF"""
IGNORABLE = frozenset(
    chr(code)
    for part in IGNORABLE_RANGES.split()
    for first, last in [(part.split("-") * 2)[:2]]
    for code in range(int(first, 16), int(last, 16) + 1))
# Blanks: the braille pattern blank and the space separators (Zs) besides the plain space.
BLANKS = "\u2800\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
    "\u202f\u205f\u3000"
MARKS = "\u0301\u0308\u0332\u20dd\u0903"  # combining marks: Mn, Me and Mc


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




def test_the_ignorable_characters_are_unicodes() -> None:
    from tui_domino.text import default_ignorable

    codes = [*range(0x20000), *range(0xE0000, 0xE1100)]
    assert [c for c in codes if default_ignorable(chr(c)) != (chr(c) in IGNORABLE)] == []
    assert all(unicodedata.category(c) == "Zs" for c in BLANKS[1:])


def test_an_invisible_character_does_not_tell_a_name_apart() -> None:
    for c in sorted(IGNORABLE) + list(BLANKS):
        for name in (f"ann{c}", f"a{c}nn", f"{c}ann"):
            assert player_name(name) == "ann", f"U+{ord(c):04X}"
            assert skeleton(name) == skeleton("ann"), f"U+{ord(c):04X}"


def test_a_name_of_nothing_that_shows_is_a_guest() -> None:
    for name in [MARKS, "\u3164", "\u115f\u1160", "\uffa0", "\u2800\u2800", "\u17b4\u17b5",
                 "\ufe0f", "\u3000\u2003", "\u200b\u0301", "\u3164\u0301", "\U000e0041",
                 "\u034f" + MARKS, "\u2800\u0308"]:
        assert player_name(name) == "guest", ascii(name)


def test_a_combining_mark_shows_only_on_a_character() -> None:
    assert player_name("\u0301ann") == "ann"  # at the start
    assert player_name("ann\u200b\u0301") == "ann"  # after a character left out
    assert player_name("ann\u3164\u0308\u0301") == "ann"
    assert player_name("q\u0303x") == "q\u0303x"  # on a letter it stays
    assert player_name("ann\u0301") == "an\u0144"  # (NFKC: one character)
    assert skeleton("q\u0303x") != skeleton("qx")


@given(st.text(st.one_of(st.characters(), st.sampled_from(
    sorted(IGNORABLE)[:200] + ["\U000e0020", "\U000e0100", *BLANKS, *MARKS, " ", "a"]))))
def test_a_player_name_shows_whole(username: str) -> None:
    name = player_name(username)
    assert name and len(name) <= 16
    assert not IGNORABLE & set(name)
    assert not any(c.isspace() or c in BLANKS or not c.isprintable() for c in name)
    assert not unicodedata.category(name[0]).startswith("M")
    assert skeleton(name) == skeleton(player_name(name))


async def test_a_name_with_invisible_characters_joins_the_lobby_numbered() -> None:
    lobby = Lobby()
    pairs = [socket.socketpair() for _ in range(5)]
    try:
        names = []
        for (ours, _theirs), name in zip(pairs, ["ann", "ann\u3164", "ann\u17b4", "\u115fann",
                                                 "\u2800\u0301"], strict=True):
            names.append((await lobby.join(name, ours)).name)
        assert names == ["ann", "ann-2", "ann-3", "ann-4", "guest"]
    finally:
        for member in list(lobby.members.values()):
            lobby.leave(member)
        for _ours, theirs in pairs:
            theirs.close()


def test_a_chat_line_shows_its_invisible_characters_as_escapes() -> None:
    assert visible("hi\u3164") == "hi\\u3164"
    assert one_line("ok \u17b4\ufe0f bye\U000e0041") == "ok \\u17b4\\ufe0f bye\\U000e0041"
    assert visible("\u2800 caf\u00e9 \u0431\u0433") == "\u2800 caf\u00e9 \u0431\u0433"
