"""Every screen in every language, at 80x24 and at the least size the game takes, opened in
one and resized to the other: no label cut short, and in Russian and Bulgarian no English
word of the game's own left on the screen."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Label, Static
from textual.widgets._footer import FooterKey

from tests.ui.conftest import footer_filled, settle, until
from tests.ui.helpers import screen_lines
from tui_domino import i18n
from tui_domino.locale import catalogs
from tui_domino.ui.app import DominoApp
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.help import HelpScreen
from tui_domino.ui.screens.match_over import MatchOverScreen
from tui_domino.ui.screens.tutorial import TutorialScreen
from tui_domino.ui.screenshots import session_after, session_round_over
from tui_domino.ui.session import Session, two_people
from tui_domino.ui.storage import Settings

SIZE = (80, 24)
SCROLLED = 3.0  # the longest wait for a label scrolled into view (a layout settling)
SIZES = (SIZE, (60, 20))  # the size most terminals open at; the least the game takes
Visit = Callable[[object], Awaitable[None]]


def _press(*keys: str) -> Visit:
    async def visit(pilot: object) -> None:
        for key in keys:
            await pilot.press(key)  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]

    return visit


def _push(make: Callable[[], Screen[object]]) -> Visit:
    async def visit(pilot: object) -> None:
        await pilot.app.push_screen(make())  # type: ignore[attr-defined]
        await settle(pilot)

    return visit


def _history(*then: str) -> Visit:
    async def visit(pilot: object) -> None:
        from tui_domino.history import db, generate

        generate.generate(db.db_path(), matches=6, seed=2, pool=2)
        con = db.connect()  # players named as a player of any language may be
        with con:
            con.execute("UPDATE matches SET player0 = 'Анна', player1 = 'Борис'")
        con.close()
        await _press("h", *then)(pilot)
        await settle(pilot)

    return visit


def _match_over() -> Screen[object]:
    session = session_round_over("classic", 11)
    session.match.target = 10
    return MatchOverScreen(session)  # type: ignore[return-value]


def _hot_seat() -> Screen[object]:
    session = Session.new("classic", two_people("Anna", "Boris"), seed=3, autosave=False)
    return GameScreen(session)  # type: ignore[return-value]


# visits where a drop-down list lies over the labels below it (only the words are checked)
OVERLAID = {"settings, a list open"}
SCREENS: dict[str, Visit] = {
    "menu": _press(),
    "new game": _press("n"),
    "settings": _press("s"),
    "settings, a list open": _press("s", "enter"),
    "palette": _press("ctrl+p"),
    "menu help": _press("question_mark"),
    "history": _history(),
    "statistics": _history("s"),
    "duel setup": _press("d"),
    "duel setup, join": _press("d", "right"),  # the other tab: its labels hidden before
    "classic": _push(lambda: GameScreen(session_after("classic", 4, 9))),  # type: ignore[arg-type,return-value]
    "spider": _push(lambda: GameScreen(session_after("spider", 5, 10))),  # type: ignore[arg-type,return-value]
    "triominos": _push(lambda: GameScreen(session_after("triominos", 3, 26))),  # type: ignore[arg-type,return-value]
    "hot seat": _push(_hot_seat),
    "round summary": _push(lambda: GameScreen(session_round_over("classic", 11))),  # type: ignore[arg-type,return-value]
    "spider summary": _push(lambda: GameScreen(session_round_over("spider", 5))),  # type: ignore[arg-type,return-value]
    "triominos summary": _push(lambda: GameScreen(session_round_over("triominos", 3))),  # type: ignore[arg-type,return-value]
    "match over": _push(_match_over),
    "spider help": _push(lambda: HelpScreen("spider")),  # type: ignore[arg-type,return-value]
    "classic tutorial": _push(lambda: TutorialScreen("classic")),  # type: ignore[arg-type,return-value]
    "spider tutorial": _push(lambda: TutorialScreen("spider")),  # type: ignore[arg-type,return-value]
    "triominos tutorial": _push(lambda: TutorialScreen("triominos")),  # type: ignore[arg-type,return-value]
    "triominos help": _push(lambda: HelpScreen("triominos")),  # type: ignore[arg-type,return-value]
}


def _text_of(widget: Widget) -> str:
    if isinstance(widget, FooterKey):
        return str(widget.description)
    if isinstance(widget, Button):
        return str(widget.label)
    if isinstance(widget, Static | Label):
        visual = widget.visual
        return str(getattr(visual, "plain", "") or "")
    return ""


def _labels(app: DominoApp) -> list[Widget]:
    """The screen's labels, buttons, footer keys and short texts (not prose that scrolls,
    nor the recent moves, newest first, whose oldest go out of view by design)."""
    return [w for w in app.screen.walk_children(with_self=False)
            if isinstance(w, Button | Label | Static | FooterKey)
            and not type(w).__name__.startswith("Markdown") and w.id != "log"
            and _text_of(w).strip() and len(_text_of(w)) <= 400]


def _in_view(app: DominoApp, widget: Widget) -> bool:
    """Whether all of ``widget`` is on the screen (not scrolled partly or wholly away)."""
    placed = app.screen._compositor.visible_widgets.get(widget)
    if placed is None:
        return False
    region, clip = placed
    return region == clip.intersection(region) and bool(region.width and region.height)


def _cut_words(app: DominoApp, widget: Widget, lines: list[str]) -> str | None:
    """What of ``widget``'s text the screen does not show inside it, if anything."""
    text = _text_of(widget)
    r = widget.region
    shown = " ".join(line[r.x:r.x + r.width] for line in lines[r.y:r.y + r.height])
    for word in re.findall(r"\w{2,}", text):
        if word not in shown:
            return f"{type(widget).__name__} {text!r}: {word!r} not shown"
    return None


