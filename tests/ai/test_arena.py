"""A short seeded arena run checks the wiring: the report, its JSON line, reproducibility."""

from __future__ import annotations

import argparse
import json

import pytest

from tui_domino.ai import arena


def run(capsys, *argv: str) -> dict:
    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    assert arena.main(p.parse_args(list(argv))) == 0
    out = capsys.readouterr().out.strip().splitlines()
    return json.loads(out[-1])


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_a_short_arena_reports_in_the_issue_shape(capsys, variant):
    games = 2 if variant == "triominos" else 4
    r = run(capsys, "--variant", variant, "--a", "hard", "--b", "easy", "--games", str(games),
            "--seed", "3", "--iterations", "20", "--json", "--quiet")
    assert set(r) == {"variant", "games", "a", "b", "elo_a_minus_b"}
    assert r["variant"] == variant and r["games"] == games
    for side, level in (("a", "hard"), ("b", "easy")):
        s = r[side]
        assert set(s) == {"level", "win_rate", "ci95", "mean_margin", "move_ms"}
        assert s["level"] == level
        lo, hi = s["ci95"]
        assert 0 <= lo <= s["win_rate"] <= hi <= 1
        assert set(s["move_ms"]) == {"median", "p95"}
    assert r["a"]["win_rate"] + r["b"]["win_rate"] == pytest.approx(1)
    assert r["a"]["mean_margin"] == pytest.approx(-r["b"]["mean_margin"])


def test_an_arena_run_is_reproducible(capsys):
    args = ("--variant", "classic", "--a", "normal", "--b", "random", "--games", "6",
            "--seed", "11", "--json", "--quiet")
    a, b = run(capsys, *args), run(capsys, *args)
    for r in (a, b):
        for side in ("a", "b"):
            r[side].pop("move_ms")
    assert a == b


def test_the_two_games_of_a_deal_share_it_with_seats_swapped(monkeypatch):
    """Games 0 and 1 deal each seat the same hand, A sitting in seat 0 and then in seat 1;
    game 2 plays another deal."""
    first_hand: dict[tuple[str, int], list] = {}  # (level, seat): its hand at its first move

    def spy(level: str):
        play = arena.PLAYERS[level]

        def player(view, rng, budget=None):
            first_hand.setdefault((level, view["player"]), view["hand"])
            return play(view, rng, budget)
        return player

    monkeypatch.setitem(arena.PLAYERS, "spy-a", spy("normal"))
    monkeypatch.setitem(arena.PLAYERS, "spy-b", spy("random"))
    pairing = arena.Pairing("classic", ("spy-a", "spy-b"), 2)
    games = []
    for g in range(3):
        first_hand.clear()
        arena.play_game(pairing, g)
        games.append(dict(first_hand))
    assert set(games[0]) == {("normal", 0), ("random", 1)}  # A in seat 0
    assert set(games[1]) == {("normal", 1), ("random", 0)}  # A in seat 1
    for seat in (0, 1):
        in_game_0 = next(h for (_, p), h in games[0].items() if p == seat)
        in_game_1 = next(h for (_, p), h in games[1].items() if p == seat)
        in_game_2 = next(h for (_, p), h in games[2].items() if p == seat)
        assert in_game_0 == in_game_1 != in_game_2


def test_two_copies_of_a_level_each_win_one_game_of_every_deal(capsys):
    # Two copies of one deterministic level play the two games of a deal alike, seats
    # swapped: each side wins one of them, so the rate is exactly one half and the margins
    # cancel, whatever the deals.
    r = run(capsys, "--variant", "classic", "--a", "normal", "--b", "normal", "--games", "8",
            "--seed", "2", "--json", "--quiet")
    assert r["a"]["win_rate"] == 0.5 == r["b"]["win_rate"]
    assert r["a"]["mean_margin"] == pytest.approx(0)


def test_statistics():
    lo, hi = arena.wilson(60, 100)
    assert 0.5 < lo < 0.6 < hi < 0.7
    assert arena.elo(0.5, 100) == pytest.approx(0)
    assert arena.elo(0.75, 100) == pytest.approx(190.8, abs=0.1)
    assert arena.percentile([1, 2, 3, 4], 0.5) == pytest.approx(2.5)


