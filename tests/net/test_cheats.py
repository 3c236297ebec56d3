"""Cheating peers are caught: a tile not dealt, a lie about a pass or a draw, a stacked
shuffle, refusing to reveal the keys."""

from __future__ import annotations

import hashlib

import pytest

from tests.net.duel import deliver, pair, run, verdicts
from tui_domino import rules
from tui_domino.net import mental_poker as mp
from tui_domino.net import messages as m
from tui_domino.net.context import canon, movej
from tui_domino.net.knowledge import tiles_of


def stolen_move(cheat, victim):
    """A placement by ``cheat`` of a tile the victim holds, if one fits the board now."""
    r = cheat.match.rnd
    know = r.know
    d = know._json()
    me, opp = know.me, know.opp
    vr = victim.match.rnd
    victim_tiles = [t for p, t in vr.my_tiles.items() if p not in vr.used]
    for t in victim_tiles:
        hands = [list(map(tuple, h)) for h in d["hands"]]
        bazaar = [tuple(x) for x in d["bazaar"]]
        give = hands[me][0]
        hands[me] = sorted([x for x in hands[me] if x != give] + [t])
        if t in hands[opp]:
            hands[opp] = sorted([x for x in hands[opp] if x != t] + [give])
        elif t in bazaar:
            bazaar[bazaar.index(t)] = give
        else:
            continue
        trial = rules.state_from_json({**d, "hands": [[list(x) for x in h] for h in hands],
                                       "bazaar": [list(x) for x in bazaar]})
        for mv in trial.legal_moves():
            if mv.kind == "place" and t in tiles_of(mv) and len(tiles_of(mv)) == 1:
                return mv
    return None


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_a_tile_not_dealt_is_caught(variant):
    cores = pair(variant, 400 if variant == "triominos" else 100, seed=21)
    host, join = cores
    found = {}

    def stop() -> bool:
        if host.my_turn() and host.match.rnd.log and host.match.rnd.pending_pass is None:
            mv = stolen_move(host, join)
            if mv is not None:
                found["mv"] = mv
                return True
        return False

    run(cores, seed=21, stop=stop)
    mv = found["mv"]
    r = host.match.rnd
    pos = next(p for p in r.my_tiles if p not in r.used)  # one of his own positions
    entry = {"k": "move", "p": 0, "m": mv.to_json()}
    frame = m.MoveF(round=r.round, deal=r.deal, n=len(r.log), move=movej(mv),
                    proofs=[m.Proof(pos=pos, key=r.secrets.keys[pos].hex())],
                    chain=hashlib.sha256(r.chain + canon(entry)).hexdigest())
    host.link.send(frame)
    seen = deliver(cores)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("cheat", 0)
    assert "not dealt to him" in v.reason
    # The accusation came with the accuser's keys (a dispute). The forger's own core never
    # recorded the forged move, so by its records the keys show no cheat: an accusation they
    # do not bear out counts as the accuser leaving. (What a cheater's program shows is his
    # affair; the honest side's verdict above is the one that counts.)
    [mine] = verdicts(seen[0])
    assert (mine.kind, mine.player) == ("forfeit", 1)
    assert join.match.result["winner"] == 1  # the honest side wins the match
    assert not join.match.result["verified"]


def test_a_proof_from_the_bazaar_is_caught():
    cores = pair("classic", 100, seed=4)
    host, join = cores
    run(cores, seed=4, stop=lambda: host.my_turn() and bool(host.match.rnd.log))
    r = host.match.rnd
    legal = [mv for mv in host.legal_moves() if mv.kind == "place"]
    assert legal, "the fixed deal gives a placement at this turn"
    mv = legal[0]
    bazaar_pos = 2 * r.h + r.draws
    entry = {"k": "move", "p": 0, "m": mv.to_json()}
    host.link.send(m.MoveF(round=r.round, deal=r.deal, n=len(r.log), move=movej(mv),
                       proofs=[m.Proof(pos=bazaar_pos, key=r.secrets.keys[bazaar_pos].hex())],
                       chain=hashlib.sha256(r.chain + canon(entry)).hexdigest()))
    [v] = verdicts(deliver(cores)[1])
    assert (v.kind, v.player) == ("cheat", 0) and "not his" in v.reason


@pytest.mark.parametrize(("variant", "lie"), [
    ("classic", "pass"), ("spider", "pass"), ("triominos", "pass"),
    ("classic", "draw"), ("spider", "draw"), ("triominos", "draw"),
])
def test_a_lie_about_a_pass_or_a_draw_is_caught(variant, lie):
    cores = pair(variant, 400 if variant == "triominos" else 100, seed=8)
    host, join = cores

    def can_lie() -> bool:
        if not host.my_turn() or not host.match.rnd.log:
            return False
        legal = host.legal_moves()
        if not any(mv.kind == "place" for mv in legal):
            return False
        if lie == "draw":
            from tui_domino.net.play import draw_allowed

            return bool(draw_allowed(host.match.rnd.know))
        return True

    run(cores, seed=8, stop=can_lie)
    assert can_lie()
    r = host.match.rnd
    host.table.moves.play(r, rules.PASS if lie == "pass" else rules.DRAW)
    host.table.reveal.send_reveal(r, dispute=True)  # and asks for the keys at once
    seen = deliver(cores)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("cheat", 0)
    word = {"pass": ("pass", "playable"), "draw": ("drew", "playable")}[lie]
    assert any(w in v.reason for w in word), v.reason


