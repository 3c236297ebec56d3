"""The invitation code's guard against guessing: who may have a guess checked, when, and
what a wrong one costs. Sans-IO: the host's handshakes (net/handshake_io.py) give it the
time and the source address of each connection, and do the waiting it asks for.

The rules hold however many connections try at once (docs/protocol.md, section 3):

- **One check at a time, spaced.** A guess is checked when its joiner's key confirmation
  arrives; the checks are taken one after another, and after a wrong one no other is
  taken for ``spacing`` seconds, whichever connection brings it.
- **At most ``code_tries`` guesses per code.** The third wrong guess kills the code and a
  new one replaces it. A connection whose exchange was made on a code that is no longer
  the current one is refused unchecked, even if its guess was right: a dead code admits
  nobody.
- **At most ``source_tries`` wrong guesses per source** (an IPv4 address, an IPv6 /64),
  over the whole invitation: after them the source is shut out, refused before any key
  exchange. ``source_tries`` is below ``code_tries``, so one source alone can never kill a
  code: a friend told the code late still gets in while a stranger keeps guessing.
- **At most ``pending`` handshakes at once per source** (and ``pending_all`` in all): the
  rest are refused at once, before the key exchange costs anything.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

CODE_TRIES = 3  # wrong guesses checked against one code before it is replaced
SOURCE_TRIES = 2  # wrong guesses from one source before it is shut out
SPACING = 0.5  # seconds after a wrong guess before the next check, whoever brings it
PENDING = 4  # handshakes in progress at once from one source
PENDING_ALL = 64  # ... and from all sources together


def plain_address(address: str) -> str:
    """``address`` as one client always has it: an IPv4 address that a dual-stack listener
    reports as IPv6 (``::ffff:203.0.113.7``) in its IPv4 form, an IPv6 one compressed
    (without its zone); so that caps, bans and logs count one client once. Not an
    address: unchanged."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


def source_of(peername: object) -> str:
    """The source a connection is counted under: its IPv4 address (an IPv4-mapped IPv6
    address counts as the IPv4 one), or the /64 network of an IPv6 address (one machine
    usually has a whole /64). Anything else (a Unix socket, no address): its text."""
    host = peername[0] if isinstance(peername, tuple) and peername else peername
    address = plain_address(str(host))
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return str(host)[:80]
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class Source:
    """What one source has done to the invitation."""

    wrong: int = 0  # wrong guesses checked, over every code
    pending: int = 0  # handshakes in progress


@dataclass(frozen=True)
class Refusal:
    """Why a connection is refused before its guess is checked: ``code`` and ``message``
    as in an ``error`` frame."""

    code: str
    message: str


@dataclass
class Wrong:
    """What a wrong guess led to: ``told`` for the one who tried it, ``notice`` for the host,
    ``replaced`` when the code dies of it, ``shut_out`` when its source did."""

    told: str
    notice: str
    replaced: bool = False
    shut_out: bool = False


@dataclass
class Guard:
    """The guard of one host's invitation code. ``generation`` counts the codes: a key
    exchange remembers the one it was made on, and only the current one is ever checked.
    ``code_tries`` None: no limit on guesses (a code nobody can guess, such as the SSH
    lobby's): only the spacing and the pending counts hold."""

    code_tries: int | None = CODE_TRIES
    source_tries: int = SOURCE_TRIES
    spacing: float = SPACING
    pending: int = PENDING
    pending_all: int = PENDING_ALL
    generation: int = 0
    wrong: int = 0  # wrong guesses checked against the current code
    next_check: float = 0.0  # no check before this time
    checked: list[tuple[float, str, bool]] = field(default_factory=list)  # (time, source, right)
    sources: dict[str, Source] = field(default_factory=dict)

    def limited(self) -> bool:
        return self.code_tries is not None

    def shut_out(self, source: str) -> Refusal:
        return Refusal("code", f"too many wrong invitation codes came from {source}: this "
                               "host does not answer it any more")

    def enter(self, source: str) -> Refusal | None:
        """A new connection from ``source``: why it is refused at once (shut out, too many
        handshakes at once), or None after counting it as pending (``leave`` when it
        ends)."""
        s = self.sources.setdefault(source, Source())
        if self.limited() and s.wrong >= self.source_tries:
            return self.shut_out(source)
        if s.pending >= self.pending or self.in_progress() >= self.pending_all:
            return Refusal("busy", "too many connections at once: try again in a moment")
        s.pending += 1
        return None

    def leave(self, source: str) -> None:
        s = self.sources.get(source)
        if s is not None:
            s.pending = max(0, s.pending - 1)
            if s.pending == 0 and s.wrong == 0:
                del self.sources[source]

    def in_progress(self) -> int:
        return sum(s.pending for s in self.sources.values())

    def wait(self, now: float) -> float:
        """Seconds before the next guess may be checked."""
        return max(0.0, self.next_check - now)

    def refusal(self, source: str, generation: int) -> Refusal | None:
        """Why a guess made on code ``generation`` is not checked (its code died, its
        source was shut out meanwhile), or None: it may be."""
        if generation != self.generation:
            return Refusal("code", "that invitation code is no longer valid: the host "
                                   "replaced it after wrong tries; ask for the new one")
        s = self.sources.get(source)
        if self.limited() and s is not None and s.wrong >= self.source_tries:
            return self.shut_out(source)
        return None

    def right(self, source: str, now: float) -> None:
        """A guess checked and right."""
        self.checked.append((now, source, True))

    def wrong_guess(self, source: str, now: float) -> Wrong:
        """A guess checked and wrong: it is counted against the code and its source, and no
        other check is taken for ``spacing`` seconds."""
        self.checked.append((now, source, False))
        self.next_check = now + self.spacing
        if not self.limited():
            return Wrong("wrong invitation code: check it with the host",
                         "somebody tried a wrong invitation code; still waiting for an "
                         "opponent")
        assert self.code_tries is not None
        s = self.sources.setdefault(source, Source())
        s.wrong += 1
        self.wrong += 1
        shut = s.wrong >= self.source_tries
        if self.wrong >= self.code_tries:
            self.generation += 1
            self.wrong = 0
            return Wrong("wrong invitation code; the host has replaced it after too many "
                         "wrong tries: ask for the new one", "", replaced=True, shut_out=shut)
        left = self.code_tries - self.wrong
        notice = (f"somebody tried a wrong invitation code ({left} more before it is "
                  "replaced); still waiting for an opponent")
        if shut:
            notice += (f"; {source} tried {s.wrong} wrong codes and is not answered any "
                       "more")
        return Wrong("wrong invitation code: check it with the host", notice, shut_out=shut)
