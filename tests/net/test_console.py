"""``host``/``join`` without a terminal play on a plain console: a person types a move's
number, and the end of the input leaves the duel. Processes on 127.0.0.1, bounded waits."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import threading
from pathlib import Path

from tests.net.processes import PY, free_port, process_env, start_host


def test_a_person_on_the_console_plays_a_whole_match(tmp_path: Path) -> None:
    env, port = process_env(tmp_path), free_port()
    host, code = start_host([f"127.0.0.1:{port}", "--variant", "classic", "--target", "30",
                             "--bot", "greedy", "--headless", "--quiet", "--seed", "4"], env)
    join = None
    try:
        join = subprocess.Popen([*PY, "join", f"127.0.0.1:{port}", code, "--name", "Bea"],
                                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        first = join.stdout.readline() if join.stdout else ""
        assert join is not None and join.stdin is not None and join.stdout is not None
        timer = threading.Timer(90, join.kill)  # a bound on the whole match
        timer.start()
        lines, moves, said_help = [first], 0, False
        for line in join.stdout:
            lines.append(line)
            if re.match(r"\s+1\. ", line):
                if not said_help:  # a line that is not a move: the console says what to type
                    join.stdin.write("hello\n")
                    said_help = True
                join.stdin.write("1\n")
                join.stdin.flush()
                moves += 1
            if line.startswith("match over:"):
                join.stdin.close()  # the match is over: the end of the input just closes
                break
        timer.cancel()
        assert join.wait(timeout=30) == 0, "".join(lines[-20:])
        hosted = json.loads(host.communicate(timeout=30)[0].strip().splitlines()[-1])
    finally:
        for p in (host, join):
            if p is not None and p.poll() is None:
                p.kill()
    text = "".join(lines)
    assert "type a move's number, /say TEXT or /quit" in text
    assert moves >= 5 and "table: [" in text and "hand:" in text
    result = ast.literal_eval(text.split("match over: ", 1)[1].splitlines()[0])
    assert result["verified"] and hosted["verified"]
    assert result["totals"] == hosted["totals"] and max(result["totals"]) >= 30
    assert "input has ended" not in text
    assert "* verification phrase: " in text  # the console shows the channel's phrase


def test_the_end_of_the_consoles_input_leaves_the_duel(tmp_path: Path) -> None:
    env, port = process_env(tmp_path), free_port()
    host, code = start_host([f"127.0.0.1:{port}", "--variant", "classic", "--bot", "greedy",
                             "--headless", "--quiet"], env)
    try:
        done = subprocess.run([*PY, "join", f"127.0.0.1:{port}", code], env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30)
        assert done.returncode == 1  # nothing was played, nothing verified
        assert "the input has ended: leaving the duel" in done.stdout
    finally:
        host.kill()
        host.wait(timeout=10)
