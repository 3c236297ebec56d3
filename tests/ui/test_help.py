"""The help at 80x24, read off the screen as a player scrolls through it: its tables of keys
(each key whole on one line, what it does beside it, wrapped at words) and its drawings of
a blocked round, in every language."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from textual.containers import VerticalScroll

from tests.ui.helpers import classic_state, rest, screen_lines, spider_state
from tui_domino import i18n, rules
from tui_domino.i18n import _
from tui_domino.locale import catalogs
from tui_domino.ui.app import DominoApp
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.screens import help as game_help
from tui_domino.ui.screens import marks
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


def check_keys(rows: list[str], variant: str | None) -> None:
    """Every key of ``variant``'s table shows whole on one line of ``rows``, what it does
    beside it, wrapped at words under itself."""
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


def _at(rows: list[str], drawing: list[str]) -> int | None:
    """The first row of ``rows`` from which ``drawing``'s lines show one under another (at
    one column), or None."""
    for r in range(len(rows) - len(drawing) + 1):
        for x in range(len(rows[r])):
            if all(rows[r + i][x:x + len(line)] == line for i, line in enumerate(drawing)):
                return r
    return None


BLOCKED = {"classic": (marks.blocked_line, marks.BLOCKED), "spider": (marks.fish_board, marks.FISH)}


def check_blocked(rows: list[str], height: int, draw: Callable[[], Canvas],
                  caption: str) -> None:
    """``rows`` show ``draw``'s drawing of a blocked round, its caption right under it, both
    on one screen of ``height`` rows."""
    lines = [line.rstrip() for line in draw().plain().splitlines() if line.strip()]
    indent = min(len(line) - len(line.lstrip()) for line in lines)
    drawing = [line[indent:] for line in lines]
    top = _at(rows, drawing)
    assert top is not None, "\n".join(rows)
    after = top + len(drawing)
    start = next(r for r in range(after, len(rows)) if rows[r].strip())
    words = _(caption).replace("**", "").split()
    text = " ".join(" ".join(rows[start:start + 8]).split())
    assert text.startswith(" ".join(words)), (text, words)
    assert start - top < height  # the drawing and its caption's first line on one screen


@pytest.mark.parametrize("variant", HELPS)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_every_key_shows_whole_beside_what_it_does_and_a_blocked_round_is_drawn(
        language: str, variant: str | None) -> None:
    """Each help in each language, read once: its table of keys, and (classic, Spider) its
    drawing of a blocked round with the caption."""
    rows, height = await help_rows(language, variant)
    i18n.use(language)
    check_keys(rows, variant)
    if variant is not None and variant in BLOCKED:
        check_blocked(rows, height, *BLOCKED[variant])


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_the_helps_drawings_say_they_are_plain_text(variant: str) -> None:
    """A code block of unnamed language sends the help's highlighter guessing among every
    language it knows (about 10 ms a drawing, each time the help opens or restyles): each
    drawing is named plain text, and drawn as it is."""
    from markdown_it import MarkdownIt

    text = game_help.rules_text(variant) + "\n" + marks.marks(variant)
    fences = [t for t in MarkdownIt().parse(text) if t.type == "fence"]
    assert fences and all(t.info == "text" for t in fences), [t.info for t in fences]


def test_the_blocked_line_is_blocked_as_the_rules_see_it() -> None:
    line = [list(t) for t in marks.BLOCKED_LINE]
    assert all(a[1] == b[0] for a, b in zip(line, line[1:], strict=False))  # a line of play
    end = line[0][0]
    assert line[-1][1] == end and all(end not in t for t in rest(line))
    state = classic_state(rest(line)[:8], line, 2)  # the last 2 tiles stay in the bazaar
    assert [m.kind for m in state.legal_moves()] == ["pass"]
    state.apply(state.legal_moves()[0])
    assert state.is_over and state.end_reason == "blocked"


def test_the_spiders_fish_is_a_fish_as_the_rules_see_it() -> None:
    arms = {arm: [[1, n], [n, n]] for arm, n in marks.FISH_ARMS.items()}
    laid = [[1, 1], *[t for tiles in arms.values() for t in tiles]]
    d = spider_state(rest(laid)[:7], 1, arms).to_json()
    for arm in d["arms"].values():
        arm["closed"] = True
    state = rules.state_from_json(d)
    state.apply(state.legal_moves()[0])
    assert state.is_over and state.end_reason == "blocked"


@pytest.mark.parametrize("key", ["question_mark", "g"])
async def test_the_help_and_the_legend_keep_the_chosen_tile(key: str) -> None:
    """A tile and place chosen, then ? (or g) and Esc: the same tile and place are chosen
    (the choice went back to the first tile that fits)."""
    from tests.ui.conftest import make_app, settle
    from tui_domino.ui.session import Seat

    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        screen = app.screen
        await pilot.press("right", "right")
        chosen = (screen.sel.tile_index, screen.sel.place_index)  # type: ignore[attr-defined]
        assert chosen[0] != min(screen.sel.playable())  # type: ignore[attr-defined]
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is not screen
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert (screen.sel.tile_index, screen.sel.place_index) == chosen  # type: ignore[attr-defined]


@pytest.mark.parametrize("theme", ["textual-dark", "solarized-light"])
async def test_g_says_what_each_colour_of_the_table_marks(theme: str) -> None:
    """The legend said what the signs mean but not the colours (orange, green, grey):
    each colour is drawn beside its words, in the theme's own colour of that mark."""
    from textual.color import Color

    from tests.ui.conftest import make_app, settle
    from tui_domino.ui.screens.help import MarkColours
    from tui_domino.ui.session import Seat

    app = make_app(seed=3)
    app.settings.theme = theme
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        app.start_match("classic", [Seat("You"), Seat("Computer", "computer", "greedy")])
        await settle(pilot)
        await pilot.press("g")
        await pilot.pause()
        legend = app.screen.query_one(MarkColours)
        text = " ".join(str(w.render()) for w in legend.query("Static"))
        for words in ("the last move", "where the chosen tile goes", "the other places it fits",
                      "tiles that cannot be played now"):
            assert words in text
        variables = app.get_css_variables()
        for mark in ("last", "sel", "place", "dim"):
            swatch = legend.query_one(f".swatch.-{mark}")
            assert swatch.styles.color == Color.parse(variables[f"mark-{mark}"])


async def test_the_help_scrolls_on_its_keys_and_nothing_in_it_takes_the_focus() -> None:
    """Its text scrolls on the scroll's usual keys, the help's own: focusing the scroll
    restyled the whole help when it opened and again when it closed (about a sixth of the
    CPU the help takes to open), for nothing it showed."""
    from tests.ui.conftest import make_app

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.focused is None
        scroll = app.screen.query_one(VerticalScroll)
        assert scroll.max_scroll_y > scroll.scrollable_content_region.height  # pages of it
        steps = [("down", lambda y: y == 1), ("pagedown", lambda y: y > 2),
                 ("up", lambda y: y == seen[-1] - 1), ("end", lambda y: y == scroll.max_scroll_y),
                 ("pageup", lambda y: y < scroll.max_scroll_y - 2), ("home", lambda y: y == 0)]
        seen = [round(scroll.scroll_y)]
        for key, where in steps:
            await pilot.press(key)
            await pilot.pause()
            assert where(round(scroll.scroll_y)), (key, seen, scroll.scroll_y)
            seen.append(round(scroll.scroll_y))
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
