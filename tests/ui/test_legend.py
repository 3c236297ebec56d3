"""g on the table opens the help at the table's marks: what its colours and signs mean."""

from __future__ import annotations

import pytest

from tests.ui.conftest import make_app, settle
from tests.ui.test_languages import screen_lines
from tui_domino import i18n
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.help import RULES, HelpScreen
from tui_domino.ui.screenshots import session_after


@pytest.mark.parametrize("variant", ["triominos", "spider"])
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_g_opens_the_help_at_the_tables_marks(variant: str, language: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.set_language(language)
        await app.push_screen(GameScreen(session_after(variant, 3, 6)))
        await settle(pilot)
        await pilot.press("g")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(screen_lines(app))
        assert i18n._("The table's marks") in text
        assert i18n._(RULES[variant][0]) not in text  # the rules' head scrolled above
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("question_mark")  # ? still opens it at the top
        for _ in range(5):
            await pilot.pause()
        assert i18n._(RULES[variant][0]) in "\n".join(screen_lines(app))
