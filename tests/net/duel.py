"""Two duel cores wired together in memory, with simple bots: the harness of the net tests."""

from __future__ import annotations

import random
from collections.abc import Callable

from tui_domino.ai import PLAYERS
from tui_domino.net import events as ev
from tui_domino.net.core import DuelCore, MatchSettings

Tap = Callable[[int, bytes], bytes | None]


def pair(variant: str = "classic", target: int | None = 50, seed: int = 1,
         options: dict | None = None) -> list[DuelCore]:
    rng = random.Random(seed)
    host = DuelCore("host", "Ann", rng.randbytes(32),
                    settings=MatchSettings(variant, target, options))
    join = DuelCore("join", "Bob", rng.randbytes(32))
    host.connection_made()
    join.connection_made()
    return [host, join]


def bot_move(core: DuelCore, rng: random.Random, level: str = "random"):
    legal = core.legal_moves()
    if len(legal) == 1:
        return legal[0]
    return PLAYERS[level](core.view(), rng)


def run(cores: list[DuelCore], seed: int = 1, level: str = "random", tap: Tap | None = None,
        max_steps: int = 100_000, stop: Callable[[], bool] | None = None) -> list[list]:
    """Delivers frames and plays bot moves until nothing moves (or ``stop()``); ``tap``
    may rewrite or drop (None) each frame. Returns each side's events."""
    rng = random.Random(seed)
    seen: list[list] = [[], []]
    for _ in range(max_steps):
        if stop is not None and stop():
            break
        moved = False
        for i, c in enumerate(cores):
            for line in c.outgoing():
                moved = True
                data = tap(i, line) if tap else line
                if data is not None:
                    cores[1 - i].receive(data.rstrip(b"\n"))
        for i, c in enumerate(cores):
            seen[i] += c.events()
        if stop is not None and stop():
            break
        for c in cores:
            if c.my_turn():
                c.play(bot_move(c, rng, level))
                moved = True
        if not moved:
            break
    for i, c in enumerate(cores):
        seen[i] += c.events()
    return seen


def deliver(cores: list[DuelCore], rounds: int = 1000, collect: bool = True) -> list[list]:
    """Hands each side's frames to the other until neither has any (no bot plays); with
    ``collect``, takes each side's events as they come and returns them."""
    seen: list[list] = [[], []]
    for _ in range(rounds):
        moved = False
        for i, c in enumerate(cores):
            for line in c.outgoing():
                moved = True
                cores[1 - i].receive(line.rstrip(b"\n"))
        if collect:
            for i, c in enumerate(cores):
                seen[i] += c.events()
        if not moved:
            break
    return seen


def verdicts(events: list) -> list[ev.Verdict]:
    return [e for e in events if isinstance(e, ev.Verdict)]
