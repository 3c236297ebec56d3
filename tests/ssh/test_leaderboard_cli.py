"""``tui-domino serve --leaderboard VARIANT [--json] [--data DIR]`` prints the leaderboard from
the server's database without starting the server."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tui_domino import env
from tui_domino.community.accounts import Member, sign_in
from tui_domino.community.db import db_path, open_store
from tui_domino.ssh.cli import main

ROOT = Path(__file__).resolve().parents[2]
DAY = 86_400.0


def populate(folder: Path) -> None:
    """ann and bob settled and active, cid still provisional, in classic."""
    now = time.time()  # (the command reads the real clock)
    with open_store(db_path(folder)) as store:
        for name, rating, rd, games in (("ann", 1720.4, 60.0, 40), ("bob", 1810.6, 80.0, 125),
                                        ("cid", 1950.0, 150.0, 5)):
            member = sign_in(store, name, f"SHA256:{name}")
            assert isinstance(member, Member)
            store.db.execute("INSERT INTO ratings VALUES (?, 'classic', ?, ?, 0.09, ?, ?, 0, 0,"
                             " ?)", (member.account.id, rating, rd, games, games, now - DAY))


def test_the_leaderboard_as_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    populate(tmp_path)
    assert main(["serve", "--leaderboard", "classic", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Leaderboard: classic" and lines[2].split() == [
        "Rank", "Name", "Rating", "RD", "Games"]
    assert [line.split()[:3] for line in lines[3:]] == [["1", "bob", "1811"],
                                                        ["2", "ann", "1720"]]
    assert [line.split()[4] for line in lines[3:]] == ["125", "40"]


def test_the_leaderboard_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    populate(tmp_path)
    assert main(["serve", "--leaderboard", "classic", "--json", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    data = json.loads(out)
    assert data["variant"] == "classic" and data["at"].endswith("+00:00")
    assert [(p["rank"], p["name"], p["rating"], p["games"]) for p in data["players"]] == [
        (1, "bob", 1810.6, 125), (2, "ann", 1720.4, 40)]
    assert 80 < data["players"][0]["rd"] < 81  # grown for the day away
    assert main(["serve", "--leaderboard", "spider", "--json", "--data", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == []


def test_the_data_directory_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(env.HOME, str(tmp_path))
    populate(tmp_path)
    assert main(["serve", "--leaderboard", "classic"]) == 0
    assert "bob" in capsys.readouterr().out


def test_no_database_is_an_error_and_none_is_made(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "nothing-here"
    assert main(["serve", "--leaderboard", "classic", "--data", str(folder)]) == 1
    assert "no accounts database at" in capsys.readouterr().err
    assert not folder.exists()


def test_json_goes_with_the_leaderboard(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--json"]) == 2
    assert "--leaderboard" in capsys.readouterr().err


def test_an_unknown_variant_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--leaderboard", "chess"])
    assert exit_.value.code == 2 and "chess" in capsys.readouterr().err


def test_the_command_prints_and_exits_without_starting_the_server(tmp_path: Path) -> None:
    populate(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "tui_domino.cli", "serve", "--port", "0", "--leaderboard",
         "classic", "--json", "--data", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["players"][0]["name"] == "bob"
    assert not (tmp_path / "ssh_host_ed25519_key").exists()


def test_the_server_keeps_its_files_in_the_data_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui_domino.files import data_dir
    from tui_domino.ssh import server

    monkeypatch.setenv(env.HOME, str(tmp_path / "elsewhere"))  # (restored afterwards)
    seen: dict[str, Any] = {}

    async def serve_forever(game_server: Any, announce: Any, doors: Any = ()) -> None:
        seen["data"] = data_dir()

    monkeypatch.setattr(server, "GameServer", lambda **kw: object())
    monkeypatch.setattr(server, "serve_forever", serve_forever)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert main(["serve", "--port", "0", "--data", str(tmp_path / "data")]) == 0
    finally:  # serve sets up its logging (a log file in the data directory): undone
        for handler in root.handlers:
            if handler not in handlers:
                handler.close()
        root.handlers[:], root.level = handlers, level
    assert seen["data"] == tmp_path / "data"
