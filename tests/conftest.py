"""For every test: the game speaks English unless a test asks for another language (the
machine's own locale variables do not leak into the tests or the programs they start), a
test that switched the language leaves English behind it, and the game's data is never the
machine's. The table's motions are off (as the player's TEXTUAL_ANIMATIONS=none turns
them off): a picture taken just after a move shows the tile in its place, not on its way;
tests/ui/test_motion.py turns them on for itself."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import textual._wait
import textual.constants
from hypothesis import settings
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen

from tui_domino import i18n

for _var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
    os.environ.pop(_var, None)
os.environ["LANG"] = "C.UTF-8"
# The programs the tests start (servers, games, the command line: hundreds) each load the
# game: compiled once, they read it from the bytecode cache. On a machine that says
# PYTHONDONTWRITEBYTECODE, each compiled it afresh (a quarter of a CPU-second each).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
os.environ["TEXTUAL_ANIMATIONS"] = "none"  # the programs the tests start, too
# Textual's Pilot waits after each key (twice) and each pause until the app is idle, judged
# by sampling the process's CPU time every 20 ms: at least 40 ms a key, half of the time of
# the tests that play through the screens. It samples every 2 ms here (the same test of
# idleness: CPU under a twentieth of the sample; every 5 ms the UI tests took a tenth
# longer, every 1 ms longer still). No test counts on the sample's length:
# where a test needs the computer's move, a save, a worker or the next frame done, it waits
# for that (``settle``, ``until``, ``app.workers.wait_for_complete``). Textual has no
# public setting for it.
textual._wait.SLEEP_GRANULARITY = 1 / 500
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 20


def _frame_unseen(screen: Screen[object]) -> None:
    """A headless app's frame, not drawn: Textual draws each frame's update of the screen
    shown and then drops it (``App._display`` writes nothing when headless). That drawing was
    a fifth of the UI tests' CPU. What a test reads of the screen is drawn in full when it
    reads it (``helpers.screen_lines``, the snapshots' ``export_screenshot``), from the
    widgets as they are then; a widget that cannot draw itself fails the test that looks at
    it (the random-input tests look after every step). Everything else of the frame (the
    hover, the callbacks after it) happens as before; a terminal's game draws every frame."""
    app = screen.app
    if app.is_headless and not app.is_inline and screen is app.screen:
        screen._compositor._dirty_regions.clear()
        screen._dirty_widgets.clear()
        app._update_mouse_over(screen)
    else:
        _draw_frame(screen)


_draw_frame = Screen._compositor_refresh
Screen._compositor_refresh = _frame_unseen  # type: ignore[method-assign]


_parsed: dict[tuple[object, ...], list[RuleSet]] = {}


def _rules_parsed_once(self: Stylesheet, css: str, read_from: tuple[str, str],
                       is_default_rules: bool = False, tie_breaker: int = 0,
                       scope: str = "") -> list[RuleSet]:
    """A style sheet's rules, parsed once in the process for each text and theme. Textual
    keeps what it parsed in each app's style sheet, and parses every source afresh in a new
    one when a screen brings its own or the theme changes: the tests' thousand apps parsed
    the same files again and again (9 CPU-seconds of the suite; 0.8 now). The rules are the
    same objects for the same text, place, scope and variables, as an app's own cache gives
    them; Textual does not change them once parsed. A style sheet with an error fails as
    before."""
    key = (css, read_from, is_default_rules, tie_breaker, scope,
           tuple(self._variables.items()))
    if key not in _parsed:
        _parsed[key] = _parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
    return _parsed[key]


_parse_rules = Stylesheet._parse_rules
Stylesheet._parse_rules = _rules_parsed_once  # type: ignore[method-assign]

# Hypothesis's examples are the same on every run (a seed of its own from each test's name),
# as every other random draw of the tests is seeded: a run fails where the one before it
# failed, and nowhere else; and no example is kept from one run to the next.
settings.register_profile("seeded", derandomize=True, database=None)
settings.load_profile("seeded")

# A test that reads the game's data without choosing a home of its own reads an empty one,
# never the machine's (a saved language or match there would change what it sees).
os.environ.setdefault("TUI_DOMINO_HOME", tempfile.mkdtemp(prefix="tui-domino-tests-"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """What a test process holds once it has collected the tests (the modules loaded, the
    tests themselves) is kept out of the collector's reach, as the game does at start-up
    (``ui.app.settle_memory``): each full collection then scans only what the tests made,
    not the whole process again. It took about a fifth of the CPU time of the tests outside
    tests/ui (the UI's apps freeze their own start-up in every test)."""
    from tui_domino.ui.app import settle_memory

    settle_memory()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The workers of ``-n auto``: one more than the machine's cores. A third of a test's
    time is spent waiting (on a server's processes, a socket, the computer's move in its
    worker process, the Pilot's samples of idleness; ``scripts/suite_profile.py`` shows
    it): the one more worker runs its tests in those waits."""
    cores = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
             else os.cpu_count() or 1)  # (macOS and Windows have no affinity to ask)
    return cores + 1


@pytest.fixture(autouse=True)
def _still(monkeypatch: pytest.MonkeyPatch) -> None:
    # Textual read the variable when it was first imported (a plugin may import it first)
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game's data folder of the test's own (tests/ui and tests/ssh have theirs)."""
    d = tmp_path / "home"
    d.mkdir()
    monkeypatch.setenv("TUI_DOMINO_HOME", str(d))
    return d


@pytest.fixture(scope="session")
async def shared_spawner() -> AsyncIterator[object]:
    """One fork server for the games of every test server of this process (each loading the
    game afresh cost about half a CPU-second): each game gets its visitor's whole
    environment from his server, as from a server's own fork server."""
    from tui_domino.ssh.server import default_spawner

    spawner = default_spawner(fork=True)
    await spawner.start()
    yield spawner
    await spawner.close()


@pytest.fixture
def games_spawner(shared_spawner: object) -> object:
    """The spawner of the test servers' games: the process's one fork server. A file whose
    tests stop fork servers makes it None (each server then has a fork server of its own),
    and asks for ``shared_spawner`` where a test stops none."""
    return shared_spawner
