"""In ASCII mode the footer keeps its ^p key wherever the line has room for it (it used to
drop it in every game), and never at the cost of another key."""

from __future__ import annotations

import pytest

from tests.ui.conftest import make_app, settle
from tests.ui.test_languages import cut_labels, screen_lines
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screenshots import session_after


@pytest.mark.parametrize(("variant", "width", "palette"), [
    ("classic", 80, True), ("triominos", 80, True), ("spider", 80, False),
    ("spider", 100, True),
])
async def test_the_palette_key_shows_in_ascii_where_it_fits(variant: str, width: int,
                                                           palette: bool) -> None:
    app = make_app()
    app.settings.ascii = True
    async with app.run_test(size=(width, 24)) as pilot:
        await app.push_screen(GameScreen(session_after(variant, 5, 10)))
        await settle(pilot)
        footer = screen_lines(app)[-1]
        assert ("^p palette" in footer) is palette, footer
        assert "esc Menu" in footer and not await cut_labels(app, pilot)
