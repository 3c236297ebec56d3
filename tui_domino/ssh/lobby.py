"""The lobby: who is connected, and challenges between them. It lives in the server
process; each visitor's game talks to it over a socket pair, one JSON object a line.

A duel is played over the duel protocol on loopback: once a challenge is accepted, the
lobby asks the challenged visitor's game to host on 127.0.0.1 (any free port), and
hands that port to the challenger's game, which joins. The lobby never sees a move.

A game reports where its player is every quarter second, so such a report can cross
the lobby's ``host`` or ``join`` on the way: a game's report of the lobby or the menu
does not end a duel it has not opened yet. Each game says when it has opened the duel
(``{"t": "state", "state": "duel", "duel": DUEL}``); from then on, a report of any
other state means the duel is over for it. A duel that cannot start (one side failed
or left before opening it) is cancelled for the other side with ``cancelled``.

Messages from a game (``"t"`` is the type)::

    {"t": "state", "state": "lobby" | "menu" | "game" | "duel", "duel": DUEL}
    {"t": "challenge", "to": ID, "variant": "classic", "turn": 60}
    {"t": "withdraw"}
    {"t": "answer", "to": ID, "accept": true}
    {"t": "hosting", "duel": DUEL, "port": PORT}
    {"t": "duel_failed", "duel": DUEL}
    {"t": "code"}
    {"t": "leaderboard", "variant": "classic"}
    {"t": "seek", "variant": "classic", "rated": true, "range": [1400, 1600], "turn": 60}
    {"t": "unseek"}
    {"t": "take", "seek": ID}
    {"t": "quick", "variant": "classic"}
    {"t": "unquick"}
    {"t": "rematch", "accept": true}
    {"t": "frame", "duel": DUEL, "frame": {...}}
    {"t": "watch", "duel": DUEL}
    {"t": "unwatch"}
    {"t": "wchat", "text": "nice move"}
    {"t": "over", "duel": DUEL}
    {"t": "resume_duel"}
    {"t": "conduct", "duel": DUEL, "offence": "abort" | "stall" | "walkaway"}
    {"t": "result", "match": MATCH, "decision": {"rated": true, "variant": "classic",
     "accounts": [A0, A1], "score": 1.0, "ending": "end"}}
    {"t": "command", "text": "/mute bob 10m spam"}
    {"t": "ignore", "to": ID}

Messages to a game::

    {"t": "welcome", "id": ID, "name": "ann", "account": true, "operator": true,
     "turn": 60, "turns": [20, 60, 300]}
    {"t": "people", "people": [{"id": ID, "name": "bob", "state": "lobby", "with": "carl",
                                "ratings": {"classic": "1512?"}, "guest": true,
                                "seek": {"variant": "classic", "rated": true,
                                         "range": [1400, 1600]}, "quick": "classic"}]}
    {"t": "challenged", "by": ID, "name": "bob", "variant": "classic", "rated": true,
     "turn": 60}
    {"t": "withdrawn", "by": ID}
    {"t": "answered", "by": ID, "accept": false, "why": "...", "said": "...", "values": {}}
    {"t": "host", "duel": DUEL, "variant": "classic", "opponent": "bob", "match": MATCH,
     "rated": true, "accounts": [A0, A1], "how": "challenge" | "seek" | "quick" | "rematch",
     "target": 50, "turn": 60}
    {"t": "join", "duel": DUEL, "variant": "classic", "opponent": "ann", "port": PORT, ...}
    {"t": "rated", "match": MATCH, "rated": true, "text": "ann 1512 (+12) · bob 1488 (−12)"}
    {"t": "cancelled", "duel": DUEL, "why": "...", "said": "...", "values": {}}
    {"t": "closing", "why": "..."}
    {"t": "code", "code": "ABCD-EFGH", "name": "ann", "minutes": 10, "web": true}
    {"t": "leaderboard", "variant": "classic", "players": [{"rank": 1, "name": "ann",
     "rating": 1712.3, "rd": 64.0, "games": 31}], "days": 30, "rd": 110}
    {"t": "refused", "why": "...", "said": "...", "values": {}}
    {"t": "rematch", "by": ID, "name": "bob"}
    {"t": "rematch_off", "why": "...", "said": "...", "values": {}}
    {"t": "table_left", "why": "...", "said": "...", "values": {}}
    {"t": "watching", "duel": DUEL, "names": ["ann", "bob"], "chat": [["carl", "hi"]]}
    {"t": "frame", "duel": DUEL, "frame": {...}, "watchers": 3}
    {"t": "wchat", "name": "carl", "text": "nice move"}
    {"t": "watch_over", "duel": DUEL}
    {"t": "watchers", "duel": DUEL, "n": 3}
    {"t": "notice", "why": "...", "said": "...", "values": {}}
    {"t": "mute", "seconds": 600.0, "why": "...", "said": "...", "values": {}}
    {"t": "unmute"}
    {"t": "playban", "seconds": 600.0, "offences": 3}
    {"t": "away", "name": "bob", "seconds": 60.0}
    {"t": "duel_waits", "name": "ann", "variant": "classic", "seconds": 52.0}
    {"t": "gone", "name": "bob"}
    {"t": "back", "name": "bob"}
    {"t": "attached"}
    {"t": "abandon"}

A seat survives its connection (``ssh/seats.py``): when an account's connection drops in a
duel, his game plays on and his opponent is told (``away``: his seat is kept that many
seconds); when he is back (by either door), his game is told it has a new terminal
(``attached``: it draws itself whole) and his opponent that he is back (``back``); when he is
not back in time, his game is told to leave the duel (``abandon``). Each duel has a move
time (``turn``, seconds a move: a challenge or a seek names one of ``welcome``'s ``turns``,
else the server's default ``turn``); whoever runs out of it loses the match.

Seeks and quick pairing (``ssh/pairing.py``) start a duel as an accepted challenge does;
``refused`` says why a seek was not posted or taken. At a duel's end either side may ask
for a rematch (``rematch``, the other is told who asks); once both have, the next match
starts at once with the seats swapped. ``REMATCH_WAIT`` seconds without the other's answer
calls it off for both (``rematch_off``): their games go back to the lobby. One who leaves
the table (or the server) ends the offer: the other, still at the table, is told
(``table_left``), and his game offers no rematch any more, saying why.

Watching (``ssh/watching.py``): ``people`` also lists the live duels (``"duels": [{"duel":
DUEL, "variant": "classic", "names": [...], "ratings": [...], "watchers": 3}]``, the highest
rated first). A duel's host game sends a ``frame`` after every change (the table as anybody
may see it); the lobby keeps the latest and relays it to the duel's watchers, a new watcher
first. A watcher's ``wchat`` goes to the duel's other watchers, never to its players; the
players are told how many watch (``watchers``). A rematch keeps its watchers; once neither
player is at the table, its watchers are told ``watch_over``.

Moderation (``ssh/moderation.py``): ``command`` is a line typed at the lobby's command line
(``ssh/commands.py``), answered by a ``notice`` or refused; ``ignore`` toggles ignoring a
visitor (in the ``people`` a visitor is sent, those he ignores are marked ``"ignored":
true`` and their seeks left out). ``mute`` tells a game that its visitor's chat is closed
for that many seconds (its duel chat refuses, with those words); ``unmute`` opens it again.
An operator is told so in his ``welcome``.

On a server with accounts a person is marked ``"guest": true`` when he has none; ``code``
gives an account's owner a one-time code for his next key (``community.accounts``), or
(``"web": true``: the server has a web door) to sign a browser in.

A challenge between two accounts (not the same one, within the daily allowance of the
pair: ``ratings.pair_allowance``) is rated. The lobby gives each duel a match id; at its
end each game reports its decision on the match (``result``: ssh/rated_report.py), and the
lobby settles the match once, from both reports or from one and the other game's leaving
(its visitor gone, or back from the duel without a report), and tells both (``rated``).

A reason (``why``) is in English; the lobby's own reasons come with the sentence before its
values went in (``said``, "{name} left.") and the values (``values``, {"name": "bob"}), so
that each visitor's game says it in its visitor's language (``reason``): the lobby serves
visitors of every language at once.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
import socket
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tui_domino.community import accounts, playban
from tui_domino.community.db import Store
from tui_domino.community.display import rated_name, rating_text
from tui_domino.community.glicko2 import Rating, newcomer
from tui_domino.community.leaderboard import ACTIVE_DAYS, leaderboard
from tui_domino.community.rated import Decision, agree
from tui_domino.community.ratings import pair_allowance, record, standing
from tui_domino.i18n import N_
from tui_domino.logs import logged
from tui_domino.names import player_name, skeleton
from tui_domino.ssh.limits import RateLimiter
from tui_domino.ssh.moderation import Moderation, identity
from tui_domino.ssh.pairing import (
    TURN_DEFAULT,
    WAVE,
    Seek,
    Waiting,
    move_times,
    quick_pairs,
    read_seek,
)
from tui_domino.ssh.rated_report import read_decision
from tui_domino.ssh.reasons import reason as reason

log = logging.getLogger("tui_domino.ssh")

MAX_LINE = 256 * 1024  # a line from a game (a duel's frame for its watchers is the longest)
MAX_QUEUE = 256 * 1024
FRAME_QUEUE = 64 * 1024  # a watcher this far behind skips frames (the next one has it all)
STATES = ("lobby", "menu", "game", "duel", "watch")
AVAILABLE = ("lobby", "menu", "watch")  # where a visitor may be challenged or paired
WATCH_CHAT, WATCH_CHAT_WINDOW = 3, 3.0  # a watcher's chat lines in three seconds
# Watchers see a duel's table this long after its players (the newest of the frames of that
# time): their games redraw after the players' have, not while a player waits for a move,
# and a burst of moves costs each watcher one redraw.
WATCH_DELAY = 0.5
WATCH_CHAT_KEPT = 30  # the lines a new watcher is shown
WATCH_CHAT_WIDTH = 200
VARIANTS = ("classic", "spider", "triominos")
CHALLENGES, CHALLENGE_WINDOW = 5, 60.0  # a visitor's challenges a minute
LOOKUPS, LOOKUP_WINDOW = 10, 10.0  # a visitor's leaderboards in ten seconds
OFFERS, OFFER_WINDOW = 10, 60.0  # a visitor's seeks and quick pairings posted a minute
BOARD_PLACES = 50  # the leaderboard's places a game is sent
REMATCH_WAIT = 30.0  # seconds a rematch waits for the other side's answer
DUEL_WINDOW = 10.0  # a duel's resume window when no fresh game can take it up (a guest's)
RETURN_MARGIN = 30.0  # a duel waits this much longer than the seat (its game's start)
# The people and duels are sent once for all the changes within this many seconds; and,
# each list costing every game in the lobby a redraw, the next list not sooner than this
# many seconds more for each 8 visitors present (32: a list a second while a crowd arrives).
BROADCAST_DELAY = 0.2
BROADCAST_GAP_PER_8 = 0.4


@dataclass(eq=False)
class Return:
    """A duel whose player's game stopped, waiting for a fresh game of his (until
    ``until``, on the lobby's clock): his member as it was."""

    member: Member
    timer: asyncio.TimerHandle
    until: float


