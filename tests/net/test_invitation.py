"""``tui-domino host`` and ``join`` as processes on 127.0.0.1 with the invitation code: a
wrong code is refused in words on both sides and the host goes on waiting; after the
allowed wrong tries the host prints its new code, which then plays. Bounded waits."""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
from pathlib import Path

from tests.net.guessers import guess
from tests.net.processes import PY, free_port, process_env, start_host
from tui_domino.net.channel import CODE_TRIES, Refused


def wrong(code: str) -> str:
    n, even, odd = code.split("-")
    return f"{int(n) % 999 + 1}-{even}-{odd}"


def join(port: int, code: str, env: dict[str, str], *extra: str,
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PY, "join", f"127.0.0.1:{port}", code, "--bot", "random",
                           "--headless", "--quiet", "--journal", "none", *extra],
                          env=env, capture_output=True, text=True, timeout=60)


def test_a_wrong_code_is_refused_on_both_sides_and_the_host_waits_on(tmp_path: Path) -> None:
    env, port = process_env(tmp_path), free_port()
    host, code = start_host([f"127.0.0.1:{port}", "--variant", "classic", "--target", "30",
                             "--bot", "greedy", "--headless", "--journal", "none"], env,
                            stderr=subprocess.PIPE)
    try:
        refused = join(port, wrong(code), env)
        played = join(port, code, env)
        out, err = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
    assert refused.returncode == 1 and refused.stdout == ""
    assert f"127.0.0.1:{port} refused: wrong invitation code" in refused.stderr
    assert "Traceback" not in refused.stderr + err
    assert "somebody tried a wrong invitation code (2 more before it is replaced)" in err
    assert played.returncode == 0, played.stderr
    lines = out.strip().splitlines()
    assert len(lines) == 1 and "code" not in json.loads(lines[0])  # the code was not replaced
    hosted, joined = json.loads(lines[-1]), json.loads(played.stdout)
    assert hosted["verified"] and joined["verified"] and hosted["totals"] == joined["totals"]
    assert hosted["phrase"] == joined["phrase"]


def test_after_the_wrong_tries_the_host_prints_a_new_code(tmp_path: Path) -> None:
    env, port = process_env(tmp_path), free_port()
    host, code = start_host([f"127.0.0.1:{port}", "--variant", "classic", "--target", "30",
                             "--bot", "greedy", "--headless", "--quiet", "--journal", "none"],
                            env)
    assert host.stdout is not None
    try:
        for n in range(CODE_TRIES):  # from as many addresses: one alone cannot kill a code
            told = asyncio.run(guess(port, wrong(code), f"127.0.0.{n + 2}"))
            assert isinstance(told, Refused) and "wrong invitation code" in told.message
        timer = threading.Timer(30, host.kill)  # a bound on the wait for the next line
        timer.start()
        try:
            line = json.loads(host.stdout.readline())
        finally:
            timer.cancel()
        new = line["code"]
        assert new != code and line["join"] == f"tui-domino join 127.0.0.1:{port} {new}"
        old = join(port, code, env)
        assert old.returncode == 1 and "wrong invitation code" in old.stderr
        played = join(port, new, env)
        out, _ = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
    assert played.returncode == 0, played.stderr
    assert json.loads(out.strip().splitlines()[-1])["verified"]


def test_join_asks_for_the_code_and_checks_its_words(tmp_path: Path) -> None:
    env = process_env(tmp_path)
    missing = subprocess.run([*PY, "join", "127.0.0.1:9"], env=env, capture_output=True,
                             text=True, timeout=30)
    assert missing.returncode == 2 and "give the host's invitation code" in missing.stderr
    typo = subprocess.run([*PY, "join", "127.0.0.1:9", "7-clasic-orlando"], env=env,
                          capture_output=True, text=True, timeout=30)
    assert typo.returncode == 2 and "'clasic' is not one of the code's words" in typo.stderr
