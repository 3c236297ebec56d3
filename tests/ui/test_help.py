"""The help at 80x24, read off the screen as a player scrolls through it: its tables of keys
(each key whole on one line, what it does beside it, wrapped at words), in every language."""

from __future__ import annotations

import re

import pytest
from textual.containers import VerticalScroll

from tests.ui.helpers import screen_lines
from tui_domino import i18n
from tui_domino.i18n import _
from tui_domino.locale import catalogs
from tui_domino.ui.app import DominoApp
from tui_domino.ui.screens import help as game_help
from tui_domino.ui.screens.help import HelpScreen
from tui_domino.ui.storage import Settings

SIZE = (80, 24)
LANGUAGES = ["en", *catalogs.TRANSLATED]
HELPS = ["classic", "spider", "triominos", None]  # None: the menu's help


async def help_rows(language: str, variant: str | None) -> tuple[list[str], int]:
    """The help's whole text as the screen shows it, a line for each row of its scrolled
    content (read a screenful at a time), and how many rows one screen shows."""
    app = DominoApp(settings=Settings(computer_delay=0.0, language=language), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(HelpScreen(variant))
        await pilot.pause()
        scroll = app.screen.query_one(VerticalScroll)
        shown = scroll.scrollable_content_region  # within the border, left of the scrollbar
        rows: dict[int, str] = {}
        while True:
            top = round(scroll.scroll_y)
            lines = screen_lines(app)
            for i in range(shown.height):
                rows[top + i] = lines[shown.y + i][shown.x:shown.right]
            if top >= scroll.max_scroll_y:
                break
            scroll.scroll_to(y=min(top + shown.height - 1, scroll.max_scroll_y), animate=False)
            await pilot.pause()
            assert round(scroll.scroll_y) > top, "the help did not scroll"
        return [rows[r] for r in sorted(rows)], shown.height


def cells(row: str) -> tuple[str, str]:
    """A row of keys as the catalogs hold it, ``| key | does |``, in the language in use."""
    key, does = _(row).strip().strip("|").split("|", 1)
    return key.strip(), does.strip()


def table_of(variant: str | None) -> list[tuple[str, str]]:
    """The heading row and the rows of ``variant``'s table of keys (the menu's for None)."""
    if variant is None:
        rows = list(game_help.MENU_KEY_ROWS)
    else:
        rows = [row for row, only in game_help.KEY_ROWS if only is None or variant in only]
    return [cells(game_help.KEYS_HEAD), *[cells(row) for row in rows]]


@pytest.mark.parametrize("variant", HELPS)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_key_shows_whole_on_one_line_beside_what_it_does(
        language: str, variant: str | None) -> None:
    rows, _height = await help_rows(language, variant)
    i18n.use(language)
    table = table_of(variant)

    def whole(key: str, line: str) -> bool:  # the key as a cell: blank or a rule either side
        return re.search(r"(?<![^\s│])" + re.escape(key) + r"(?![^\s│])", line) is not None

    broken = [key for key, _does in table if not any(whole(key, line) for line in rows)]
    assert not broken, (broken, "\n".join(rows))
    key_columns, does_columns = set(), set()
    for key, does in table:
        # the key, then (a gap on the same line) the first word of what it does
        pattern = re.compile(r"(?<!\S)" + re.escape(key) + r" {2,}(?=" +
                             re.escape(does.split()[0]) + ")")
        found = [(r, m) for r, line in enumerate(rows) for m in pattern.finditer(line)]
        assert found, (key, does, "\n".join(rows))
        r, m = found[0]
        key_columns.add(m.start())
        does_columns.add(m.end())
        # what it does: from there on, wrapped at words, the key column blank below the key
        text = [rows[r][m.end():].strip()]
        for line in rows[r + 1:]:
            if line[:m.end()].strip() or not line[m.end():].strip():
                break
            text.append(line[m.end():].strip())
        assert " ".join(text) == does, (key, text)
    assert len(key_columns) == 1 and len(does_columns) == 1, (key_columns, does_columns)
