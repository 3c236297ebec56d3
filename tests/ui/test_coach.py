"""The coach and the history on the screens, at 80x24: the hint, the round's review, the
match recorded, the History and Statistics screens."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from textual.widgets import OptionList

from tests.hostile import screen_text
from tests.ui.conftest import footer_filled, make_app, workers_done
from tests.ui.helpers import seats
from tui_domino import rules
from tui_domino.history import db
from tui_domino.history.generate import generate
from tui_domino.ui import history_db
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.history import HistoryScreen, MatchScreen, StatsScreen
from tui_domino.ui.screens.review import ReviewScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.session import Session


async def idle(pilot: Any, until: Any = None, rounds: int = 400) -> None:
    """Waits for the app's workers (the coach's searches, the history's reads), for
    ``until()`` when given, and for the screen's footer to show its keys (two frames after
    the screen opens)."""
    app = pilot.app
    for _ in range(rounds):
        await workers_done(app)
        await pilot.pause()
        if (until is None or until()) and footer_filled(app.screen):
            return
        await asyncio.sleep(0.02)  # a worker process's answer is on its way
    raise AssertionError("the screen never got there")


def finished_session(seed: int, target: int = 100, level: str = "greedy") -> Session:
    """A classic match whose first round has been played to its end at random."""
    match = rules.new_match("classic", target=target, seed=seed)
    rng = random.Random(seed)
    state = match.round
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    return Session(match, seats(level), autosave=True)


async def at_a_choice(app: Any, pilot: Any) -> GameScreen:
    """A classic match against the greedy computer, played on with Enter to the first turn
    of the player's that offers a choice; its screen."""
    app.start_match("classic", seats("greedy"))
    await idle(pilot, lambda: isinstance(app.screen, GameScreen)
               and app.screen.session.is_human_turn())
    screen = app.screen
    assert isinstance(screen, GameScreen)
    s = screen.session
    while len(s.state.legal_moves()) < 2:  # a position with a choice
        await pilot.press("enter")
        await idle(pilot, lambda: s.is_human_turn() or s.state.is_over)
    return screen


async def test_h_asks_the_coach_and_chooses_its_best_move() -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await at_a_choice(app, pilot)
        s = screen.session
        moves_before = len(s.state.history)
        await pilot.press("h")
        await idle(pilot, lambda: any(n.message.startswith("Best: ")
                                      for n in app._notifications))
        note = next(n for n in app._notifications if n.message.startswith("Best: "))
        assert note.title == "Coach"
        assert len(s.state.history) == moves_before  # nothing played
        assert history_db.log_for(s).hints == 1
        chosen = screen.sel.build_move()
        first = note.message.splitlines()[0].removeprefix("Best: ")
        from tui_domino.ai import coach

        assert chosen is not None and chosen in s.state.legal_moves()
        # the best move is the one on the board, named as the hint line names it
        assert coach.describe(chosen, s.state) == first
        assert screen.hint().startswith(f"⏎ play {first} (the coach's move)")
        await pilot.press("enter")  # and Enter plays it
        await pilot.pause()
        assert s.state.history[moves_before]["move"] == chosen.to_json()


