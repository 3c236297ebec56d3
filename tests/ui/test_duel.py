"""The network duel in the app: setting it up from the menu, playing through the keys,
chatting, leaving, the end of a match, and the messages for what goes wrong. Everything
on 127.0.0.1 with free ports; every wait has a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static, TabbedContent

from tests.ui.conftest import DEADLINE, footer_filled, make_app, until
from tests.ui.helpers import assert_footer_fits, footer_actions, footer_keys
from tui_domino.net import events as ev
from tui_domino.net.core import MatchSettings
from tui_domino.net.headless import run_bot
from tui_domino.net.transport import DuelSession
from tui_domino.ui.screens.duel import DuelOverScreen, DuelScreen, LeaveScreen
from tui_domino.ui.screens.duel_run import push_duel
from tui_domino.ui.screens.net_setup import DuelSetupScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.session import duel_name
from tui_domino.ui.widgets.hand import HandView


def text_of(screen: Any, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def duel_of(app: Any) -> DuelScreen:
    screen = next((s for s in app.screen_stack if isinstance(s, DuelScreen)), None)
    assert screen is not None, app.screen_stack
    return screen


@contextlib.asynccontextmanager
async def hosting_a_bot(app: Any, settings: MatchSettings
                        ) -> AsyncIterator[tuple[DuelSession, DuelScreen, asyncio.Future[Any]]]:
    """The app hosts a duel on the loopback and a greedy bot joins it: (the host's session,
    its duel screen, the bot's task, whose result is the bot's view of the match)."""
    host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann", settings=settings)
    screen = push_duel(app, host)
    guest = await DuelSession.join("127.0.0.1", host.port, name="Robot")
    bot = asyncio.ensure_future(run_bot(guest, "greedy", seed=3, in_thread=False))
    try:
        yield host, screen, bot
    finally:
        bot.cancel()
        await guest.close()
        await host.close()


async def play_a_turn(pilot: Pilot[Any], screen: DuelScreen) -> None:
    """What a player does on his turn: Enter on a tile that fits, else draw, else pass."""
    if screen.sel.build_move() is not None:
        await pilot.press("enter")
    elif screen.sel.can("draw"):
        await pilot.press("d")
    else:
        await pilot.press("p")


def refusing_port() -> socket.socket:
    """A socket bound to a loopback port and never listening: a connection to it is refused
    for as long as the socket is held, and no other test can take the port meanwhile."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    return s


