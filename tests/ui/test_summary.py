"""The round summary's rows for the end of a round: short, and true to the points."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import make_app, settle
from tests.ui.helpers import screen_lines
from tui_domino.i18n import ngettext
from tui_domino.ui.app import DominoApp
from tui_domino.ui.screens.game import GameScreen
from tui_domino.ui.screens.summary import RoundSummary
from tui_domino.ui.screenshots import session_round_over
from tui_domino.ui.session import Session

# (variant, how the round ended, a seed of session_round_over that ends it so)
ENDS = [
    ("classic", "domino", 2),
    ("classic", "blocked", 0),
    ("spider", "domino", 0),
    ("spider", "domino", 2),  # the loser holds a lone 0-0
    ("spider", "blocked", 37),
    ("triominos", "domino", 0),
    ("triominos", "blocked", 1),
]


def pips(session: Session) -> list[int]:
    hands = session.state.to_json()["hands"]
    return [sum(sum(t) for t in hand) for hand in hands]


async def a_round_summary(app: DominoApp, pilot: Pilot[None]) -> RoundSummary:
    """The summary of a classic round just over, shown (seed 11)."""
    await app.push_screen(GameScreen(session_round_over("classic", 11)))
    await settle(pilot)
    assert isinstance(app.screen, RoundSummary)
    return app.screen


@pytest.mark.parametrize(("variant", "end", "seed"), ENDS)
def test_the_rows_of_the_rounds_end_give_the_pips_that_made_the_points(
        variant: str, end: str, seed: int) -> None:
    session = session_round_over(variant, seed)
    state = session.state
    assert state.end_reason == end and state.winner is not None
    w, other = state.winner, 1 - state.winner
    left = pips(session)
    rows = {what: points for what, points, _ in session.round_lines()}
    ending = [what for what in rows if what.startswith(("going out", "blocked", "fish", "hands"))]
    assert ending
    for what in ending:
        assert len(what) <= 36  # the summary's first column: one line each
        assert not re.search(r"\d-\d", what) or "0-0" in what  # no tiles: they are listed above
    if variant == "classic" and end == "domino":
        assert rows[f"going out ({left[other]} pips left)"] == [left[other] if p == w else 0
                                                               for p in (0, 1)]
    elif variant == "classic":
        assert rows[f"blocked round ({left[other]} - {left[w]} pips)"][w] == left[other] - left[w]
    elif variant == "spider" and end == "domino" and state.to_json()["hands"][other] == [[0, 0]]:
        assert rows["going out (a lone 0-0: 25)"][other] == 25
    elif variant == "spider" and end == "domino":
        assert rows[f"going out ({left[other]} pips left)"][other] == left[other]
    elif variant == "spider":
        assert rows[f"fish ({left[other]} pips in hand)"][other] == left[other]
    elif end == "domino":
        (label,) = ending
        bonus, rest = map(int, re.fullmatch(r"going out \((\d+) \+ (\d+) left in hand\)",
                                            label).groups())
        assert rest == left[other] and rows[label][w] == bonus + rest
    else:
        assert rows[f"hands left ({left[other]} - {left[w]})"][w] == left[other] - left[w]


async def test_the_summary_shows_each_row_on_one_line_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await a_round_summary(app, pilot)
        lines = screen_lines(app)
        row = next(line for line in lines if "going out" in line)
        assert re.search(r"going out \(21 pips left\)\s+–\s+\+21", row)


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
async def test_a_long_hand_left_keeps_its_count_and_worth_on_one_line(language: str) -> None:
    """A hand of 10 tiles left: its count and worth are read together (they wrapped as
    "… 10" / "tiles, 63 pips")."""
    from tui_domino import i18n
    from tui_domino.ui.storage import Settings

    session = session_round_over("classic", 21)
    assert max(len(h) for h in session.state.hands) == 10
    app = DominoApp(settings=Settings(computer_delay=0.0, language=language), seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session))
        await settle(pilot)
        assert isinstance(app.screen, RoundSummary)
        shown = "\n".join(screen_lines(app))
        count = ngettext("{n} tile", "{n} tiles", 10).format(n=10)
        assert i18n.current() == language
        assert re.search(re.escape(count) + r", \d+ \w+", shown), shown


def test_names_and_counts_agree_with_their_words() -> None:
    from tui_domino.ui.session import agree, count

    assert agree("You", "wins", "win") == "You win" and agree("Ann", "wins", "win") == "Ann wins"
    assert [count(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    assert count(1, "pip") == "1 pip" and count(21, "pip") == "21 pips"


async def test_the_match_over_screen_says_you_win_not_you_wins() -> None:
    from tui_domino import ai
    from tui_domino.ui.screens.match_over import MatchOverScreen
    from tui_domino.ui.session import Seat

    for seed in range(20):
        session = Session.new("classic", [Seat("You"), Seat("Computer", "computer", "greedy")],
                              target=50, seed=seed, autosave=False)
        while True:
            state = session.state
            while not state.is_over:
                p = state.to_move
                assert p is not None
                state.apply(ai.PLAYERS["greedy"](state.view(p), session.ai_rng(), None))
            if session.match.is_over:
                break
            session.next_round()
        if session.match.winner == 0:
            break
    assert session.match.winner == 0
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(MatchOverScreen(session))
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        assert "You win the match!" in text and "You wins" not in text


async def test_esc_on_the_summary_shows_the_final_table_and_enter_brings_it_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        session = session_round_over("classic", 2)
        kept = session.state.hands[1]
        game = GameScreen(session)
        await app.push_screen(game)
        await settle(pilot)
        assert isinstance(app.screen, RoundSummary)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game and session.match.round_no == 1  # not the next round
        hint = game.hint()
        assert hint.startswith("The final table · Computer kept ")
        assert (" ".join("-".join(map(str, t)) for t in kept) or "nothing") in hint
        assert "The final table" in "\n".join(screen_lines(app))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundSummary)
        await pilot.press("enter")
        await settle(pilot)
        assert session.match.round_no == 2 and not isinstance(app.screen, RoundSummary)


def test_spiders_charged_points_read_as_a_cost_not_a_gain() -> None:
    from tui_domino.ui.screens.summary import summary_table

    session = session_round_over("spider", 0)
    cells = [str(c) for col in summary_table(session).columns for c in col._cells]
    assert any(c.strip().isdigit() and int(c) > 0 for c in cells)  # the points charged
    assert not any(c.startswith("+") for c in cells)
    classic = [str(c) for col in summary_table(session_round_over("classic", 2)).columns
               for c in col._cells]
    assert any(c.startswith("+") for c in classic)  # classic's points are won


async def test_a_long_hand_left_wraps_under_its_tiles_not_under_the_names() -> None:
    """A hand of 10 tiles left runs past the box: its last tiles go on a line of their own,
    under its first tiles (they wrapped to the box's edge, under the names)."""
    session = session_round_over("classic", 21)
    loser = max((0, 1), key=lambda p: len(session.state.hands[p]))
    tiles = ["-".join(map(str, t)) for t in session.state.hands[loser]]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(GameScreen(session))
        await settle(pilot)
        lines = screen_lines(app)
        first = next(i for i, line in enumerate(lines) if tiles[0] in line)
        rest = lines[first + 1]
        assert tiles[-1] in rest and tiles[0] not in rest
        assert rest.index(tiles[-1].split()[0]) >= lines[first].index(tiles[0]), rest
        assert not re.match(r"\s*│ ?\d-\d", rest), rest  # not at the box's edge


@pytest.mark.parametrize(("variant", "seed", "words"), [
    ("classic", 6, "You played the last tile and won the round."),
    ("classic", 7, "The round is blocked: you won it."),
    ("triominos", 0, "You played the last tile and won the round."),
    ("classic", 5, "Computer played the last tile and won the round."),
])
def test_the_summary_says_you_won_to_the_player_himself(variant: str, seed: int,
                                                         words: str) -> None:
    """Not "…the winner is You": a sentence of its own, the verb agreeing with "you"."""
    from tui_domino.ui.screens.summary import round_end_words

    assert round_end_words(session_round_over(variant, seed)) == words


@pytest.mark.parametrize(("variant", "seed", "context", "message"), [
    ("triominos", 2, "triominos", "{name} played the last tile and won the round."),
    ("spider", 37, "spider", "The round is blocked: {name} won it."),
])
def test_a_game_with_a_word_of_its_own_has_a_sentence_of_its_own(
        monkeypatch: pytest.MonkeyPatch, variant: str, seed: int, context: str,
        message: str) -> None:
    """The sentence that ends the round has a message of its own where a language has a
    word of its own: Russian says костяшка of a triomino (not the dominoes' кость),
    Bulgarian риба of Spider's blocked round (not блокиране)."""
    from tui_domino.ui.screens import summary

    asked: list[tuple[str, str]] = []

    def pgettext(context: str, message: str) -> str:
        asked.append((context, message))
        return message

    monkeypatch.setattr(summary, "pgettext", pgettext)
    session = session_round_over(variant, seed)
    session.seats[0].name = "Ann"  # not "You"
    said = summary.round_end_words(session)
    winner = session.seats[session.state.winner or 0].name
    assert said == message.format(name=winner)
    assert asked == [(context, message)]


def test_the_logs_move_that_blocks_the_round_says_so_in_the_games_word() -> None:
    """Spider's is a fish; and the move scores its player nothing when the other wins it
    (it read "You drew 0-3 +0 · blocked")."""
    from tui_domino.ui.session import describe_record

    for variant, seed, end in [("spider", 37, "You: 1-3 E · fish"),
                               ("classic", 0, "You drew 0-3 · blocked")]:
        session = session_round_over(variant, seed)
        assert session.state.end_reason == "blocked"
        names = [seat.name for seat in session.seats]
        line = describe_record(variant, names.__getitem__, session.state.history[-1], 0)
        assert line == end, line


async def test_the_summarys_footer_says_its_own_keys_not_the_tables() -> None:
    """Over the summary the footer said "d Draw p Pass" (the table's, beneath it), none of
    which did anything; it says Esc shows the table and v reviews the round."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await a_round_summary(app, pilot)
        footer = screen_lines(app)[-1]
        assert "esc The table" in footer and "v Review" in footer, footer
        assert "Draw" not in footer and "Pass" not in footer, footer


async def test_back_from_the_review_enter_goes_on_not_back_into_the_review(
        home: Path) -> None:  # (the round's review is written to the history)
    """The review's button had the focus when the review closed: ⏎ opened it again."""
    from textual.widgets import Button

    from tui_domino.ui.screens.review import ReviewScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        summary = await a_round_summary(app, pilot)
        summary.query_one("#review", Button).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is summary
        assert app.focused is summary.query_one("#next", Button)


async def test_the_arrows_move_between_the_summarys_buttons() -> None:
    """← and → move between a box's buttons, as Tab does (they did nothing)."""
    from textual.widgets import Button

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        summary = await a_round_summary(app, pilot)
        assert app.focused is summary.query_one("#next", Button)
        await pilot.press("right")
        assert app.focused is summary.query_one("#review", Button)
        await pilot.press("left")
        assert app.focused is summary.query_one("#next", Button)
