"""The command line without a terminal: a clear message, never a screen waiting for ever."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("args", [[], ["play", "--variant", "classic", "--opponent", "hard"]])
def test_the_game_without_a_terminal_says_so_and_stops(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "TUI_DOMINO_HOME": str(tmp_path)}
    # input at its end, as a closed terminal or `< /dev/null` gives: the screen used to wait
    # for keys for ever, spinning a core
    done = subprocess.run([sys.executable, "-m", "tui_domino", *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "needs a terminal, and standard input is not one" in done.stderr
    assert "\x1b[" not in done.stderr + done.stdout  # no screen was drawn
    assert not any(tmp_path.iterdir())  # nothing written: no match started


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_a_game_whose_terminal_goes_away_leaves_and_keeps_the_match(tmp_path: Path) -> None:
    """The terminal closes while the game ignores its hang-up signal (started under `nohup`
    or a shell that traps it): the input then reads as ended for ever. The game leaves
    within seconds, its computer worker with it, and the match is kept."""
    import pty
    import select
    import signal
    import threading
    import time

    env = {**os.environ, "TUI_DOMINO_HOME": str(tmp_path), "TUI_DOMINO_DELAY": "0",
           "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    master, slave = pty.openpty()
    game = subprocess.Popen(
        [sys.executable, "-m", "tui_domino", "play", "--variant", "classic",
         "--opponent", "hard", "--seed", "3"],
        stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    os.close(slave)
    shown = bytearray()
    reading = threading.Event()
    reading.set()

    def read() -> None:  # what the game draws, so that its writes never wait on a full pty
        # Never blocked in read() when the terminal closes: a read under way keeps the pty's
        # master open past os.close, and the game's side would not hang up until it returned.
        with contextlib.suppress(OSError):
            while reading.is_set():
                if select.select([master], [], [], 0.05)[0]:
                    if not (chunk := os.read(master, 65536)):
                        return
                    shown.extend(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 30
        while b"Your turn" not in shown and time.monotonic() < deadline:
            time.sleep(0.05)
        assert b"Your turn" in shown, "the game never drew its table"
        assert saved_moves(tmp_path) == 1  # the computer led its double
        os.write(master, b"\r")  # a move, saved at once; the computer answers in a worker
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
                saved_moves(tmp_path) >= 2 and len(helpers := children(game.pid)) >= 2):
            time.sleep(0.05)
        assert saved_moves(tmp_path) >= 2, "the move was never saved"
        assert len(helpers) >= 2, "the computer's worker never started"  # and the tracker
        reading.clear()
        reader.join()
        os.close(master)  # the terminal goes; no SIGHUP reaches the game
        assert game.wait(timeout=30) == 1
        deadline = time.monotonic() + 10
        while (left := [pid for pid in helpers if alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not left, "a worker process was left behind"
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
    assert saved_moves(tmp_path) >= 2, "the move was kept"


def saved_moves(home: Path) -> int:
    """How many moves of the round the saved match holds (0 when there is none yet)."""
    path = home / "current-match.json"
    if not path.exists():  # (written whole under another name, then renamed)
        return 0
    return len(json.loads(path.read_text())["match"]["round"]["history"])


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    with contextlib.suppress(OSError):
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


@pytest.mark.parametrize(("args", "told"), [
    (["serve", "--port", "70000"], "a port is a number from 0 to 65535, not '70000'"),
    (["host", "127.0.0.1:7777", "--heartbeat", "-1"], "a number of seconds above 0, not '-1'"),
    (["join", "127.0.0.1:7777", "--heartbeat", "0"], "a number of seconds above 0, not '0'"),
    (["host", "7777", "--resume-window", "nan"], "a number of seconds above 0, not 'nan'"),
    (["bench", "--seconds", "-1"], "a number of seconds above 0, not '-1'"),
])
def test_numbers_out_of_range_on_the_command_line_are_told_plainly(
        args: list[str], told: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A port out of range was an OverflowError's traceback; a heartbeat of 0 or less was
    taken, and the connection then timed out at once, over and over."""
    from tui_domino.cli import build_parser

    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(args)
    assert stop.value.code == 2
    assert told in capsys.readouterr().err


@pytest.mark.parametrize(("saved", "first_line"), [
    ('{"language": "bg"}', "Класическо домино, домино „Паяк“ и Триомино в терминала."),
    ('{"language": 5}', "Classic dominoes, Domino Spider and Triominos in the terminal."),
])
def test_the_command_line_speaks_the_language_saved_in_the_settings(
        tmp_path: Path, saved: str, first_line: str) -> None:
    (tmp_path / "settings.json").write_text(saved, encoding="utf-8")
    env = {**os.environ, "TUI_DOMINO_HOME": str(tmp_path), "LANG": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "tui_domino", "--help"], capture_output=True,
                          text=True, timeout=60, env=env)
    assert done.returncode == 0 and first_line in done.stdout
    # a file that cannot be read is left where it is: the game says why when it starts
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