async def cut_labels(app: DominoApp, pilot: Pilot[None],
                     lines: list[str] | None = None) -> list[str]:
    """The words of labels, buttons, footer keys and short texts that the screen does not
    show inside their widget (cut off at its edge or hidden past its end). A label scrolled
    partly or wholly out of view is scrolled into view and looked at there. ``lines``: the
    screen as shown now, if the caller has just read it."""
    if lines is None:
        lines = screen_lines(app)
    problems = []
    away = []
    for widget in _labels(app):
        if not _in_view(app, widget):
            away.append(widget)
        elif (problem := _cut_words(app, widget, lines)) is not None:
            problems.append(problem)
    for widget in away:
        if any(not (node.display and node.visible) for node in widget.ancestors_with_self
               if isinstance(node, Widget)):
            continue  # not shown at all (in a tab not chosen, say)
        def scrolled(widget: Widget = widget) -> bool:
            if _in_view(app, widget):
                return True
            # (again while the layout settles: text reflowed to a new width moves it)
            widget.scroll_visible(animate=False, immediate=True)
            return False

        try:
            await until(pilot, scrolled, "in view", timeout=SCROLLED)
        except AssertionError:
            problems.append(f"{type(widget).__name__} {_text_of(widget)!r}: "
                            "cannot be scrolled wholly into view")
            continue
        if (problem := _cut_words(app, widget, screen_lines(app))) is not None:
            problems.append(problem)
    return problems


@functools.cache
def english_words(language: str) -> set[str]:
    """Words of the game's English messages that a screen in ``language`` must not show:
    those of four letters or more that no translation of the language uses too."""
    catalog = catalogs.read(catalogs.po_path(language), language)
    english: set[str] = set()
    translated: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        ids = catalogs.ids(m)
        strings = catalogs.strings(m)
        for s in ids:
            english |= set(re.findall(r"(?<![{\w])[A-Za-z]{4,}(?![}\w])", s))
        for s in strings:
            translated |= set(re.findall(r"[A-Za-z]{4,}", s))
    return english - translated


async def check_screen(app: DominoApp, pilot: Pilot[None], words: set[str],
                       overlaid: bool) -> list[str]:
    """What is wrong with the screen shown: a label cut; in a translated language, English
    words of the game's messages on it (``words``); the screen too small for the game."""
    from tui_domino.ui.screens.too_small import TooSmallScreen

    if isinstance(app.screen, TooSmallScreen):
        return [f"too small at {app.size.width}x{app.size.height}"]
    lines = screen_lines(app)
    problems = [] if overlaid else await cut_labels(app, pilot, lines)
    seen = sorted({w for line in lines for w in re.findall(r"[A-Za-z]{4,}", line)} & words)
    if seen:
        problems.append(f"English words {seen} on\n" + "\n".join(lines))
    return problems


async def sweep(language: str, first: int) -> dict[str, list[str]]:
    """Each screen of ``SCREENS`` visited in turn in one game in ``language``, back at the
    menu between two (the screens over it closed), and looked at in both sizes of ``SIZES``:
    opened in one, then the terminal resized to the other. The ``first`` screen opens in
    the first size, the next in the second, and so on in turn. For each screen and size,
    what is wrong with it (``check_screen``)."""
    from tui_domino.ui.screens.menu import MenuScreen

    words = english_words(language) if language != "en" else set()
    wrong: dict[str, list[str]] = {}
    app = DominoApp(settings=Settings(computer_delay=0.0, language=language), seed=1)
    async with app.run_test(size=SIZES[first % 2]) as pilot:
        assert i18n.current() == language
        for n, (name, visit) in enumerate(SCREENS.items(), start=first):
            assert isinstance(app.screen, MenuScreen), (name, app.screen)
            # (the last screen was left in the size this one opens in)
            opened, resized = SIZES[n % 2], SIZES[(n + 1) % 2]
            assert app.size == opened, (name, app.size)
            await visit(pilot)
            for size, how in ((opened, "opened"), (resized, "resized to")):
                if app.size != size:
                    await pilot.resize_terminal(*size)
                    await until(pilot, lambda size=size: app.screen.size == size,  # type: ignore[misc]
                                f"{name} at {size}")
                    await settle(pilot)  # (what the screen redraws for its new size, drawn)
                await until(pilot, lambda: footer_filled(app.screen), f"the footer of {name}")
                problems = await check_screen(app, pilot, words, name in OVERLAID)
                if problems:
                    wrong[f"{name} ({how} {size[0]}x{size[1]})"] = problems
            while not isinstance(app.screen, MenuScreen):
                await app.pop_screen()
            await pilot.pause()
    return wrong


