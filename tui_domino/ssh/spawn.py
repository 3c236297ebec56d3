"""How a visitor's game process is started: on the pseudo-terminal the visit opened, in a
new session, with the lobby's socket, a private home and an environment of its own. The
one place that starts games, whichever door (ssh, or another) the visitor came in by."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Mapping, Sequence
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
