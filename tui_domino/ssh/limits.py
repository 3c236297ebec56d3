"""The server's limits and the per-address connection rate, with no I/O inside."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Every number the server enforces, with defaults for a handful of friends."""

    max_visitors: int = 32
    """Visitors playing at once; the next one is told the server is full."""
    rate_count: int = 10
    rate_window: float = 60.0
    """At most ``rate_count`` new connections from one address per ``rate_window`` seconds."""
    idle_timeout: float = 15 * 60.0
    """A visitor who sends nothing for this long is disconnected (0: never)."""
    stall_timeout: float = 30.0
    """A client that takes nothing of what is sent for this long is disconnected."""
    write_buffer: int = 256 * 1024
    """Bytes held for a slow client before the game's output is paused."""
    login_timeout: float = 30.0
    """Seconds to finish logging in."""
    auth_delay: float = 1.0
    """Seconds before a wrong password or key is answered."""


class RateLimiter:
    """A sliding window per address: ``allow(ip)`` is False once an address opened
    ``count`` connections within the last ``window`` seconds."""

    def __init__(self, count: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def allow(self, address: str) -> bool:
        now = self.clock()
        times = self._seen.setdefault(address, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        self._forget_old(now)
        return True

    def _forget_old(self, now: float) -> None:
        # Keeps the table small when many addresses come and go.
        if len(self._seen) > 1024:
            for address in [a for a, t in self._seen.items()
                            if not t or now - t[-1] >= self.window]:
                del self._seen[address]