@pytest.mark.parametrize(("language", "first"), [("en", 0), ("ru", 0), ("bg", 1)])
async def test_no_label_is_cut_and_no_english_word_shows(language: str, first: int) -> None:
    """Each screen in each language, at 80x24 and at 60x20, the least the game takes (a
    compact table: the score panel beside a narrower board; the footer's keys fitted to the
    width; the history without its players' column; the round's summary with its buttons):
    every label shows whole inside its widget, and in a translated language no English word
    of the game's messages is on the screen. Each screen is opened in one size and then the
    terminal resized to the other, as a player may; English and Bulgarian (the longest
    words) open each screen in a different size, so each is opened in both. (One game
    visits them all in turn: an application of its own for each screen and size took a
    quarter more of the time.)"""
    from tui_domino.ui.app import MIN_SIZE

    assert SIZES[1] == MIN_SIZE
    wrong = await sweep(language, first)
    assert not wrong, "\n".join(f"{name}: {problems}" for name, problems in wrong.items())


@pytest.mark.parametrize(("language", "letters"), [("en", "NESW"), ("ru", "СВЮЗ"), ("bg", "СИЮЗ")])
async def test_spiders_arms_are_lettered_in_the_language_on_the_table_and_in_the_log(
        language: str, letters: str) -> None:
    """The moves' log said "Вы: 0-3 N" beside hints that say «север»."""
    app = DominoApp(settings=Settings(computer_delay=0.0, language=language), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(GameScreen(session_after("spider", 5, 10)))
        await settle(pilot)
        lines = screen_lines(app)
        shown = "\n".join(lines)
        arms = set(re.findall(r"\d-\d ([A-ZА-Я])\b", shown))
        assert arms and arms <= set(letters), (arms, shown)
        assert all(letter in shown for letter in letters[:2])  # beside the centre double
        if language != "en":
            assert not re.search(r"\d-\d [NESW]\b", shown), shown


async def test_the_palette_switches_the_language_and_keeps_it() -> None:
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        assert "New game" in "\n".join(screen_lines(app))
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert "Language: English" not in commands  # the language in use is not offered
        commands["Language: Русский"].callback()
        # (the menu at once, the footer's keys after the next frame)
        await until(pilot, lambda: "New game" not in "\n".join(screen_lines(app)),
                    "no English left on the menu")
        assert "Новая игра" in "\n".join(screen_lines(app))
        assert app.settings.language == "ru"
        assert Settings.read().language == "ru"


async def test_a_language_switched_mid_game_keeps_the_game() -> None:
    app = DominoApp(settings=Settings(computer_delay=0.0), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        screen = GameScreen(session_after("spider", 5, 10))  # type: ignore[arg-type]
        await pilot.app.push_screen(screen)
        await settle(pilot)
        await pilot.press("right")  # another tile chosen
        await pilot.pause()
        before = (screen.session.state.to_json(), screen.sel.tile_index)
        assert "Help" in screen_lines(app)[-1]
        app.set_language("bg")
        # (the table at once, the footer's keys after the next frame)
        await until(pilot, lambda: "Помощ" in screen_lines(app)[-1], "the footer in Bulgarian")
        lines = screen_lines(app)
        assert "Help" not in lines[-1]  # the footer
        assert "Ръката ви" in "\n".join(lines) and "Your hand" not in "\n".join(lines)
        assert (screen.session.state.to_json(), screen.sel.tile_index) == before
        app.set_language("en")
        await until(pilot, lambda: "Help" in screen_lines(app)[-1], "the footer in English")


@pytest.mark.parametrize(("variant", "word", "other"), [("triominos", "костяш", "кост[иьея]"),
                                                        ("classic", "кост", "костяш")])
async def test_russian_calls_triominos_and_dominoes_each_by_its_own_name(
        variant: str, word: str, other: str) -> None:
    """The Triominos table called its pieces «кости», as dominoes are called."""
    app = DominoApp(settings=Settings(computer_delay=0.0, language="ru"), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(GameScreen(session_after(variant, 5, 6)))
        await settle(pilot)
        shown = "\n".join(screen_lines(app))
        counted = re.findall(r"\d+ (кост\w*)", shown)  # "Компьютер: 14 костяшек"
        assert counted and all(w.startswith(word) for w in counted), (counted, shown)
        if variant == "triominos":
            assert not re.search(r"\d+ " + other + r"\b", shown), shown


def test_the_reviews_first_move_key_is_not_the_new_games_start_button() -> None:
    """Home in the review goes to the round's first move: a word of its own (it read
    «Старт», the button that starts a game, where a player looks for «Начало»)."""
    from tui_domino.ui.screens.new_game import NewGameScreen
    from tui_domino.ui.screens.review import ReviewScreen

    home = next(b for b in ReviewScreen.BINDINGS if getattr(b, "key", None) == "home")
    starts = {getattr(b, "description", None) for b in NewGameScreen.BINDINGS}
    assert "Start" in starts and home.description not in starts  # type: ignore[union-attr]
