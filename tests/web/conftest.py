"""A real server with its web door on 127.0.0.1 (any free ports), and aiohttp clients."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from tests.ssh.conftest import TEST_LIMITS, home  # noqa: F401
from tests.ssh.screen import Screen
from tui_domino.ssh.server import GameServer
from tui_domino.web.door import WebDoor

WAIT = 30.0


class Served:
    """A server and its web door."""

    def __init__(self, server: GameServer, door: WebDoor) -> None:
        self.server = server
        self.door = door

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.door.port}/"


@pytest.fixture
async def make_web(home: Any, games_spawner: Any) -> AsyncIterator[Callable[..., Any]]:  # noqa: F811
    made: list[Served] = []

    async def start(**kw: Any) -> Served:
        kw.setdefault("limits", TEST_LIMITS)
        kw.setdefault("accounts", True)
        if games_spawner is not None and not {"command", "fork_server", "spawner"} & set(kw):
            kw["spawner"] = games_spawner  # (the process's one fork server)
        server = GameServer(host="127.0.0.1", port=0, **kw)
        await server.start()
        door = WebDoor(server, "127.0.0.1", 0)
        await door.start()
        served = Served(server, door)
        made.append(served)
        return served

    yield start
    for served in made:
        await asyncio.wait_for(served.server.close("The tests are over."), 30)
        await served.door.close()


@pytest.fixture
async def web(make_web: Callable[..., Any]) -> Served:
    return await make_web()


class Browser:
    """A websocket to the web door as the page opens it, and the screen it draws."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse,
                 cols: int, rows: int) -> None:
        self.session = session
        self.ws = ws
        self.screen = Screen(cols, rows)
        self.said: list[dict[str, Any]] = []

    async def hello(self, name: str, code: str = "", password: str = "",
                    resume: str = "") -> dict[str, Any]:
        await self.ws.send_str(json.dumps({"t": "hello", "name": name, "code": code,
                                           "password": password, "resume": resume,
                                           "cols": self.screen.cols, "rows": self.screen.rows}))
        return await self.next_said()

    async def next_said(self, timeout: float = WAIT) -> dict[str, Any]:
        while True:
            msg = await self.ws.receive(timeout=timeout)
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(msg.data)
            elif msg.type == aiohttp.WSMsgType.TEXT:
                said = json.loads(msg.data)
                self.said.append(said)
                return dict(said)
            else:
                return {"t": "closed", "type": str(msg.type)}

    async def wait_for(self, *texts: str, timeout: float = WAIT) -> str:
        return await self.wait_until(lambda shown: all(t in shown for t in texts), timeout,
                                     what=repr(texts))

    async def wait_until(self, test: Callable[[str], bool], timeout: float = WAIT,
                         what: str = "the screen") -> str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not test(self.screen.text()):
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"never saw {what}; the screen was:\n"
                                     f"{self.screen.text()}")
            try:
                msg = await self.ws.receive(timeout=left)
            except TimeoutError:
                continue
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(msg.data)
            elif msg.type == aiohttp.WSMsgType.TEXT:
                self.said.append(json.loads(msg.data))
            else:
                raise AssertionError(f"closed before {what}; the screen was:\n"
                                     f"{self.screen.text()}")
        return self.screen.text()

    async def press(self, keys: str) -> None:
        await self.ws.send_bytes(keys.encode())

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()


async def open_browser(served: Served, cols: int = 80, rows: int = 24,
                       origin: str | None = None, **headers: str) -> Browser:
    session = aiohttp.ClientSession()
    origin = origin if origin is not None else served.url.rstrip("/")
    ws = await session.ws_connect(served.url + "ws", origin=origin, headers=headers)
    return Browser(session, ws, cols, rows)
