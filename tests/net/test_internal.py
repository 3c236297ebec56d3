"""A failure of this program's own is never blamed on the peer: it ends the match as an
internal error (nobody wins, nobody is accused, the peer is told, the log is kept), while
what the peer sent that is wrong is charged to him where it is parsed."""

from __future__ import annotations

import hashlib

import pytest

from tests.net.duel import pair, run, verdicts
from tui_domino import rules
from tui_domino.net import events as ev
from tui_domino.net import journal as jr
from tui_domino.net import messages as m
from tui_domino.net.context import canon, movej
from tui_domino.net.core import DuelCore, MatchSettings
from tui_domino.rules.moves import classic_place


def _boom(*args, **kwargs):
    raise KeyError("a bug of ours")


def _mid_match(seed: int = 3):
    cores = pair("classic", 100, seed=seed)
    run(cores, seed=seed,
        stop=lambda: cores[0].match.rnd is not None and len(cores[0].match.rnd.log) > 2)
    return cores


# Where the core's parts take the peer's frames (net/play.py, net/dealing.py, net/reveal.py).
PARTS = {"_on_move": ("moves", "on_move"), "_on_keys": ("dealing", "on_keys"),
         "_verify": ("reveal", "verify"), "_check_proofs": ("moves", "check_proofs"),
         "_on_reveal": ("reveal", "on_reveal")}


@pytest.mark.parametrize("where", ["_on_move", "_on_keys", "_verify", "_check_proofs",
                                   "_on_reveal"])
def test_an_internal_error_is_reported_as_internal_not_as_the_peers_fault(monkeypatch, where):
    cores = _mid_match()
    host, join = cores
    part, method = PARTS[where]
    monkeypatch.setattr(getattr(join.table, part), method, _boom)
    if where in ("_verify", "_on_reveal"):
        # something that reaches that code
        host.table.reveal.send_reveal(host.match.rnd, dispute=True)
    seen = run(cores, seed=3, max_steps=400)
    codes = [e.code for e in seen[1] if isinstance(e, ev.ProtocolError)]
    assert "internal" in codes and "bad_frame" not in codes, codes
    [v] = verdicts(seen[1])
    assert v.kind == "error" and "KeyError" in v.reason and "nobody is to blame" in v.reason
    assert join.match.result["winner"] is None and not join.match.result["verified"]
    assert join.match.internal is not None and join.finished
    # The peer is told, and to him it is the joiner's program stopping: the joiner leaves.
    # (Where the joiner's keys went out before the failure, the host's own groundless
    # dispute has already cost him the match.)
    told = [e for e in seen[0] if isinstance(e, ev.ProtocolError) and e.from_peer]
    assert [e.code for e in told] == ["internal"]
    [theirs] = verdicts(seen[0])
    assert (theirs.kind, theirs.player) == ("forfeit", 0 if where == "_verify" else 1)


def test_an_internal_error_in_a_local_action_is_internal_too(monkeypatch):
    cores = _mid_match()
    host, join = cores
    run(cores, seed=3, stop=lambda: join.my_turn())
    monkeypatch.setattr(join.table.moves, "after_move", _boom)
    monkeypatch.setattr(join.table.moves, "play", _boom)
    join.play(join.legal_moves()[0])  # does not raise: the match ends as an internal error
    assert join.match.internal is not None and join.match.verdict.kind == "error"


def test_an_internal_error_keeps_the_match_log(tmp_path, monkeypatch):
    path = tmp_path / "join.jsonl"
    cores = [DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 100)),
             DuelCore("join", "Bob", b"b" * 32, journal=jr.Journal(path, fsync=False))]
    for c in cores:
        c.connection_made()
    run(cores, seed=1,
        stop=lambda: cores[0].match.rnd is not None and len(cores[0].match.rnd.log) > 2)
    monkeypatch.setattr(cores[1].table.moves, "on_move", _boom)
    run(cores, seed=1, max_steps=50)
    assert cores[1].match.internal is not None
    again = jr.replay(jr.load(path))  # the bug is gone on replay: the log's entry ends it
    assert again.match.internal is not None and again.finished
    assert jr.resume(path, fsync=False) is None
    assert not path.exists() and len(list(tmp_path.glob("join.internal-*.jsonl"))) == 1


def _peer_move(cheat: DuelCore, mv: rules.Move) -> None:
    r = cheat.match.rnd
    entry = {"k": "move", "p": cheat.me, "m": mv.to_json()}
    cheat.link.send(m.MoveF(round=r.round, deal=r.deal, n=len(r.log), move=movej(mv), proofs=[],
                        chain=hashlib.sha256(r.chain + canon(entry)).hexdigest()))


def test_a_pass_while_tiles_may_be_drawn_is_a_cheat_and_changes_nothing_before():
    """It used to be logged first and then refused as a bad frame by the engine's error,
    leaving the two logs apart."""
    for seed in range(30):
        cores = pair("classic", 100, seed=seed)
        host, join = cores
        run(cores, seed=seed, stop=lambda h=host: h.match.rnd is not None and h.my_turn()
            and bool(h.match.rnd.log) and h.match.rnd.know.view()["bazaar_size"] > 2)
        if host.my_turn() and host.match.rnd.know.view()["bazaar_size"] > 2:
            break
    before = len(join.match.rnd.log)
    _peer_move(host, rules.PASS)
    seen = run(cores, seed=seed, max_steps=20)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("cheat", 0) and "could still draw" in v.reason
    assert len(join.match.rnd.log) == before
    assert not [e for e in seen[1] if isinstance(e, ev.ProtocolError) and e.code == "internal"]


def test_an_illegal_placement_is_refused_and_the_match_goes_on():
    cores = _mid_match(seed=5)
    host, join = cores
    run(cores, seed=5, stop=lambda: host.my_turn())
    r = host.match.rnd
    d = r.know._json()
    line = d["line"]
    ends = {line[0][0], line[-1][1]}
    mine = [t for p, t in r.my_tiles.items() if p not in r.used]
    misfit = next((t for t in mine if not set(t) & ends), None)
    assert misfit is not None, "the fixed deal leaves a tile in hand that fits nowhere"
    pos = next(p for p, t in r.my_tiles.items() if t == misfit and p not in r.used)
    mv = classic_place(misfit, "left")
    entry = {"k": "move", "p": 0, "m": mv.to_json()}
    host.link.send(m.MoveF(round=r.round, deal=r.deal, n=len(r.log), move=movej(mv),
                       proofs=[m.Proof(pos=pos, key=r.secrets.keys[pos].hex())],
                       chain=hashlib.sha256(r.chain + canon(entry)).hexdigest()))
    view = join.view()
    for line in host.outgoing():
        join.receive(line.rstrip(b"\n"))
    seen = join.events()
    codes = [e.code for e in seen if isinstance(e, ev.ProtocolError)]
    assert codes == ["bad_frame"] and not verdicts(seen)
    assert join.view() == view  # nothing of it was taken