async def test_host_and_join_from_the_menu_play_and_chat() -> None:
    ann_app, bob_app = make_app(seed=1), make_app(seed=2)
    ann_app.settings.name, bob_app.settings.name = "Ann", "Bob"
    async with ann_app.run_test(size=(80, 24)) as ann, \
            bob_app.run_test(size=(80, 24)) as bob:
        both = [ann, bob]
        # Ann hosts on a free port of the loopback
        await ann.press("d")
        await until(both, lambda: isinstance(ann_app.screen, DuelSetupScreen), "the setup")
        ann_app.screen.query_one("#listen", Input).value = "127.0.0.1"
        ann_app.screen.query_one("#port", Input).value = "0"
        await ann.press("f5")
        await until(both, lambda: isinstance(ann_app.screen, DuelScreen), "the duel screen")
        hosting = duel_of(ann_app)
        await until(both, lambda: "Waiting for an opponent" in text_of(hosting, "#waiting-text"),
                    "the waiting state")
        port = hosting.duel.port
        code = hosting.duel.code
        assert f"127.0.0.1:{port}" in text_of(hosting, "#waiting-text")
        assert code and f"Invitation code: {code}" in text_of(hosting, "#waiting-text")
        assert f"tui-domino join 127.0.0.1:{port} {code}" in " ".join(
            text_of(hosting, "#waiting-text").split())
        # Bob joins it
        await bob.press("d")
        await until(both, lambda: isinstance(bob_app.screen, DuelSetupScreen), "the setup")
        await bob.press("right")  # the Join tab
        assert bob_app.screen.query_one(TabbedContent).active == "join-tab"
        bob_app.screen.query_one("#address", Input).value = f"127.0.0.1:{port}"
        bob_app.screen.query_one("#code", Input).value = code.upper().replace("-", " ")
        await bob.press("f5")
        await until(both, lambda: isinstance(bob_app.screen, DuelScreen), "Bob's duel screen")
        joined = duel_of(bob_app)
        screens = {ann: hosting, bob: joined}
        await until(both, lambda: hosting.table.has_view() and joined.table.has_view()
                    and not hosting.has_class("-waiting") and not joined.has_class("-waiting"),
                    "the deal")
        # the opponent's name first (its "Duel with" gives way to the move's clock)
        assert text_of(hosting, "#net-status").startswith(("Duel with Bob", "Bob "))
        # the footer of the side that waited for the deal now lists the keys to play with
        await until(both, lambda: {"play", "draw", "pass_turn"} <= footer_actions(hosting),
                    "the host's playing keys")
        assert text_of(joined, "#net-status").startswith(("Duel with Ann", "Ann "))
        for screen in (hosting, joined):  # both players see the move's clock
            assert re.search(r"◷ \d+:\d\d", text_of(screen, "#net-status"))
        assert "Bob joined: Classic dominoes" in " ".join(text_of(hosting, "#log").split())
        assert "Duel with Ann: Classic dominoes" in " ".join(text_of(joined, "#log").split())
        assert "connected" in text_of(joined, "#net-status")
        # both screens show the same verification phrase, in the log and the status line
        phrase = hosting.duel.phrase
        assert phrase and phrase == joined.duel.phrase and len(phrase.split()) == 4
        for screen in (hosting, joined):
            assert f"Verification phrase: {phrase}" in " ".join(text_of(screen, "#log").split())
            assert phrase in text_of(screen, "#net-status")
            # the status line fits its 80 columns: what gives way goes, the phrase stays
            status = screen.query_one("#net-status", Static)
            assert len(text_of(screen, "#net-status")) <= status.content_region.width
        # six turns through the keys, whoever is to move
        played = 0
        while played < 6:
            await until(both, lambda: any(s.duel.my_turn() and not s._sending
                                          for s in screens.values()), "a turn")
            pilot, screen = next((p, s) for p, s in screens.items()
                                 if s.duel.my_turn() and not s._sending)
            before = len(screen.table.view()["history"])
            await play_a_turn(pilot, screen)
            await until(both, lambda s=screen, n=before: s._sending is False and (
                not s.table.has_view() or len(s.table.view()["history"]) != n
                or s.table.view()["net"]["round"] > 1 or s.result is not None), "the move")
            played += 1
        # both tables agree on the moves made
        def moves(screen: DuelScreen) -> list[Any]:
            view = screen.table.view()
            return [view["net"]["round"], [(r["player"], r["move"]) for r in view["history"]]]

        await until(both, lambda: moves(hosting) == moves(joined), "the same table")
        # the side waiting for the other's move may look through its hand, without a notice
        pilot, screen = next((p, s) for p, s in screens.items() if not s.duel.my_turn())
        assert screen.thinking
        hand, notices = screen.query_one(HandView), len(pilot.app._notifications)
        for step in (1, -1):
            before = screen.sel.tile_index
            await pilot.press("right" if step > 0 else "left")
            assert screen.sel.tile_index == (before + step) % len(screen.sel.hand)
            assert hand.selected == screen.sel.tile_index
        assert len(pilot.app._notifications) == notices
        # a line of chat
        await ann.press("t")
        assert hosting.has_class("-chatting")
        await ann.press(*"good luck")
        # the arrows belong to the line being typed, not to the hand
        chosen = (hosting.sel.tile_index, hosting.sel.place_index)
        notices = len(ann_app._notifications)
        await ann.press("up", "down", "down")
        assert (hosting.sel.tile_index, hosting.sel.place_index) == chosen
        assert len(ann_app._notifications) == notices
        await ann.press("enter")
        assert not hosting.has_class("-chatting")
        await until(both, lambda: "<Ann> good luck" in text_of(joined, "#log"), "the chat")
        assert "<Ann> good luck" in text_of(hosting, "#log")
        # Bob leaves: Ann wins by forfeit and is told so
        await bob.press("escape")
        await until(both, lambda: type(bob_app.screen).__name__ == "LeaveScreen", "the question")
        await bob.press("y")
        await until(both, lambda: isinstance(ann_app.screen, DuelOverScreen), "the end")
        over = ann_app.screen
        shown = " ".join(str(w.render()) for w in over.query(Static))
        assert "Bob left the match and forfeits it." in shown
        assert "You win the match" in shown
        assert "No round was finished." in shown  # (not "0 rounds")
        await until(both, lambda: not any(isinstance(s, DuelScreen)
                                          for s in bob_app.screen_stack), "Bob's exit")
        over.shown_at -= DuelOverScreen.GUARD  # (past the moment a key is not taken)
        await ann.press("enter")
        await until(both, lambda: not any(isinstance(s, DuelScreen)
                                          for s in ann_app.screen_stack), "Ann's exit")


