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
