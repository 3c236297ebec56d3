"""The oracle of the theme tests, checked against known answers: the WCAG 2 contrast ratios
that the W3C's formula gives (and WebAIM's contrast checker shows) for these pairs."""

from __future__ import annotations

import pytest
from textual.color import Color

from tui_domino.ui.contrast import luminance, ratio


@pytest.mark.parametrize(("fore", "back", "expected"), [
    ("#000000", "#ffffff", 21.0),
    ("#ffffff", "#ffffff", 1.0),
    ("#777777", "#ffffff", 4.48),
    ("#767676", "#ffffff", 4.54),
    ("#808080", "#ffffff", 3.95),
    ("#0000ff", "#ffffff", 8.59),
    ("#ff0000", "#ffffff", 4.00),
    ("#ff0000", "#000000", 5.25),
    ("#00ff00", "#000000", 15.30),
])
def test_the_contrast_ratio_gives_the_known_answers(fore: str, back: str, expected: float) -> None:
    a, b = Color.parse(fore), Color.parse(back)
    assert ratio(a, b) == pytest.approx(expected, abs=0.005)
    assert ratio(b, a) == ratio(a, b)  # the order does not matter


def test_relative_luminance_of_the_primaries() -> None:
    assert luminance(Color(255, 255, 255)) == pytest.approx(1.0)
    assert luminance(Color(0, 0, 0)) == 0.0
    assert luminance(Color(255, 0, 0)) == pytest.approx(0.2126)
    assert luminance(Color(0, 255, 0)) == pytest.approx(0.7152)
    assert luminance(Color(0, 0, 255)) == pytest.approx(0.0722)


def test_a_themes_readable_colours_are_worked_out_once_and_given_as_a_copy() -> None:
    from textual.theme import BUILTIN_THEMES

    from tui_domino.ui import contrast
    from tui_domino.ui.app import theme_variables

    variables = theme_variables(BUILTIN_THEMES["nord"])
    contrast.READABLE.clear()
    first = contrast.readable_variables(variables, eight_bit=True)
    assert len(contrast.READABLE) == 1
    first["text"] = "#123456"  # (the caller's copy: the next caller's is untouched)
    second = contrast.readable_variables(dict(variables), eight_bit=True)
    assert len(contrast.READABLE) == 1 and second["text"] != "#123456"
    # the same answer as worked out afresh, and another for the other kind of terminal
    contrast.READABLE.clear()
    assert contrast.readable_variables(variables, eight_bit=True) == second
    assert contrast.readable_variables(variables) != second


async def test_a_fork_servers_warmed_themes_are_the_ones_a_game_starts_with() -> None:
    # ``theme_variables`` must make a theme's variables as Textual does, or each game
    # works its colours out afresh (and the fork server's warming was for nothing).
    from textual.app import App

    from tests.ui.conftest import make_app
    from tui_domino.ui import contrast
    from tui_domino.ui.app import theme_variables, warm_themes

    contrast.READABLE.clear()
    warm_themes(["textual-dark"])
    warmed = len(contrast.READABLE)
    assert warmed == 2
    app = make_app()
    async with app.run_test(size=(80, 24)):
        assert theme_variables(app.current_theme) == App.get_css_variables(app)
        assert len(contrast.READABLE) == warmed
