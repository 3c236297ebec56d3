"""Every built-in theme reads: each piece of text the game draws (menu, table, hint line,
side panel, footer, round summary) meets WCAG AA, a contrast of 4.5:1 against the colour
behind it, computed from the colours the screen is drawn in; and in a 256-colour terminal
a pale background stays as grey as it was instead of turning pink."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.color import Color

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import seats
from tui_domino.ui.contrast import (
    AA,
    chroma,
    hue,
    nearest_256,
    parse,
    ratio,
    readable_variables,
)
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.screenshots import session_round_over

THEMES = sorted(t for t in App().available_themes if not t.startswith("ansi"))


def unreadable(app: Any, region: Any = None) -> list[tuple[str, float]]:
    """The screen's pieces of text (with a letter in them) below AA, with their ratio; a
    disabled choice (Continue without a saved match) is exempt, as WCAG exempts inactive
    controls."""
    from textual.widgets import OptionList

    inactive = {str(o.prompt) for menu in app.screen.query(OptionList)
                for o in menu.options if o.disabled}
    out = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for seg in strip:
            x0, x = x, x + seg.cell_length
            if region is not None and not (region.y <= y < region.bottom
                                           and region.x <= x0 < region.right):
                continue  # the table behind a modal: faded on purpose
            text = seg.text.strip()
            style = seg.style
            if not any(c.isalpha() for c in text) or style is None or text in inactive:
                continue
            fg, bg = style.color, style.bgcolor
            if fg is None or bg is None:
                continue
            if style.reverse:
                fg, bg = bg, fg
            a = Color.from_rich_color(fg)
            b = Color.from_rich_color(bg)
            if style.dim:
                a = b.blend(a, 0.5)
            r = ratio(a, b)
            if r < AA:
                out.append((text, round(r, 2)))
    return out


@pytest.mark.parametrize("theme", THEMES)
async def test_every_text_of_the_game_meets_aa_in_the_theme(theme: str) -> None:
    app = make_app(seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = theme
        await pilot.pause()
        assert unreadable(app) == [], "menu"
        app.start_match("classic", seats())
        await settle(pilot)
        assert unreadable(app) == [], "game"
        app.push_screen(RoundSummary(session_round_over("spider", 0)))
        await pilot.pause()
        box = app.screen.query_one("RoundSummary > Vertical").region
        assert unreadable(app, box) == [], "summary"


def hue_distance(a: Color, b: Color) -> float:
    d = abs(hue(a) - hue(b)) % 360
    return min(d, 360 - d)


@pytest.mark.parametrize("theme", THEMES)
def test_in_256_colours_a_theme_keeps_its_greys_and_reads(theme: str) -> None:
    variables = App().available_themes[theme]
    generated = {**variables.to_color_system().generate(), **variables.variables}
    mended = readable_variables(generated, eight_bit=True)
    for key in ("background", "surface", "panel"):
        before, after = parse(generated[key]), parse(mended[key])
        assert before is not None and after is not None
        assert after == nearest_256(after)  # a colour of the palette: shown as it is
        # a background of little colour stays so (a pale grey does not turn pink), and one
        # of some colour keeps its hue or becomes a grey, never another hue
        if chroma(before) < 12:
            assert chroma(after) < 12, (key, before, after)
        elif chroma(after) >= 12:
            assert hue_distance(before, after) <= 45, (key, before, after)
    for fg, bg in (("foreground", "background"), ("foreground", "panel"),
                   ("footer-key-foreground", "footer-background"), ("accent", "surface")):
        a, b = parse(mended[fg]), parse(mended[bg])
        assert a is not None and b is not None
        assert ratio(a, b) >= AA, (fg, bg)


async def test_the_table_marks_stand_out_and_apart_in_every_theme() -> None:
    # the other places of a Triominos tile were drawn in the same orange as the last move
    # (textual-dark's accent and warning are one colour), and in light themes (atom-one-light,
    # catppuccin-latte, solarized-light) tiles that cannot be played and the last move's
    # outline all but vanished into the board
    from tui_domino.ui.contrast import GRAPHIC, MARKS_APART, distance
    from tui_domino.ui.screens.game import GameScreen
    from tui_domino.ui.screenshots import session_after
    from tui_domino.ui.widgets.board import BoardView
    from tui_domino.ui.widgets.hand import HandView

    def colour(widget: Any, name: str, *, ground: bool = False) -> Color:
        style = widget.get_component_rich_style(name)
        c = style.bgcolor if ground else style.color
        assert c is not None, (app.theme, name)
        return Color.from_rich_color(c)

    assert {"atom-one-light", "catppuccin-latte", "solarized-light"} <= set(THEMES)
    app = make_app()
    failures = []
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_after("triominos", 3, 0)))
        await settle(pilot)
        board, hand = app.screen.query_one(BoardView), app.screen.query_one(HandView)
        for theme in THEMES:
            app.theme = theme
            await pilot.pause()

            surface = Color.from_rich_color(board.rich_style.bgcolor)
            tiles = colour(board, "board--point")
            marks = {"last move": colour(board, "board--last"),
                     "selected place": colour(board, "board--sel"),
                     "other places": colour(board, "board--place")}
            shown = {**marks, "last move's centre": colour(board, "board--lastcell",
                                                           ground=True),
                     "tile that cannot be played": colour(hand, "hand--dim"),
                     "tile that cannot be played, on the table": colour(board, "board--dim")}
            for what, c in shown.items():
                if ratio(c, surface) < GRAPHIC:
                    failures.append((theme, what, "vanishes", round(ratio(c, surface), 2)))
            for what in ("board--last-num", "board--place-num"):
                if ratio(colour(board, what), surface) < AA:
                    failures.append((theme, what, "unreadable"))
            names = list(marks)
            for i, a in enumerate(names):
                for b in [*names[i + 1:], "tiles"]:
                    other = tiles if b == "tiles" else marks[b]
                    if distance(marks[a], other) < MARKS_APART:
                        failures.append((theme, a, b, "alike",
                                         round(distance(marks[a], other), 1)))
            dim = colour(hand, "hand--dim")
            if ratio(dim, surface) >= ratio(colour(hand, "hand--frame"), surface):
                failures.append((theme, "a tile that cannot be played is not fainter"))
    assert failures == []


async def test_the_table_and_the_hand_work_out_only_the_styles_a_rule_gives() -> None:
    """Textual works out the style of each of a widget's component classes again whenever
    the widget's own style changes (the focus comes or goes, its screen is shown again):
    each class of the table and the hand is one the stylesheet styles (29 each, most of the
    hand's unstyled, took a fifth of the CPU a game screen takes to open)."""
    from tui_domino.ui.screens.game import GameScreen
    from tui_domino.ui.screenshots import session_after
    from tui_domino.ui.widgets.board import BoardView
    from tui_domino.ui.widgets.hand import HandView

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_after("spider", 5, 10)))
        await settle(pilot)
        styled = {name for rule in app.stylesheet.rules for name in rule.selector_names}
        for widget in (BoardView, HandView):
            classes = {f".{name}" for name in widget.COMPONENT_CLASSES}
            assert classes and classes <= styled, (widget.__name__, sorted(classes - styled))
