"""A seat whose process is killed mid-match comes back with the same command and match log,
and the match goes on exactly where it was: both seats finish it, verified, and agree. The
match is played with an invitation code: the resumed connection keys its channel on the
resume secret the log keeps."""

from __future__ import annotations

import json
import signal
import subprocess

from tests.net.processes import PY, free_port, process_env, start_host


def test_killed_joiner_resumes_from_its_log(tmp_path):
    env = process_env(tmp_path)
    port = free_port()
    host, code = start_host(
        [f"127.0.0.1:{port}", "--variant", "classic", "--target", "50",
         "--bot", "greedy", "--headless", "--journal", str(tmp_path / "host.jsonl"),
         "--seed", "1", "--quiet"], env)
    join = [*PY, "join", f"127.0.0.1:{port}", code, "--bot", "random", "--headless",
            "--journal", str(tmp_path / "join.jsonl"), "--seed", "2"]
    try:
        first = None
        for _ in range(50):  # the host may take a moment to listen
            first = subprocess.Popen(join, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
            turns = 0
            assert first.stderr is not None
            for line in first.stderr:
                if "YourTurn" in line:
                    turns += 1
                    if turns == 3:
                        break
            if turns == 3:
                break
            first.wait(timeout=10)
        assert first is not None and first.poll() is None, "the joiner never got three turns"
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        assert first.stdout is not None and first.stdout.read() == ""  # it never finished

        again = subprocess.run(join + ["--quiet"], env=env, capture_output=True, text=True,
                               timeout=90)
        host_out, _ = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
    joined = json.loads(again.stdout.strip().splitlines()[-1])
    hosted = json.loads(host_out.strip().splitlines()[-1])
    assert joined["verified"] is True and hosted["verified"] is True
    assert joined["totals"] == hosted["totals"] and joined["winner"] == hosted["winner"]
    assert max(joined["totals"]) >= 50 and joined["seat"] == 1 and hosted["seat"] == 0
    assert joined["phrase"] == hosted["phrase"]
    # the logs keep the channel's resume secret, never a key of the traffic
    log = (tmp_path / "join.done.jsonl").read_text()
    assert '"k":"channel"' in log and code not in log
