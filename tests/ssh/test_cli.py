"""``tui-domino serve`` as a process: it announces itself and stops cleanly on Ctrl-C."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

from tests.ssh.conftest import Terminal, banner, visit


async def test_ctrl_c_stops_the_server_and_tells_the_visitors(home: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_domino.ssh.cli", "serve", "--port", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    try:
        said = await banner(proc)
        port = int(re.search(r"port (\d+)", said).group(1))  # type: ignore[union-attr]
        assert "SHA256:" in said and "Only this machine" in said
        assert "Warning" not in said, said  # (nothing the owner cannot act on)
        # (serve has accounts: without a key, a guest comes in by keyboard-interactive with
        # nothing asked, as OpenSSH's client does by itself)
        term = await visit(port, "ann", password="", kbdint_auth=True)
        await term.wait_for("Welcome, ann.")
        proc.send_signal(signal.SIGINT)
        await term.wait_for("shutting down", where=Terminal.output)
        await asyncio.wait_for(term.closed.wait(), 15)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_serve_is_registered_with_its_options() -> None:
    import argparse

    from tui_domino.ssh.cli import add_serve, limits_from
    from tui_domino.ssh.limits import Limits

    parser = argparse.ArgumentParser()
    add_serve(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--port", "2300", "--max-visitors", "5",
                              "--idle-minutes", "2", "--per-address", "3",
                              "--login-grace", "12", "--keepalive", "5",
                              "--max-failures", "4", "--lockout-minutes", "30"])
    assert args.port == 2300 and args.host == "127.0.0.1"
    limits = limits_from(args)
    assert limits.max_visitors == 5 and limits.idle_timeout == 120
    assert limits.max_per_address == 3 and limits.login_grace == 12
    assert limits.keepalive_interval == 5
    assert limits.fail_count == 4 and limits.lockout == 30 * 60
    defaults = limits_from(parser.parse_args(["serve"]))
    assert defaults == Limits()



def test_serve_takes_a_move_time_and_a_seats_time() -> None:
    import argparse

    import pytest

    from tui_domino.ssh.cli import add_serve, limits_from

    parser = argparse.ArgumentParser()
    add_serve(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--turn-seconds", "15", "--seat-seconds", "90"])
    assert args.turn_seconds == 15 and limits_from(args).seat_window == 90
    defaults = parser.parse_args(["serve"])
    assert defaults.turn_seconds == 60 and limits_from(defaults).seat_window == 60
    assert limits_from(parser.parse_args(["serve", "--seat-seconds", "-5"])).seat_window == 0
    for bad in ("4", "3601", "ten", "1.5"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", "--turn-seconds", bad])
