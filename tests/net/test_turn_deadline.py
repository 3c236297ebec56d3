"""Stalling cannot save a losing player: a connected side that does not take its next step
(a move, a draw's keys, a stage of the deal, a call) within the turn deadline forfeits the
match. Chat does not stop the count, progress restarts it, time away is the resume
window's. The core's clock is driven by hand."""

from __future__ import annotations

import pytest

from tests.net.duel import deliver, pair, run, verdicts
from tui_domino.net import messages as m
from tui_domino.net.deadlines import CLAIM_GRACE


def _hosts_turn(seed: int = 5):
    cores = pair("classic", 100, seed=seed)
    run(cores, seed=seed, stop=lambda: cores[0].my_turn())
    host, join = cores
    assert host.my_turn() and not join.my_turn() and join.owes() == 0 == host.owes()
    return host, join


def _ping(core) -> None:  # the staller answers every heartbeat
    core.receive(m.encode(m.Ping(ack=core.link.next_seq - 1)).rstrip(b"\n"))


def test_a_connected_player_who_does_not_move_forfeits_at_the_turn_deadline():
    host, join = _hosts_turn()
    join.deadlines.turn_timeout = 600.0
    for t in range(0, 603, 1):  # the deadline, and the grace the staller has to declare it
        join.tick(1000.0 + t)
        _ping(join)
        assert not join.finished
    join.tick(1600.0 + CLAIM_GRACE)
    [v] = verdicts(join.events())
    assert (v.kind, v.player) == ("forfeit", 0)
    assert "took more than 10 minutes over one move" in v.reason
    assert join.match.result["winner"] == 1
    told = [m.decode(line.rstrip(b"\n")) for line in join.outgoing()]
    assert any(isinstance(f, m.VerdictF) and (f.kind, f.player) == ("timeout", 0)
               for f in told)


def test_chat_does_not_stop_the_turn_count_but_a_move_restarts_it():
    host, join = _hosts_turn()
    for c in (host, join):
        c.deadlines.turn_timeout = 60.0
        c.tick(0.0)
    for t in range(1, 50):
        host.chat(f"thinking {t}")  # words are no move
        deliver([host, join], rounds=20, collect=False)
        join.tick(float(t))
        host.tick(float(t))
    assert not join.finished and host.turn_left() is not None and host.turn_left() <= 11
    legal = host.legal_moves()
    host.play(legal[0])  # at 49 s: in time
    deliver([host, join], rounds=20, collect=False)
    assert not join.finished and not host.finished
    join.tick(50.0)
    join.tick(100.0)  # the host's next step is at most 50 s old: no forfeit
    assert not join.finished


def test_time_away_is_the_resume_windows_not_the_turn_deadlines():
    host, join = _hosts_turn()
    join.deadlines.turn_timeout = 60.0
    join.deadlines.resume_window = 900.0
    join.tick(0.0)
    join.tick(50.0)
    join.connection_lost()
    join.tick(51.0)
    join.tick(800.0)  # away for 749 s: within the window
    assert not join.finished
    join.connection_made()
    join.receive(m.encode(m.Resumed(token=join.tokens.peer_token, ack=0)).rstrip(b"\n"))
    join.tick(801.0)
    join.tick(809.0 + CLAIM_GRACE)  # 58 s connected in all, and the grace
    assert not join.finished
    join.tick(811.5 + CLAIM_GRACE)
    assert join.finished and join.match.verdict.player == 0


def _both(host, join, t: float) -> None:
    for c in (host, join):
        c.tick(t)
    deliver([host, join], rounds=20, collect=False)


def _one_verdict(host, join) -> tuple[int, str]:
    """Both sides' verdicts, which must be one: (the loser, the words)."""
    [vh] = verdicts(host.events())
    [vj] = verdicts(join.events())
    assert (vh.kind, vh.player) == (vj.kind, vj.player) == ("forfeit", vh.player)
    assert host.match.result["winner"] == join.match.result["winner"] == 1 - vh.player
    return vh.player, vh.reason


def test_the_side_that_runs_out_of_time_declares_it_and_both_screens_agree():
    host, join = _hosts_turn()
    for c in (host, join):
        c.deadlines.turn_timeout = 15.0
    t = 0.0
    while not (host.finished and join.finished) and t < 30:
        _both(host, join, t)
        t += 0.25
    assert 15.0 <= t <= 15.5  # at the deadline, by the staller's own clock
    loser, reason = _one_verdict(host, join)
    assert loser == 0 and reason == "Ann took more than 15 seconds over one move"


def test_a_staller_whose_program_stays_silent_loses_on_both_screens_after_the_grace():
    host, join = _hosts_turn()
    for c in (host, join):
        c.deadlines.turn_timeout = 15.0
    host.tick(0.0)
    t = 0.0
    while not join.finished and t < 30:  # the host's program is frozen: it declares nothing
        join.tick(t)
        t += 0.25
    assert 15.0 + CLAIM_GRACE <= t <= 15.0 + CLAIM_GRACE + 0.5
    host.tick(14.0)  # it wakes, its clock a tick short of the deadline, and hears the claim
    deliver([host, join], rounds=20, collect=False)
    assert host.finished
    loser, _ = _one_verdict(host, join)
    assert loser == 0


def test_a_claim_of_time_the_clock_does_not_bear_out_is_the_claimants_forfeit():
    host, join = _hosts_turn()
    host.tick(0.0)
    host.tick(20.0)  # 20 s of a 10-minute turn
    host.receive(_numbered(join, m.VerdictF(kind="timeout", player=0, reason="Ann is slow")))
    [v] = verdicts(host.events())
    assert (v.kind, v.player) == ("forfeit", 1) and "does not bear out" in v.reason