def test_the_tuning_script_overrides_search_constants_and_refuses_unknown_ones(
    monkeypatch, capsys
):
    from tests.scripts import load_script
    from tui_domino.ai import search

    tuned = load_script("arena_tuned")
    # Registered with monkeypatch so the module's constants come back after the test.
    monkeypatch.setattr(search, "UCB_C", dict(search.UCB_C))
    monkeypatch.setattr(search, "CLASSIC_GREEDY", search.CLASSIC_GREEDY)
    spider_c = search.UCB_C["spider"]
    assert tuned.main(["--set", "UCB_C.classic=1.5", "--set", "CLASSIC_GREEDY=0.95", "--",
                       "--variant", "classic", "--a", "hard", "--b", "random", "--games", "2",
                       "--iterations", "20", "--quiet", "--json"]) == 0
    assert search.UCB_C["classic"] == 1.5 and search.UCB_C["spider"] == spider_c
    assert search.CLASSIC_GREEDY == 0.95
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["games"] == 2
    for bad in ("FOO=1", "UCB_C.chess=1", "UCB_C.classic", "CLASSIC_BLOCK=oops"):
        assert tuned.main(["--set", bad]) == 2
    assert "arena_tuned:" in capsys.readouterr().err
    # other processes would play with the constants of the module, not these
    assert tuned.main(["--set", "UCB_C.classic=1.5", "--", "--variant", "classic", "--a",
                       "hard", "--b", "random", "--jobs", "2"]) == 2
    assert "use --jobs 1" in capsys.readouterr().err


def test_a_match_arena_plays_whole_matches_and_reports_their_rounds(capsys):
    r = run(capsys, "--variant", "classic", "--a", "normal", "--b", "random", "--games", "4",
            "--seed", "5", "--matches", "--target", "30", "--json", "--quiet")
    assert r["target"] == 30
    rounds = r["rounds"]
    assert rounds["played"] >= 4  # at least one round a match
    lo, hi = rounds["ci95"]
    assert 0 <= lo <= rounds["a_win_rate"] <= hi <= 1
    # A match's margin is the difference of its final totals: the winner reached 30.
    assert r["a"]["win_rate"] in (0.0, 0.25, 0.5, 0.75, 1.0)


def test_the_two_games_of_a_match_share_its_deals_with_seats_swapped(capsys):
    r = run(capsys, "--variant", "classic", "--a", "normal", "--b", "normal", "--games", "4",
            "--seed", "2", "--matches", "--target", "50", "--json", "--quiet")
    assert r["a"]["win_rate"] == pytest.approx(0.5)
    assert r["a"]["mean_margin"] == pytest.approx(0)
    assert r["rounds"]["a_win_rate"] == pytest.approx(0.5)


def test_in_a_match_the_players_see_the_banked_totals(monkeypatch):
    seen: list[tuple[int, dict]] = []
    normal = arena.PLAYERS["normal"]

    def spy(view, rng, budget=None):
        seen.append((len(view["history"]), view["match"]))
        return normal(view, rng, budget)

    monkeypatch.setitem(arena.PLAYERS, "spy", spy)
    pairing = arena.Pairing("classic", ("spy", "random"), 9)
    score, margin, rounds = arena.play_match(pairing, 0, target=40)
    assert len(rounds) >= 2 and score in (0.0, 1.0)
    assert (margin > 0) == (score == 1.0)
    totals = [m["totals"] for _, m in seen]
    assert totals[0] == [0, 0] and all(m["target"] == 40 for _, m in seen)
    assert any(t != [0, 0] for t in totals)  # later rounds see what was banked


def test_the_arena_refuses_a_target_without_matches(capsys):
    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    args = p.parse_args(["--variant", "classic", "--a", "normal", "--b", "random",
                         "--target", "50"])
    assert arena.main(args) == 2
    assert "--target needs --matches" in capsys.readouterr().err


@pytest.mark.parametrize(("extra", "told"), [
    (["--budget-ms", "-5"], "--budget-ms must be a number of milliseconds above 0"),
    (["--budget-ms", "nan"], "--budget-ms must be a number of milliseconds above 0"),
    (["--iterations", "0"], "--iterations must be at least 1"),
])
def test_the_arena_refuses_a_budget_that_is_no_budget(capsys, extra, told):
    """A budget of -5 ms was taken (each move then searched as little as it could)."""
    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    args = p.parse_args(["--variant", "classic", "--a", "hard", "--b", "random", *extra])
    assert arena.main(args) == 2
    assert told in capsys.readouterr().err


def test_the_report_splits_a_sides_games_by_who_led():
    # Each deal is played from both chairs, so A leads exactly one game of each deal; two
    # copies of one level win as leader what they lose as follower.
    r = arena.run("classic", "normal", "normal", 40, 4, None)
    led, followed = r["lead"]["led"], r["lead"]["followed"]
    assert led["games"] == followed["games"] == 20
    assert led["a_win_rate"] + followed["a_win_rate"] == pytest.approx(1)
    # The deal fixes the opening seat, so A opens exactly one of the two games of a deal.
    pairing = arena.Pairing("classic", ("normal", "normal"), 4)
    assert sorted(arena.play_game(pairing, g)[2] for g in (0, 1)) == [False, True]