@dataclass(eq=False)
class Pairing:
    """A rated lobby duel until it is settled: its match id, variant, the members, accounts
    and names in seats 0 (the host) and 1, each seat's reported decision, and the seats
    whose game left without one."""

    match: str
    variant: str
    members: tuple[int, int]
    accounts: tuple[int | None, int | None]
    names: tuple[str, str]
    rated: bool
    reports: dict[int, Decision] = field(default_factory=dict)
    gone: set[int] = field(default_factory=set)

    def public(self) -> dict[str, Any]:
        """What each game is told of it."""
        return {"match": self.match, "rated": self.rated, "accounts": list(self.accounts)}


def swapped(ids: tuple[int, int], old: int, new: int) -> tuple[int, int]:
    """A duel's two members, ``old`` replaced by ``new`` (his fresh game's member)."""
    first, second = ids
    return (new if first == old else first, new if second == old else second)


def seat_ratings(host: Member, joiner: Member, variant: str) -> list[str | None]:
    """The ratings of a duel's seats (0: the host) in its game, as they read beside a name
    ("1512?"; None for a guest), for the duel screen."""
    return [host.ratings.get(variant), joiner.ratings.get(variant)]


@dataclass(eq=False)
class Member:
    id: int
    name: str
    writer: asyncio.StreamWriter
    state: str = "menu"
    challenging: int | None = None  # the member this one challenged, awaiting an answer
    variant: str = "classic"
    opponent: int | None = None  # during a duel
    duel: int | None = None
    playing: bool = False  # this member's game has opened the duel
    secret: str = field(default="", repr=False)  # the duel's channel key, from the lobby
    account: int | None = None  # on a server with accounts: his (None: a guest)
    guest: bool = False  # a visitor without an account, on a server with accounts
    ratings: dict[str, str] = field(default_factory=dict)  # his, by variant: "1512?"
    offer_rated: bool = False  # the challenge he sent is rated
    turn: int = 0  # the seconds a move of his duel (or of the challenge he sent)
    match: str | None = None  # the match id of his duel (a rated one: until it is settled)
    numbers: dict[str, float] = field(default_factory=dict)  # his ratings, as numbers
    seek: Seek | None = None  # his standing offer of a duel
    quick: str | None = None  # the game he waits to be paired for
    quick_since: float = 0.0
    seat: int = 0  # in his duel: 0 hosts, 1 joins
    how: str = "challenge"  # how his duel came about
    rematch: bool = False  # he asked for another match with his duel's opponent
    watching: int | None = None  # the duel he watches
    away: bool = False  # his connection dropped; his game keeps his seat (ssh/seats.py)
    over: bool = False  # his game says his duel's match is over (no seat to keep then)
    match_key: str = ""  # his duel's match id, kept after it is settled (his conduct's key)
    port: int = 0  # his duel's port on the loopback (its host's)
    resuming: bool = False  # his game takes a duel up again from its log (no new join)
    address: str = ""  # where he connects from
    key: str | None = None  # the fingerprint of the key he signed in with
    operator: bool = False  # signed in with a key of the operators file (ssh/moderation.py)
    muted_until: float = 0.0  # on the lobby's clock: his chat is closed until then
    mute_why: dict[str, Any] = field(default_factory=dict)  # the words of his mute
    ignoring: set[str] = field(default_factory=set)  # whom he ignores (moderation.identity)
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    # Set once his game has said a word to the lobby (it is up and drawn), or he left.
    up: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def public(self, others: dict[int, Member]) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "state": self.state}
        if self.guest:
            out["guest"] = True
        if self.ratings:
            out["ratings"] = dict(self.ratings)
        if self.seek is not None:
            out["seek"] = self.seek.public()
        if self.quick is not None:
            out["quick"] = self.quick
        if self.away:
            out["away"] = True
        other = others.get(self.opponent) if self.opponent is not None else None
        if other is not None and other.opponent == self.id:  # both still in that duel
            out["with"] = other.name
        return out