async def test_the_coachs_words_do_not_stand_over_the_help_screen() -> None:
    """? after h: the help screen opens clear of the coach's notice (it stood over the
    help's rules, the app showing its notices on whatever screen is on top)."""
    from tui_domino.ui.screens.help import HelpScreen

    app = make_app(seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await at_a_choice(app, pilot)
        await pilot.press("h")
        await idle(pilot, lambda: "Best: " in screen_text(app))
        chosen = screen.sel.build_move()
        await pilot.press("question_mark")
        await idle(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert "Best: " not in screen_text(app) and "Coach" not in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and "Best: " not in screen_text(app)
        assert screen.sel.build_move() == chosen  # the coach's move still chosen


async def test_the_hint_is_not_offered_in_a_duel() -> None:
    """A duel's screen shows the table without the local match's aids: it has no hint nor
    take-back to offer, and the table's keys leave them out."""
    from tui_domino.ui.screens.duel import DuelScreen
    from tui_domino.ui.screens.table_screen import TableScreen

    assert not issubclass(DuelScreen, GameScreen)
    assert not hasattr(DuelScreen, "action_hint") and not hasattr(DuelScreen, "action_take_back")
    session = Session.new("classic", seats("greedy"), seed=3, autosave=False)
    table, local = TableScreen(session), GameScreen(session)
    assert table.check_action("hint", ()) is False and local.check_action("hint", ()) is True
    assert table.check_action("take_back", ()) is False
    assert history_db.known(session) is None


async def test_after_a_round_the_summary_offers_its_review(home: Path) -> None:
    session = finished_session(5)
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        app._show_game(session)
        await idle(pilot, lambda: isinstance(app.screen, RoundSummary))
        text = screen_text(app)
        assert "Hints used this round: 0" in text and "Review" in text
        await pilot.press("v")
        await idle(pilot, lambda: isinstance(app.screen, ReviewScreen)
                   and app.screen.complete)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        mine = [i for i, _, _ in review.todo]
        assert mine and set(review.judged) == set(mine)
        assert all(review.moves[i]["player"] == 0 for i in mine)
        text = screen_text(app)
        assert "You ended the round" in text
        assert "Hands now:" in text and "Move 1 of" in text
        await pilot.press("end")
        assert "The round is over" in screen_text(app)
        await pilot.press("home")
        await pilot.press("right")
        assert review.pos == 1
        await pilot.press("n")  # to the next marked move, if any
        # the judgements are kept with the round's record: a second look is instant
        rec = history_db.round_of(session)
        assert rec is not None and len(rec["review"]) == len(mine)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundSummary)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen) and app.screen.complete  # at once
        await idle(pilot, lambda: "You ended the round" in screen_text(app))


