"""Moderation's memory: the sanctions operators take (mutes, kicks, bans, and their lifting)
and whom each account ignores, in the community's database (``community.db``, version 2).

A sanction is kept as it was taken: when, by whom (the operator's name, or ``server`` for an
automatic mute), what (``MUTE``, ``KICK``, ``BAN``, ``UNMUTE``, ``UNBAN``), on what
(``ACCOUNT``: an account's id; ``KEY``: a key's SHA-256 fingerprint; ``ADDRESS``: an IP
address), how the target read, until when (a mute's or a ban's end) and why. Lifting a mute or
a ban early marks it ``lifted`` and keeps a row of its own. Nothing is ever deleted: the table
is the server's record of what its operators did. Times come from the store's clock.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from tui_domino.community.db import Store, transaction

# What an operator does (``Sanction.action``).
MUTE, KICK, BAN, UNMUTE, UNBAN = "mute", "kick", "ban", "unmute", "unban"
ACTIONS = (MUTE, KICK, BAN, UNMUTE, UNBAN)
# What a sanction is on (``Sanction.kind``).
ACCOUNT, KEY, ADDRESS = "account", "key", "address"
KINDS = (ACCOUNT, KEY, ADDRESS)
SERVER = "server"  # the "operator" of an automatic mute


@dataclass(frozen=True)
class Sanction:
    id: int
    at: float
    operator: str
    action: str
    kind: str
    target: str
    shown: str
    until: float | None
    reason: str
    lifted: float | None


def _sanction(row: sqlite3.Row) -> Sanction:
    return Sanction(int(row["id"]), float(row["at"]), str(row["operator"]),
                    str(row["action"]), str(row["kind"]), str(row["target"]),
                    str(row["shown"]), None if row["until"] is None else float(row["until"]),
                    str(row["reason"]),
                    None if row["lifted"] is None else float(row["lifted"]))


def record(store: Store, operator: str, action: str, kind: str, target: str, shown: str,
           until: float | None = None, reason: str = "") -> Sanction:
    """Keeps one action; an ``UNMUTE`` or ``UNBAN`` also lifts the mutes or bans of that
    target still running."""
    if action not in ACTIONS or kind not in KINDS:
        raise ValueError(f"no such sanction: {action} on {kind}")
    now = store.now()
    with transaction(store.db):
        if action in (UNMUTE, UNBAN):
            lifted = MUTE if action == UNMUTE else BAN
            store.db.execute(
                "UPDATE sanctions SET lifted = ? WHERE action = ? AND kind = ? AND target = ? "
                "AND lifted IS NULL AND until > ?", (now, lifted, kind, target, now))
        cur = store.db.execute(
            "INSERT INTO sanctions (at, operator, action, kind, target, shown, until, reason) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (now, operator, action, kind, target, shown, until, reason))
    return Sanction(int(cur.lastrowid or 0), now, operator, action, kind, target, shown,
                    until, reason, None)


def running(store: Store, action: str, targets: list[tuple[str, str]]) -> Sanction | None:
    """The running ``action`` (``MUTE`` or ``BAN``) on any of ``targets`` ((kind, target)
    pairs) that lasts longest, or None."""
    now = store.now()
    found: Sanction | None = None
    for kind, target in targets:
        row = store.db.execute(
            "SELECT * FROM sanctions WHERE action = ? AND kind = ? AND target = ? "
            "AND lifted IS NULL AND until > ? ORDER BY until DESC, id DESC LIMIT 1",
            (action, kind, target, now)).fetchone()
        if row is not None and (found is None or (row["until"] or 0) > (found.until or 0)):
            found = _sanction(row)
    return found


def history(store: Store, limit: int = 100) -> list[Sanction]:
    """The latest sanctions, the newest first."""
    return [_sanction(r) for r in store.db.execute(
        "SELECT * FROM sanctions ORDER BY at DESC, id DESC LIMIT ?", (limit,))]


def ignored_by(store: Store, account: int) -> set[int]:
    """The accounts ``account`` ignores."""
    return {int(r[0]) for r in store.db.execute(
        "SELECT other FROM ignores WHERE account = ?", (account,))}


def set_ignore(store: Store, account: int, other: int, on: bool) -> None:
    """``account`` ignores ``other`` (``on``), or no longer does."""
    with transaction(store.db):
        if on:
            store.db.execute("INSERT OR IGNORE INTO ignores (account, other, at) "
                             "VALUES (?, ?, ?)", (account, other, store.now()))
        else:
            store.db.execute("DELETE FROM ignores WHERE account = ? AND other = ?",
                             (account, other))


__all__ = ["ACCOUNT", "ACTIONS", "ADDRESS", "BAN", "KEY", "KICK", "KINDS", "MUTE", "SERVER",
           "UNBAN", "UNMUTE", "Sanction", "history", "ignored_by", "record", "running",
           "set_ignore"]
