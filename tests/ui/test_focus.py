"""Focus always shows: in the New game and Settings forms the focused choice or field is
drawn apart from the others (compact widgets have no border to light up); on the table the
rule over the hand takes the accent while the hand has the focus."""

from __future__ import annotations

from typing import Any

import pytest
from textual.color import Color
from textual.widgets import Input, Select

from tests.ui.conftest import make_app
from tui_domino.ui.contrast import ratio


def colour(rich_colour: Any) -> Color:
    return Color.from_rich_color(rich_colour)


def background_at(app: Any, x: int, y: int) -> object:
    strip = app.screen._compositor.render_strips()[y]
    at = 0
    for seg in strip:
        if at <= x < at + seg.cell_length:
            return seg.style.bgcolor if seg.style else None
        at += seg.cell_length
    return None


@pytest.mark.parametrize("key", ["n", "s"])
async def test_the_focused_choice_stands_out(key: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        fields = [w for w in app.screen.query("Select, Input") if w.display]
        assert len(fields) >= 3
        seen = 0
        for _ in range(12):
            focused = app.focused
            if isinstance(focused, (Select, Input)):
                others = [w for w in fields if w is not focused and type(w) is type(focused)]
                mine = background_at(app, focused.region.x + 2, focused.region.y)
                for other in others:
                    theirs = background_at(app, other.region.x + 2, other.region.y)
                    # apart to the eye, not by a tint: a contrast of 1.4 or more between them
                    assert ratio(colour(mine), colour(theirs)) >= 1.4, (focused, other)
                seen += 1
            await pilot.press("tab")
            await pilot.pause()
        assert seen >= 3


async def test_the_settings_done_button_sits_in_the_middle() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        done = app.screen.query_one("#done")
        box = done.parent.parent.region  # the form's box (the button is centred in it)
        left, right = done.region.x - box.x, box.right - done.region.right
        assert abs(left - right) <= 2, (left, right)


def colour_at(app: Any, x: int, y: int) -> Color | None:
    strip = app.screen._compositor.render_strips()[y]
    at = 0
    for seg in strip:
        if at <= x < at + seg.cell_length:
            return colour(seg.style.color) if seg.style and seg.style.color else None
        at += seg.cell_length
    return None


async def test_the_hands_rule_takes_the_accent_with_the_focus_and_is_the_hands_own() -> None:
    """The rule over the hand is drawn in the accent while the hand has the focus, in the
    primary colour while the table has it (Tab). It is the hand's own border: a box round
    the hand lit by ``:focus-within`` restyled the hand a second time at each change of the
    focus, each time working out all of its drawing's styles again."""
    from tests.ui.helpers import seats
    from tui_domino.ui.widgets.hand import HandView

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match("classic", seats("greedy"))
        await pilot.pause()
        hand = app.screen.query_one(HandView)
        assert app.screen.focused is hand
        assert not any("focus-within" in rule.pseudo_classes for rule in app.stylesheet.rules)
        x, y = hand.region.right - 2, hand.region.y  # the rule, right of the hand's title
        accent, primary = (Color.parse(app.theme_variables[v]) for v in ("accent", "primary"))
        assert colour_at(app, x, y) == accent
        await pilot.press("tab")
        await pilot.pause()
        assert app.screen.focused is not hand
        assert colour_at(app, x, y) == primary


async def test_ctrl_c_says_how_to_quit_in_plain_words() -> None:
    """Ctrl+C showed Textual's words, "Press [b]ctrl+q[/b] to quit the app", tags and all
    (the game's notifications are plain text)."""
    from tests.ui.conftest import make_app, until

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await until([pilot], lambda: type(app.screen).__name__ == "MenuScreen", "the menu")
        await pilot.press("ctrl+c")
        await until([pilot], lambda: bool(app._notifications), "the notice")
        note = list(app._notifications)[-1]
        assert note.message == "Press ctrl+q to quit the game." and "[" not in note.message
