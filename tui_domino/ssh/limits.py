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

    seat_window: float = 60.0
    """Seconds an account's game in a lobby duel waits for him after his connection
    dropped (0: it ends with the connection): back within it, by either door, he is at his
    table again (ssh/seats.py)."""

    @property
    def silent_limit(self) -> float:
        """Seconds of silence after which a client is taken for gone (0: never)."""
        return self.keepalive_interval * (self.keepalive_count_max + 1)
    login_timeout: float = 30.0
    """Seconds to finish logging in."""
    auth_delay: float = 1.0
    """Seconds before a wrong password or key is answered."""
    fail_count: int = 10
    fail_window: float = 10 * 60.0
    """An address with ``fail_count`` failed logins within ``fail_window`` seconds is
    locked out (0: never). A failed login is a wrong password, or a connection that ends
    without logging in after its keys were refused."""
    lockout: float = 10 * 60.0
    """Seconds a locked-out address is refused, with the reason, whatever it sends."""

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


class FailureLedger:
    """Failed logins per address: the ``count``-th failure within ``window`` seconds
    locks the address out for ``lockout`` seconds. Failures older than the window are
    forgotten; failures while locked out are not counted, and a lockout that ends starts
    a new count. A successful login clears nothing: the count is the address's, not a
    user's (count 0: no lockout)."""

    def __init__(self, count: int, window: float, lockout: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.window = window
        self.lockout = lockout
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._until: dict[str, float] = {}  # locked-out addresses: till when

    def fail(self, address: str) -> bool:
        """Counts a failed login from ``address``; True when it locks the address out."""
        if self.count <= 0 or self.locked(address):
            return False
        now = self.clock()
        times = self._failures.setdefault(address, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        times.append(now)
        if len(times) < self.count:
            self._forget_old(now)
            return False
        del self._failures[address]
        self._until[address] = now + self.lockout
        return True

    def locked(self, address: str) -> float:
        """Seconds ``address`` stays locked out (0: it is not)."""
        until = self._until.get(address)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self._until[address]
            return 0.0
        return left

    def failures(self, address: str) -> int:
        """Failed logins from ``address`` within the window (none while it is locked out:
        a lockout starts a new count)."""
        now = self.clock()
        return sum(now - t < self.window for t in self._failures.get(address, ()))

    def _forget_old(self, now: float) -> None:
        # Keeps the tables small when many addresses come and go.
        if len(self._failures) > 1024:
            for address in [a for a, t in self._failures.items()
                            if not t or now - t[-1] >= self.window]:
                del self._failures[address]
        if len(self._until) > 1024:
            for address in [a for a, until in self._until.items() if until <= now]:
                del self._until[address]


@dataclass
class _Window:
    start: float
    noted: int = 0  # events in this window
    left_out: int = 0  # of them not logged
    quiet: bool = False  # the address flooded the last window: only its count is logged


class LogBudget:
    """How many lines of one kind the log takes per address. ``note(address)``: whether
    to log this event; an address's first ``first`` events in ``period`` seconds are
    logged, the rest only counted. ``due()`` then gives, once the period is over, how
    many were left out, for a line of their own; an address that goes on costs that one
    line a period. No flood from one address, whatever it sends, fills the log."""

    def __init__(self, first: int = 3, period: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.first = first
        self.period = period
        self.clock = clock
        self._windows: dict[str, _Window] = {}

    def note(self, address: str) -> bool:
        """An event from ``address``: True to log it, False when it is only counted."""
        now = self.clock()
        window = self._windows.get(address)
        if window is None or (now - window.start >= self.period and not window.left_out):
            window = self._windows[address] = _Window(now)
            self._forget_old(now)
        window.noted += 1
        if window.quiet or window.noted > self.first:
            window.left_out += 1
            return False
        return True

    def due(self, everything: bool = False) -> list[tuple[str, int]]:
        """The addresses whose period is over with events left out, and how many (every
        address's, with ``everything``: when the log ends). Each is given once."""
        now = self.clock()
        out = []
        for address, window in list(self._windows.items()):
            if not everything and now - window.start < self.period:
                continue
            if window.left_out:
                out.append((address, window.left_out))
                # Still at it: the next period logs no more of its events, only their count.
                self._windows[address] = _Window(now, quiet=True)
            else:
                del self._windows[address]
        if everything:
            self._windows.clear()
        return out

    def next_due(self) -> float | None:
        """When (on the clock) the next count of left-out events is due, if any is."""
        starts = [w.start for w in self._windows.values() if w.left_out]
        return min(starts) + self.period if starts else None

    def noted(self, address: str) -> int:
        """The events from ``address`` in its current period, logged or not."""
        window = self._windows.get(address)
        return window.noted if window is not None else 0

    def _forget_old(self, now: float) -> None:
        if len(self._windows) > 1024:
            for address in [a for a, w in self._windows.items()
                            if not w.left_out and now - w.start >= self.period]:
                del self._windows[address]


class Escalation:
    """Automatic mutes for a visitor who keeps hitting a chat limit: ``hit(who)`` counts
    one refusal; the ``strikes``-th within ``window`` seconds mutes him for the next of
    ``steps`` (30 s, then 120 s, then 300 s and 300 s again) and starts a new count. A
    visitor with no refusal for ``quiet`` seconds starts again from the first step."""

    def __init__(self, strikes: int = 3, window: float = 60.0,
                 steps: tuple[float, ...] = (30.0, 120.0, 300.0), quiet: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.strikes = strikes
        self.window = window
        self.steps = steps
        self.quiet = quiet
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._level: dict[str, tuple[int, float]] = {}  # mutes given, and the last refusal

    def hit(self, who: str) -> float | None:
        """A refusal of ``who``'s chat: the seconds of the automatic mute it earns, or
        None."""
        now = self.clock()
        level, last = self._level.get(who, (0, now))
        if now - last >= self.quiet:
            level = 0
        self._level[who] = (level, now)
        times = self._hits.setdefault(who, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        times.append(now)
        if len(times) < self.strikes:
            return None
        times.clear()
        self._level[who] = (level + 1, now)
        self._forget_old(now)
        return self.steps[min(level, len(self.steps) - 1)]

    def _forget_old(self, now: float) -> None:
        # Keeps the tables small when many visitors come and go: one quiet for the hour
        # would start from the first step anyway.
        if len(self._level) > 1024:
            for who in [w for w, (_n, last) in self._level.items() if now - last >= self.quiet]:
                del self._level[who]
                self._hits.pop(who, None)