async def test_a_whole_match_against_a_bot_seat() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot, \
            hosting_a_bot(app, MatchSettings("classic", target=5)) as (session, screen, bot):
        summaries = 0
        end = time.monotonic() + 60
        while not isinstance(app.screen, DuelOverScreen):
            assert time.monotonic() < end, "the match did not end"
            await pilot.pause(0.01)
            if isinstance(app.screen, RoundSummary):
                summaries += 1
                await pilot.press("enter")
                await until([pilot], lambda: not isinstance(app.screen, RoundSummary),
                            "the summary closed")
                if app.screen is screen:  # the next round: the hand has the keys again
                    assert isinstance(screen.focused, HandView), screen.focused
            elif app.screen is screen and session.my_turn() and not screen._sending:
                await play_a_turn(pilot, screen)
        shown = " ".join(str(w.render()) for w in app.screen.query(Static))
        assert "every deal checked" in shown
        assert summaries >= 1
        result = await asyncio.wait_for(bot, 10)
        assert result["verified"] and result["totals"] == session.core.match.result["totals"]
        app.screen.shown_at -= DuelOverScreen.GUARD  # (past the moment a key is not taken)
        await pilot.press("enter")
        await until([pilot], lambda: not any(isinstance(s, DuelScreen)
                                             for s in app.screen_stack), "the exit")


async def test_a_refused_connection_is_told_on_the_join_screen() -> None:
    app = make_app()
    held = refusing_port()
    port = held.getsockname()[1]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await until([pilot], lambda: isinstance(app.screen, DuelSetupScreen), "the setup")
        await pilot.press("right")
        app.screen.query_one("#address", Input).value = f"127.0.0.1:{port}"
        await pilot.press("f5")
        await until([pilot], lambda: "refused" in text_of(app.screen, "#message"), "a message")
        message = text_of(app.screen, "#message")
        assert f"Nobody is hosting a duel at 127.0.0.1:{port}" in message
        assert isinstance(app.screen, DuelSetupScreen)
        # a malformed address is told too, without connecting
        app.screen.query_one("#address", Input).value = "127.0.0.1:99999"
        await pilot.press("f5")
        await until([pilot], lambda: "65535" in text_of(app.screen, "#message"), "a message")
    held.close()


async def test_a_duel_screen_closed_as_it_opens_is_no_crash() -> None:
    # e.g. the connection drops, or the player leaves, before the screen was ever shown
    app = make_app()
    async with (app.run_test(size=(80, 24)) as pilot,
                hosting_a_bot(app, MatchSettings("classic")) as (_host, screen, _bot)):
        app.pop_screen()
        for _ in range(5):
            await pilot.pause()
        assert not screen.is_attached and app.is_running
        assert type(app.screen).__name__ == "MenuScreen"


async def test_a_settings_mismatch_is_told_on_the_join_screen() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic"))
        try:
            await pilot.press("d")
            await until([pilot], lambda: isinstance(app.screen, DuelSetupScreen), "the setup")
            await pilot.press("right")
            app.screen.query_one("#address", Input).value = f"127.0.0.1:{host.port}"
            app.screen.query_one("#want").value = "spider"
            await pilot.press("f5")
            await until([pilot], lambda: "not the one you asked" in
                        text_of(app.screen, "#message"), "the mismatch")
            assert "classic" in text_of(app.screen, "#message")
            assert isinstance(app.screen, DuelSetupScreen)
        finally:
            await host.close()