def test_the_interval_of_rounds_in_matches_widens_when_a_match_decides_them_together():
    # Ten clusters of ten trials: the same 60% either spread evenly (6 of 10 in each) or
    # concentrated (all or nothing). Dependence within clusters must widen the interval.
    even = arena.ratio_interval([[10, 6]] * 10)
    lumpy = arena.ratio_interval([[10, 10]] * 6 + [[10, 0]] * 4)
    assert even[0] == pytest.approx(0.6) == even[1]  # no spread between clusters
    assert lumpy[0] < 0.35 and lumpy[1] > 0.85
    assert arena.ratio_interval([]) == (0.0, 1.0)
    lo, hi = arena.ratio_interval([[7, 5], [6, 4], [9, 5], [5, 5], [8, 6]])
    assert lo < 25 / 35 < hi


def test_the_arena_pits_every_strength_the_game_offers(capsys):
    """The game's menu offers ``greedy`` too (the dominoes literature's yardstick)."""
    from tui_domino import ai

    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    for name, _ in ai.MENU:  # every strength of the game's menu is a side the arena takes
        args = p.parse_args(["--variant", "classic", "--a", name, "--b", name])
        assert (args.a, args.b) == (name, name)
    r = run(capsys, "--variant", "classic", "--a", "greedy", "--b", "random", "--games", "4",
            "--seed", "5", "--json", "--quiet")
    assert r["a"]["level"] == "greedy" and r["b"]["level"] == "random"
    assert r["games"] == 4


@pytest.mark.parametrize("extra", [(), ("--matches", "--target", "50")])
def test_games_in_two_processes_give_the_same_results(capsys, extra):
    args = ("--variant", "classic", "--a", "hard", "--b", "random", "--games", "12",
            "--seed", "4", "--iterations", "40", "--json", "--quiet", *extra)
    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    reports = []
    for jobs in ("1", "2"):
        assert arena.main(p.parse_args([*args, "--jobs", jobs])) == 0
        lines = capsys.readouterr().out.strip().splitlines()
        r = json.loads(lines[-1])
        for side in ("a", "b"):
            r[side].pop("move_ms")
        # every move was timed once: the counts of moves with a choice agree too
        counts = [line.split(":")[1].split(",")[0] for line in lines if "with a choice" in line]
        reports.append((r, counts))
    assert reports[0] == reports[1]


def test_jobs_must_be_positive(capsys):
    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    args = p.parse_args(["--variant", "classic", "--a", "easy", "--b", "random", "--jobs", "0"])
    assert arena.main(args) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


def test_the_paired_script_compares_two_runs_deal_by_deal(capsys, tmp_path):
    from tests.scripts import load_script

    paired = load_script("paired")
    argv = ["--variant", "classic", "--b", "random", "--games", "8", "--seed", "9", "--json"]
    outs = {}
    for name, level in (("normal", "normal"), ("again", "normal"), ("easy", "easy")):
        p = argparse.ArgumentParser()
        arena.add_arguments(p)
        assert arena.main(p.parse_args(["--a", level, *argv])) == 0
        outs[name] = tmp_path / f"{name}.out"
        outs[name].write_text(capsys.readouterr().out)
    games = {k: paired.load(v.read_text())[0] for k, v in outs.items()}
    assert len(games["normal"]) == 8 and set(games["normal"].values()) <= {0.0, 0.5, 1.0}

    # the same seeded run twice: no difference, and no error either
    same = paired.paired(games["normal"], games["again"])
    assert same["diff"] == 0 and same["se"] == 0 and same["games"] == 8
    # another player on the same deals: the difference of the two rates
    other = paired.paired(games["normal"], games["easy"])
    assert other["diff"] == pytest.approx(other["a"] - other["b"])
    rates = [sum(games[k].values()) / 8 for k in ("normal", "easy")]
    assert (other["a"], other["b"]) == pytest.approx(rates)
    # the standard error from the per-deal sums of the differences
    sums = [games["normal"][g] - games["easy"][g] + games["normal"][g + 1] - games["easy"][g + 1]
            for g in (1, 3, 5, 7)]
    mean = sum(sums) / 4
    se = (sum((x - mean) ** 2 for x in sums) / 3 * 4) ** 0.5 / 8
    assert other["se"] == pytest.approx(se)

    assert paired.main([str(outs["normal"]), str(outs["easy"])]) == 0
    assert f"difference {other['diff']:+.4f}" in capsys.readouterr().out
    # runs on other deals, too few games in common, a missing file: a message, exit 2
    p = argparse.ArgumentParser()
    arena.add_arguments(p)
    assert arena.main(p.parse_args(["--a", "normal", *argv[:6], "--seed", "10"])) == 0
    seed10 = tmp_path / "seed10.out"
    seed10.write_text(capsys.readouterr().out)
    short = tmp_path / "short.out"
    short.write_text("\n".join(outs["easy"].read_text().splitlines()[:2]))
    for bad in ((seed10, outs["normal"]), (short, outs["normal"]),
                (tmp_path / "missing.out", outs["normal"])):
        assert paired.main([str(x) for x in bad]) == 2
        assert capsys.readouterr().err.startswith("paired: ")
