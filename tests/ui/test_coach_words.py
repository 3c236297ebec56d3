"""The coach speaks the table's language: a move named as the hint line and the board name it
(the tile as the hand shows it, a Triominos place by its letter, an end or an arm by its
name), in English, Russian and Bulgarian; its figures said against the best move in the
round's points; the game's own pre-selection not passed off as advice; and its notices gone
with the next move. At 80x24 where a screen shows it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.hostile import screen_text
from tests.ui.conftest import make_app
from tests.ui.helpers import played, session_with
from tests.ui.test_coach import at_a_choice, idle
from tests.ui.test_play import triominos_opening
from tui_domino import cli, i18n, rules
from tui_domino.ai import coach
from tui_domino.history.records import round_record
from tui_domino.i18n import _
from tui_domino.rules import places
from tui_domino.ui import history_db
from tui_domino.ui.drawing.triangle_grid import label_spot, layout_triominos
from tui_domino.ui.notices import holder_id
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.review import ReviewScreen
from tui_domino.ui.selection import Selection
from tui_domino.ui.session import Session
from tui_domino.ui.widgets.board import BoardView

LANGUAGES = ("en", "ru", "bg")


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.use("en")



def triominos_with_places() -> rules.RoundState:
    """A Triominos position, player 0 to move, where a tile fits two places or more."""
    for seed in range(300):
        state = played("triominos", seed, 6 + seed % 9)
        if state.is_over or state.to_move != 0:
            continue
        legal = [m for m in state.legal_moves() if m.kind == "place"]
        if any(places.triomino_place(m, legal, False).letter == "b" for m in legal):
            return state
    raise AssertionError("no such position")


def positions() -> list[rules.RoundState]:
    # (the opening Triominos tile fits one place several ways: "turn 2/3")
    out = [triominos_with_places(), triominos_opening([[1, 2, 3]])]
    for variant in ("classic", "spider"):
        out.append(next(s for seed in range(100)
                        if not (s := played(variant, seed, 5)).is_over
                        and sum(m.kind == "place" for m in s.legal_moves()) > 1))
    return out


def table_words(state: rules.RoundState, move: rules.Move) -> str:
    """The hint line's sentence for ``move`` chosen on the table (``Selection``)."""
    sel = Selection(state.variant)
    sel.update(state.hands[state.to_move or 0], state.legal_moves())
    assert history_db.select_move(sel, move)
    place = sel.current_place()
    assert place is not None and sel.build_move() == move
    return sel.describe(place, not places.opening(state.history))


