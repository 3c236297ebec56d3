"""No action a player has costs him less than playing the round out: a dispute the keys do
not bear out loses the disputer the match, an accusation without the accuser's keys (or
refuted by them) loses the accuser the match, at any point of a deal."""

from __future__ import annotations

import pytest

from tests.net.duel import bot_move, deliver, pair, run, verdicts
from tui_domino.net import events as ev
from tui_domino.net import messages as m
from tui_domino.net.mental_poker import L, mul


def _reach(variant: str, when, seeds: int = 40) -> list:
    """Two cores of the first seed whose match reaches ``when(host, join)``."""
    for seed in range(seeds):
        cores = pair(variant, 100, seed=seed)

        def ready(host=cores[0], join=cores[1]) -> bool:
            return (host.match.rnd is not None and join.match.rnd is not None and not host.finished
                    and bool(when(host, join)))

        run(cores, seed=seed, stop=ready)
        if ready():
            return cores
    raise AssertionError("no deal of the fixed seeds reached that point")


def _hands(core) -> int:
    return len(core.match.rnd.know.hand) if core.match.rnd.know is not None else 99


# Where in a deal the dispute comes: (variant, stop condition on (host, join)).
PHASES = {
    "dealing": ("classic", lambda h, j: h.match.rnd.tr.x and not h.match.rnd.tr.w),
    "calling": ("classic",
                lambda h, j: j.match.rnd.know is not None and not j.match.rnd.know.started),
    "play": ("spider", lambda h, j: h.my_turn() and len(h.match.rnd.log) >= 4),
    "about to go out": ("classic", lambda h, j: j.match.rnd.round == 1 and _hands(j) == 1
                        and h.my_turn()),
    "claim pending": ("classic", lambda h, j: h.match.rnd.pending_pass is not None),
}


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_dispute_that_finds_no_cheat_costs_the_disputer_the_match(phase):
    variant, when = PHASES[phase]
    cores = _reach(variant, when)
    host, join = cores
    round_no = host.match.rnd.round
    # the host asks for the keys, with no reason
    host.table.reveal.send_reveal(host.match.rnd, dispute=True)
    seen = deliver(cores)
    for i, c in enumerate(cores):
        assert not [e for e in seen[i] if isinstance(e, ev.RoundOver) and e.round == round_no]
        [v] = verdicts(seen[i])
        assert (v.kind, v.player) == ("forfeit", 0), v
        assert "disputed" in v.reason and "no cheat" in v.reason
        assert c.finished and c.match.result["winner"] == 1 and not c.match.result["verified"]
    assert host.match.result == {**join.match.result, "seat": 0}


def test_a_dispute_crossing_the_last_move_still_costs_the_disputer():
    """The host disputes while the joiner's move that ends the round is on its way: each
    side sees both frames, and both reach the same verdict."""
    def last_tile(host, join) -> bool:
        if not join.my_turn() or _hands(join) != 1 or join.match.rnd.round != 1:
            return False
        return any(mv.kind == "place" for mv in join.legal_moves())

    cores = _reach("classic", last_tile, seeds=60)
    host, join = cores
    host.table.reveal.send_reveal(host.match.rnd, dispute=True)
    going_out = next(mv for mv in join.legal_moves() if mv.kind == "place")
    join.play(going_out)  # crosses the dispute: the joiner's round is over, he reveals
    seen = deliver(cores)
    for i in (0, 1):
        [v] = verdicts(seen[i])
        assert (v.kind, v.player) == ("forfeit", 0), v
        assert cores[i].match.result["winner"] == 1
        assert not [e for e in seen[i] if isinstance(e, ev.RoundOver)]


def test_disputing_every_round_does_not_void_them():
    """Three disputes in one match used to void three rounds, and the match ended
    'verified': the first now ends the match."""
    cores = pair("classic", 100, seed=3)
    host, join = cores
    disputes = 0
    seen: list[list] = [[], []]
    for _ in range(3):
        got = run(cores, seed=3, stop=lambda: host.match.rnd is not None and host.my_turn()
                  and len(host.match.rnd.log) >= 2)
        seen = [s + g for s, g in zip(seen, got, strict=True)]
        if host.finished:
            break
        host.table.reveal.send_reveal(host.match.rnd, dispute=True)
        disputes += 1
        seen = [s + g for s, g in zip(seen, deliver(cores), strict=True)]
    assert disputes == 1 and host.finished and join.finished
    assert not host.match.result["verified"] and host.match.result["winner"] == 1
    assert not [e for e in seen[0] if isinstance(e, ev.RoundOver) and e.points == [0, 0]]