async def test_a_finished_match_goes_to_the_history_with_its_hints(home: Path) -> None:
    session = finished_session(8, target=1)  # the first round decides the match
    assert session.match.is_over
    app = make_app(seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        log = history_db.log_for(session)
        log.hints = 2
        app._show_game(session)
        await idle(pilot, lambda: isinstance(app.screen, RoundSummary))
        history_db.wait_for_writes()
        con = db.connect()
        rows, total = db.list_matches(con)
        assert total == 1 and rows[0].hints == 2 and rows[0].opponent == "greedy"
        rec = db.load_match(con, rows[0].id)
        assert rec is not None and rec["rounds"][0]["moves"] == session.state.history
        assert "Hints used this round: 2" in screen_text(app)


async def test_pages_of_the_history_read_one_after_another_show_only_the_last(
        home: Path) -> None:
    """g pressed quickly: the page of each filter is read in a thread of its own and shown
    as it comes, its first lines at once and the rest once they are drawn. A page shown
    before the last one's rest was added got that rest too (the same matches twice: the list
    refused them and the game stopped), and a page read for a filter since changed replaced
    the newer one."""
    from tui_domino.ui.screens.history import PAGE

    home.mkdir(parents=True, exist_ok=True)
    generate(home / db.DB_NAME, matches=120, seed=4, pool=3)
    con = db.connect()
    page = {v: (*db.list_matches(con, v, None, PAGE), db.opponents(con))
            for v in (None, "classic")}
    assert len(page[None][0]) == PAGE  # a page longer than its first lines
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await idle(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        screen.fill(*page["classic"], ("classic", None))  # not the filter now: left out
        assert screen.ids == [r.id for r in page[None][0]]
        screen.fill(*page[None], (None, None))
        screen.fill(*page[None], (None, None))  # again, before the rest of the first is added
        await idle(pilot)
        menu = screen.query_one("#matches", OptionList)
        assert [o.id for o in menu.options] == [str(r.id) for r in page[None][0]]
        screen.variant = "classic"
        screen.fill(*page["classic"], ("classic", None))
        screen.fill(*page[None], (None, None))  # the page of the filter before: left out
        await idle(pilot)
        assert [o.id for o in menu.options] == [str(r.id) for r in page["classic"][0]]
        assert screen.ids == [r.id for r in page["classic"][0]]


async def test_history_lists_filters_opens_and_exports_matches(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    generate(home / db.DB_NAME, matches=60, seed=4, pool=3)
    kw = json.loads(json.dumps(db.load_match(db.connect(), 1)))
    kw["players"][1]["name"] = "[bold]Eve[/]"
    con = db.connect()
    db.insert(con, dict(kw, played_at="2030-01-01T00:00:00+00:00"))
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("h")
        await idle(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        text = screen_text(app)
        assert "61 matches (all games)" in text and "[bold]Eve[" in text  # (cut to 10)
        screen.loaded = False
        await pilot.press("g")  # classic only
        await idle(pilot, lambda: screen.loaded)
        classic = db.list_matches(con, "classic")[1]
        assert f"{classic} match" in screen_text(app)
        await pilot.press("g")  # spider only: the lower score wins, so the winner is marked
        await idle(pilot, lambda: screen.loaded)
        rows = db.list_matches(con, "spider")[0]
        shown = screen_text(app)
        for row in rows[:5]:
            won = row.players[row.winner][:10] if row.winner is not None else None
            line = next(x for x in shown.splitlines()
                        if f"{row.totals[0]}–{row.totals[1]}" in x and row.players[0][:10] in x)
            assert (f"{won} ✓" in line) if won else "✓" not in line, line
        await pilot.press("g", "g", "g")  # round to classic again
        await idle(pilot, lambda: screen.loaded and screen.variant == "classic")
        assert all(db.load_match(con, i)["variant"] == "classic"  # type: ignore[index]
                   for i in screen.ids[:5])
        await pilot.press("x")
        await idle(pilot, lambda: any(n.title == "Export" for n in app._notifications))
        path = home / "exports" / f"match-{screen.ids[0]}.json"
        assert json.loads(path.read_text())["variant"] == "classic"
        assert "⏎ Open" in screen_text(app).splitlines()[-1]  # the footer says how to open
        await pilot.press("enter")
        await idle(pilot, lambda: isinstance(app.screen, MatchScreen)
                   and app.screen.record is not None)
        assert "not reviewed" in screen_text(app)
        assert "⏎ Review" in screen_text(app).splitlines()[-1]  # and how to review a round
        await pilot.press("enter")
        await idle(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.complete)
        assert "ended the round" in screen_text(app)
        await pilot.press("escape")
        await idle(pilot, lambda: "points" in screen_text(app))  # the cost now shown
        mid = app.screen.match_id  # type: ignore[attr-defined]
        await idle(pilot, lambda: db.load_match(db.connect(), mid)["rounds"][0]["review"]
                   is not None)  # type: ignore[index]


async def test_statistics_screen_shows_the_figures_and_the_chart(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    generate(home / db.DB_NAME, matches=80, seed=6, pool=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.show_stats()
        await idle(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.loaded)
        text = screen_text(app)
        assert "Matches won" in text and "95% interval" in text and "Longest run" in text
        # one figure a line (a line break is no control character to show as an escape)
        assert "\\x0a" not in text
        lines = text.splitlines()
        assert any(line.strip().startswith("Rounds won") for line in lines)
        assert "█" in text
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        await pilot.press("g")
        await idle(pilot, lambda: screen.loaded)
        assert "Statistics: Classic dominoes" in screen_text(app)  # the game's name
        # figures read for the filter before g (their thread ended last): left out
        from tui_domino.history import stats

        shown = screen_text(app)
        con = db.connect()
        screen.fill(stats.compute(con, None, None), db.opponents(con), (None, None))
        await pilot.pause()
        assert screen_text(app) == shown
