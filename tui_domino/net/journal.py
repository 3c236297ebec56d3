"""The match log: append-only, one JSON line per event, fsynced before the event is acted on.

Replaying the log through a fresh ``DuelCore`` rebuilds it exactly (the core is
deterministic given its seed, the frames it accepted and the local actions), so a killed
process resumes the match where it was. See docs/protocol.md, section 9.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import cast

from tui_domino.files import data_dir, quarantine
from tui_domino.net import events as ev
from tui_domino.net.core import DuelCore, MatchSettings
from tui_domino.net.records import JournalEntry, SettingsJSON


def default_dir() -> Path:
    """``$TUI_DOMINO_HOME/duels`` when set (as for the game's other data), else the
    user's data directory's ``duels``."""
    return data_dir(create=False) / "duels"


def default_path(role: str, host: str, port: int) -> Path:
    """The match log of a duel hosted or joined at ``host:port``: the same command (or
    the same address in the app) finds it again and resumes the match."""
    safe = re.sub(r"[^A-Za-z0-9.-]", "_", host)
    return default_dir() / f"{role}-{safe}-{port}.jsonl"


def unfinished(role: str, folder: Path | None = None) -> list[tuple[str, int]]:
    """The addresses (host, port) of the duels this side ``role`` left unfinished, by
    their logs at ``default_path`` (the newest first): the same address resumes each. A
    log that cannot be read, or whose address its name does not keep whole (IPv6), is
    left out; nothing is moved or written."""
    found: list[tuple[float, str, int]] = []
    for path in (folder or default_dir()).glob(f"{role}-*.jsonl"):
        host, _, port = path.stem.removeprefix(f"{role}-").rpartition("-")
        if not port.isdigit() or not host or "_" in host:
            continue  # a log kept aside (.done, .unreadable-…), or an address not whole
        try:
            core = replay(load(path))
            when = path.stat().st_mtime
        except (OSError, ValueError):
            continue
        if core.started and not core.finished and core.match.internal is None:
            found.append((when, host, int(port)))
    return [(host, port) for _, host, port in sorted(found, reverse=True)]


class Journal:
    """Appends entries to ``path`` (created with mode 0600), each flushed and fsynced."""

    def __init__(self, path: str | os.PathLike[str], fsync: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._file = os.fdopen(fd, "ab")
        self.fsync = fsync

    def __call__(self, entry: JournalEntry) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")).encode() + b"\n")
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def load(path: str | os.PathLike[str]) -> list[JournalEntry]:
    """The entries of a log; a torn last line (a crash mid-write) is dropped. What an entry
    holds is checked as it is replayed."""
    out: list[JournalEntry] = []
    with open(path, "rb") as f:
        for raw in f:
            try:
                entry = json.loads(raw)
            except ValueError:
                break
            if isinstance(entry, dict):
                out.append(cast(JournalEntry, entry))
    return out


def keep_aside(path: Path, why: str) -> Path:
    """Renames a log to ``<name>.<why>-<time>.jsonl`` (never over another file)."""
    return quarantine(path, why)


class UnreadableLog(ValueError):
    """A match log that cannot be replayed; it was moved aside (the message says where)."""


def _settings(d: SettingsJSON | None) -> MatchSettings | None:
    if not d:
        return None
    return MatchSettings(**d)


def replay(entries: list[JournalEntry]) -> DuelCore:
    """A core rebuilt from a log's entries (not connected, with no journal attached);
    ValueError when they are not a match log this version can replay."""
    if not entries or entries[0].get("k") != "start":
        raise ValueError("not a match log")
    try:
        s = entries[0]
        settings = _settings(s.get("settings"))
        want = _settings(s.get("want"))
        core = DuelCore(s["role"], s["name"], bytes.fromhex(s["seed"]), settings=settings,
                        want=want)
        for e in entries[1:]:
            if e["k"] == "in":
                core.receive(e["frame"].encode())
            elif e["k"] == "local":
                if e["a"] == "play":
                    core.play(e["move"])
                elif e["a"] == "chat":
                    core.chat(e["text"])
                elif e["a"] == "leave":
                    core.leave(e["reason"])
                elif e["a"] == "dispute":
                    core.dispute()
                elif e["a"] == "gone":  # a deadline ran out (the resume window, the reveal)
                    core.peer_gone(e["reason"])
                elif e["a"] == "timeout":  # this side's own time ran out
                    core.match.out_of_time(e["reason"])
                elif e["a"] == "claimed":  # the peer said a time ran out, judged then
                    core.match.claimed(int(e["player"]), e["bears_out"], e["said"])
            elif e["k"] == "channel":  # the sealed channel's resume secret
                core.keep_channel(bytes.fromhex(e["resume"]).hex())
            elif e["k"] == "internal":
                core.stop_internal(e["error"], e["at"])
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"a malformed entry: {exc!r}") from exc
    core.outgoing()
    core.deadlines.replayed = True  # (the step under way began before: when, it cannot say)
    # what the match said before the log was replayed: its chat, shown again on resume
    core.replayed = [e for e in core.events() if isinstance(e, ev.ChatLine)]
    return core


def resume(path: str | os.PathLike[str], fsync: bool = True) -> DuelCore | None:
    """The core of an unfinished match logged at ``path`` (the log stays attached), or
    None when there is no such log (or an empty one) or its match is over. A log that
    cannot be replayed is moved aside and ``UnreadableLog`` says where; so is the log of a
    match that this program stopped with an internal error (kept, for its record)."""
    p = Path(path)
    if not p.exists():
        return None
    try:
        if p.stat().st_size == 0:
            return None  # created, then cut off before its first line: nothing to keep
        core = replay(load(p))
    except (OSError, ValueError) as exc:
        kept = quarantine(p)
        raise UnreadableLog(
            f"The log of the unfinished duel could not be read ({exc}); it was kept as "
            f"{kept} and a new match begins."
        ) from exc
    if core.match.internal is not None:
        keep_aside(p, "internal")
        return None
    if core.finished or not core.started:
        return None
    core.seat.journal = Journal(p, fsync=fsync)
    return core
