"""A real server on 127.0.0.1 (any free port) and asyncssh clients with a terminal."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

asyncssh = pytest.importorskip("asyncssh")

from tests.ssh.screen import Screen  # noqa: E402
from tui_domino.ssh.limits import Limits  # noqa: E402
from tui_domino.ssh.server import GameServer  # noqa: E402

WAIT = 30.0  # the longest wait for a screen text; a busy machine starts games slowly

TEST_LIMITS = Limits(max_visitors=40, max_per_address=100, rate_count=100, auth_delay=0.0,
                     login_timeout=20)


class Terminal(asyncssh.SSHClientSession):  # type: ignore[misc]
    """What a visitor's terminal shows, and a keyboard."""

    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.screen = Screen(cols, rows)
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        self.chan: Any = None
        self.conn: Any = None
        self.exit_status: int | None = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.screen.feed(data)
        self.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()

    def text(self) -> str:
        return self.screen.text()

    def output(self) -> str:
        return self.screen.raw.decode("utf-8", "replace")

    async def wait_for(self, *texts: str, timeout: float = WAIT,
                       where: Callable[[Terminal], str] | None = None) -> str:
        """Waits until the screen shows every one of ``texts``; returns the screen."""
        return await self.wait_until(lambda shown: all(t in shown for t in texts),
                                     f"{texts!r}", timeout, where)

    async def wait_until(self, test: Callable[[str], bool], what: str = "the screen",
                         timeout: float = WAIT,
                         where: Callable[[Terminal], str] | None = None) -> str:
        read = where or Terminal.text
        deadline = time.monotonic() + timeout
        while True:
            shown = read(self)
            if test(shown):
                return shown
            left = deadline - time.monotonic()
            if left <= 0 or self.closed.is_set() and not self.changed.is_set():
                raise AssertionError(f"never saw {what}; the screen was:\n{shown}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))

    async def to_menu(self) -> str:
        """From the lobby (where every visit starts) to the game's menu."""
        await self.wait_for("lobby", "Play alone")
        self.press("p")
        return await self.wait_for("New game", "Quit")

    def press(self, *keys: str) -> None:
        for key in keys:
            self.chan.write(KEYS.get(key, key).encode())

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(cols, rows)
        self.chan.change_terminal_size(cols, rows)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


async def banner(proc: asyncio.subprocess.Process) -> str:
    """What ``tui-domino serve`` (``proc``, its output piped) printed as it started, up to
    "Press Ctrl-C to stop."."""
    assert proc.stdout is not None
    said = ""
    while "Ctrl-C" not in said:
        line = await asyncio.wait_for(proc.stdout.readline(), 30)
        assert line, said
        said += line.decode()
    return said


async def eventually(test: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Waits (bounded) until ``test()`` holds."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.05)


KEYS = {"enter": "\r", "escape": "\x1b", "tab": "\t", "f2": "\x1bOQ", "f5": "\x1b[15~",
        "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D"}


async def visit(port: int, name: str = "ann", cols: int = 80, rows: int = 24,
                **options: Any) -> Terminal:
    options.setdefault("client_keys", None)
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  agent_path=None, **options)
    chan, term = await conn.create_session(lambda: Terminal(cols, rows),
                                           term_type="xterm-256color",
                                           term_size=(cols, rows), encoding=None)
    term.conn = conn
    return term


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TUI_DOMINO_HOME", str(tmp_path))
    monkeypatch.setenv("TUI_DOMINO_DELAY", "0")
    monkeypatch.setenv("TUI_DOMINO_SEED", "1")  # every visitor's deals come from it
    return tmp_path


@pytest.fixture
async def make_server(home: Path, games_spawner: Any) -> AsyncIterator[Callable[..., Any]]:
    servers: list[GameServer] = []

    async def start(**kw: Any) -> GameServer:
        kw.setdefault("limits", TEST_LIMITS)
        if games_spawner is not None and not {"command", "fork_server", "spawner"} & set(kw):
            kw["spawner"] = games_spawner  # (the process's one fork server)
        server = GameServer(host="127.0.0.1", port=0, **kw)
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await asyncio.wait_for(server.close("The tests are over."), 30)


@pytest.fixture
async def server(make_server: Callable[..., Any]) -> GameServer:
    return await make_server()