async def test_the_host_port_in_use_is_told_on_the_host_screen() -> None:
    app = make_app()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("d")
            await until([pilot], lambda: isinstance(app.screen, DuelSetupScreen), "the setup")
            app.screen.query_one("#listen", Input).value = "127.0.0.1"
            app.screen.query_one("#port", Input).value = str(port)
            await pilot.press("f5")
            await until([pilot], lambda: "in use" in text_of(app.screen, "#message"),
                        "the message")


async def test_a_cheat_verdict_is_shown_plainly() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        session = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                         settings=MatchSettings("classic"))
        try:
            screen = push_duel(app, session)
            await pilot.pause()
            session.core.seat.names[1] = "Bob"
            screen.handle(ev.Verdict("cheat", 1, "Bob played 6-6, a tile he was not dealt"))
            screen.handle(ev.MatchOver({"variant": "classic", "totals": [0, 0], "winner": 0,
                                        "rounds": 0, "verified": False}))
            await until([pilot], lambda: isinstance(app.screen, DuelOverScreen), "the verdict")
            await pilot.pause()
            verdict = text_of(app.screen, "#verdict")
            assert "Bob cheated" in verdict and "not dealt" in verdict
        finally:
            await session.close()


@pytest.mark.parametrize("code", ["mismatch", "left"])
async def test_a_host_refused_by_the_joiner_waits_again(code: str) -> None:
    """The joiner asks for another variant, or greets and leaves before the welcome."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        session = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                         settings=MatchSettings("classic"), heartbeat=0.5)
        picky = None
        try:
            screen = push_duel(app, session)
            await pilot.pause()
            await until([pilot], lambda: "Waiting for an opponent" in
                        text_of(screen, "#waiting-text"), "the waiting state")
            picky = await DuelSession.join(
                "127.0.0.1", session.port, name="Bob", heartbeat=0.5,
                want=MatchSettings("spider") if code == "mismatch" else None)
            said = "refused this match"
            if code == "left":
                async with asyncio.timeout(10):
                    while not picky.core.link.connected:  # he has greeted
                        await asyncio.sleep(0)
                assert not picky.core.started
                await picky.leave()
                said = "The joiner left before the match began: Bob left the match"
            await until([pilot], lambda: any(said in str(line)
                                             for _, _, line in screen.notes), "the refusal")
            await until([pilot], lambda: session.state == "waiting"
                        and "Waiting for an opponent" in text_of(screen, "#waiting-text")
                        and "waiting for an opponent" in text_of(screen, "#net-status"),
                        "waiting again")
            assert not screen.problem
        finally:
            if picky is not None:
                await picky.close()
            await session.close()


async def test_a_fresh_join_is_not_called_a_resumed_match(tmp_path: Any) -> None:
    """``tui-domino join`` connects before the screen opens, so the greeting may be in
    before the screen reads it. Only a match taken up from its log 'resumes'."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic", target=5),
                                      journal_path=tmp_path / "host.jsonl")
        bot = asyncio.ensure_future(run_bot(host, "greedy", seed=3, in_thread=False))
        session = await DuelSession.join("127.0.0.1", host.port, name="Bob")
        await until([pilot], lambda: session.core.started, "the greeting")
        assert not session.resumed
        screen = push_duel(app, session)
        await until([pilot],
                    lambda: screen.is_mounted and "Duel with Ann:" in text_of(screen, "#log"),
                    "the greeting on the screen")
        assert "resumes" not in text_of(screen, "#log")
        bot.cancel()
        await session.close()
        await host.close()
        await pilot.press("escape", "y")  # leave the duel
        await until([pilot], lambda: not any(isinstance(s, DuelScreen)
                                             for s in app.screen_stack), "the exit")
        # the host's log, opened again, is a match that resumes
        again = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                       journal_path=tmp_path / "host.jsonl")
        assert again.resumed
        screen = push_duel(app, again)
        await until([pilot], lambda: screen.is_mounted and "resumes" in text_of(screen, "#log"),
                    "the resume")
        await again.close()


