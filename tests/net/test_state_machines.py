"""The duel core's state machines, each on its own: one deal's lifecycle, the match's, the
sequencing of the frames and the deadlines (allowed transitions, refused ones)."""

from __future__ import annotations

import pytest

from tests.net.duel import pair, run
from tui_domino.net import messages as m
from tui_domino.net.core import DuelCore
from tui_domino.net.deadlines import AWAY, CLAIM_GRACE, REFUSED_TO_REVEAL, Deadlines, Lapse
from tui_domino.net.lifecycle import ACCEPTS, Lifecycle, LifecycleError, Phase, Step
from tui_domino.net.match_state import (
    MATCH_TRANSITIONS,
    MatchError,
    MatchLifecycle,
    MatchPhase,
    MatchStep,
)
from tui_domino.net.sequencing import Link, Tokens

# -- one deal -------------------------------------------------------------------------------


def _life(*steps: Step) -> Lifecycle:
    life = Lifecycle()
    for s in steps:
        life.step(s)
    return life


@pytest.mark.parametrize(("steps", "state"), [
    ((Step.DEALT,), Phase.CALLING),
    ((Step.DEALT_LEADER,), Phase.PLAY),
    ((Step.DEALT, Step.OPENED, Step.PASSED), Phase.CLAIM_PENDING),
    ((Step.DEALT, Step.OPENED, Step.PASSED, Step.ANSWERED), Phase.PLAY),
    ((Step.DEALT, Step.ROUND_END), Phase.REVEALING),  # a void deal
    ((Step.DEALT_LEADER, Step.PASSED, Step.ROUND_END), Phase.REVEALING),  # a block
    ((Step.DEALT_LEADER, Step.ROUND_END, Step.RULED), Phase.VERIFIED),
    ((Step.DISPUTE,), Phase.DISPUTED),
    ((Step.DEALT_LEADER, Step.PASSED, Step.DISPUTE, Step.RULED), Phase.VERIFIED),
    ((Step.DEALT_LEADER, Step.MATCH_END), Phase.ENDED),
])
def test_a_deal_moves_on_by_its_table(steps, state):
    assert _life(*steps).state is state


@pytest.mark.parametrize(("steps", "refused"), [
    ((), Step.OPENED),  # no call-down before the hands are open
    ((), Step.RULED),  # nothing to rule on while dealing
    ((Step.DEALT_LEADER,), Step.ANSWERED),  # no pass to answer
    ((Step.DEALT_LEADER, Step.PASSED), Step.PASSED),  # one claim at a time
    ((Step.DEALT_LEADER, Step.ROUND_END), Step.DISPUTE),  # over: a reveal, not a dispute
    ((Step.DEALT_LEADER, Step.ROUND_END, Step.RULED), Step.ROUND_END),
    ((Step.MATCH_END,), Step.DEALT),
])
def test_a_deal_refuses_a_step_its_table_lacks(steps, refused):
    life = _life(*steps)
    before = life.state
    with pytest.raises(LifecycleError):
        life.step(refused)
    assert life.state is before


def test_a_deal_ends_with_the_match_from_any_state_once():
    for phase in Phase:
        life = Lifecycle()
        life.state = phase
        life.end()
        life.end()
        assert life.state is Phase.ENDED and life.over and not life.accepts("move")


def test_each_state_of_a_deal_takes_its_own_frames():
    assert _life().accepts("shuffle") and not _life().accepts("move")
    assert _life(Step.DEALT).accepts("call")
    assert _life(Step.DEALT_LEADER, Step.PASSED).accepts("block")
    assert not _life(Step.DEALT_LEADER).accepts("block")
    assert ACCEPTS[Phase.REVEALING] == {"reveal"} and not ACCEPTS[Phase.VERIFIED]


# -- the match ------------------------------------------------------------------------------


def test_a_match_begins_then_ends():
    life = MatchLifecycle()
    assert life.state is MatchPhase.GREETING and not life.started and not life.finished
    life.step(MatchStep.BEGIN)
    assert life.state is MatchPhase.PLAYING and life.started and not life.finished
    life.finish()
    assert life.state is MatchPhase.OVER and life.started and life.finished
    life.finish()  # once over, it stays over
    assert life.state is MatchPhase.OVER


def test_a_match_given_up_before_it_began_is_closed_not_over():
    life = MatchLifecycle()
    life.finish()
    assert life.state is MatchPhase.CLOSED and life.finished and not life.started


