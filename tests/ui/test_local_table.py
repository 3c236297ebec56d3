"""The local match as a table without a screen (ui/local_table.py): whole matches of each
variant are played through it alone, no App; what comes next, the hand-over between two
people, stale answers dropped, take-backs and their refusals, the round's record kept once."""

from __future__ import annotations

import asyncio
import random

import pytest

from tui_domino import rules
from tui_domino.ai import worker
from tui_domino.ui import history_db
from tui_domino.ui.local_table import LocalTable, Next, TakeBack
from tui_domino.ui.session import Seat, Session, two_people

TARGETS = {"classic": 60, "spider": 60, "triominos": 120}


def against_computer(variant: str, seed: int, level: str = "easy") -> LocalTable:
    seats = [Seat("You", "human"), Seat("Computer", "computer", level)]
    session = Session.new(variant, seats, target=TARGETS[variant], seed=seed, autosave=False)
    return LocalTable(session, keeps_history=False)


async def play_out(table: LocalTable, rng: random.Random) -> list[Next]:
    """The match to its end as a person would, by asking the table what comes next."""
    seen: list[Next] = []
    for _ in range(5000):
        step = table.next()
        seen.append(step)
        if step is Next.MATCH_OVER:
            return seen
        if step is Next.PLAYER:
            table.play(rng.choice(table.session.state.legal_moves()))
        elif step is Next.COMPUTER:
            assert await table.computer_turn() is not None
        elif step is Next.HAND_OVER:
            table.handed_over()
        elif table.round_over() is False:  # told: the next round (or the match's end)
            if table.session.match.is_over:
                continue
            table.next_round()
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_a_whole_match_against_the_computer_is_played_through_the_table_alone(
        variant: str) -> None:
    table = against_computer(variant, seed=11)
    seen = asyncio.run(play_out(table, random.Random(3)))
    match = table.session.match
    assert match.is_over and match.winner in (0, 1)
    assert max(match.totals) >= match.target
    assert {Next.PLAYER, Next.COMPUTER, Next.ROUND_OVER} <= set(seen)
    assert Next.HAND_OVER not in seen  # one person: nothing to hand over
    assert table.next() is Next.MATCH_OVER


def test_the_searching_computer_moves_through_the_worker_and_in_a_thread_when_it_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard computer searches in the worker process; once the worker cannot run, the
    table keeps the failure to tell and searches in a thread, with the same kind of move."""
    table = against_computer("classic", seed=5, level="hard")
    while table.next() is not Next.COMPUTER:
        table.play(table.session.state.legal_moves()[0])

    async def broken(*args: object, **kwargs: object) -> rules.Move:
        raise OSError("no process for you")

    monkeypatch.setattr(worker, "choose_in_process", broken)
    before = len(table.session.state.history)
    move = asyncio.run(table.computer_turn())
    assert move is not None and len(table.session.state.history) == before + 1
    assert isinstance(table.searcher.failure, OSError) and table.searcher.here


def test_two_people_hand_over_before_each_turn_and_their_hands_stay_hidden_until_then(
        ) -> None:
    session = Session.new("classic", two_people("Ann", "Bob"), target=30, seed=2,
                          autosave=False)
    table = LocalTable(session, keeps_history=False)
    assert table.next() is Next.HAND_OVER and table.hands_hidden
    table.handed_over()
    assert table.next() is Next.PLAYER and not table.hands_hidden
    first = session.state.to_move
    table.play(session.state.legal_moves()[0])
    if not session.state.is_over:
        assert session.state.to_move != first
        assert table.next() is Next.HAND_OVER and table.hands_hidden
        table.hide_hands()  # back to the menu: still hidden
        assert table.hands_hidden


def test_a_computer_move_worked_out_for_an_older_position_is_dropped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's answer comes after the person took his move back: it is not played."""
    table = against_computer("classic", seed=8)
    while table.next() is not Next.COMPUTER or table.session.take_back_index() is None:
        if table.next() is Next.PLAYER:
            table.play(table.session.state.legal_moves()[0])
        else:
            asyncio.run(table.computer_turn())

    async def scenario() -> rules.Move | None:
        gate = asyncio.Event()
        original = table.computer_move

        async def slow(budget_ms: float = 900.0) -> rules.Move:
            move = await original(budget_ms)
            await gate.wait()
            return move

        monkeypatch.setattr(table, "computer_move", slow)
        turn = asyncio.ensure_future(table.computer_turn())
        await asyncio.sleep(0)
        assert table.take_back() is TakeBack.DONE
        gate.set()
        return await turn

    history = list(table.session.state.history)
    assert asyncio.run(scenario()) is None
    assert len(table.session.state.history) < len(history)


def test_take_backs_say_why_they_are_refused() -> None:
    table = against_computer("classic", seed=4)
    assert table.take_back() in (TakeBack.NOTHING, TakeBack.DONE)
    assert table.take_back(allowed=False) is TakeBack.OFF
    people = LocalTable(Session.new("classic", two_people("Ann", "Bob"), seed=4,
                                    autosave=False), keeps_history=False)
    people.handed_over()
    people.play(people.session.state.legal_moves()[0])
    people.play(people.session.state.legal_moves()[0])
    assert people.take_back() is TakeBack.TWO_PEOPLE


def test_the_end_of_a_round_is_told_once_and_kept_for_the_history_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[int] = []
    monkeypatch.setattr(history_db, "round_over",
                        lambda s: kept.append(s.match.round_no))  # type: ignore[arg-type,return-value]
    session = Session.new("classic", [Seat("You", "human"), Seat("Computer", "computer", "easy")],
                          target=200, seed=9, autosave=False)
    table = LocalTable(session, keeps_history=True)
    rng = random.Random(1)

    async def to_round_end() -> None:
        while table.next() is not Next.ROUND_OVER:
            if table.next() is Next.PLAYER:
                table.play(rng.choice(session.state.legal_moves()))
            else:
                await table.computer_turn()

    asyncio.run(to_round_end())
    assert table.round_over() is True
    assert table.round_over() is False
    assert kept == [1]
    if not session.match.is_over:
        table.next_round()
        assert session.match.round_no == 2 and table.next() is not Next.ROUND_OVER


def test_a_failed_save_leaves_the_move_standing_and_is_told_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = against_computer("classic", seed=6)
    table.session.autosave = True

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tui_domino.ui.storage.write_save", full)
    while table.next() is not Next.PLAYER:
        asyncio.run(table.computer_turn())
    before = len(table.session.state.history)
    table.play(table.session.state.legal_moves()[0])
    assert len(table.session.state.history) == before + 1
    unsaved = table.take_unsaved()
    assert isinstance(unsaved, OSError) and unsaved.errno == 28
    assert table.take_unsaved() is None
