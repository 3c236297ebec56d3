"""Two sans-IO cores play whole matches of every variant in memory and agree on everything."""

from __future__ import annotations

import pytest

from tests.net.duel import pair, run, verdicts
from tui_domino.net import events as ev
from tui_domino.net import journal as jr
from tui_domino.net import messages as m
from tui_domino.net.core import DuelCore, MatchSettings


@pytest.mark.parametrize(("variant", "target", "level"), [
    ("classic", 50, "random"), ("classic", 100, "greedy"), ("spider", 50, "random"),
    ("spider", 70, "greedy"), ("triominos", 200, "greedy"),
])
def test_a_whole_match_is_played_and_verified(variant, target, level):
    cores = pair(variant, target, seed=7)
    seen = run(cores, seed=7, level=level)
    a, b = (c.match.result for c in cores)
    assert a is not None and b is not None
    assert a["verified"] and b["verified"]
    assert {**a, "seat": 1} == b
    assert a["winner"] in (0, 1)
    assert a["rounds"] >= 1
    assert not verdicts(seen[0]) and not verdicts(seen[1])
    assert not [e for e in seen[0] + seen[1] if isinstance(e, ev.ProtocolError)]
    overs = [[e for e in s if isinstance(e, ev.RoundOver)] for s in seen]
    assert [e.points for e in overs[0]] == [e.points for e in overs[1]]
    assert cores[0].public_digest() == cores[1].public_digest()


def test_spider_redeals_when_no_double_is_dealt():
    # Hands of one tile: most deals leave every double from 1-1 up in the bazaar.
    cores = pair("spider", 50, seed=3, options={"hand_size": 1})
    seen = run(cores, seed=3)
    starts = [e for e in seen[0] if isinstance(e, ev.RoundStarted)]
    assert any(e.deal > 1 for e in starts)
    result = cores[0].match.result
    assert result["verified"] and cores[1].match.result == {**result, "seat": 1}


def test_the_journal_rebuilds_the_core_exactly(tmp_path):
    logs = [jr.Journal(tmp_path / f"{i}.jsonl", fsync=False) for i in range(2)]
    cores = [DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 100),
                      journal=logs[0]),
             DuelCore("join", "Bob", b"b" * 32, journal=logs[1])]
    for c in cores:
        c.connection_made()
    count = {"n": 0}

    def stop() -> bool:  # stop mid-match
        count["n"] += 1
        return count["n"] > 60

    run(cores, seed=11, stop=stop)
    assert not cores[0].finished
    for i, c in enumerate(cores):
        again = jr.replay(jr.load(tmp_path / f"{i}.jsonl"))
        assert again.public_digest() == c.public_digest()
        assert again.link.received == c.link.received and again.link.next_seq == c.link.next_seq
        assert again.link.unacked == c.link.unacked
        again.connection_made()
        assert again.view() == c.view()
        assert again.legal_moves() == c.legal_moves()


def test_frames_stay_small():
    cores = pair("triominos", 200, seed=5)
    sizes = []
    run(cores, seed=5, level="greedy", tap=lambda i, line: sizes.append(len(line)) or line)
    assert max(sizes) < m.MAX_FRAME // 8


def test_addresses_parse():
    import argparse

    import pytest as _pytest

    from tui_domino.net.cli import add_host_join, parse_addr

    assert parse_addr("7777", "0.0.0.0") == ("0.0.0.0", 7777)
    assert parse_addr("127.0.0.1:7777", "0.0.0.0") == ("127.0.0.1", 7777)
    assert parse_addr("[::1]:7777", None) == ("::1", 7777)
    with _pytest.raises(argparse.ArgumentTypeError):
        parse_addr("7777", None)
    parser = argparse.ArgumentParser()
    add_host_join(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["join", "localhost:7777", "--bot", "greedy", "--headless"])
    assert args.net_role == "join" and args.bot == "greedy" and callable(args.net_handler)


def test_a_log_that_cannot_be_replayed_is_kept_aside(tmp_path):
    """A match log torn or edited by hand (an entry of the wrong shape) is not replayed, nor
    deleted: it is moved aside and the error says where; an empty log is no match."""
    path = tmp_path / "host.jsonl"
    cores = [DuelCore("host", "Ann", b"a" * 32, settings=MatchSettings("classic", 100),
                      journal=jr.Journal(path, fsync=False)),
             DuelCore("join", "Bob", b"b" * 32)]
    for c in cores:
        c.connection_made()
    count = {"n": 0}

    def stop() -> bool:
        count["n"] += 1
        return count["n"] > 30

    run(cores, seed=11, stop=stop)
    good = path.read_text()
    assert jr.resume(path, fsync=False) is not None  # as written, it resumes
    lines = good.splitlines()
    frame = next(i for i, line in enumerate(lines) if '"k":"in"' in line)
    broken = [*lines[:frame], '{"k":"in","frame":5}', *lines[frame + 1:]]
    for text in ("\n".join(broken) + "\n", '{"k":"local","a":"play"}\n' + good):
        path.write_text(text)
        with pytest.raises(jr.UnreadableLog, match="kept as"):
            jr.resume(path, fsync=False)
        assert not path.exists()
    kept = sorted(tmp_path.glob("host.unreadable-*.jsonl"))
    assert len(kept) == 2 and {k.read_text() for k in kept} == {
        "\n".join(broken) + "\n", '{"k":"local","a":"play"}\n' + good}
    path.write_text("")
    assert jr.resume(path, fsync=False) is None


def test_a_blocked_round_asks_one_more_pass_and_the_program_plays_it():
    """A round the rules call over (blocked: nobody can move) can still owe one side a pass
    before its end is claimed and its deal checked. The table shows the round over and has
    no key for that pass, so a player's program must play it (``owed_pass``): else both
    sides waited at "checking the deal" until the turn's deadline forfeited one of them."""
    import random
    from collections import deque

    from tests.net.duel import bot_move

    owed = 0
    for seed in (19, 31, 33):  # rounds that end so, with these deliveries
        cores = pair("classic", 1, seed)
        rng = random.Random(seed)
        flight: list[deque[bytes]] = [deque(), deque()]
        for _ in range(100_000):
            for i, c in enumerate(cores):
                flight[1 - i].extend(line.rstrip(b"\n") for line in c.outgoing())
                c.events()
            acts = [("recv", i) for i in (0, 1) if flight[i]]
            acts += [("play", i) for i in (0, 1) if cores[i].my_turn()]
            if not acts:
                break
            kind, i = rng.choice(acts)
            core = cores[i]
            if kind == "recv":
                core.receive(flight[i].popleft())
                continue
            view = core.view()
            if view is not None and view.get("over"):  # the table offers nothing here
                move = core.owed_pass()
                assert move is not None and move.kind == "pass"
                owed += 1
            else:
                assert core.owed_pass() is None
                move = bot_move(core, rng)
            core.play(move)
        assert all(c.finished for c in cores), seed
    assert owed >= 3
