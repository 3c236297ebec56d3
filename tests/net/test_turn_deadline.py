"""Stalling cannot save a losing player: a connected side that does not take its next step
(a move, a draw's keys, a stage of the deal, a call) within the turn deadline forfeits the
match. Chat does not stop the count, progress restarts it, time away is the resume
window's. The core's clock is driven by hand."""

from __future__ import annotations

from tests.net.duel import deliver, pair, run, verdicts
from tui_domino.net import messages as m


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
    for t in range(0, 600, 5):
        join.tick(1000.0 + t)
        _ping(join)
        assert not join.finished
    join.tick(1600.0)
    [v] = verdicts(join.events())
    assert (v.kind, v.player) == ("forfeit", 0)
    assert "took more than 10 minutes over one move" in v.reason
    assert join.match.result["winner"] == 1
    told = [m.decode(line.rstrip(b"\n")) for line in join.outgoing()]
    assert any(isinstance(f, m.Error) and f.code == "timeout" for f in told)


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
    join.tick(809.0)  # 58 s connected in all
    assert not join.finished
    join.tick(811.5)
    assert join.finished and join.match.verdict.player == 0


def test_the_side_that_owes_the_step_is_never_forfeited_by_its_own_clock():
    host, join = _hosts_turn()
    host.deadlines.turn_timeout = 10.0
    host.tick(0.0)
    host.tick(100.0)
    assert not host.finished and host.turn_left() == 0.0  # its own screen says so