def verb(variant: str) -> str:
    """The hint line's "⏎ play " in the language in use (what comes before the tile)."""
    sentence = {"classic": "⏎ play {tile} on the left end",
                "spider": "⏎ play {tile} on the {arm} arm",
                "triominos": "⏎ play {tile} at {cell}"}[variant]
    return _(sentence).split("{tile}")[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_coach_names_every_move_as_the_hint_line_and_the_board_do(
        lang: str, language: None) -> None:
    i18n.use(lang)
    for state in positions():
        name = coach.Namer(state)
        view = state.view(state.to_move or 0)
        legal = state.legal_moves()
        for move in legal:
            if move.kind != "place" or (move.placements and any(p.close for p in
                                                                  move.placements)):
                continue
            if move.placements is not None and len(move.placements) > 1:
                continue
            opening = places.opening(state.history)
            if opening and lang != "en":  # "начать раунд с 1-2-3": no verb before the tile
                assert name(move).startswith("-".join(map(str, move.tile or ())))
                continue
            assert table_words(state, move) == verb(state.variant) + name(move), move
            assert coach.describe(move, view) == name(move)  # from the view, the same
            if move.cell is None:
                continue
            if opening:
                continue
            # the letter is the one the board draws at that place for that tile
            letter = places.triomino_place(move, legal, False).letter
            assert letter is not None and f" {letter}" in name(move)
            mine = places.tile_places(legal, move.tile)
            cv = layout_triominos(view, mine, mine.index(move))
            assert cv.get(*label_spot(*move.cell))[0] == letter
            assert "-".join(map(str, move.tile or ())) in name(move)  # as the hand shows it


def test_spider_arms_and_closing_are_named_as_the_hint_line_names_them() -> None:
    move = rules.move_from_json("spider", {"kind": "place", "placements": [
        {"tile": [5, 5], "arm": "N", "close": True}]})
    assert coach.describe(move) == "5-5 on the North arm, closing it"
    i18n.use("bg")
    try:
        assert coach.describe(move) == "5-5 на северния лъч, като го затваря"
    finally:
        i18n.use("en")


def ranked(*figures: float) -> list[coach.RankedJSON]:
    tiles = [[4, 6], [4, 4], [1, 3], [0, 2]]
    return [{"move": {"kind": "place", "tile": t, "end": "right"}, "expected": x, "visits": 9}
            for t, x in zip(tiles, figures, strict=False)]


def test_the_hint_says_what_each_move_gives_up_against_the_best(language: None) -> None:
    text = coach.hint_line(ranked(-62.6, -65.8, -70.3, -90.0))
    assert text.splitlines() == ["Best: 4-6 on the right end",
                                 "4-4 on the right end: about 3 points less on average",
                                 "1-3 on the right end: about 8 points less on average"]
    assert "62" not in text  # no figure that means nothing alone
    assert coach.hint_line(ranked(1.0, 0.8)).splitlines()[1] == (
        "4-4 on the right end: about as good on average")
    i18n.use("ru")
    assert coach.hint_line(ranked(-62.6, -65.8)).splitlines()[1] == (
        "4-4 на правый конец: в среднем примерно на 3 очка меньше")
    # the opening Triominos tile: no place to name, its turns as the hint line counts them
    first = triominos_opening([[1, 2, 3]])
    assert [coach.describe(m, first) for m in first.legal_moves()
            if m.tile == (1, 2, 3)] == [f"1-2-3 первым ходом, поворот {n}/3" for n in (1, 2, 3)]


def judgement(index: int, loss: float, player: int = 0) -> coach.Judgement:
    move: rules.MoveJSON = {"kind": "place", "tile": [6, 4], "end": "right"}
    return coach.Judgement(index, player, move, -loss, move, 0.0, loss,
                           coach.mark_of("classic", loss), [])


def test_the_review_weighs_the_choices_against_how_the_round_ended(language: None) -> None:
    judged = [judgement(2, 11.8), judgement(6, 13.4), judgement(9, 0.2)]
    assert coach.summary(judged, 0, margin=-8) == (
        "You ended the round 8 points behind. With the coach's moves you would have ended "
        "about 25 points better on average (most at move 7).")
    assert coach.summary(judged, 0, name="Ann", margin=12) == (
        "Ann ended the round 12 points ahead. With the coach's moves Ann would have ended "
        "about 25 points better on average (most at move 7).")
    assert coach.summary([judgement(1, 0.3)], 0, margin=0) == (
        "You ended the round level. You chose as well as the coach every time.")
    assert coach.summary([], 0) == "You had no choice to make this round."
    # Spider's points are charged: fewer is better
    assert coach.margin_of("spider", [5, 20], 0) == 15
    assert coach.margin_of("triominos", [5, 20], 0) == -15
    i18n.use("ru")
    assert coach.summary(judged, 0, margin=-8).startswith(
        "Вы закончили раунд, отставая на 8 очков. С ходами тренера вы закончили бы в среднем "
        "примерно на 25 очков лучше")


def test_hint_names_triominos_places_with_the_tables_letters_and_says_how(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    state = triominos_with_places()
    path = tmp_path / "view.json"
    path.write_text(json.dumps(state.view(state.to_move or 0)))
    assert cli.main(["hint", str(path), "--json", "--iterations", "200"]) == 0
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    moves = json.loads(lines[-1])["moves"]
    name = coach.Namer(state)
    for n, m in enumerate(moves, 1):
        words = name(m["move"])
        assert m["name"] == words and " at " in words and "," not in words.split(" at ")[1][:1]
        row = lines[n - 1]
        assert row.split(".", 1)[1].strip().startswith(words)
        move = rules.move_from_json("triominos", m["move"])
        assert words.startswith(table_words(state, move).removeprefix("⏎ play "))
        assert m["behind_best"] == pytest.approx(moves[0]["expected"] - m["expected"], abs=0.01)
    assert "best" in lines[0] and "less" in lines[1]
    assert "Places: the places where a tile fits are lettered a, b, c" in out
    assert "round's final score difference" in out


async def test_the_games_own_choice_is_not_advice_and_the_coachs_is_said(home: Path) -> None:
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        screen = await at_a_choice(app, pilot)
        assert screen.hint().split(" · ")[0].endswith("(first that fits)")
        assert "(first that fits)" in screen_text(app)
        await pilot.press("h")
        await idle(pilot, lambda: any(n.message.startswith("Best: ")
                                      for n in app._notifications))
        note = next(n for n in app._notifications if n.message.startswith("Best: "))
        best = note.message.splitlines()[0].removeprefix("Best: ")
        assert screen.hint().split(" · ")[0] == f"⏎ play {best} (the coach's move)"
        fits = sorted(screen.sel.playable())
        if len(fits) > 1:  # another tile, chosen by the player: no word about who chose
            await pilot.press(str(next(i for i in fits if i != screen.sel.tile_index) + 1))
            assert "(" not in screen.hint().split(" · ")[0]


def coach_notes(app: Any) -> list[Any]:
    return [n for n in app._notifications if n.title == "Coach"]


async def test_the_coachs_notice_goes_with_the_next_move(home: Path) -> None:
    state = triominos_with_places()
    app = make_app(seed=2)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        session: Session = session_with(state, "triominos")
        app._show_game(session)
        await idle(pilot, lambda: isinstance(app.screen, GameScreen)
                   and app.screen.session.is_human_turn())
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await pilot.press("h")
        await idle(pilot, lambda: any(n.message.startswith("Best: ") for n in coach_notes(app)))
        await pilot.pause()
        notes = coach_notes(app)
        assert len(notes) == 1  # "the coach is thinking" gave way to the answer
        shown = {h.id for h in app.screen.query("ToastHolder")}
        assert holder_id(notes[0]) in shown
        moves = len(session.state.history)
        await pilot.press("enter")
        await idle(pilot, lambda: len(session.state.history) > moves)
        await pilot.pause()
        assert coach_notes(app) == []
        assert holder_id(notes[0]) not in {h.id for h in app.screen.query("ToastHolder")}
        assert "Best:" not in screen_text(app)


async def test_the_review_names_moves_with_the_tables_letters_and_says_what_they_gave_up(
        home: Path) -> None:
    state = played("triominos", 4, 400)
    start = rules.new_round("triominos", seed=4)
    judged = coach.review_round(start, state.history, (0,), 40, None)
    lost = max(judged, key=lambda j: j.loss)
    assert lost.loss >= 0.5
    rnd = round_record(state, 1)
    rnd["review"] = [j.to_json() for j in judged]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        review = ReviewScreen("triominos", None, rnd, ["You", "Computer"], 0)
        await app.push_screen(review)
        await pilot.pause()
        review.pos = lost.index
        review.show()
        await pilot.pause()
        text = screen_text(app)
        before = review.states[lost.index]
        name = coach.Namer(before)
        move = rules.move_from_json("triominos", lost.played)
        assert f"You: {name(move)}" in text and f"Best: {name(lost.best)}" in text
        side = review.side_text(before, move, lost).plain
        assert f"The move played: {coach.behind_text(lost.loss)}" in side
        assert "expected" not in text
        # the letters on the board are those the side panel names
        cv = review.query_one(BoardView).canvas()
        legal = before.legal_moves()
        best = rules.move_from_json("triominos", lost.best)
        letter = places.triomino_place(best, legal, places.opening(before.history)).letter
        assert best.cell is not None and cv.get(*label_spot(*best.cell))[0] == (letter or " ")
        margin = coach.margin_of("triominos", state.points, 0)
        assert coach.result_text(margin) in " ".join(text.split())


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_games_own_choice_is_said_within_the_hint_line(
        lang: str, language: None) -> None:
    """A Spider double on an arm has the most to say (its place, c, m): the words on who
    chose stay, the last keys (the footer has them) give way before the line runs out."""
    from rich.cells import cell_len

    from tests.ui.helpers import spider_state
    from tests.ui.test_play import open_game
    from tui_domino.ui.app import DominoApp
    from tui_domino.ui.screens.game_hint import HINT_ROOM
    from tui_domino.ui.storage import Settings

    state = spider_state([[3, 3], [5, 5], [0, 2], [2, 4]], 1, {"N": [[1, 3]], "E": [[1, 5]]})
    app = DominoApp(settings=Settings(computer_delay=0.0, language=lang), seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_game(app, pilot, session_with(state, "spider"))
        assert screen.sel.current_tile() == (3, 3) and screen.sel.chosen_by == "first"
        hint = screen.hint()
        said = _("{play} (first that fits)").format(play=_(
            "⏎ play {tile} on the {arm} arm").format(tile="3-3", arm=_("North")))
        assert hint.startswith(said) and cell_len(hint) <= 80 - HINT_ROOM
        assert said in screen_text(app)
        await pilot.press("3")  # the player's own choice: nothing said of it, every key
        assert screen.hint() == " · ".join([
            _("⏎ play {tile} on the {arm} arm").format(tile="3-3", arm=_("North")),
            _("c close"), _("m +double")])