class ChatLine(NamedTuple):
    """A watcher's line: his name, what he wrote, and who he is (``moderation.identity``:
    a watcher who ignores him is not shown it)."""

    name: str
    text: str
    who: str


@dataclass(eq=False)
class LiveDuel:
    """A lobby duel being played, as its watchers follow it: its players (the host first),
    the latest frame its host sent, its watchers and their chat."""

    duel: int
    variant: str
    players: tuple[int, int]
    names: tuple[str, str]
    ratings: tuple[str | None, str | None]
    strength: float  # the higher of its players' ratings (0: two guests): the list's order
    frame: dict[str, Any] | None = None
    watchers: set[int] = field(default_factory=set)
    relay: asyncio.TimerHandle | None = None  # the watchers' next frame, due
    chat: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=WATCH_CHAT_KEPT))

    def public(self) -> dict[str, Any]:
        return {"duel": self.duel, "variant": self.variant, "names": list(self.names),
                "ratings": list(self.ratings), "watchers": len(self.watchers)}


class Lobby:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        # A visitor challenges at most CHALLENGES times a minute (withdrawn or not): each
        # challenge rings the other's bell and covers his screen.
        self.challenges = RateLimiter(CHALLENGES, CHALLENGE_WINDOW, clock)
        self.lookups = RateLimiter(LOOKUPS, LOOKUP_WINDOW, clock)
        # A seek or a wait for quick pairing shows in everyone's list: at most OFFERS a
        # minute (withdrawn or not).
        self.offers = RateLimiter(OFFERS, OFFER_WINDOW, clock)
        self.moderation = Moderation(self, clock)
        self.clock = clock
        self.wave = WAVE  # seconds between quick pairing's waves
        self.rematch_wait = REMATCH_WAIT
        self._wave: asyncio.TimerHandle | None = None
        self.watch_delay = WATCH_DELAY
        self.broadcast_delay = BROADCAST_DELAY
        self.broadcast_gap_per_8 = BROADCAST_GAP_PER_8
        self._broadcast: asyncio.TimerHandle | None = None  # the next broadcast, when due
        self._broadcast_at = -1e9  # (the loop's time of the last)
        self._rematches: dict[int, asyncio.TimerHandle] = {}  # by duel: the rematch's time
        self.members: dict[int, Member] = {}
        self._ids = itertools.count(1)
        self._duels = itertools.count(1)
        self.store: Store | None = None  # the community's database, on a server with accounts
        self.duel_target: int | None = None  # every duel's target (None: each game's usual)
        self.turn_seconds = TURN_DEFAULT  # a move's time when a challenge names none
        # Seconds an account's duel waits for him when his game stopped (ssh/seats.py's
        # window; 0: it does not), and the duels waiting, by account.
        self.seat_window = 0.0
        self.returns: dict[int, Return] = {}
        self.closing = False
        self.web = False  # the server has a web door too: a code also signs a browser in
        self.matches: dict[str, Pairing] = {}  # rated lobby duels not settled yet
        self.live: dict[int, LiveDuel] = {}  # duels being played, for their watchers
        self.watch_chat = RateLimiter(WATCH_CHAT, WATCH_CHAT_WINDOW, clock)

    # -- arrivals and departures -------------------------------------------------------------

    def unique_name(self, name: str) -> str:
        """``name``, or ``name-2``, ``name-3``... when it looks like a present visitor's
        name (the same, or the same to the eye: see ``names.skeleton``)."""
        taken = {skeleton(m.name) for m in self.members.values()}
        if skeleton(name) not in taken:
            return name
        for n in itertools.count(2):
            candidate = f"{name[:13]}-{n}"
            if skeleton(candidate) not in taken:
                return candidate
        raise AssertionError

    async def join(self, name: str, sock: socket.socket, account: int | None = None,
                   address: str = "", key: str | None = None) -> Member:
        """A visitor arrives (``account``: his, on a server with accounts; None: a guest;
        ``address``: where from; ``key``: the fingerprint of the key he signed in with)."""
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=MAX_LINE)
        # (the name as it shows: what does not show neither tells it apart nor goes with it)
        member = Member(next(self._ids), self.unique_name(player_name(name)), writer,
                        account=account, guest=self.store is not None and account is None,
                        address=address, key=key)
        member.operator = (account is not None and key is not None
                           and key in self.moderation.operators)
        self.rate(member)
        self.members[member.id] = member
        self.send(member, {"t": "welcome", "id": member.id, "name": member.name,
                           "account": account is not None, "turn": self.turn_seconds,
                           "turns": list(move_times(self.turn_seconds)),
                           **({"operator": True} if member.operator else {})})
        self.moderation.arrived(member)
        self._tell_waiting(member)
        member.task = asyncio.get_running_loop().create_task(self._listen(member, reader))
        self.broadcast()
        return member

    def rate(self, member: Member) -> None:
        """Reads ``member``'s ratings (an account's, in every variant) from the database."""
        if self.store is None or member.account is None:
            return
        found = {v: standing(self.store, member.account, v).rating for v in VARIANTS}
        member.ratings = {v: rating_text(r, self.store.system) for v, r in found.items()}
        member.numbers = {v: r.rating for v, r in found.items()}

    def number(self, member: Member, variant: str) -> float | None:
        """``member``'s rating in ``variant`` as a number (None: a guest, or no accounts)."""
        return member.numbers.get(variant)

    def leave(self, member: Member) -> None:
        member.up.set()
        if self.members.pop(member.id, None) is None:
            return
        self.unwatch(member)
        if self._await_return(member):
            if member.task is not None:
                member.task.cancel()
            member.writer.close()
            self.broadcast()
            return
        self._gone(member)
        if member.task is not None:
            member.task.cancel()
        member.writer.close()
        for other in self.members.values():
            if other.challenging == member.id:
                other.challenging = None
                # TRANSLATORS: {name} is a visitor's name (he left the server)
                why = reason(N_("{name} left."), name=member.name)
                self.send(other, {"t": "answered", "by": member.id, "accept": False, **why})
        if member.challenging in self.members:
            self.send(self.members[member.challenging], {"t": "withdrawn", "by": member.id})
        self._left_table(member, reason(N_("{name} left."), name=member.name))
        partner = self.members.get(member.opponent) if member.opponent is not None else None
        if (partner is not None and partner.duel == member.duel
                and not (member.playing and partner.playing)):
            # The duel was being set up, so the two never met: without this, the other
            # side would wait for a port, or for an opponent, forever.
            self._cancel(partner, reason(N_("{name} left."), name=member.name))
        self.broadcast()

    # -- a duel whose game stopped: a fresh game of his takes it up from its log --------------

    def duel_window(self, opponent: Member) -> float:
        """How long a duel's side waits for ``opponent`` to come back (its duel's resume
        window): an account's game logs the match, and a fresh one may take it up within
        the seat's time (and a margin); a guest's cannot."""
        if opponent.account is None or self.store is None or self.seat_window <= 0:
            return DUEL_WINDOW
        return self.seat_window + RETURN_MARGIN

    def _await_return(self, member: Member) -> bool:
        """``member``'s game stopped in the middle of his duel (killed, crashed): an
        account's duel waits ``seat_window`` seconds for a fresh game of his to take it up
        from its log (``resume_duel``); his opponent is told he is away. Whether it waits."""
        if (self.closing or member.account is None or self.store is None
                or self.seat_window <= 0 or member.duel is None or not member.playing
                or member.over or member.port <= 0 or member.account in self.returns):
            return False
        other = self.partner(member)
        if other is None:
            return False
        log.info("%s's game stopped in his duel with %s; it waits %gs for him", member.name,
                 other.name, self.seat_window)
        timer = asyncio.get_running_loop().call_later(self.seat_window, self._not_back,
                                                      member.account)
        self.returns[member.account] = Return(member, timer, self.clock() + self.seat_window)
        self.away(member, self.seat_window)
        return True

    def _not_back(self, account: int) -> None:
        gone = self.returns.pop(account, None)
        if gone is not None:
            log.info("%s did not take his duel up again", gone.member.name)
            other = self.partner(gone.member)
            if other is not None:  # (his game declares it: the one who went has no screen)
                self.send(other, {"t": "gone", "name": gone.member.name})
            self._gone(gone.member)
            self._left_table(gone.member, reason(N_("{name} left."), name=gone.member.name))
            self.broadcast()

    def _tell_waiting(self, member: Member) -> None:
        """Tells an arriving ``member`` that a duel of his waits for him."""
        waiting = self.returns.get(member.account) if member.account is not None else None
        if waiting is None:
            return
        other = self.partner(waiting.member)
        self.send(member, {"t": "duel_waits", "name": other.name if other else "?",
                           "variant": waiting.member.variant,
                           "seconds": max(0.0, waiting.until - self.clock())})

    def _resume_duel(self, member: Member) -> None:
        """``member`` takes up the duel that waits for him: his new game opens it from its
        log (a ``host`` or ``join`` marked ``resume``), his opponent's game sees him
        resume."""
        waiting = self.returns.get(member.account) if member.account is not None else None
        if waiting is None or not self.free(member):
            return
        old = waiting.member
        other = self.partner(old)
        del self.returns[old.account or 0]
        waiting.timer.cancel()
        if other is None:  # (his opponent left the server meanwhile)
            self._gone(old)
            self.refuse(member, reason(N_("Your opponent is gone.")))
            return
        log.info("%s takes his duel with %s up again", member.name, other.name)
        for name in ("duel", "secret", "match", "seat", "how", "variant", "turn", "match_key",
                     "port"):
            setattr(member, name, getattr(old, name))
        member.state, member.opponent, member.playing, member.over = "duel", other.id, False, False
        member.resuming, member.away, member.seek, member.quick = True, False, None, None
        other.opponent = member.id
        pairing = self.matches.get(old.match or "")
        if pairing is not None:
            pairing.members = swapped(pairing.members, old.id, member.id)
        live = self.live.get(old.duel or 0)
        if live is not None:
            live.players = swapped(live.players, old.id, member.id)
        self.send(member, self.duel_message(member, other, port=member.port, resume=True))
        self.broadcast()  # (his opponent's game sees him resume: it says he is back)

    # -- conduct: aborts, stalls and walk-aways cost something (community.playban) -----------

    def _conduct(self, member: Member, duel: Any, offence: Any) -> None:
        """``member``'s game says how his duel's match ended for him: an offence of his
        (``playban.KINDS``) is kept, and a ban from pairing it earns is told to him."""
        if (self.store is None or member.account is None or offence not in playban.KINDS
                or duel != member.duel or not member.match_key):
            return
        log.info("%s's conduct in match %s: %s", member.name, member.match_key, offence)
        ban = playban.offend(self.store, member.account, str(offence), member.match_key)
        if ban is not None:
            log.info("%s is banned from pairing for %.0f s (%d offences within a day)",
                     member.name, ban.until - self.store.now(), ban.offences)
            self.tell_playban(member, ban)

    def tell_playban(self, member: Member, ban: playban.Playban) -> None:
        assert self.store is not None
        self.send(member, {"t": "playban", "seconds": max(1.0, ban.until - self.store.now()),
                           "offences": ban.offences})

    def playbanned(self, member: Member) -> bool:
        """Whether ``member`` is banned from pairing now (then he is told why, for how
        long)."""
        if self.store is None or member.account is None:
            return False
        ban = playban.current(self.store, member.account)
        if ban is None:
            return False
        self.tell_playban(member, ban)
        return True

    # -- seats (ssh/seats.py) -----------------------------------------------------------------

    def away(self, member: Member, seconds: float) -> None:
        """``member``'s connection dropped in his duel: his game keeps his seat for
        ``seconds`` (ssh/seats.py). His opponent is told."""
        member.away = True
        other = self.partner(member)
        if other is not None:
            self.send(other, {"t": "away", "name": member.name, "seconds": seconds})
        self.broadcast()

    def back(self, member: Member, moved: bool = False) -> None:
        """``member`` is back at his table on a new connection (``moved``: it took the seat
        over from one still open): his game draws itself anew, his opponent is told."""
        was_away, member.away = member.away, False
        other = self.partner(member)
        if other is not None and was_away and not moved:
            self.send(other, {"t": "back", "name": member.name})
        self.send(member, {"t": "attached"})
        self.broadcast()

    def abandon(self, member: Member) -> None:
        """``member`` did not come back in time: his game leaves its duel, saying so."""
        self.send(member, {"t": "abandon"})

    def close(self, why: str) -> None:
        self.closing = True
        for waiting in self.returns.values():
            waiting.timer.cancel()
        self.returns.clear()
        if self._broadcast is not None:
            self._broadcast.cancel()
            self._broadcast = None
        if self._wave is not None:
            self._wave.cancel()
            self._wave = None
        for timer in self._rematches.values():
            timer.cancel()
        self._rematches.clear()
        for member in list(self.members.values()):
            self.send(member, {"t": "closing", "why": why})

    # -- sending -----------------------------------------------------------------------------

    def send(self, member: Member, message: dict[str, Any]) -> None:
        self.send_line(member, self._line(message))

    @staticmethod
    def _line(message: dict[str, Any]) -> bytes:
        return json.dumps(message, separators=(",", ":")).encode() + b"\n"

    def send_line(self, member: Member, data: bytes, skippable: bool = False) -> None:
        """Sends a message already made a line; a ``skippable`` one (a duel's frame: the
        next one has it all) is not sent to a game that far behind."""
        writer = member.writer
        if writer.is_closing():
            return
        queued = writer.transport.get_write_buffer_size()
        if skippable and queued > FRAME_QUEUE:
            return
        if queued > MAX_QUEUE:
            # A game that stopped reading the lobby loses its lobby, not the server's memory.
            log.info("%s stopped reading the lobby", member.name)
            writer.close()
            return
        writer.write(data)

    def people(self) -> list[dict[str, Any]]:
        return [m.public(self.members) for m in self.members.values()]

    def duels(self) -> list[dict[str, Any]]:
        """The live duels, the highest rated first: those both players are still at (a
        duel one has left is over, though its watchers may follow a rematch)."""
        return [d.public() for d in sorted(self.live.values(),
                                           key=lambda d: (-d.strength, d.duel))
                if all(self.members.get(p) is not None and self.members[p].duel == d.duel
                       for p in d.players)]

    def broadcast(self) -> None:
        """Tells everyone in the lobby or the menu who is here and the live duels: once for
        all the changes made within ``broadcast_delay`` seconds, so that visitors arriving
        together (or any burst of changes) cost each game one redraw, not one each; and,
        with many here, spaced out (``broadcast_gap_per_8``): a crowd arriving costs each
        game a redraw a second, not five."""
        if self._broadcast is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no loop: at once)
            self.broadcast_now()
            return
        self._broadcast = loop.call_later(self.broadcast_wait(), self.broadcast_now)

    def broadcast_wait(self) -> float:
        """Seconds until the next list is sent, when something changes now."""
        gap = self.broadcast_delay + self.broadcast_gap_per_8 * len(self.members) / 8
        return max(self.broadcast_delay, self._broadcast_at + gap - self.clock())

    def broadcast_now(self) -> None:
        if self._broadcast is not None:
            self._broadcast.cancel()
            self._broadcast = None
        self._broadcast_at = self.clock()
        self._sweep()
        people, duels = self.people(), self.duels()
        shared = self._line({"t": "people", "people": people, "duels": duels})
        for member in list(self.members.values()):
            if member.state not in ("lobby", "menu"):
                continue
            if member.ignoring:  # (those he ignores: marked, their seeks not his to take)
                self.send(member, {"t": "people", "duels": duels,
                                   "people": self.moderation.people_for(member, people)})
            else:
                self.send_line(member, shared)

    # -- receiving ---------------------------------------------------------------------------

    async def _listen(self, member: Member, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    log.info("%s sent an oversized lobby line", member.name)
                    break
                if not line:
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict):
                    self.handle(member, message)
        except (ConnectionError, OSError):
            pass
        finally:
            with logged("closing a visitor's lobby link"):
                member.writer.close()

    def handle(self, member: Member, message: dict[str, Any]) -> None:
        member.up.set()
        kind = message.get("t")
        if kind == "state" and message.get("state") in STATES:
            self._state(member, message["state"], message.get("duel"))
        elif kind == "challenge":
            self._challenge(member, message.get("to"), message.get("variant"),
                            message.get("turn"))
        elif kind == "withdraw" and member.challenging is not None:
            target = self.members.get(member.challenging)
            member.challenging = None
            if target is not None:
                self.send(target, {"t": "withdrawn", "by": member.id})
        elif kind == "answer":
            self._answer(member, message.get("to"), message.get("accept") is True)
        elif kind == "hosting":
            self._hosting(member, message.get("duel"), message.get("port"))
        elif kind == "duel_failed":
            self._duel_failed(member, message.get("duel"))
        elif kind == "code":
            self._code(member)
        elif kind == "leaderboard":
            self._leaderboard(member, message.get("variant"))
        elif kind == "seek":
            self._seek(member, message)
        elif kind == "unseek" and member.seek is not None:
            member.seek = None
            self.broadcast()
        elif kind == "take":
            self._take(member, message.get("seek"))
        elif kind == "quick":
            self._quick(member, message.get("variant"))
        elif kind == "unquick" and member.quick is not None:
            member.quick = None
            self.broadcast()
        elif kind == "rematch":
            self._rematch(member, message.get("accept") is True)
        elif kind == "frame":
            self._frame(member, message.get("duel"), message.get("frame"))
        elif kind == "watch":
            self._watch(member, message.get("duel"))
        elif kind == "unwatch":
            self.unwatch(member)
            self.broadcast()
        elif kind == "wchat":
            self._watch_chat(member, message.get("text"))
        elif kind == "resume_duel":
            self._resume_duel(member)
        elif kind == "conduct":
            self._conduct(member, message.get("duel"), message.get("offence"))
        elif kind == "over":
            if message.get("duel") == member.duel and member.duel is not None:
                member.over = True
        elif kind == "result":
            self._result(member, message.get("match"), message.get("decision"))
        elif kind == "command":
            self.moderation.command(member, message.get("text"))
        elif kind == "ignore":
            self.moderation.toggle_ignore(member, message.get("to"))

    def _code(self, member: Member) -> None:
        if self.store is None or member.account is None:
            return
        account = accounts.account_by_id(self.store, member.account)
        if account is None:
            return
        code = accounts.new_code(self.store, account.id)
        self.send(member, {"t": "code", "code": code, "name": account.name,
                           "minutes": int(accounts.CODE_LIFETIME // 60), "web": self.web})

    def _state(self, member: Member, state: str, duel: Any) -> None:
        if state != "watch" and member.watching is not None:
            self.unwatch(member)  # (his game left the watching screen)
        if member.duel is not None:
            if state == "duel":
                if duel == member.duel:
                    member.playing, member.resuming = True, False
            elif member.playing:
                # TRANSLATORS: {name} is a visitor's name (he left the table after a duel)
                self._left_table(member, reason(N_("{name} left the table."),
                                                name=member.name))
                member.opponent = member.duel = None  # back from the duel
                member.playing = False
                self._gone(member)  # (a report he did not send will not come)
            else:
                # Sent before this member's game heard of the duel it is about to
                # open (the reports and the lobby's messages cross): the duel is on.
                state = "duel"
        member.state = state
        self.broadcast()

    def move_time(self, turn: Any) -> int:
        """The move time a visitor asked for, when it is one this lobby offers; else its
        default."""
        return turn if turn in move_times(self.turn_seconds) else self.turn_seconds

    def _challenge(self, member: Member, to: Any, variant: Any, turn: Any = None) -> None:
        target = self.members.get(to) if isinstance(to, int) else None
        why: dict[str, Any] | None = None
        if target is None or target is member:
            why = reason(N_("That visitor is not here."))
        elif target.state not in AVAILABLE or target.opponent is not None:
            why = reason(N_("{name} is busy."), name=target.name)
        elif member.challenging is not None:
            why = reason(N_("You are already waiting for an answer."))
        elif self.playbanned(member):
            return
        elif any(m.challenging == target.id for m in self.members.values()):
            why = reason(N_("{name} is answering another challenge."), name=target.name)
        elif not self.challenges.allow(str(member.id)):
            # TRANSLATORS: a visitor challenged others more than 5 times within a minute
            why = reason(N_("Too many challenges in a minute: wait a little before the next."))
        elif self.moderation.ignores(target, member):
            # (he is not told he is ignored: it reads as a challenge declined)
            why = reason(N_("{name} declined."), name=target.name)
        if why is not None or target is None:
            self.send(member, {"t": "answered", "by": to, "accept": False, **(why or {})})
            return
        member.challenging = target.id
        member.variant = variant if variant in VARIANTS else "classic"
        member.turn = self.move_time(turn)
        member.offer_rated = self.rated_between(member, target)
        self.send(target, {"t": "challenged", "by": member.id, "name": member.name,
                           "variant": member.variant, "rated": member.offer_rated,
                           "turn": member.turn})

    def _answer(self, member: Member, to: Any, accept: bool) -> None:
        challenger = self.members.get(to) if isinstance(to, int) else None
        if challenger is None or challenger.challenging != member.id:
            return
        challenger.challenging = None
        if accept and self.playbanned(member):
            # TRANSLATORS: {name} accepted a challenge but may not play duels for a while
            why = reason(N_("{name} cannot play duels for a while."), name=member.name)
            self.send(challenger, {"t": "answered", "by": member.id, "accept": False, **why})
            return
        if not accept:
            # TRANSLATORS: {name} is the challenged visitor's name (a label: "Declined: {name}"
            # avoids a verb that agrees with the name's gender)
            why = reason(N_("{name} declined."), name=member.name)
            self.send(challenger, {"t": "answered", "by": member.id, "accept": False, **why})
            return
        self.send(challenger, {"t": "answered", "by": member.id, "accept": True, "why": ""})
        # The challenged visitor hosts (seat 0); the challenger joins once the port is known.
        self.start_duel(member, challenger, challenger.variant, challenger.offer_rated,
                        "challenge", challenger.turn)

    def start_duel(self, host: Member, joiner: Member, variant: str, offer_rated: bool,
                   how: str, turn: int | None = None) -> None:
        """``host`` and ``joiner`` agreed on a duel of ``variant`` (rated when offered so and
        still allowed), ``turn`` seconds a move (None: the lobby's default): ``host`` is
        asked to host it, ``joiner`` will be sent the port. A rematch keeps the watchers of
        the match before."""
        turn = self.move_time(turn)
        before = self.live.pop(host.duel, None) if how == "rematch" and host.duel else None
        for m in (host, joiner):
            self.unwatch(m)
        duel = next(self._duels)
        # Both games key the duel's channel on a secret only the lobby hands out (each
        # visitor's game is a process of its own): nobody types a code, and another user of
        # the machine who finds the port gets nowhere.
        secret = secrets.token_hex(16)
        match = secrets.token_hex(16)  # the match's id, for the ratings
        for seat, (a, b) in enumerate(((host, joiner), (joiner, host))):
            a.state, a.opponent, a.duel, a.playing = "duel", b.id, duel, False
            a.secret, a.match, a.seat, a.how, a.variant = secret, match, seat, how, variant
            a.turn, a.over, a.match_key = turn, False, match
            a.seek, a.quick, a.rematch, a.challenging = None, None, False, None
        pairing = Pairing(match, variant, (host.id, joiner.id),
                          (host.account, joiner.account), (host.name, joiner.name),
                          rated=offer_rated and self.rated_between(host, joiner))
        if pairing.rated:
            self.matches[match] = pairing
        numbers = [self.number(m, variant) or 0.0 for m in (host, joiner)]
        live = self.live[duel] = LiveDuel(
            duel, variant, (host.id, joiner.id), (host.name, joiner.name),
            (host.ratings.get(variant), joiner.ratings.get(variant)), max(numbers))
        if before is not None:
            live.watchers, live.chat = before.watchers, before.chat
            for wid in live.watchers:
                self.members[wid].watching = duel
                self.send(self.members[wid], self._watching(live, self.members[wid]))
        self.send(host, self.duel_message(host, joiner))
        self.broadcast()

    def duel_message(self, member: Member, other: Member, **more: Any) -> dict[str, Any]:
        """What ``member``'s game is told of his duel with ``other``: a ``host`` in seat 0,
        a ``join`` in seat 1 (with ``more``: the port, a resume)."""
        pairing = self.matches.get(member.match or "")
        public = pairing.public() if pairing is not None else {"match": member.match,
                                                                 "rated": False}
        host, joiner = (member, other) if member.seat == 0 else (other, member)
        return {"t": "host" if member.seat == 0 else "join", "duel": member.duel,
                "variant": member.variant, "opponent": other.name, "secret": member.secret,
                **public, "ratings": seat_ratings(host, joiner, member.variant),
                "how": member.how, "turn": member.turn, "window": self.duel_window(other),
                **({"target": self.duel_target} if self.duel_target else {}), **more}

    def _hosting(self, member: Member, duel: Any, port: Any) -> None:
        if member.duel is None or duel != member.duel or not isinstance(port, int):
            return
        if member.resuming:
            return  # (a duel taken up again: its joiner reconnects to the same port)
        other = self.members.get(member.opponent) if member.opponent is not None else None
        if other is None or other.duel != duel:
            self._cancel(member, reason(N_("Your opponent is gone.")))
            self.broadcast()
            return
        member.port = other.port = port
        self.send(other, self.duel_message(other, member, port=port))

    def _duel_failed(self, member: Member, duel: Any) -> None:
        if member.duel is None or duel != member.duel:
            return  # a duel that is over already
        other = self.members.get(member.opponent) if member.opponent is not None else None
        if member.playing and other is not None and other.playing:
            self._gone(member)  # the duel was on: a game's failure now is its side's
        else:
            self._drop(member)
        member.state, member.opponent, member.duel, member.playing = "lobby", None, None, False
        if other is not None and other.duel == duel:
            self._cancel(other, reason(N_("The duel could not start.")))
        self.broadcast()

    def _cancel(self, member: Member, why: dict[str, Any]) -> None:
        """Ends ``member``'s duel before it was played (the other side failed or left);
        ``why`` is a ``reason``."""
        duel = member.duel
        self._drop(member)
        member.state, member.opponent, member.duel, member.playing = "lobby", None, None, False
        self.send(member, {"t": "cancelled", "duel": duel, **why})

    # -- the leaderboard, seeks, quick pairing and rematches ------------------------------------

    def refuse(self, member: Member, why: dict[str, Any]) -> None:
        """Tells ``member`` why what he asked is not done (``why``: a ``reason``)."""
        self.send(member, {"t": "refused", **why})

    def _leaderboard(self, member: Member, variant: Any) -> None:
        if self.store is None or variant not in VARIANTS:
            return
        if not self.lookups.allow(str(member.id)):
            return  # (a game asks once a screen; a flood of asks gets no answer)
        places = leaderboard(self.store, str(variant), limit=BOARD_PLACES)
        self.send(member, {"t": "leaderboard", "variant": variant,
                           "players": [e.to_json() for e in places], "days": ACTIVE_DAYS,
                           "rd": self.store.system.provisional_rd})

    def free(self, member: Member) -> bool:
        """Whether ``member`` may start a duel now: in the lobby or the menu, in no duel."""
        return member.state in AVAILABLE and member.opponent is None

    def _seek(self, member: Member, message: dict[str, Any]) -> None:
        seek = read_seek(message)
        if seek is None or (seek.turn is not None
                            and seek.turn not in move_times(self.turn_seconds)):
            return
        if not self.free(member) or self.playbanned(member) or not self._offer(member):
            return
        if seek.rated and (self.store is None or member.account is None):
            # TRANSLATORS: a guest (no account, no ssh key) tried to post a rated seek
            self.refuse(member, reason(N_("Only a player signed in with his key plays rated "
                                          "games.")))
            return
        member.seek, member.quick = seek, None
        self.broadcast()

    def _take(self, member: Member, seeker_id: Any) -> None:
        seeker = self.members.get(seeker_id) if type(seeker_id) is int else None
        seek = seeker.seek if seeker is not None else None
        why: dict[str, Any] | None = None
        if (seeker is None or seek is None or seeker is member
                or self.moderation.apart(seeker, member)):
            # TRANSLATORS: a visitor took a seek that was withdrawn or taken meanwhile
            why = reason(N_("That seek is gone."))
        elif not self.free(member) or member.challenging is not None:
            why = reason(N_("You are already waiting for an answer."))
        elif not self.free(seeker) or any(m.challenging == seeker.id
                                          for m in self.members.values()):
            why = reason(N_("{name} is busy."), name=seeker.name)
        elif seek.rated and not self.rated_between(seeker, member):
            # TRANSLATORS: {name} is the seeker's; a rated seek is for accounts only, and
            # two accounts play each other rated a few times a day at most
            why = reason(N_("{name} seeks a rated game, which you cannot play with him now."),
                         name=seeker.name)
        elif not seek.admits(self.number(member, seek.variant)):
            # TRANSLATORS: a seek admits players whose rating is within a range
            why = reason(N_("Your rating is outside the range this seek asks for."))
        if why is not None or seeker is None or seek is None:
            self.refuse(member, why or {})
            return
        if self.playbanned(member):
            return
        log.info("%s took %s's seek", member.name, seeker.name)
        self.start_duel(seeker, member, seek.variant, seek.rated, "seek", seek.turn)

    def _offer(self, member: Member) -> bool:
        """Whether ``member`` may post one more seek or quick pairing now (else told)."""
        if self.offers.allow(str(member.id)):
            return True
        # TRANSLATORS: a visitor posted seeks or quick pairings more than 10 times a minute
        self.refuse(member, reason(N_("Too many seeks in a minute: wait a little before the "
                                      "next.")))
        return False

    def _quick(self, member: Member, variant: Any) -> None:
        if (variant not in VARIANTS or not self.free(member) or self.playbanned(member)
                or not self._offer(member)):
            return
        member.quick, member.quick_since, member.seek = str(variant), self.clock(), None
        self.broadcast()
        if self._wave is None:
            self._wave = asyncio.get_running_loop().call_later(self.wave, self.pair_wave)

    def pair_wave(self) -> None:
        """Quick pairing's wave: pairs those waiting, the closest ratings first
        (``pairing.quick_pairs``); whoever is left waits for the next wave."""
        self._wave = None
        default = newcomer(self.store.system).rating if self.store is not None else 1500.0
        left = False
        for variant in VARIANTS:
            waiting = [Waiting(m.id, self.number(m, variant) or default, m.quick_since)
                       for m in self.members.values() if m.quick == variant and self.free(m)]
            pairs = quick_pairs(waiting, lambda a, b: self.moderation.apart(
                self.members[a], self.members[b]))
            for host_id, joiner_id in pairs:
                host, joiner = self.members[host_id], self.members[joiner_id]
                log.info("quick pairing: %s and %s", host.name, joiner.name)
                self.start_duel(host, joiner, variant, True, "quick")
            left = left or len(waiting) > 2 * len(pairs)
        if left:
            self._wave = asyncio.get_running_loop().call_later(self.wave, self.pair_wave)

    def partner(self, member: Member) -> Member | None:
        """``member``'s opponent while both are still at their duel's table."""
        other = self.members.get(member.opponent) if member.opponent is not None else None
        if other is None or other.opponent != member.id or other.duel != member.duel:
            return None
        return other

    def _rematch(self, member: Member, accept: bool) -> None:
        other = self.partner(member)
        if other is None or member.duel is None or not (member.playing and other.playing):
            return
        if not accept:
            # TRANSLATORS: {name} is a visitor's name (he declined another match)
            self._rematch_off(member, reason(N_("{name} declined the rematch."),
                                             name=member.name), left=True)
            return
        if member.match in self.matches:
            return  # his match is not over (its result not in yet)
        member.rematch = True
        if not other.rematch:
            self.send(other, {"t": "rematch", "by": member.id, "name": member.name})
            duel = member.duel
            self._rematches[duel] = asyncio.get_running_loop().call_later(
                self.rematch_wait, self._rematch_lapsed, duel)
            return
        timer = self._rematches.pop(member.duel, None)
        if timer is not None:
            timer.cancel()
        host, joiner = (member, other) if member.seat == 1 else (other, member)
        log.info("rematch: %s and %s", host.name, joiner.name)
        variant, turn = member.variant, member.turn
        for m in (member, other):
            self._gone(m)  # (settled already: their reports came before they asked)
        self.start_duel(host, joiner, variant, True, "rematch", turn)

    def _rematch_lapsed(self, duel: int) -> None:
        self._rematches.pop(duel, None)
        asked = next((m for m in self.members.values() if m.duel == duel and m.rematch), None)
        if asked is not None:
            # TRANSLATORS: nobody answered the offer of another match in time
            self._rematch_off(asked, reason(N_("The rematch was not answered in time.")))

    def _left_table(self, member: Member, why: dict[str, Any]) -> None:
        """``member`` left his duel's table (``why``): no rematch with him. The other, still
        at the table, is told (his offer of a rematch turns grey, saying why)."""
        other = self.partner(member)
        if member.duel is not None:
            timer = self._rematches.pop(member.duel, None)
            if timer is not None:
                timer.cancel()
        member.rematch = False
        if other is not None:
            other.rematch = False
            self.send(other, {"t": "table_left", **why})

    def _rematch_off(self, member: Member, why: dict[str, Any], left: bool = False) -> None:
        """The rematch ``member``'s table was waiting on is off (``why``): both sides are
        told (their games go back to the lobby), but ``member`` when he ``left`` it."""
        other = self.partner(member)
        if not (member.rematch or (other is not None and other.rematch)):
            return
        if member.duel is not None:
            timer = self._rematches.pop(member.duel, None)
            if timer is not None:
                timer.cancel()
        for m in (member, other):
            if m is not None:
                m.rematch = False
                if not (left and m is member):
                    self.send(m, {"t": "rematch_off", **why})

    # -- watching ---------------------------------------------------------------------------

    def _watching(self, live: LiveDuel, member: Member) -> dict[str, Any]:
        return {"t": "watching", "duel": live.duel, "names": list(live.names),
                "ratings": list(live.ratings), "variant": live.variant,
                "chat": [[line.name, line.text] for line in live.chat
                         if line.who not in member.ignoring]}

    def _frame(self, member: Member, duel: Any, frame: Any) -> None:
        live = self.live.get(duel) if type(duel) is int else None
        if (live is None or member.id != live.players[0] or member.duel != duel
                or not isinstance(frame, dict)):
            return  # only a duel's host game tells its table, while it plays it
        live.frame = frame
        if not live.watchers or live.relay is not None:
            return  # (a relay due sends the newest frame)
        if self.watch_delay <= 0:
            self._relay(live)
        else:
            live.relay = asyncio.get_running_loop().call_later(self.watch_delay, self._relay,
                                                               live)

    def _relay(self, live: LiveDuel) -> None:
        """Sends the duel's newest frame to its watchers."""
        live.relay = None
        if live.frame is None or self.live.get(live.duel) is not live:
            return
        data = self._line({"t": "frame", "duel": live.duel, "frame": live.frame,
                           "watchers": len(live.watchers)})
        for wid in list(live.watchers):
            watcher = self.members.get(wid)
            if watcher is not None:
                self.send_line(watcher, data, skippable=True)

    def _watch(self, member: Member, duel: Any) -> None:
        live = self.live.get(duel) if type(duel) is int else None
        if live is None:
            # TRANSLATORS: a visitor chose a duel to watch that has ended meanwhile
            self.refuse(member, reason(N_("That duel is over.")))
            return
        if member.id in live.players or not self.free(member):
            return
        self.unwatch(member)
        member.watching = duel
        live.watchers.add(member.id)
        self.send(member, self._watching(live, member))
        if live.frame is not None:  # the position at once
            self.send(member, {"t": "frame", "duel": duel, "frame": live.frame,
                               "watchers": len(live.watchers)})
        self._tell_watchers(live)
        self.broadcast()

    def unwatch(self, member: Member) -> None:
        """``member`` no longer watches the duel he watched."""
        live = self.live.get(member.watching) if member.watching is not None else None
        member.watching = None
        if live is not None and member.id in live.watchers:
            live.watchers.discard(member.id)
            self._tell_watchers(live)

    def _tell_watchers(self, live: LiveDuel) -> None:
        """The duel's players are told how many watch them."""
        for pid in live.players:
            player = self.members.get(pid)
            if player is not None and player.duel == live.duel:
                self.send(player, {"t": "watchers", "duel": live.duel,
                                   "n": len(live.watchers)})

    def _watch_chat(self, member: Member, text: Any) -> None:
        live = self.live.get(member.watching) if member.watching is not None else None
        if live is None or not isinstance(text, str):
            return
        line = " ".join(text.split())[:WATCH_CHAT_WIDTH]
        if not line:
            return
        if self.moderation.chat_refused(member):
            return
        if not self.watch_chat.allow(str(member.id)):
            # TRANSLATORS: a watcher wrote more than 3 lines within 3 seconds
            self.refuse(member, reason(N_("Not so fast: at most 3 lines in 3 seconds.")))
            self.moderation.too_fast(member)  # (once too often: muted for a while)
            return
        live.chat.append(ChatLine(member.name, line, identity(member)))
        data = self._line({"t": "wchat", "name": member.name, "text": line})
        for wid in list(live.watchers):  # never to the players: no kibitzing
            watcher = self.members.get(wid)
            if watcher is not None and not self.moderation.ignores(watcher, member):
                self.send_line(watcher, data)

    def _sweep(self) -> None:
        """Duels that neither player is at any more: their watchers are told."""
        for duel, live in list(self.live.items()):
            if any(m.duel == duel for m in (self.members.get(p) for p in live.players)
                   if m is not None):
                continue
            del self.live[duel]
            if live.relay is not None:
                live.relay.cancel()
            for wid in live.watchers:
                watcher = self.members.get(wid)
                if watcher is not None:
                    watcher.watching = None
                    self.send(watcher, {"t": "watch_over", "duel": duel})

    # -- rated duels -------------------------------------------------------------------------

    def rated_between(self, a: Member, b: Member) -> bool:
        """Whether a duel of ``a`` and ``b`` is rated: two accounts, not the same one, that
        may still play rated today."""
        return (self.store is not None and a.account is not None and b.account is not None
                and a.account != b.account
                and pair_allowance(self.store, a.account, b.account) > 0)

    def _drop(self, member: Member) -> None:
        """``member``'s duel never started: its match is not to be settled."""
        if member.match is not None:
            self.matches.pop(member.match, None)
            member.match = None

    def _result(self, member: Member, match: Any, data: Any) -> None:
        pairing = self.matches.get(match) if isinstance(match, str) else None
        if pairing is None or member.id not in pairing.members:
            return
        seat = pairing.members.index(member.id)
        if seat in pairing.reports or seat in pairing.gone:
            return  # one report a side
        decision = read_decision(data, pairing.variant, pairing.accounts)
        if decision is None:
            log.info("%s sent a result that is not one", member.name)
            return
        pairing.reports[seat] = decision
        self._settle(pairing)

    def _gone(self, member: Member) -> None:
        """``member``'s game left its rated duel (or the lobby): no report of his comes."""
        pairing = self.matches.get(member.match or "")
        member.match = None
        if pairing is None or member.id not in pairing.members:
            return
        seat = pairing.members.index(member.id)
        if seat not in pairing.reports:
            pairing.gone.add(seat)
        self._settle(pairing)

    def _settle(self, pairing: Pairing) -> None:
        """Settles the match once both sides are heard from (or gone), and tells both."""
        if len(pairing.reports) + len(pairing.gone) < 2 or self.store is None:
            return
        del self.matches[pairing.match]
        decision = agree([pairing.reports[s] for s in sorted(pairing.reports)])
        settled = record(self.store, pairing.match, decision)
        log.info("match %s of %s settled: %s", pairing.match, " and ".join(pairing.names),
                 settled.reason)
        message: dict[str, Any] = {"t": "rated", "match": pairing.match,
                                   "rated": settled.rated}
        if settled.rated and settled.changes is not None:
            system = self.store.system
            message["text"] = " · ".join(
                rated_name(name, Rating(c.after, c.rd_after, system.volatility), c.rating,
                           system)
                for name, c in zip(pairing.names, settled.changes, strict=True))
        else:
            # TRANSLATORS: at a lobby duel's end, when it changes no rating
            message.update(reason(N_("This match changes no rating.")))
        for mid in pairing.members:
            m = self.members.get(mid)
            if m is not None:
                self.rate(m)
                self.send(m, message)
        self.broadcast()