async def test_a_match_log_that_cannot_be_read_is_said_and_kept(tmp_path: Any) -> None:
    """Hosting again at an address whose match log is torn: the duel starts afresh, the
    player is told, and the old log is kept aside, not deleted."""
    log = tmp_path / "host.jsonl"
    log.write_text('{"k":"start","role":"host"}\n{"k":"in","frame":5}\n')
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic", target=5),
                                      journal_path=log)
        assert not host.resumed and "could not be read" in host.notice
        screen = push_duel(app, host)
        await until([pilot], lambda: screen.is_mounted and any(
            "could not be read" in n.message for n in app._notifications), "the notice")
        await host.close()
    kept = list(tmp_path.glob("host.unreadable-*.jsonl"))
    assert len(kept) == 1 and '"frame":5' in kept[0].read_text()
    assert log.exists()  # the new match's log


async def test_quitting_the_game_during_a_duel_asks_and_tells_the_opponent() -> None:
    """ctrl+q in a duel in play: the question of leaving (the opponent wins); Stay keeps
    playing; Quit leaves the match, so the opponent hears of it at once instead of waiting
    for a connection that will not come back, and the game quits."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot, \
            hosting_a_bot(app, MatchSettings("classic", target=50)) as (host, screen, bot):
        await until([pilot], lambda: screen.is_mounted and screen.table.has_view(), "the deal")
        await pilot.press("ctrl+q")
        await until([pilot], lambda: isinstance(app.screen, LeaveScreen), "the question")
        assert "Quitting ends the match: Robot wins it." in str(
            app.screen.query_one(Static).render())
        await pilot.press("n")
        await until([pilot], lambda: app.screen is screen, "the duel again")
        assert app.is_running and not host.finished
        await pilot.press("ctrl+q")
        await until([pilot], lambda: isinstance(app.screen, LeaveScreen), "the question")
        await pilot.press("y")
        async with asyncio.timeout(DEADLINE):
            result = await bot
            while app.is_running:
                await asyncio.sleep(0.01)
    assert result["verdict"]["kind"] == "forfeit" and result["winner"] == result["seat"]
    assert "left" in result["verdict"]["reason"]


async def test_quitting_while_waiting_for_an_opponent_closes_the_port() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic", target=50))
        screen = push_duel(app, host)
        await until([pilot], lambda: screen.is_mounted, "the duel screen")
        await pilot.press("ctrl+q")
        async with asyncio.timeout(DEADLINE):
            while app.is_running:
                await asyncio.sleep(0.01)
    assert host.state == "closed"
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", host.port)


def test_the_duel_form_never_offers_you_as_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "ann")
    assert duel_name("Bob") == "Bob"
    assert duel_name("You") == duel_name(" you ") == duel_name("") == "ann"
    monkeypatch.delenv("USER")
    assert duel_name("You") == "Player"  # a name, capitalised


@pytest.mark.parametrize(("kept", "user", "named"), [
    ("Ann", "bob", "Ann"), ("You", "bob", "bob"), ("You", "", "Player")])
def test_a_duel_from_the_command_line_goes_by_the_name_in_settings(
        home: Any, monkeypatch: pytest.MonkeyPatch, kept: str, user: str, named: str) -> None:
    """``tui-domino host`` and ``join`` without --name go by the player's name in Settings
    (they went by the login name, else "player", whatever Settings said)."""
    from tui_domino import cli
    from tui_domino.net import cli as net_cli
    from tui_domino.ui.storage import Settings

    Settings(name=kept).save()
    monkeypatch.setenv("USER", user)
    seen: list[str] = []
    monkeypatch.setattr(net_cli, "handle", lambda args: seen.append(args.name) or 0)
    for argv in (["host", "127.0.0.1:0", "--headless", "--bot", "random"],
                 ["join", "127.0.0.1:9", "--headless", "--bot", "random"]):
        assert cli.main(argv) == 0
    assert seen == [named, named]
    assert cli.main(["host", "127.0.0.1:0", "--headless", "--name", "Cy"]) == 0
    assert seen[-1] == "Cy"


async def test_an_opponent_named_you_reads_as_the_opponent() -> None:
    app = make_app()
    host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                  settings=MatchSettings("classic", target=50))
    guest = await DuelSession.join("127.0.0.1", host.port, name="You")
    bot = asyncio.ensure_future(run_bot(guest, "greedy", seed=3, in_thread=False))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = push_duel(app, host)
            await until([pilot], lambda: screen.is_mounted and screen.table.has_view(),
                        "the deal")
            assert [seat.name for seat in screen.table.seats] == ["Ann", "Opponent"]
    finally:
        bot.cancel()
        await guest.close()
        await host.close()


async def test_every_key_of_a_duel_fits_the_footer_at_80_columns() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot, \
            hosting_a_bot(app, MatchSettings("triominos", target=400)) as (_, screen, _bot):
        await until([pilot], lambda: screen.is_mounted and screen.table.has_view()
                    and "rotate" in footer_actions(screen), "the deal")
        await pilot.pause()
        assert {"play", "rotate", "menu", "chat"} <= assert_footer_fits(screen)


@pytest.mark.parametrize("names", [("ann", "Ann"), ("you", "You")])
async def test_two_players_of_one_name_read_as_you_and_the_other(names: tuple[str, str]) -> None:
    app = make_app()
    host = await DuelSession.host(port=0, addr="127.0.0.1", name=names[0],
                                  settings=MatchSettings("classic", target=50))
    guest = await DuelSession.join("127.0.0.1", host.port, name=names[1])
    bot = asyncio.ensure_future(run_bot(guest, "greedy", seed=3, in_thread=False))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = push_duel(app, host)
            await until([pilot], lambda: screen.is_mounted and screen.table.has_view()
                        and (host.my_turn() or screen.table.state.history), "the deal")
            other = "Opponent" if names[1] == "You" else names[1]
            assert [seat.name for seat in screen.table.seats] == ["You", other]
            end = time.monotonic() + DEADLINE
            while not ("You: " in text_of(screen, "#log")
                       and f"{other}: " in text_of(screen, "#log")):
                assert time.monotonic() < end, "both moves in the log"
                # (the screen may show the deal a moment after the session has it)
                if app.screen is screen and host.my_turn() and not screen._sending:
                    await play_a_turn(pilot, screen)
                await pilot.pause(0.01)
            assert "You joined" not in text_of(screen, "#log")
            score = text_of(screen, "#score")
            assert "You" in score and other in score
    finally:
        bot.cancel()
        await guest.close()
        await host.close()


def test_a_verdict_of_this_programs_error_blames_nobody() -> None:
    from tui_domino.ui.screens.duel import verdict_text
    from tui_domino.ui.session import Seat

    seats = [Seat("Ann"), Seat("Bob")]
    reason = "internal error (KeyError at move): this program stopped the match"
    for me in (0, 1):
        text = verdict_text(ev.Verdict("error", me, reason), me, seats)
        assert text.startswith("The match stopped on an error of this program")
        assert "left" not in text and "cheat" not in text and reason in text


async def test_the_hint_line_counts_down_the_last_seconds_of_a_turn() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot, \
            hosting_a_bot(app, MatchSettings("classic", target=5)) as (session, screen, bot):
        await until([pilot], lambda: session.my_turn() and screen.table.has_view(), "my turn")
        assert "left to move" not in screen.hint()  # ten minutes: nothing to count yet
        session.core.deadlines.turn_timeout = 45.0  # (not yet: the status line's clock)
        await until([pilot], lambda: re.search(r"◷ 0:4\d", text_of(screen, "#net-status")),
                    "the clock, within the second")
        assert "left to move" not in screen.hint()
        session.core.deadlines.turn_timeout = 25.0  # the last 30 seconds
        await until([pilot], lambda: "s left to move · " in text_of(screen, "#hint"),
                    "the count-down")
        left = int(text_of(screen, "#hint").split(" s left")[0])
        assert 0 < left <= 25


async def test_a_finished_duel_is_kept_in_the_history(home: Any) -> None:
    from tui_domino.history import db
    from tui_domino.ui import history_db

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot, \
            hosting_a_bot(app, MatchSettings("classic", target=5)) as (session, screen, bot):
        end = time.monotonic() + 60
        while not isinstance(app.screen, DuelOverScreen):
            assert time.monotonic() < end, "the match did not end"
            await pilot.pause(0.01)
            if isinstance(app.screen, RoundSummary):
                await pilot.press("enter")
            elif app.screen is screen and session.my_turn() and not screen._sending:
                await play_a_turn(pilot, screen)
        history_db.wait_for_writes()
        con = db.connect()
        try:
            rows, total = db.list_matches(con, None, None, 10)
            assert total == 1
            record = db.load_match(con, rows[0].id)
        finally:
            con.close()
        result = session.core.match.result
        assert record["match_kind"] == "duel" and record["me"] == 0
        assert [p["name"] for p in record["players"]] == ["Ann", "Robot"]
        assert record["totals"] == result["totals"] and record["winner"] == result["winner"]
        assert len(record["rounds"]) == result["rounds"] >= 1
        assert all(r["moves"] for r in record["rounds"])  # every verified round, replayable


async def test_the_chat_said_before_a_restart_is_shown_when_the_match_resumes(
        tmp_path: Any) -> None:
    """A joiner whose game stopped takes the match up from its log: the lines said before
    are in the moves' and chat's log again (they were gone)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic", target=50),
                                      journal_path=tmp_path / "host.jsonl")
        bot = asyncio.ensure_future(run_bot(host, "greedy", seed=3, in_thread=False))
        log = tmp_path / "join.jsonl"
        session = await DuelSession.join("127.0.0.1", host.port, name="Bob", journal_path=log)
        await until([pilot], lambda: session.core.started, "the greeting")
        await session.chat("good luck, Ann")
        await session.close()  # the game stops: the match is not over
        again = await DuelSession.join("127.0.0.1", host.port, name="Bob", journal_path=log)
        assert again.resumed
        screen = push_duel(app, again)
        await until([pilot], lambda: screen.is_mounted and "resumes" in text_of(screen, "#log"),
                    "the resume")
        assert "<Bob> good luck, Ann" in text_of(screen, "#log")
        await again.close()
        bot.cancel()
        await host.close()