def test_an_older_programs_timeout_error_is_taken_as_the_verdict_when_borne_out():
    host, join = _hosts_turn()
    host.deadlines.turn_timeout = 60.0
    host.tick(0.0)
    host.tick(58.0)  # within the tolerance of the deadline
    host.receive(m.encode(m.Error(code="timeout", message="Ann took too long")).rstrip(b"\n"))
    [v] = verdicts(host.events())
    assert (v.kind, v.player) == ("forfeit", 0) and "over one move" in v.reason


def _numbered(sender, frame) -> bytes:
    """``frame`` as ``sender``'s next numbered frame, on the wire."""
    sender.seat.send(frame)
    [line] = sender.outgoing()
    return line.rstrip(b"\n")


def _logged_pair(path):
    """Ann hosting, her match logged at ``path``, on her move; Bob joined."""
    from tui_domino.net import journal as jr
    from tui_domino.net.core import DuelCore, MatchSettings

    host = DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 100),
                    journal=jr.Journal(path, fsync=False))
    join = DuelCore("join", "Bob", b"b" * 32)
    for c in (host, join):
        c.connection_made()
    run([host, join], seed=3, stop=lambda: host.my_turn())
    return host, join


def test_a_judged_claim_replays_from_the_match_log_as_it_was_judged(tmp_path):
    from tui_domino.net import journal as jr

    path = tmp_path / "host.jsonl"
    host, join = _logged_pair(path)
    host.deadlines.turn_timeout = 60.0
    host.tick(0.0)
    host.tick(57.0)  # its clock bears the claim out, though it has not declared yet
    host.receive(_numbered(join, m.VerdictF(kind="timeout", player=0, reason="Ann: time")))
    assert host.finished and host.match.verdict.player == 0
    again = jr.replay(jr.load(path))  # (a replay has no clock: the judgement is logged)
    assert again.finished and again.match.verdict == host.match.verdict


def test_the_resume_window_ends_in_one_verdict_when_the_absent_side_comes_back():
    """The resume window, fired on the side that stayed while the other was away: the one
    who was away, back, is sent the verdict again and takes it (his clock saw the absence
    as long)."""
    host, join = _hosts_turn()
    host.deadlines.resume_window = join.deadlines.resume_window = 20.0
    for c in (host, join):
        c.tick(0.0)
        c.connection_lost()
    for t in range(1, 20):  # both see the link down; the host's count runs out first
        host.tick(float(t))
        join.tick(float(t) - 0.5)
    host.tick(20.0)
    assert host.finished and not join.finished
    join.connection_made()  # the joiner resumes, and is sent what he missed
    host.connection_made()
    host.receive(join.outgoing()[0].rstrip(b"\n"))
    deliver([host, join], rounds=20, collect=False)
    loser, reason = _one_verdict(host, join)
    assert loser == 1 and reason == "Bob did not come back"


def _taken_up_on_its_move(path):
    """Ann's process, hosting and on her move, killed and taken up from its log; Bob resumed
    with it."""
    from tui_domino.net import journal as jr

    _host, join = _logged_pair(path)
    join.deadlines.turn_timeout = 60.0
    join.tick(0.0)
    join.tick(40.0)  # 40 s of Ann's move went by before her process was killed
    again = jr.replay(jr.load(path))
    again.deadlines.turn_timeout = 60.0
    join.connection_lost()
    again.connection_made()
    join.connection_made()  # the joiner resumes with the taken-up host
    again.receive(join.outgoing()[0].rstrip(b"\n"))
    deliver([again, join], rounds=5, collect=False)
    assert again.link.up and again.my_turn() and not again.finished
    return again, join


def test_a_side_taken_up_from_its_log_on_its_own_move_takes_the_claim_of_that_move(
        tmp_path):
    """Its process killed on its own move and taken up from the log, a side counts that
    move from its resume: the other's count, longer, is the one that can say when it ran
    out, and the side taken up takes its claim (one verdict)."""
    again, join = _taken_up_on_its_move(tmp_path / "host.jsonl")
    again.deadlines.peer_count = None  # (as from an older peer, who says nothing of it)
    again.tick(41.0)
    again.tick(55.0)
    again.receive(_numbered(join, m.VerdictF(kind="timeout", player=0, reason="Ann: time")))
    assert again.finished and again.match.verdict.player == 0


def test_a_move_begun_after_the_resume_is_counted_whole(tmp_path):
    again, join = _taken_up_on_its_move(tmp_path / "host.jsonl")
    again.tick(0.0)
    again.deadlines.unknown_step = None  # (as for a move begun after the resume)
    again.tick(10.0)
    again.receive(_numbered(join, m.VerdictF(kind="timeout", player=0, reason="Ann: time")))
    assert again.finished and again.match.verdict.player == 1  # too early: refuted


def test_a_side_taken_up_from_its_log_shows_the_time_its_peer_counted_of_the_move(tmp_path):
    """The peer says, as the match resumes, how long the move under way has taken: the side
    taken up shows what is really left of it, and runs out of it with the peer."""
    again, join = _taken_up_on_its_move(tmp_path / "host.jsonl")
    again.tick(100.0)
    assert again.turn_left() == pytest.approx(20.0)  # 60 s a move, 40 s gone before
    again.tick(120.0)
    assert again.finished and again.match.verdict.player == 0  # at the deadline, its own
