"""Names and words that someone else chose reach every screen as plain text: no markup is
read in them, no control character reaches the terminal, and nothing crashes. The game's
own screens with hostile names (a person's at this terminal, a save's); the duel screen
with a hostile peer (his name, a refusal, chat lines, an error, the reason he leaves)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from textual.pilot import Pilot

from tests.hostile import CHAT, NAMES, SHOWN, screen_text, toasts
from tests.ui.conftest import make_app, settle, until
from tui_domino.net import messages as m
from tui_domino.net.core import MatchSettings
from tui_domino.net.transport import DuelSession
from tui_domino.text import one_line, visible
from tui_domino.ui.screens.duel import DuelOverScreen, DuelScreen
from tui_domino.ui.screens.duel_run import push_duel
from tui_domino.ui.screens.handover import HandoverScreen
from tui_domino.ui.screens.match_over import MatchOverScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.screenshots import session_round_over
from tui_domino.ui.session import Seat, Session


async def test_names_of_two_people_at_one_terminal_show_as_typed() -> None:
    app = make_app(seed=4)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for first, second in zip(NAMES[::2], NAMES[1::2], strict=True):
            app.start_match("classic", [Seat(first), Seat(second)])
            await settle(pilot)
            assert isinstance(app.screen, HandoverScreen)
            who = app.screen.player_name
            assert who in (SHOWN[first], SHOWN[second])
            text = screen_text(app)
            assert f"{who}, your turn." in text and f"Show {who}'s hand" in text
            await pilot.press("enter")
            await pilot.pause()
            text = screen_text(app)
            assert f"{who}'s hand" in text  # the hand's border title
            assert SHOWN[first][:12] in text and SHOWN[second][:12] in text  # the panel
            await pilot.press("enter")  # a move: the hint line names the next player
            await settle(pilot)
            assert app.is_running


async def test_the_round_summary_and_the_match_over_screen_show_names_literally() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for variant in ("classic", "spider", "triominos"):
            for first, second in zip(NAMES[::2], NAMES[1::2], strict=True):
                session = session_round_over(variant, 2, [Seat(first), Seat(second)])
                app.push_screen(RoundSummary(session))
                await pilot.pause()
                text = screen_text(app)
                for name in (first, second):  # the table's columns, the hands' rows
                    assert SHOWN[name][:12] in text, (name, text)
                app.pop_screen()
                app.push_screen(MatchOverScreen(session))
                await pilot.pause()
                text = screen_text(app)
                assert SHOWN[first][:14] in text and SHOWN[second][:14] in text
                app.pop_screen()
                await pilot.pause()
        assert app.is_running


async def test_a_saved_match_with_hostile_names_is_listed_on_the_menu() -> None:
    session = Session.new("classic", [Seat("[/x] \x1b[5m"), Seat("x\\", "computer", "easy")],
                          seed=3)
    session.save()
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "[/x] \\x1b[5m 0" in text and "x\\ 0" in text


class RawPeer:
    """A joiner that speaks the protocol's frames by hand: whatever it likes to say."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.seq = reader, writer, 0

    @classmethod
    async def connect(cls, port: int, name: str) -> RawPeer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        peer = cls(reader, writer)
        peer.send(m.Hello(proto=m.PROTOCOL, name=name))
        while True:  # the welcome
            line = await asyncio.wait_for(reader.readline(), 10)
            assert line, "the host closed the connection"
            if json.loads(line).get("t") == "welcome":
                return peer

    def send(self, frame: m.Frame) -> None:
        if isinstance(frame, m.Game):
            self.seq += 1
            frame.seq, frame.ack = self.seq, 0
        self.writer.write(m.encode(frame))

    async def close(self) -> None:
        self.writer.close()
        await asyncio.gather(self.writer.wait_closed(), return_exceptions=True)


async def test_a_hostile_peer_on_the_duel_screen_is_shown_as_plain_text() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        pilots: list[Pilot[Any]] = [pilot]
        host = await DuelSession.host(port=0, addr="127.0.0.1", name="Ann",
                                      settings=MatchSettings("classic", 50))
        screen = push_duel(app, host)
        try:
            # one who leaves before the match begins, giving a hostile reason
            first = await RawPeer.connect(host.port, "[/x]")
            first.send(m.Error(code="left", message="[/x] \x1b]0;pwned\x07 bye"))
            await until(pilots, lambda: "left before the match began" in toasts(app),
                        "the refusal's notification")
            screen_text(app)
            assert "began: [/x] \\x1b]0;pwned\\x07 bye." in toasts(app)
            await first.close()
            await until(pilots, lambda: host.state == "waiting", "waiting again")

            # one who stays: a hostile name, chat, an error message, then leaves
            name = "[/x]\\ \x1b[31mEve\u202e"
            peer = await RawPeer.connect(host.port, name)
            await until(pilots, lambda: host.core.started, "the match to start")
            for line in CHAT:
                peer.send(m.Chat(text=line))
                await until(pilots, lambda line=line: any(
                    one_line(line)[:20] in str(text)
                    for _, _, text in screen.notes), "the chat line")
                text = screen_text(app)  # the log and the notification
                assert app.is_running and isinstance(app.screen, DuelScreen)
            shown_name = visible(name)
            assert f"Duel with {shown_name}" in text
            peer.send(m.Error(code="bad_frame", message="[/x] \x1b[2J oops [link='x']y"))
            await pilot.pause(0.1)
            screen_text(app)
            app.clear_notifications()  # (they would cover the end's box)
            peer.send(m.Leave(reason="[/x] rage quits \x1b[2J\x07"))
            await until(pilots, lambda: isinstance(app.screen, DuelOverScreen)
                        and "Leave the table" in screen_text(app), "the end of the match")
            text = " ".join(screen_text(app).translate({ord(c): " " for c in "┃▌"}).split())
            assert "[/x] rage quits \\x1b[2J\\x07" in text
            assert "You win the match!" in text
            await peer.close()
        finally:
            await host.close()
        assert app.is_running