async def test_a_joiner_whose_game_stopped_finds_his_duel_in_the_form(home: Any) -> None:
    """After a restart, Network duel's join form holds the address of the duel he did not
    finish and says it resumes without a code (it was back at 127.0.0.1:7777)."""
    from tui_domino.net.journal import default_path

    host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                  settings=MatchSettings("classic", target=50), code="7-ab-cd")
    bot = asyncio.ensure_future(run_bot(host, "greedy", seed=3, in_thread=False))
    session = await DuelSession.join("127.0.0.1", host.port, name="Bob", code="7-ab-cd",
                                     journal_path=default_path("join", "127.0.0.1", host.port))
    async with asyncio.timeout(10):
        while not session.core.started:
            await asyncio.sleep(0.01)
    await session.close()  # his game stops: the match is not over
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await until([pilot], lambda: isinstance(app.screen, DuelSetupScreen), "the setup")
        setup = app.screen
        await until([pilot], lambda: "not over" in text_of(setup, "#message"), "the offer")
        where = f"127.0.0.1:{host.port}"
        assert setup.query_one("#address", Input).value == where
        assert f"Your duel at {where} is not over" in " ".join(
            text_of(setup, "#message").split())
        await pilot.press("right", "f5")  # the Join tab; no code typed
        await until([pilot], lambda: isinstance(app.screen, DuelScreen)
                    and "resumes" in text_of(app.screen, "#log"), "the resumed duel")
        await pilot.press("escape", "y")
    bot.cancel()
    await host.close()


