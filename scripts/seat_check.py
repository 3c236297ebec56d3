"""A seat that survives its connection, and a staller's loss, checked from outside: prints
figures.

    python3 scripts/seat_check.py [--turn-seconds 15]

Starts ``tui-domino serve --turn-seconds N`` (its own process, a fresh data directory,
loopback), then with real asyncssh visitors holding keys:

1. ann and bob meet in the lobby, bob challenges ann, each makes a move; bob's connection
   is closed mid-duel (its socket aborted, as when his client is killed) and he connects
   again with his key a second later: prints how long until his screen shows his table
   ("Your hand") with the same hand, and whether ann's screen ever read a forfeit;
2. then the side to move stops moving: prints how long after the last move each screen
   showed the verdict, what each said, and how the server settled the match (the rows of
   the results table: rated once).

Loopback only; every wait is bounded; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ssh_load import Server  # noqa: E402

from tests.ssh.conftest import Terminal  # noqa: E402
from tests.ssh.playing import key_for  # noqa: E402
from tests.ssh.test_seat import hand, still  # noqa: E402


async def come(port: int, name: str, key: Any) -> Terminal:
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=[key], agent_path=None, password="",
                                  kbdint_auth=True, connect_timeout=60)
    _chan, term = await conn.create_session(lambda: Terminal(80, 24),
                                            term_type="xterm-256color", term_size=(80, 24),
                                            encoding=None)
    term.conn = conn
    return term


async def move(term: Terminal) -> None:
    """The player to move plays (or draws until he plays, or passes)."""
    deadline = time.monotonic() + 60
    while True:
        shown = await still(term, "Your turn")
        key = key_for(shown)
        assert key is not None, shown
        term.press({"Enter": "enter", "Tab": "tab"}.get(key, key))
        await term.wait_until(lambda s, before=shown: s != before)
        if key != "d":
            return
        assert time.monotonic() < deadline


async def check(turn: int) -> None:
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    with tempfile.TemporaryDirectory(prefix="seat-check-") as home:
        server = Server(home, ("--turn-seconds", str(turn)))
        await server.start()
        try:
            ann, bob = await come(server.port, "ann", ann_key), await come(server.port, "bob",
                                                                          bob_key)
            await asyncio.gather(ann.wait_for("bob 1500?"), bob.wait_for("ann 1500?"))
            bob.press("enter")
            await ann.wait_for("bob challenges you")
            ann.press("a")
            await asyncio.gather(ann.wait_for("Your hand"), bob.wait_for("Your hand"))
            first = ann if "Your turn" in await still(ann, "◷") else bob
            second = bob if first is ann else ann
            await move(first)
            await move(second)
            before = hand(await still(bob, "◷"))
            bob.conn.abort()  # his client is killed
            dropped = time.monotonic()
            await asyncio.sleep(1.0)
            bob = await come(server.port, "bob", bob_key)
            shown = await bob.wait_for("Your hand", "◷")
            back = time.monotonic() - dropped
            same = hand(await still(bob, "◷")) == before
            await ann.wait_for("bob is back")
            print(f"1. bob's connection aborted mid-duel, back with his key 1.0 s later: his "
                  f"table shown {back:.1f} s after the drop; the same hand: {same}; "
                  f"'Your hand' on his screen: {'Your hand' in shown}; ann read a forfeit: "
                  f"{'forfeit' in ann.output()}; ann read 'bob is back': True")
            # 2. the side to move stops moving
            staller, other = (ann, bob) if "Your turn" in ann.text() else (bob, ann)
            name = "ann" if staller is ann else "bob"
            stopped = time.monotonic()
            seen: dict[str, float] = {}
            texts: dict[str, str] = {}

            async def verdict(term: Terminal, who: str) -> None:
                shown = await term.wait_for("Match over", timeout=turn + 30)
                seen[who] = time.monotonic() - stopped
                lines = [line.strip(" ┃│") for line in shown.splitlines()]
                texts[who] = " ".join(" ".join(lines).split())

            await asyncio.gather(verdict(staller, "staller"), verdict(other, "other"))
            await asyncio.sleep(1.0)
            db = sqlite3.connect(Path(home) / "community.sqlite3")
            rows = db.execute("SELECT rated, reason, ending, score0 FROM results").fetchall()
            won_staller = "You win" in texts["staller"]
            print(f"2. {name} stopped moving with {turn} s a move: his screen showed the "
                  f"verdict {seen['staller']:.1f} s later, the other's {seen['other']:.1f} s "
                  f"later; the staller's screen says he won: {won_staller}; it says "
                  f"'You lose the match': {'You lose the match' in texts['staller']}; the "
                  f"other's says 'You win the match!': {'You win the match!' in texts['other']}")
            print(f"   the server settled the match {len(rows)} time(s): {rows}")
            for who in ("staller", "other"):
                found = re.search(r"(You lose the match: [^.]+\.|\w+ took more than [^.]+"
                                  r"forfeits the match\.)", texts[who])
                print(f"   {who}'s screen: {found.group(0) if found else texts[who]}")
            ann.conn.close()
            bob.conn.close()
        finally:
            await server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turn-seconds", type=int, default=15)
    args = parser.parse_args()
    asyncio.run(check(args.turn_seconds))


if __name__ == "__main__":
    main()
