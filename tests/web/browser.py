"""A real browser for the web door's tests: Debian's chromium driven by playwright, headless,
with a fresh profile, no network of its own (no sync, updates or background requests)."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT = 30.0

# The text the page's terminal shows, row by row (its buffer, as xterm.js holds it).
SCREEN_JS = """() => {
  const term = window.terminal;
  if (!term) return "";
  const buffer = term.buffer.active;
  const rows = [];
  for (let i = 0; i < term.rows; i++) {
    const line = buffer.getLine(buffer.viewportY + i);
    rows.push(line ? line.translateToString(true, 0, term.cols) : "");
  }
  return rows.join("\\n");
}"""


def chromium_path() -> str:
    """Debian's chromium: missing, the browser tests fail (``.ci/run`` installs it)."""
    path = shutil.which("chromium") or (CHROMIUM if Path(CHROMIUM).exists() else None)
    if path is None:
        pytest.fail("chromium is not installed (apt-get install -y chromium): the web door's "
                    "browser tests need it")
    return path


@contextlib.asynccontextmanager
async def chromium(profile: Path, width: int = 800, height: int = 480,
                   **options: Any) -> AsyncIterator[Any]:
    """A browser context (one profile: its pages share nothing with another's)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(
            str(profile), executable_path=chromium_path(), args=ARGS, headless=True,
            viewport={"width": width, "height": height}, **options)
        try:
            yield context
        finally:
            await context.close()


class Tab:
    """A page of the web door in the browser: what its terminal shows, keys, clicks."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.requests: list[str] = []
        page.on("request", lambda request: self.requests.append(request.url))

    async def open(self, url: str) -> None:
        await self.page.goto(url)
        await self.page.wait_for_selector("body[data-ready='1']")

    async def sign_in(self, name: str, code: str = "", password: str = "") -> None:
        await self.page.fill("#name", name)
        if code:
            await self.page.fill("#code", code)
        if password:
            await self.page.fill("#password", password)
        await self.page.click("#signin button")

    async def text(self) -> str:
        return str(await self.page.evaluate(SCREEN_JS))

    async def message(self) -> str:
        return str(await self.page.text_content("#message") or "")

    async def wait_for(self, *texts: str, timeout: float = WAIT) -> str:
        return await self.wait_until(lambda shown: all(t in shown for t in texts),
                                     repr(texts), timeout)

    async def wait_until(self, test: Any, what: str = "the screen",
                         timeout: float = WAIT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = await self.text()
            if test(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {what}; the page showed:\n{shown}\n"
                                     f"(its message: {await self.message()!r})")
            await asyncio.sleep(0.05)

    async def wait_still(self, *texts: str, timeout: float = WAIT) -> str:
        """The screen once it shows ``texts`` and has not changed for a moment (what is
        clicked then is where it was read)."""
        last = ""

        def still(shown: str) -> bool:
            nonlocal last
            same, last = shown == last, shown
            return same and all(t in shown for t in texts)

        return await self.wait_until(still, repr(texts) + " and a still screen", timeout)

    async def press(self, *keys: str) -> None:
        for key in keys:
            await self.page.keyboard.press(key)

    async def click_cell(self, col: int, row: int) -> None:
        """Clicks the terminal's cell at ``col``, ``row`` (from 0)."""
        box = await self.page.evaluate("""() => {
          const screen = document.querySelector('.xterm-screen').getBoundingClientRect();
          return {x: screen.x, y: screen.y, w: screen.width / window.terminal.cols,
                  h: screen.height / window.terminal.rows};
        }""")
        await self.page.mouse.click(box["x"] + (col + 0.5) * box["w"],
                                    box["y"] + (row + 0.5) * box["h"])