def test_a_false_block_is_caught_by_the_referee():
    """A true pass answered by a block although the blocker still holds a playable tile:
    the referee names the blocker, not the passer."""
    from tui_domino.net.referee import judge

    state = rules.new_round("classic", seed=3)
    deal = {"hands": [[list(t) for t in h] for h in state.hands],
            "bazaar": [list(t) for t in state.bazaar]}
    d = state.to_json()
    opening = (state.to_move, tuple(d["forced"]))
    log: list[dict] = []
    while True:  # the first moves of the deal, to a pass that leaves the other a placement
        assert not state.is_over, "no false block to claim in this deal"
        legal = state.legal_moves()
        passer = state.to_move
        if legal == [rules.PASS]:
            after = rules.state_from_json(state.to_json())
            after.apply(rules.PASS)
            if not after.is_over and any(mv.kind == "place" for mv in after.legal_moves()):
                break
        log.append({"k": "move", "p": passer, "m": legal[0].to_json()})
        state.apply(legal[0])
    blocker = 1 - passer
    log += [{"k": "move", "p": passer, "m": {"kind": "pass"}},  # a true pass
            {"k": "block", "p": blocker}]  # a false block: the blocker can still place
    ruling = judge("classic", state.options, deal, None, opening, log)
    assert ruling.cheater == blocker, ruling
    assert "claimed a blocked round while holding a playable tile" in ruling.reason
    # the same log without the block faults nobody (the pass was true; the round is only
    # unfinished): the verdict above is about the block
    ruling = judge("classic", state.options, deal, None, opening, log[:-1])
    assert ruling.cheater is None and ruling.reason == "the round is not over", ruling


@pytest.mark.parametrize("stage", [1, 2])
def test_a_stacked_shuffle_is_caught(stage):
    cores = pair("classic", 100, seed=2)
    cheat = stage - 1  # the host shuffles at stage 1, the joiner at stage 2

    def tap(i, line):
        f = m.decode(line.rstrip(b"\n"))
        if i == cheat and isinstance(f, m.Shuffle) and f.stage == stage:
            f.deck[1] = f.deck[0]  # one tile twice, another never
            return m.encode(f)
        return line

    seen = run(cores, seed=2, tap=tap)
    [v] = verdicts(seen[1 - cheat])
    assert (v.kind, v.player) == ("cheat", cheat)
    assert "stacked" in v.reason


def test_a_substituted_tile_is_caught_when_the_keys_are_revealed():
    variant = "classic"
    n = 28
    a = mp.DealSecrets.derive(b"a" * 32, "x", n)
    b = mp.DealSecrets.derive(b"b" * 32, "x", n)
    x = mp.stage1(variant, a)
    x[5] = mp.mul(mp.derive_scalar(b"c" * 32, "other"), x[5])  # not a·M(t) any more
    y = mp.stage2(x, b)
    z = mp.stage_rekey(y, a)
    w = mp.stage_rekey(z, b)
    with pytest.raises(mp.ShuffleFault) as caught:
        mp.verify_deal(variant, mp.Transcript(x, y, z, w), a.key, a.keys, b.key, b.keys)
    assert caught.value.player == 0
    # and a joiner who re-keys one position with a wrong key
    w2 = list(mp.stage_rekey(mp.stage_rekey(mp.stage2(mp.stage1(variant, a), b), a), b))
    tr = mp.Transcript(mp.stage1(variant, a), [], [], [])
    tr.y = mp.stage2(tr.x, b)
    tr.z = mp.stage_rekey(tr.y, a)
    w2 = mp.stage_rekey(tr.z, b)
    w2[3] = w2[4]
    tr.w = w2
    with pytest.raises(mp.ShuffleFault) as caught:
        mp.verify_deal(variant, tr, a.key, a.keys, b.key, b.keys)
    assert caught.value.player == 1


def test_refusing_to_reveal_forfeits():
    cores = pair("classic", 100, seed=12)
    host, join = cores

    def tap(i, line):
        return None if i == 0 and b'"t":"reveal"' in line else line

    run(cores, seed=12, tap=tap)
    assert join.match.rnd.over and join.match.rnd.peer_reveal is None and not join.finished
    join.peer_gone()  # the resume window ran out
    [v] = verdicts(join.events())
    assert (v.kind, v.player) == ("forfeit", 0)
    assert "refused to reveal" in v.reason
    assert join.match.result["winner"] == 1 and not join.match.result["verified"]


def test_leaving_instead_of_revealing_forfeits():
    cores = pair("spider", 100, seed=12)
    host, join = cores
    left = {}

    def tap(i, line):
        if i == 0 and b'"t":"reveal"' in line and not left:
            left["x"] = True
            host.match.finished = False
            return m.encode(m.Leave(seq=m.decode(line.rstrip(b"\n")).seq,
                                    ack=host.link.received, reason="bye"))
        return line

    seen = run(cores, seed=12, tap=tap)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("forfeit", 0)
    assert "before revealing" in v.reason