def test_logs_kept_aside_or_unreadable_are_no_unfinished_duel(tmp_path: Any) -> None:
    from tui_domino.net.journal import unfinished

    (tmp_path / "join-10.0.0.2-7777.jsonl").write_text("not a log\n")
    (tmp_path / "join-10.0.0.3-7777.done.jsonl").write_text("")
    (tmp_path / "join-__1-7777.jsonl").write_text("")
    (tmp_path / "host-10.0.0.4-7777.jsonl").write_text("")
    assert unfinished("join", tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir())[0] == "host-10.0.0.4-7777.jsonl"
    assert len(list(tmp_path.iterdir())) == 4  # nothing moved or written


async def test_the_hosts_waiting_screen_offers_no_key_of_the_table() -> None:
    """Waiting for an opponent there is no table: the footer has none of its keys (it
    showed ←→ Tile ↑↓ Place), and the keys do nothing."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await until([pilot], lambda: isinstance(app.screen, DuelSetupScreen), "the setup")
        app.screen.query_one("#listen", Input).value = "127.0.0.1"
        app.screen.query_one("#port", Input).value = "0"
        await pilot.press("f5")
        await until([pilot], lambda: isinstance(app.screen, DuelScreen)
                    and "Waiting for an opponent" in text_of(app.screen, "#waiting-text")
                    and footer_filled(app.screen), "the waiting state and its footer")
        screen = duel_of(app)
        shown = {k.action.split("(")[0] for k in footer_keys(screen)}
        assert not shown & {"step", "play", "draw", "pass_turn", "rotate", "close_arm", "mark"}
        assert "leave" in shown or "menu" in shown, shown
        for key in ("right", "down", "enter", "g", "h"):
            await pilot.press(key)
        assert isinstance(app.screen, DuelScreen) and not app._notifications
        await pilot.press("escape", "y")


async def test_a_lobby_duel_names_the_opponent_with_his_rating() -> None:
    from tui_domino.ssh.lobby_duel import LobbyDuelScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic", target=50))
        bot = asyncio.ensure_future(run_bot(host, "greedy", seed=3, in_thread=False))
        session = await DuelSession.join("127.0.0.1", host.port, name="Bob")
        screen = LobbyDuelScreen(session, None, ("1480?", "1512"))
        app.push_screen(screen)
        await until([pilot], lambda: screen.is_mounted
                    and "Duel with Ann 1480?" in text_of(screen, "#net-status"), "the rating")
        await session.close()
        bot.cancel()
        await host.close()


def test_a_narrow_status_line_keeps_the_opponents_name_beside_the_phrase() -> None:
    from types import SimpleNamespace

    from tui_domino.ui.screens.duel_words import status_text

    settings = SimpleNamespace(variant="classic", target=100)
    duel: Any = SimpleNamespace(core=SimpleNamespace(started=True, role="host",
                                                     settings=settings),
                                phrase="berserk millionaire uproot outfielder")
    wide = status_text(duel, "bob 1500?", "connected", False, "dim", width=200).plain
    assert wide.startswith("Duel with bob 1500? · connected · phrase: berserk")
    narrow = status_text(duel, "bob 1500?", "connected", False, "dim", width=76).plain
    assert narrow == "bob 1500? · connected · phrase: berserk millionaire uproot outfielder"


async def test_a_key_pressed_as_the_match_over_box_comes_is_not_its_answer() -> None:
    """The other side's move can end the match under a player pressing ⏎ to play: that ⏎
    must not leave the table (and a rematch) unseen. A key a moment later does."""
    from textual.app import App
    from textual.widgets import Button

    from tui_domino.ui.session import Seat

    left: list[bool] = []

    class Table(App[None]):
        def on_mount(self) -> None:
            self.push_screen(DuelOverScreen({"winner": 0, "totals": [1, 0], "rounds": 1},
                                            None, 0, [Seat("Ann"), Seat("Bob")]),
                             lambda _: left.append(True))

    app = Table()
    async with app.run_test() as pilot:
        await pilot.pause()
        over = app.screen
        assert isinstance(over, DuelOverScreen)
        await pilot.press("enter")
        await pilot.press("escape")
        await pilot.pause()
        assert not left and app.screen is over
        over.shown_at -= DuelOverScreen.GUARD  # its moment has passed
        button = over.query_one("#close", Button)
        await until([pilot], lambda: not button.has_class("-active"), "the button's press shown")
        await pilot.press("enter")
        await until([pilot], lambda: bool(left), "the table left")
