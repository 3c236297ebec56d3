"""The server's limits and the per-address connection rate, with no I/O inside."""

from __future__ import annotations

import gettext
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

# The server's own words (its log, and what a visitor is told before his language is
# known) are English, whatever the language of the server's own terminal.
ENGLISH = gettext.NullTranslations()


@dataclass(frozen=True)
class Limits:
    """Every number the server enforces. The defaults keep a server on a public address
    safe; docs/ssh.md tells what each one costs a visitor."""

    max_visitors: int = 32
    """Visitors playing at once; the next one is told the server is full."""
    max_per_address: int = 4
    """Connections open at once from one address; the next is refused, with the reason."""
    rate_count: int = 10
    rate_window: float = 60.0
    """At most ``rate_count`` new connections from one address per ``rate_window`` seconds."""
    login_grace: float = 20.0
    """Seconds after logging in to open the game (a shell with a terminal): a connection
    that opens none in time is closed, with the reason."""
    idle_timeout: float = 15 * 60.0
    """A visitor who sends nothing for this long is disconnected (0: never)."""
    stall_timeout: float = 30.0
    """A client that takes nothing of what is sent for this long is disconnected."""
    write_buffer: int = 256 * 1024
    """Bytes sent to a client and not yet taken by it (held by the server, in flight or
    in the kernel's send queue) before its game's output is paused."""
    keepalive_interval: float = 10.0
    keepalive_count_max: int = 2
    """A client that sends nothing for ``keepalive_interval`` seconds is asked whether it
    is there, again every ``keepalive_interval`` seconds; one that answers none of
    ``keepalive_count_max`` such questions is gone when the next is due (after 30 s by
    default), and its game ends (interval 0: no keepalives)."""

    @property
    def silent_limit(self) -> float:
        """Seconds of silence after which a client is taken for gone (0: never)."""
        return self.keepalive_interval * (self.keepalive_count_max + 1)
    login_timeout: float = 30.0
    """Seconds to finish logging in."""
    auth_delay: float = 1.0
    """Seconds before a wrong password or key is answered."""

    input_rate: float = 2048.0
    input_burst: int = 8192
    """A visitor's keys reach his game at most ``input_rate`` bytes a second on average, with
    bursts up to ``input_burst`` bytes (a paste, a flurry of mouse reports): more than a
    hand on a keyboard and a mouse can send, less than the game can handle. What comes
    faster is dropped before it reaches the game, whole packets at a time, so that a
    flood costs the game nothing and it answers at once when the flood ends."""

    @property
    def max_connections(self) -> int:
        """Connections open at once, logged in or not; the next is refused."""
        return 2 * self.max_visitors + 8


def duration_text(seconds: float,
                  ngettext: Callable[[str, str, int], str] = ENGLISH.ngettext) -> str:
    """A length of time as a visitor reads it: "15 seconds", "1 minute", "2 minutes 30
    seconds", "2 hours"; in the language of ``ngettext`` (English, as the server's log
    and the words before a visitor's language is known; or a visitor's catalog's
    ``ngettext``: the server speaks to each visitor in his)."""
    total = max(1, round(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours and (minutes or secs):  # an odd number of hours: say it in minutes
        hours, minutes = 0, minutes + 60 * hours
    # TRANSLATORS: a length of time, in a sentence such as "You were idle for {idle}"
    # ("2 minutes 30 seconds": the parts go one after the other, with a space between)
    parts = [(hours, ngettext("{n} hour", "{n} hours", hours)),
             (minutes, ngettext("{n} minute", "{n} minutes", minutes)),
             (secs, ngettext("{n} second", "{n} seconds", secs))]
    return " ".join(text.format(n=n) for n, text in parts if n)


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


class InputGate:
    """A token bucket over one visitor's input: ``admit(n)`` is True when ``n`` more bytes
    may reach his game now (and takes them from the bucket), False when they come faster
    than ``rate`` bytes a second beyond a ``burst``; ``dropped`` counts what was refused.

    A packet is admitted or dropped whole: a key's escape sequence is never cut by the gate
    (a packet larger than the burst is always dropped)."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.dropped = 0
        self.drops = 0  # packets dropped
        self._last = clock()

    def admit(self, size: int) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self._last) * self.rate)
        self._last = now
        if size <= self.tokens:
            self.tokens -= size
            return True
        self.dropped += size
        self.drops += 1
        return False
