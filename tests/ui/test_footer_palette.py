"""In ASCII mode the footer keeps its ^p key wherever the line has room for it (it used to
drop it in every game), and never at the cost of another key."""

from __future__ import annotations

import pytest

from tests.ui.conftest import make_app, settle, until
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


async def test_the_footers_keys_are_made_anew_only_when_what_they_show_changed() -> None:
    # Textual makes the footer's keys anew whenever a screen's keys may have changed (the
    # focus moved, a check ran): each time they had not, that was work for nothing.
    from textual.widgets._footer import FooterKey

    from tui_domino import i18n
    from tui_domino.ui.keys import Footer

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session_after("classic", 5, 10)))
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        keys = list(footer.query(FooterKey))
        assert keys and all(k.has_class("-compact") == footer.compact for k in keys)
        app.screen.refresh_bindings()
        await settle(pilot)
        assert all(a is b for a, b in zip(footer.query(FooterKey), keys, strict=True))
        # Another language: the keys made anew, in its words
        try:
            i18n.use("ru")
            app.screen.refresh_bindings()
            await settle(pilot)
            again = list(footer.query(FooterKey))
            assert not any(a is b for a, b in zip(again, keys, strict=False))
            assert "Меню" in " ".join(k.description for k in again)
        finally:
            i18n.use("en")


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_the_footers_keys_are_styled_once_as_they_are_made(
        monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """A key of the footer took Textual's compactness first and the footer's once shown:
    its style was worked out again at each change, twice for each key of a footer that is
    not compact (the menu's in English) each time the keys were made. Now each key is made
    with its own compactness (the footer's; the palette's, compact always, as Textual has
    it), in a footer that is not compact and in a compact one (Russian; a game's keys made
    closer to fit): no key's style is worked out again."""
    from textual.widgets._footer import FooterKey

    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.keys import Footer
    from tui_domino.ui.storage import Settings

    restyled: list[FooterKey] = []
    restyle = FooterKey.update_node_styles

    def counted(self: FooterKey, animate: bool = True) -> None:
        restyled.append(self)
        restyle(self, animate)

    monkeypatch.setattr(FooterKey, "update_node_styles", counted)
    app = DominoApp(settings=Settings(computer_delay=0.0, language=language), seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        compact = [app.screen.query_one(Footer).compact]
        await app.push_screen(GameScreen(session_after("classic", 5, 10)))
        await settle(pilot)
        compact.append(app.screen.query_one(Footer).compact)
        assert compact == ([False, True] if language == "en" else [True, True])
        for screen in app.screen_stack:
            for footer in screen.query(Footer):
                keys = list(footer.query(FooterKey))
                assert keys
                for key in keys:
                    expected = footer.compact or key.has_class("-command-palette")
                    assert key.compact is expected and key.has_class("-compact") is expected
        assert not restyled, sorted({k.key for k in restyled})


async def test_a_footer_mounted_after_its_screen_said_its_keys_shows_them() -> None:
    """Textual's footer shows its screen's keys once the screen says they changed. A screen
    opened as another opens (the hand-over over a new hot-seat match) had said so before its
    footer listened, and its footer stayed empty in one run in a few: here a footer mounted
    on a screen already shown, nothing changing after, shows the screen's keys."""
    from textual.widgets._footer import FooterKey

    from tui_domino.ui.keys import Footer
    from tui_domino.ui.screens.help import HelpScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(HelpScreen("classic"))  # a screen without a footer of its own
        await pilot.pause()
        footer = Footer()
        await app.screen.mount(footer)
        # (made a frame or two later: waited for, up to the deadline; never, before the fix)
        await until(pilot, lambda: {k.action for k in footer.query(FooterKey)} >= {"close"},
                    "the screen's keys in the footer")
