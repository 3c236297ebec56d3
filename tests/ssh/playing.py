"""Plays a duel to its end through the players' screens, whatever door each came in by:
an SSH visitor's terminal (``SshPlayer``) or a browser's tab (tests/web/browser.py's
``Tab``), each with ``async text()`` and ``async press(key)`` (a tab's key names)."""

from __future__ import annotations

import asyncio
from typing import Any


class SshPlayer:
    """An SSH visitor's terminal as ``play_out`` drives it (the tab's key names)."""

    KEYS = {"Enter": "enter", "Tab": "tab"}

    def __init__(self, term: Any) -> None:
        self.term = term

    async def text(self) -> str:
        return str(self.term.text())

    async def press(self, key: str) -> None:
        self.term.press(self.KEYS.get(key, key))


def key_for(screen: str) -> str | None:
    """The key a player presses on ``screen``: the tile the game suggests, else a draw, else
    a pass; Enter closes a round's summary; None while it is not his to act."""
    if " is over ─" in screen:
        return "Enter"
    if "Your turn" not in screen:
        return None
    if "⏎ play" in screen:
        return "Enter"
    if "press d" in screen:
        return "d"
    if "press p" in screen or "p to pass" in screen:
        return "p"
    if "The arrows pan the table" in screen:
        return "Tab"  # (the board has the keys: back to the hand)
    return None


async def play_out(players: list[Any], timeout: float = 90) -> None:
    """Plays the match to its end. Each key is chosen on a screen read just before it (the
    other's move may have ended the round), and the next waits until that screen changed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        shown = [await p.text() for p in players]
        if all("Match over" in s for s in shown):
            return
        assert loop.time() < deadline, "\n\n".join(shown)
        for p in players:
            screen = await p.text()
            if "Match over" in screen or (key := key_for(screen)) is None:
                continue
            await p.press(key)
            while await p.text() == screen and loop.time() < deadline:
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.05)
