"""Connected time counted towards a deadline, for the duel core (which reads no clock: the
transport hands it the time). The reveal deadline and the turn deadline are both such a
count: it runs while one side owes the next step and the connection is up, pauses while
the connection is down (the resume window covers that), and starts again from nothing
whenever the match moves on. A ``Bucket`` is a rate on the same clock (the peer's chat)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Stopwatch:
    """Seconds counted while ``run`` is called with the same ``key``; a new key starts
    the count afresh, ``pause`` stops it without losing what was counted."""

    waited: float = 0.0
    last: float | None = None
    key: object = None

    def run(self, now: float, key: object) -> float:
        if key != self.key:
            self.key, self.waited, self.last = key, 0.0, now
            return 0.0
        if self.last is not None:
            self.waited += max(0.0, now - self.last)
        self.last = now
        return self.waited

    def pause(self) -> None:
        self.last = None


@dataclass
class Bucket:
    """A rate on the transport's clock (a token bucket): ``burst`` at once, then one every
    ``every`` seconds. Before the clock's first tick it is full."""

    burst: int
    every: float
    tokens: float = -1.0
    last: float | None = None

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = float(self.burst)

    def tick(self, now: float) -> None:
        if self.last is not None and now > self.last:
            self.tokens = min(float(self.burst), self.tokens + (now - self.last) / self.every)
        self.last = now if self.last is None else max(self.last, now)

    def take(self) -> bool:
        """One more, if the rate allows it now."""
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