@pytest.mark.parametrize("state", [MatchPhase.PLAYING, MatchPhase.OVER, MatchPhase.CLOSED])
def test_a_match_begins_only_once(state):
    life = MatchLifecycle()
    life.state = state
    with pytest.raises(MatchError):
        life.step(MatchStep.BEGIN)
    assert life.state is state


@pytest.mark.parametrize("state", [MatchPhase.OVER, MatchPhase.CLOSED])
def test_a_finished_match_has_no_step_left(state):
    assert not [k for k in MATCH_TRANSITIONS if k[0] is state]
    life = MatchLifecycle()
    life.state = state
    for step in MatchStep:
        with pytest.raises(MatchError):
            life.step(step)


def test_a_finished_match_does_not_start_again():
    match = DuelCore("host", "Ann", b"s" * 32).match
    match.finished = False  # not finished: nothing to undo
    match.finished = True
    assert match.life.state is MatchPhase.CLOSED
    with pytest.raises(MatchError):
        match.finished = False


# -- sequencing -----------------------------------------------------------------------------


def _frame(seq: int, ack: int = 0) -> m.Chat:
    return m.Chat(seq=seq, ack=ack, text="hi")


def test_frames_are_numbered_kept_until_acknowledged_and_sent_again_on_resume():
    link = Link()
    link.send(_frame(0))  # no connection: kept, not written
    assert link.next_seq == 2 and [s for s, _ in link.unacked] == [1] and not link.outgoing()
    link.made()
    link.send(_frame(0))  # connected, but not yet to the peer
    assert not link.outgoing()
    link.authed = True
    link.send(_frame(0))
    assert len(link.outgoing()) == 1
    link.resend(1)  # the peer had the first one
    assert [s for s, _ in link.unacked] == [2, 3] and len(link.outgoing()) == 2
    link.acked(99)  # acknowledges frames never sent: ignored
    assert [s for s, _ in link.unacked] == [2, 3]
    link.lost()
    assert not link.up and not link.outgoing()


def test_only_frames_after_the_last_one_are_taken():
    link = Link()
    assert link.take(_frame(1))
    assert not link.take(_frame(1))  # a duplicate
    assert link.take(_frame(3))  # past a chat line kept out of the log (or never sent)
    assert not link.take(_frame(2)) and link.received == 3


def test_control_frames_go_out_on_any_connection_and_are_not_kept():
    link = Link()
    link.send_ctl(m.Ping(ack=0))
    assert not link.outgoing()
    link.made()
    link.send_ctl(m.Ping(ack=0))
    assert len(link.outgoing()) == 1 and not link.unacked and link.next_seq == 1


def test_the_hosts_tokens_come_from_its_seed():
    a, b = Tokens.for_host(b"a" * 32), Tokens.for_host(b"a" * 32)
    assert a == b and len({a.match_id, a.token, a.peer_token}) == 3
    assert Tokens.for_host(b"b" * 32).token != a.token


# -- deadlines ------------------------------------------------------------------------------


def test_the_resume_window_is_the_time_away_over_the_whole_match():
    d = Deadlines()
    d.resume_window = 10.0
    assert d.tick(0.0, False, None, None, 0) is None
    assert d.tick(6.0, False, None, None, 0) is None
    assert d.tick(6.0, True, None, None, 0) is None  # back: 6 s away so far
    assert d.tick(50.0, True, None, None, 0) is None
    assert d.tick(51.0, False, None, None, 0) is None  # away since 50, when last seen
    assert d.away(53.0) == 9.0
    assert d.tick(53.9, False, None, None, 0) is None
    assert d.tick(54.0, False, None, None, 0) == Lapse(1, AWAY)  # 10 s in all


def test_the_reveal_deadline_counts_connected_time_only():
    cores = pair("classic", 100, seed=12)
    run(cores, seed=12, tap=lambda i, line: None if i == 0 and b'"t":"reveal"' in line
        else line)
    r = cores[1].match.rnd
    assert r is not None and r.my_reveal_sent and r.peer_reveal is None
    d = Deadlines()
    d.reveal_timeout = 5.0
    assert d.tick(0.0, True, r, None, 1) is None
    assert d.tick(4.0, True, r, None, 1) is None
    assert d.tick(100.0, False, r, None, 1) is None  # away: paused
    assert d.tick(100.5, True, r, None, 1) is None
    assert d.tick(101.5 + CLAIM_GRACE - 0.1, True, r, None, 1) is None  # (his grace)
    assert d.tick(101.5 + CLAIM_GRACE, True, r, None, 1) == Lapse(0, REFUSED_TO_REVEAL)
