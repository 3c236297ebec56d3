"""How a visitor's game process is started: on the pseudo-terminal the visit opened, in a
new session, with the lobby's socket, a private home and an environment of its own. The
one place that starts games, whichever door (ssh, or another) the visitor came in by."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import signal
import socket
import struct
import termios
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


class GameProcess(Protocol):
    """A started game: its process id (and its process group's: it leads a session of its
    own), its exit status once it ended (negative: the signal that stopped it)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


@dataclass(frozen=True)
class GameStart:
    """What one game is started with: ``terminal`` the pseudo-terminal's slave side (its
    stdin, stdout and stderr), ``keep`` the descriptors it inherits (the lobby's socket)."""

    terminal: int
    env: Mapping[str, str]
    cwd: Path
    keep: Sequence[int] = field(default_factory=tuple)


class Spawner:
    """Starts each game as ``command`` in a fresh interpreter."""

    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)

    async def start(self) -> None:
        """Ready to start games (called once, when the server starts)."""

    async def close(self) -> None:
        """No more games (called once, when the server closes)."""

    async def start_game(self, start: GameStart) -> GameProcess:
        return await asyncio.create_subprocess_exec(
            *self.command,
            stdin=start.terminal, stdout=start.terminal, stderr=start.terminal,
            start_new_session=True,
            pass_fds=tuple(start.keep),
            env=dict(start.env),
            cwd=str(start.cwd),
            umask=0o077,  # the game's saves and settings: the server's user only
        )


def stop_group(game: GameProcess, sig: signal.Signals) -> bool:
    """Sends ``sig`` to ``game``'s process group; False when it is already gone."""
    try:
        os.killpg(game.pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


# The sizes a game's terminal is given, whatever a visitor's terminal says: narrower than
# MIN_COLS, the game's lists cannot lay out their lines (rich divides by the width left;
# 8 columns is the first that holds, 20 leaves a margin); larger than MAX_COLS x MAX_ROWS,
# every redraw costs the link more than a player can see (1000x1000: 3 MB a redraw). A
# terminal outside them shows the game clipped, or in its top left corner.
MIN_COLS, MIN_ROWS = 20, 8
MAX_COLS, MAX_ROWS = 300, 120


def clamped(cols: int, rows: int) -> tuple[int, int]:
    """A visitor's terminal size as his game's terminal takes it."""
    return max(MIN_COLS, min(cols, MAX_COLS)), max(MIN_ROWS, min(rows, MAX_ROWS))


def set_winsize(fd: int, cols: int, rows: int, xpix: int = 0, ypix: int = 0) -> None:
    cols, rows = clamped(cols, rows)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, xpix, ypix))


@dataclass
class Started:
    """A game started on a pseudo-terminal: its process, the terminal's master side (the
    visit's to read and write) and the visit's end of the lobby's socket."""

    proc: GameProcess
    master: int
    lobby: socket.socket


async def start_on_terminal(spawner: Spawner, env: Callable[[int], Mapping[str, str]],
                            cwd: Path, size: tuple[int, int, int, int]) -> Started:
    """Starts a game on a new pseudo-terminal of ``size`` (columns, rows and pixels),
    ``env(fd)`` its environment given the descriptor of its end of the lobby's socket:
    the same for a visitor of any door."""
    master, slave = pty.openpty()
    ours, theirs = socket.socketpair()
    try:
        set_winsize(slave, *size)
        proc = await spawner.start_game(GameStart(
            terminal=slave, env=env(theirs.fileno()), cwd=cwd, keep=(theirs.fileno(),)))
    except BaseException:
        os.close(master)
        ours.close()
        raise
    finally:
        os.close(slave)
        theirs.close()
    return Started(proc, master, ours)


async def stop_game(proc: GameProcess | None) -> None:
    """Stops a game that still runs: a hang-up, then, a second later, a kill."""
    if proc is None or proc.returncode is not None:
        return
    for sig, wait in ((signal.SIGHUP, 1.0), (signal.SIGKILL, 5.0)):
        if not stop_group(proc, sig):
            return
        try:
            await asyncio.wait_for(proc.wait(), wait)
            return
        except TimeoutError:
            continue


def cores() -> int:
    """The processors this server may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Turn:
    """One game's turn to start (``Arrivals.turn``): over when ``until``'s event is set,
    ``hold`` seconds after it was called, or, without ``until``, as the turn's block ends."""

    def __init__(self, free: asyncio.Semaphore, hold: float) -> None:
        self._free = free
        self._hold = hold
        self._over = False
        self._waiting: asyncio.Task[None] | None = None

    def until(self, event: asyncio.Event) -> None:
        """The turn lasts until ``event`` (the game has told the lobby it is up), at most
        ``hold`` seconds more."""
        if self._over or self._waiting is not None:
            return
        self._waiting = asyncio.get_running_loop().create_task(self._wait(event))

    async def _wait(self, event: asyncio.Event) -> None:
        try:
            await asyncio.wait_for(event.wait(), self._hold)
        except TimeoutError:
            pass
        finally:
            self.end()

    def close(self) -> None:
        """The turn's block ended: the turn too, unless ``until`` holds it."""
        if self._waiting is None:
            self.end()

    def end(self) -> None:
        if not self._over:
            self._over = True
            self._free.release()


class Arrivals:
    """At most ``limit`` games starting at once (one a core): a crowd arriving together
    is let in in turn, each game starting at the full speed of a core, instead of all of
    them sharing the cores and all reaching the lobby late. The median arrival waits about
    half as long, the last no longer. A game's turn ends when it tells the lobby it is up,
    when it ends, or after ``hold`` seconds, whichever comes first."""

    def __init__(self, limit: int | None = None, hold: float = 3.0) -> None:
        self.limit = limit or cores()
        self.hold = hold
        self._free = asyncio.Semaphore(self.limit)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[Turn]:
        """Waits for a free turn, and holds it for the block (or as ``Turn.until`` says)."""
        await self._free.acquire()
        turn = Turn(self._free, self.hold)
        try:
            yield turn
        finally:
            turn.close()
