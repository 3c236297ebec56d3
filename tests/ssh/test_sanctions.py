"""Moderation across the connection, with real asyncssh clients and keys: an operator types
at the lobby's command line; a kick ends the visit with his words; a ban ends it and refuses
the next visit, also after a restart on the same data; a non-operator's command is refused
in words; the duel chat of a muted visitor's game refuses until the mute's time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.ssh.conftest import Terminal
from tests.ssh.test_accounts import come, new_key
from tui_domino.community import sanctions

asyncssh = pytest.importorskip("asyncssh")


async def typed(term: Terminal, line: str) -> None:
    """Types ``line`` at the lobby's command line (``/`` opens it) and sends it."""
    term.press("/")
    await term.wait_for("/help lists the commands")
    term.press(line.lstrip("/"), "enter")


async def test_a_kick_ends_the_visit_with_the_operators_words(
        make_server: Callable[..., Any]) -> None:
    olga_key = new_key()
    server = await make_server(accounts=True, operators=frozenset({olga_key.get_fingerprint()}))
    olga = await come(server, "olga", olga_key)
    await olga.wait_for("Welcome, olga.", "lobby · operator")
    bob = await come(server, "bob", new_key())
    await bob.wait_for("Welcome, bob.", "olga")
    assert "operator" not in bob.text()  # only an operator sees his mark
    await typed(olga, "/kick bob calm down")
    await bob.wait_for("tui-domino: An operator ended your visit: calm down",
                       where=Terminal.output)
    await asyncio.wait_for(bob.closed.wait(), 10)
    await olga.wait_for("bob's visit is over.")
    assert [(s.operator, s.action, s.shown, s.reason) for s in sanctions.history(server.store)
            ] == [("olga", "kick", "bob", "calm down")]
    await olga.close()


async def test_a_ban_ends_the_visit_and_refuses_the_next_also_after_a_restart(
        make_server: Callable[..., Any]) -> None:
    olga_key, bob_key = new_key(), new_key()
    operators = frozenset({olga_key.get_fingerprint()})
    server = await make_server(accounts=True, operators=operators)
    olga = await come(server, "olga", olga_key)
    await olga.wait_for("Welcome, olga.")
    bob = await come(server, "bob", bob_key)
    await bob.wait_for("Welcome, bob.")
    await olga.wait_for("bob")
    await typed(olga, "/ban bob 1d insults")
    said = "You are banned from this server until "
    await bob.wait_for(said, ": insults", where=Terminal.output)
    await asyncio.wait_for(bob.closed.wait(), 10)
    await olga.wait_for("bob is banned until")
    ban = sanctions.history(server.store)[0]
    assert (ban.action, ban.kind, ban.shown, ban.reason) == ("ban", "account", "bob", "insults")
    # the next visit is refused, with the ban's end and its reason
    again = await come(server, "bob", bob_key)
    await again.wait_for(said, ": insults", where=Terminal.output)
    await asyncio.wait_for(again.closed.wait(), 10)
    assert again.exit_status == 1 and "Welcome" not in again.output()
    await olga.close()
    # a restart on the same data keeps it
    await server.close("restarting")
    server = await make_server(accounts=True, operators=operators)
    after = await come(server, "bob", bob_key)
    await after.wait_for(said, ": insults", where=Terminal.output)
    await asyncio.wait_for(after.closed.wait(), 10)
    # lifted, bob comes in again
    olga = await come(server, "olga", olga_key)
    await olga.wait_for("Welcome, olga.")
    await typed(olga, "/unban bob")
    await olga.wait_for("bob is no longer banned.")
    back = await come(server, "bob", bob_key)
    await back.wait_for("Welcome, bob.")
    await back.close()
    await olga.close()


async def test_a_visitor_who_is_no_operator_is_refused_in_words(
        make_server: Callable[..., Any]) -> None:
    server = await make_server(accounts=True, operators=frozenset({new_key().get_fingerprint()}))
    ann = await come(server, "ann", new_key())
    await ann.wait_for("Welcome, ann.")
    bob = await come(server, "bob")
    await bob.wait_for("Welcome, bob.", "ann")
    assert "operator" not in ann.text()
    await typed(ann, "/kick bob")
    await ann.wait_for("Only the server's operators may do that.")
    await typed(ann, "/frobnicate")
    await ann.wait_for("There is no command /frobnicate")  # (a toast covers the rest)
    ann.press("escape")
    await bob.wait_for("ann")
    assert not bob.closed.is_set()
    await bob.close()
    await ann.close()


async def test_a_muted_visitors_duel_chat_refuses_until_its_time(
        home: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's side of a mute: the lobby tells it (``mute``), and its duel's chat
    refuses in the lobby's words until the time has come."""
    from textual.widgets import Input

    from tests.ssh.test_lobby import in_language
    from tui_domino.net.core import MatchSettings
    from tui_domino.net.headless import run_bot
    from tui_domino.net.transport import DuelSession
    from tui_domino.ssh.lobby_duel import LobbyDuelScreen
    from tui_domino.ssh.visitor_app import VisitorApp
    from tui_domino.ui.storage import Settings

    in_language(home, monkeypatch, "en")
    now = [1000.0]
    app = VisitorApp("ann", settings=Settings(computer_delay=0.0))
    app.clock = lambda: now[0]
    host = await DuelSession.host(port=0, addr="127.0.0.1", name="ann",
                                  settings=MatchSettings("classic"))
    guest = await DuelSession.join("127.0.0.1", host.port, name="bob")
    bot = asyncio.ensure_future(run_bot(guest, "greedy", seed=3, in_thread=False))
    try:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            screen = LobbyDuelScreen(host)
            screen.muted = app.chat_refusal
            app.push_screen(screen)
            for _ in range(500):
                await pilot.pause(0.01)
                if host.core.started:
                    break
            words = "An operator closed your chat until 2027-01-15 08:10:00 UTC: spam"
            app.on_lobby_message({"t": "mute", "seconds": 600, "why": words,
                                  "said": "An operator closed your chat until {until}: "
                                          "{reason}",
                                  "values": {"until": "2027-01-15 08:10:00 UTC",
                                             "reason": "spam"}})
            await pilot.press("t")
            await pilot.pause()
            chat = screen.query_one("#chat", Input)
            assert not chat.has_focus and not screen.has_class("-chatting")
            assert any(n.message == words for n in app._notifications)  # noqa: SLF001
            # the watchers' chat, too, refuses in the game (as the lobby would)
            sent: list[dict[str, Any]] = []
            monkeypatch.setattr(app, "send", sent.append)
            app.watch_say("hello")
            now[0] += 599
            assert app.chat_refusal() == words
            now[0] += 1  # its time has come
            assert app.chat_refusal() is None
            app.watch_say("hello")
            assert sent == [{"t": "wchat", "text": "hello"}]
            await pilot.press("t")
            await pilot.pause()
            assert chat.has_focus
            await pilot.press("h", "i", "enter")
            for _ in range(500):
                await pilot.pause(0.01)
                if any(text == "hi" for _seat, text in screen.chat_lines):
                    break
            assert any(text == "hi" for _seat, text in screen.chat_lines)
    finally:
        bot.cancel()
        await guest.close()
        await host.close()
