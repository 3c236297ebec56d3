"""What is rated, judged on the ends of real duels (two duel cores wired in memory): played
to its end, a forfeit, a lost connection, a cheat, an internal error, abandoned before the
moves; a casual match, a guest, one account in both seats."""

from __future__ import annotations

import random

from tests.net.duel import deliver, pair, run
from tui_domino.community.rated import (
    ABANDONED,
    CASUAL,
    CHEAT,
    DISAGREE,
    END,
    ERROR,
    FORFEIT,
    GUEST,
    SAME_ACCOUNT,
    UNFINISHED,
    Decision,
    Moves,
    NotRated,
    Rated,
    agree,
    judge,
)
from tui_domino.net import events as ev
from tui_domino.net import messages as m
from tui_domino.net.core import DuelCore
from tui_domino.net.records import MatchResult

ANN, BOB = 11, 22  # the accounts in seats 0 (the host) and 1


def decisions(cores: list[DuelCore], seen: list[list[ev.Event]], rated: bool = True,
              accounts: tuple[int | None, int | None] = (ANN, BOB)) -> list[Decision]:
    """Each seat's decision on its own result, from the events that seat saw."""
    out = []
    for core, events in zip(cores, seen, strict=True):
        moves = Moves()
        for event in events:
            moves.see(event)
        assert core.match.result is not None
        out.append(judge(core.match.result, rated=rated, accounts=accounts, both_moved=moves.both))
    return out


def play_until(cores: list[DuelCore], seed: int, enough: int) -> list[list[ev.Event]]:
    """Delivers frames and plays random moves until both seats have seen ``enough`` moves
    (0: until the first move is due); returns each seat's events."""
    rng = random.Random(seed)
    seen: list[list[ev.Event]] = [[], []]
    for _i in range(10_000):
        more = deliver(cores, rounds=1)
        seen = [seen[0] + more[0], seen[1] + more[1]]
        counted = [sum(isinstance(e, ev.Moved) for e in events) for events in seen]
        mover = next((c for c in cores if c.my_turn()), None)
        if min(counted) >= enough and (enough or mover is not None):
            return seen
        if mover is not None:
            mover.play(rng.choice(mover.legal_moves()))
    raise AssertionError("the match did not get there")


def test_a_match_played_to_its_end_is_rated_for_its_winner() -> None:
    cores = pair("classic", 50, seed=3)
    seen = run(cores, seed=3)
    winner = cores[0].match.result["winner"]  # type: ignore[index]
    assert winner in (0, 1) and cores[0].match.result["verified"]  # type: ignore[index]
    both = decisions(cores, seen)
    want = Rated("classic", (ANN, BOB), 1.0 if winner == 0 else 0.0, END)
    assert both == [want, want] and agree(both) == want


def test_a_match_played_to_its_end_without_a_winner_is_a_draw() -> None:
    result: MatchResult = {"variant": "spider", "totals": [60, 60], "winner": None,
                           "rounds": 4, "verified": True, "seat": 0, "names": ["a", "b"]}
    assert judge(result, rated=True, accounts=(ANN, BOB), both_moved=True) == Rated(
        "spider", (ANN, BOB), 0.5, END)


def test_leaving_after_both_moved_is_a_loss_for_the_leaver() -> None:
    for leaver in (0, 1):
        cores = pair("classic", 100, seed=5)
        seen = play_until(cores, 5, 2)
        cores[leaver].leave("left")
        more = deliver(cores)
        both = decisions(cores, [seen[0] + more[0], seen[1] + more[1]])
        want = Rated("classic", (ANN, BOB), 0.0 if leaver == 0 else 1.0, FORFEIT)
        assert both == [want, want] and agree(both) == want


def test_a_lost_connection_is_a_loss_for_the_one_who_went() -> None:
    """Bob's game ends with his connection, leaving no result; Ann's, when the resume
    window runs out, has him forfeit."""
    cores = pair("classic", 100, seed=6)
    seen = play_until(cores, 6, 2)
    cores[0].connection_lost()
    cores[0].peer_gone()
    seen[0] += cores[0].events()
    [alone] = decisions(cores[:1], seen[:1])
    assert alone == Rated("classic", (ANN, BOB), 1.0, FORFEIT)
    assert agree([alone]) == alone


