"""The console host and the headless seat print what the peer chose (his name, his chat,
the reason he leaves) without letting it act on the terminal: no escape, no control
character reaches the output, and the headless JSON keeps the text exact."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

from tests.hostile import CHAT, hidden_characters
from tests.net.processes import PY, free_port, process_env
from tui_domino.net import messages as m

NAME = "[/x]\\ \x1b[2J\x1b]0;pwned\x07Eve\u202e"
REASON = "gg \x1b[31mred\x9b2J"


def hostile_joiner(port: int) -> None:
    """Joins the host on ``port`` by hand: a hostile name, every hostile chat line, then
    leaves with a hostile reason and reads until the host hangs up."""
    for _ in range(100):  # the host may take a moment to listen
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            break
        except OSError:
            time.sleep(0.1)
    else:
        raise AssertionError("the host never listened")
    with sock, sock.makefile("rb") as reader:
        sock.sendall(m.encode(m.Hello(proto=m.PROTOCOL, name=NAME)))
        while json.loads(reader.readline()).get("t") != "welcome":
            pass
        frames: list[m.Frame] = [m.Chat(text=line) for line in CHAT]
        frames.append(m.Leave(reason=REASON))
        for seq, frame in enumerate(frames, 1):
            assert isinstance(frame, m.Game)
            frame.seq, frame.ack = seq, 0
            sock.sendall(m.encode(frame))
        while reader.readline():
            pass


def host_against_hostile_joiner(tmp_path: Path, stdin: int, *flags: str) -> tuple[bytes, bytes]:
    """What a host with a random bot (and ``flags``) writes, to its output and its errors,
    through a match against ``hostile_joiner``."""
    port = free_port()
    host = subprocess.Popen(
        [*PY, "host", f"127.0.0.1:{port}", "--bot", "random", *flags, "--seed", "3", "--open"],
        env=process_env(tmp_path), stdin=stdin, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE)
    try:
        hostile_joiner(port)
        return host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()


def test_the_console_host_prints_the_peers_words_without_their_control(
        tmp_path: Path) -> None:
    out, err = host_against_hostile_joiner(tmp_path, subprocess.PIPE)
    text = out.decode()
    assert not hidden_characters(text.replace("\n", "")), text
    assert not hidden_characters(err.decode().replace("\n", ""))
    shown = "[/x]\\ \\x1b[2J\\x1b]0;pwned\\x07Eve\\u202e"
    assert f"<{shown}> boom [/x] end" in text
    assert "\\x1b[2J\\x1b]0;pwned\\x07 cleared" in text and "c1 \\x9b31m red" in text
    assert "gg \\x1b[31mred\\x9b2J" in text  # the reason he gave for leaving


def test_the_headless_host_keeps_the_peers_name_exact_in_its_json(tmp_path: Path) -> None:
    out, err = host_against_hostile_joiner(tmp_path, subprocess.DEVNULL, "--headless")
    for stream in (out, err):
        assert not hidden_characters(stream.decode().replace("\n", ""))
    result = json.loads(out.decode().strip().splitlines()[-1])
    assert result["names"] == ["player", NAME] or result["names"][1] == NAME
    assert result["winner"] == 0
