"""PNG screenshots of the web door's page in a real browser (Debian's chromium, headless,
driven by playwright): a game of Triominos and one of classic dominoes at about 80x24, and
the lobby and a game at a phone's width. Written to docs/screenshots/.

    python scripts/web_screenshots.py [--out docs/screenshots]

A server with its web door runs in this process on 127.0.0.1 (any free ports), its data in
a temporary folder, the deals from a fixed seed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DESKTOP = {"width": 800, "height": 480}  # about 82x25 cells in the page's font
PHONE = {"width": 390, "height": 844}


async def new_game(tab: object, variant_steps: int) -> None:
    """From the lobby to a game against the computer (``variant_steps`` down the list of
    games: 0 classic, 2 Triominos)."""
    await tab.press("p")  # type: ignore[attr-defined]
    await tab.wait_for("New game")  # type: ignore[attr-defined]
    await tab.press("n")  # type: ignore[attr-defined]
    await tab.wait_for("Start")  # type: ignore[attr-defined]
    if variant_steps:
        await tab.press("Enter")  # type: ignore[attr-defined]
        await asyncio.sleep(0.5)  # (the list opens)
        await tab.press(*["ArrowDown"] * variant_steps, "Enter")  # type: ignore[attr-defined]
        await asyncio.sleep(0.5)
    await tab.press("F5")  # type: ignore[attr-defined]
    await tab.wait_for("Your hand")  # type: ignore[attr-defined]


async def shoot(out: Path) -> list[Path]:
    from tests.web.browser import Tab, chromium
    from tui_domino.ssh.server import GameServer
    from tui_domino.web.door import WebDoor

    server = GameServer(host="127.0.0.1", port=0, accounts=True)
    await server.start()
    door = WebDoor(server, "127.0.0.1", 0)
    await door.start()
    url = f"http://127.0.0.1:{door.port}/"
    made: list[Path] = []
    try:
        with tempfile.TemporaryDirectory() as profiles:
            for name, size, steps, extra in (
                    ("web-triominos-80x24.png", DESKTOP, 2, {}),
                    ("web-classic-80x24.png", DESKTOP, 0, {}),
                    ("web-phone-lobby.png", PHONE, None, {"is_mobile": True, "has_touch": True}),
                    ("web-phone-game.png", PHONE, 0, {"is_mobile": True, "has_touch": True})):
                async with chromium(Path(profiles) / name, size["width"], size["height"],
                                    **extra) as context:
                    tab = Tab(await context.new_page())
                    await tab.open(url)
                    if name == "web-phone-lobby.png":
                        await tab.page.screenshot(path=str(out / "web-phone-signin.png"))
                        made.append(out / "web-phone-signin.png")
                    await tab.sign_in("ann")
                    await tab.wait_for("Welcome, ann")
                    if steps is not None:
                        await new_game(tab, steps)
                    await asyncio.sleep(1.0)  # (the game's animations settle)
                    cols, rows = await tab.page.evaluate(
                        "() => [window.terminal.cols, window.terminal.rows]")
                    await tab.page.screenshot(path=str(out / name))
                    print(f"{out / name}: {size['width']}x{size['height']} px, "
                          f"{cols}x{rows} cells")
                    made.append(out / name)
    finally:
        await server.close()
        await door.close()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        os.environ["TUI_DOMINO_HOME"] = home
        os.environ["TUI_DOMINO_DELAY"] = "0"
        os.environ["TUI_DOMINO_SEED"] = "3"
        asyncio.run(shoot(args.out))


if __name__ == "__main__":
    main()
