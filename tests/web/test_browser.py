"""The web door in a real browser (chromium, headless): the page, the lobby, a game against
the computer by key and by click; and nothing asked of any host but the server."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from tests.web.browser import Tab, chromium
from tests.web.conftest import Served


async def test_the_page_signs_in_and_shows_the_lobby_asking_only_its_server(
        web: Served, tmp_path: Path) -> None:
    async with chromium(tmp_path / "profile") as context:
        tab = Tab(await context.new_page())
        await tab.open(web.url)
        await tab.sign_in("dora")
        await tab.wait_for("Welcome, dora.", "Nobody else is here")
        await tab.page.screenshot(path=str(tmp_path / "lobby.png"))
        hosts = {urlsplit(url).netloc for url in tab.requests}
        assert hosts == {f"127.0.0.1:{web.door.port}"}, tab.requests