def test_leaving_before_each_side_has_moved_is_not_rated() -> None:
    cores = pair("classic", 100, seed=7)
    seen = play_until(cores, 7, 0)  # dealt, the first move due
    leader = next(i for i, c in enumerate(cores) if c.my_turn())
    cores[1 - leader].leave("left")  # the one who waits for the first move
    more = deliver(cores)
    both = decisions(cores, [seen[0] + more[0], seen[1] + more[1]])
    assert both == [NotRated(ABANDONED)] * 2 and agree(both) == NotRated(ABANDONED)
    assert all(c.match.result["verdict"]["kind"] == "forfeit" for c in cores)  # type: ignore[index]


def test_leaving_after_only_the_first_move_is_not_rated() -> None:
    cores = pair("classic", 100, seed=8)
    seen = play_until(cores, 8, 1)  # the leader has moved
    waiting = next(i for i, c in enumerate(cores) if c.my_turn())
    cores[waiting].leave("left")  # before his first move
    more = deliver(cores)
    both = decisions(cores, [seen[0] + more[0], seen[1] + more[1]])
    assert both == [NotRated(ABANDONED)] * 2


def test_a_cheat_is_a_loss_for_the_cheater_whatever_his_program_says() -> None:
    """Ann stacks her shuffle (before anybody moved): Bob's side proves the cheat; Ann's
    takes the accusation for Bob leaving. The cheat stands."""
    cores = pair("classic", 100, seed=2)

    def tap(i: int, line: bytes) -> bytes | None:
        f = m.decode(line.rstrip(b"\n"))
        if i == 0 and isinstance(f, m.Shuffle) and f.stage == 1:
            f.deck[1] = f.deck[0]
            return m.encode(f)
        return line

    seen = run(cores, seed=2, tap=tap)
    ann_says, bob_says = decisions(cores, seen)
    cheat = Rated("classic", (ANN, BOB), 0.0, CHEAT)
    assert bob_says == cheat and ann_says != cheat
    assert agree([ann_says, bob_says]) == cheat == agree([bob_says, ann_says])


def test_an_internal_error_is_not_rated() -> None:
    """Ann's program fails mid-match: her side says so; Bob's, told of it, has her forfeit.
    The match is not rated."""
    cores = pair("classic", 100, seed=9)
    seen = play_until(cores, 9, 2)
    cores[0].stop_internal("ValueError", "core.py:1")
    more = deliver(cores)
    ann_says, bob_says = decisions(cores, [seen[0] + more[0], seen[1] + more[1]])
    assert ann_says == NotRated(ERROR)
    assert bob_says == Rated("classic", (ANN, BOB), 0.0, FORFEIT)
    assert agree([ann_says, bob_says]) == NotRated(ERROR) == agree([bob_says, ann_says])


def test_casual_guests_and_one_account_in_both_seats_are_not_rated() -> None:
    cores = pair("classic", 50, seed=3)
    seen = run(cores, seed=3)
    assert decisions(cores, seen, rated=False) == [NotRated(CASUAL)] * 2
    assert decisions(cores, seen, accounts=(ANN, None)) == [NotRated(GUEST)] * 2
    assert decisions(cores, seen, accounts=(None, BOB)) == [NotRated(GUEST)] * 2
    assert decisions(cores, seen, accounts=(ANN, ANN)) == [NotRated(SAME_ACCOUNT)] * 2


def test_a_match_that_never_began_is_not_rated() -> None:
    result: MatchResult = {"variant": None, "totals": [0, 0], "winner": None, "rounds": 0,
                           "verified": False, "seat": 0, "names": ["a", "b"]}
    assert judge(result, rated=True, accounts=(ANN, BOB), both_moved=False) == NotRated(
        UNFINISHED)
    assert agree([]) == NotRated(UNFINISHED)


def test_seats_that_disagree_leave_the_match_unrated() -> None:
    a = Rated("classic", (ANN, BOB), 1.0, FORFEIT)
    b = Rated("classic", (ANN, BOB), 0.0, FORFEIT)
    assert agree([a, b]) == NotRated(DISAGREE)
    assert agree([a, NotRated(ABANDONED)]) == NotRated(DISAGREE)
    two_cheats = [Rated("classic", (ANN, BOB), 1.0, CHEAT), Rated("classic", (ANN, BOB), 0.0,
                                                                  CHEAT)]
    assert agree(two_cheats) == NotRated(DISAGREE)
