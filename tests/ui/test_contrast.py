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
