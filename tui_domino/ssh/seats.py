"""A seat that outlives its connection: a visitor with an account whose connection drops in
the middle of a lobby duel keeps his game, its process and its table, for ``window`` seconds
(``serve --seat-seconds``), as a tmux session outlives its terminal. Whichever door he comes
back by (ssh with his key, or a browser signed in to the same account) within that time, his
new connection is given the same game: the same table, hand, moves, chat and clock.

While he is away his game plays on (the duel stays connected on the server's loopback, his
move clock runs: it is his time), its output read and dropped (a terminal nobody reads must
not stop the game). His opponent is told that his connection is lost and for how long his
seat is kept (the lobby's ``away``), then that he is back (``back``). When the time runs out
his game leaves the duel itself, saying why (``abandon``: one verdict on both screens), and
is then stopped.

A second connection of the same account while the first still holds the seat (a network
gone without a word: the server notices only when keepalives go unanswered) takes the seat
over at once; the first is told so and closed (``Holder.detach``).

A guest cannot be recognised on his return: his seat ends with his connection (his game
tells him so as the duel starts).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tui_domino.ssh.lobby import Member
from tui_domino.ssh.spawn import GameProcess, stop_game

if TYPE_CHECKING:
    from tui_domino.ssh.lobby import Lobby

log = logging.getLogger("tui_domino.ssh")

# Seconds a held game has to leave its duel (saying why) before it is stopped.
LEAVE_GRACE = 2.0


@dataclass(eq=False)
class Game:
    """A visitor's game as a connection holds it: its process, its terminal's master side,
    its home and its member of the lobby."""

    proc: GameProcess
    master: int
    home: Path
    member: Member


def live_game(proc: GameProcess | None, master: int | None, home: Path | None,
              member: Member | None) -> Game | None:
    """The game a connection plays, when it has one whose process plays on (one it may
    give up to another connection, or keep for its visitor); else None."""
    if (proc is None or master is None or home is None or member is None
            or proc.returncode is not None):
        return None
    return Game(proc, master, home, member)


class Holder(Protocol):
    """A connection that holds a seat (either door's visit)."""

    @property
    def member(self) -> Member | None: ...

    def detach(self) -> Game | None:
        """Gives up its game to another connection of the same account (it is told so and
        closed); None when it has none to give."""


@dataclass(eq=False)
class Held:
    """A game whose connection dropped, waiting for its visitor."""

    account: int
    game: Game
    timer: asyncio.TimerHandle | None = None
    watch: asyncio.Task[None] | None = field(default=None, repr=False)


class Seats:
    """The held games, by account; ``Lobby`` tells the players."""

    def __init__(self, lobby: Lobby, window: float,
                 give_back: Callable[[Path], None]) -> None:
        self.lobby = lobby
        self.window = window
        self.give_back = give_back  # a home no game uses any more
        self.held: dict[int, Held] = {}
        self.holders: dict[int, set[Holder]] = {}  # each account's connections playing
        self.closing = False
        self._ending: set[asyncio.Task[None]] = set()

    def holdable(self, account: int | None, member: Member | None) -> bool:
        """Whether a game whose connection dropped waits for its visitor: an account's,
        in a lobby duel whose match is not over, on a server that keeps seats and is not
        closing."""
        return (account is not None and member is not None and self.window > 0
                and not self.closing and member.duel is not None and member.state == "duel"
                and not member.over)

    def holding(self, account: int | None, holder: Holder) -> None:
        """``holder`` now plays a game of its account's (a duel may come)."""
        if account is not None:
            self.holders.setdefault(account, set()).add(holder)

    def released(self, account: int | None, holder: Holder) -> None:
        """``holder``'s connection ended (its game stopped, or held)."""
        if account is not None:
            left = self.holders.get(account, set())
            left.discard(holder)
            if not left:
                self.holders.pop(account, None)

    def keep(self, account: int | None, member: Member | None,
             let_go: Callable[[], Game | None]) -> bool:
        """A connection of ``account`` dropped: when its game may wait for him
        (``holdable``), ``let_go`` unhooks the game from the connection and it is held.
        Whether it was."""
        if account is None or not self.holdable(account, member):
            return False
        game = let_go()
        if game is None:
            return False
        self.hold(account, game)
        return True

    def hold(self, account: int, game: Game) -> None:
        """Keeps ``game`` for ``window`` seconds: its connection dropped."""
        loop = asyncio.get_running_loop()
        held = Held(account, game)
        loop.add_reader(game.master, _drop_output, game.master)
        held.timer = loop.call_later(self.window, self._lapse, account)
        held.watch = loop.create_task(self._watch(held))
        self.held[account] = held
        log.info("%s's connection dropped in a duel; his seat is kept for %gs",
                 game.member.name, self.window)
        self.lobby.away(game.member, self.window)

    def take(self, account: int | None) -> Game | None:
        """The game held for ``account`` (its timer stopped), or the one a live connection
        of his holds in a duel (that connection detached); None when there is neither."""
        if account is None:
            return None
        held = self.held.pop(account, None)
        if held is None:  # (his connection in a duel, if one is: not one in the lobby)
            holder = next((h for h in self.holders.get(account, set())
                           if self.holdable(account, h.member)), None)
            game = holder.detach() if holder is not None else None
            if holder is None or game is None:
                return None
            self.released(account, holder)
            log.info("%s's seat moved to a new connection", game.member.name)
            self.lobby.back(game.member, moved=True)
            return game
        self._unhold(held)
        log.info("%s is back at his table", held.game.member.name)
        self.lobby.back(held.game.member)
        return held.game

    def _unhold(self, held: Held, watch: bool = True) -> None:
        """``held`` waits no more: its timer, its output's reader (and, unless ``watch``
        is False, the watch on its end) stopped."""
        if held.timer is not None:
            held.timer.cancel()
            held.timer = None
        if watch and held.watch is not None:
            held.watch.cancel()
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(held.game.master)

    async def _watch(self, held: Held) -> None:
        """A held game that ends by itself is let go."""
        await held.game.proc.wait()
        if self.held.get(held.account) is held:
            del self.held[held.account]
            self._unhold(held, watch=False)
            self._end(held.game)

    def _lapse(self, account: int) -> None:
        held = self.held.pop(account, None)
        if held is None:
            return
        self._unhold(held)
        log.info("%s did not come back within %gs; his game leaves its duel",
                 held.game.member.name, self.window)
        self.lobby.abandon(held.game.member)  # (his game says so: one verdict)
        task = asyncio.get_running_loop().create_task(self._stop(held.game, LEAVE_GRACE))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def _stop(self, game: Game, grace: float) -> None:
        if grace > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(game.proc.wait()), grace)
        await stop_game(game.proc)
        self._end(game)

    def _end(self, game: Game) -> None:
        self.lobby.leave(game.member)
        with contextlib.suppress(OSError):
            os.close(game.master)
        self.give_back(game.home)

    async def close(self) -> None:
        """The server closes: every held game is stopped."""
        self.closing = True
        held, self.held = list(self.held.values()), {}
        for h in held:
            self._unhold(h)
        await asyncio.gather(*(self._stop(h.game, 0.0) for h in held), *self._ending,
                             return_exceptions=True)


async def play_out(seats: Seats, account: int | None, holder: Holder, game: Game,
                   handed: asyncio.Event) -> int | None:
    """Waits for ``game``, played by ``holder`` (a connection of ``account``), to end: its
    exit status; or None once ``handed`` is set (the game went on without ``holder``).
    The game's member leaves the lobby when it ends."""
    seats.holding(account, holder)
    try:
        over = asyncio.ensure_future(game.proc.wait())
        given = asyncio.ensure_future(handed.wait())
        try:
            await asyncio.wait({over, given}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            given.cancel()
            if not over.done():
                over.cancel()
        if over.cancelled() or not over.done():
            return None
        return over.result()
    finally:
        seats.released(account, holder)
        if not handed.is_set():
            seats.lobby.leave(game.member)


def _drop_output(master: int) -> None:
    """Reads a held game's output and drops it: nobody is looking."""
    try:
        os.read(master, 65536)
    except BlockingIOError:
        pass
    except OSError:  # (the game is gone: its end is seen from its process)
        with contextlib.suppress(ValueError, OSError, RuntimeError):
            asyncio.get_running_loop().remove_reader(master)
