"""The web door without a browser: a websocket as the page opens it (aiohttp's client)."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.ssh.conftest import eventually
from tests.web.conftest import Served, open_browser


async def test_a_browser_visitor_signs_in_by_name_and_reaches_the_lobby(web: Served) -> None:
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("lobby", "dora")
    assert [m.name for m in web.server.lobby.members.values()] == ["dora"]
    await browser.close()
    await eventually(lambda: not web.server.visits, "the visit ends with its socket")
    assert not web.server.connections and not web.server.lobby.members