@pytest.mark.parametrize("how", ["bare", "with his keys", "a forfeit", "after the round"])
def test_a_false_accusation_costs_the_accuser_the_match(how):
    cores = pair("classic", 100, seed=5)
    host, join = cores
    if how == "after the round":
        run(cores, seed=5, stop=lambda: bool(host.match.past) and host.my_turn())
    else:
        run(cores, seed=5, stop=lambda: host.my_turn() and bool(host.match.rnd.log[2:]))
    assert not host.finished
    r = host.match.rnd
    if how == "with his keys":
        host.table.reveal.send_reveal(r, dispute=True)
    host.link.send(m.VerdictF(kind="forfeit" if how == "a forfeit" else "cheat", player=1,
                          reason="Bob played a tile he was not dealt"))
    seen = deliver(cores)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("forfeit", 0), v
    assert join.match.result["winner"] == 1 and not join.match.result["verified"]


def test_a_confession_stands():
    """A verdict naming its sender is his own loss."""
    cores = pair("classic", 100, seed=5)
    host, join = cores
    run(cores, seed=5, stop=lambda: host.my_turn() and bool(host.match.rnd.log[2:]))
    host.link.send(m.VerdictF(kind="cheat", player=0, reason="Ann gives up"))
    [v] = verdicts(deliver(cores)[1])
    assert (v.kind, v.player) == ("cheat", 0) and join.match.result["winner"] == 1


@pytest.mark.parametrize("where", ["a hand key", "the third stage"])
def test_a_broken_deck_goes_to_the_reveal_and_the_culprit_is_named(where):
    """An honest side that finds a broken deck (a key that opens no tile) asks for the keys
    instead of accusing on its own: the verification names the one at fault."""
    cores = pair("classic", 100, seed=6)
    host, join = cores
    h = 7  # the hand size of classic
    sent: list[bytes] = []

    def tap(i, line):
        f = m.decode(line.rstrip(b"\n"))
        if i == 0 and where == "a hand key" and isinstance(f, m.KeysF) and len(f.keys) == h:
            f.keys[2] = (12345 % L).to_bytes(32, "little").hex()  # a key that opens no tile
            return m.encode(f)
        if i == 0 and where == "the third stage" and isinstance(f, m.Shuffle) and f.stage == 3:
            # One position of the joiner's hand re-keyed wrongly.
            f.deck[h + 2] = mul((3).to_bytes(32, "little"), bytes.fromhex(f.deck[h + 2])).hex()
            return m.encode(f)
        if i == 1:
            sent.append(line)
        return line

    seen = run(cores, seed=6, tap=tap, max_steps=50)
    [v] = verdicts(seen[1])
    assert (v.kind, v.player) == ("cheat", 0), v
    first = m.decode(next(x for x in sent if b'"t":"reveal"' in x).rstrip(b"\n"))
    assert isinstance(first, m.Reveal) and first.dispute  # the joiner asked for the keys
    assert join.match.result["winner"] == 1


def test_the_verdicts_of_both_sides_agree_on_an_honest_match():
    cores = pair("triominos", 200, seed=9)
    seen = run(cores, seed=9)
    assert not verdicts(seen[0]) and not verdicts(seen[1])
    assert cores[0].match.result["verified"] and cores[1].match.result["verified"]


def test_a_bot_never_disputes():
    """The local API has a dispute, but playing never calls it by itself."""
    import random

    cores = pair("spider", 50, seed=2)
    rng = random.Random(2)
    for _ in range(30):
        for c in cores:
            if c.my_turn():
                c.play(bot_move(c, rng))
        deliver(cores)
    assert not any(r for c in cores for r in (c.match.rnd.disputers if c.match.rnd else ()))
