"""Accounts by key: a name is owned by the first public key that uses it.

- A visitor who signs in with a key under a free name claims it: an account is made, owned
  by that key. The owner's keys always get in again under it (or any look-alike of it: the
  account's own spelling is kept).
- The same name, or one that looks like it (``tui_domino.names.skeleton``: a claimed ``ann``
  also protects ``аnn`` with a Cyrillic ``а``), with another key or with no key is refused.
- A key owns one account: under another name it is refused, and told which one it owns.
- A visitor without a key is a guest (``Guest``): he owns no name and is never rated. So is
  anyone who calls himself ``guest``, the name of those whose name shows nothing.
- A second key (another computer): the owner asks for a code (``new_code``, shown in his
  lobby), valid ``CODE_LIFETIME`` seconds and for one use; the new key gives it at its first
  connection (``add_key``; ``split_code`` reads it from a user name ``ann+ABCD-EFGH``). A
  wrong code voids nothing (a stranger who knows the name would void the owner's): the
  doors count it as a failed login of its address. An account holds at most ``MAX_KEYS``
  keys. The same code signs a browser in to the account instead (``sign_in_by_code``: the
  web door, where a visitor has no key), once.

What is kept (docs/ssh.md): the name, when it was claimed and last seen, and the keys'
SHA-256 fingerprints with when each was added. No address, no key itself.
"""

from __future__ import annotations

import hmac
import secrets
import sqlite3
from dataclasses import dataclass

from tui_domino.community.db import Store, transaction
from tui_domino.i18n import _, ngettext
from tui_domino.names import skeleton

GUEST = "guest"
# A code's characters: no 0/O, 1/I/L to confuse (eight of them: about 2^40 codes).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
CODE_LIFETIME = 600.0
MAX_KEYS = 8

# Why a visitor is refused (``Refused.reason``).
TAKEN = "taken"  # the name (or a look-alike) belongs to another key
OTHER_NAME = "other-name"  # this key owns another name
BAD_CODE = "bad-code"  # no such code for that name, or it expired or was used
NO_KEY = "no-key"  # a code given without a key to add
TOO_MANY_KEYS = "too-many-keys"


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created: float
    seen: float


@dataclass(frozen=True)
class Guest:
    """A visitor without an account: he owns no name and is never rated."""

    name: str


@dataclass(frozen=True)
class Member:
    """A visitor signed in to ``account``: ``claimed`` when the name became his just now,
    ``key_added`` when this key was just added to it by a code."""

    account: Account
    claimed: bool = False
    key_added: bool = False


@dataclass(frozen=True)
class Refused:
    """The visitor cannot come in under this name: ``reason`` (``TAKEN``, ``OTHER_NAME``,
    ``BAD_CODE``, ``NO_KEY``, ``TOO_MANY_KEYS``); ``name``: the name concerned (the one
    asked for, or for ``OTHER_NAME`` the one the key owns)."""

    reason: str
    name: str


SignIn = Guest | Member | Refused


def _account(row: sqlite3.Row) -> Account:
    return Account(int(row["id"]), str(row["name"]), float(row["created"]), float(row["seen"]))


def is_guest_name(name: str) -> bool:
    return skeleton(name) == skeleton(GUEST)


def account_named(store: Store, name: str) -> Account | None:
    """The account whose name is ``name`` or looks like it."""
    row = store.db.execute("SELECT * FROM accounts WHERE skeleton = ?",
                           (skeleton(name),)).fetchone()
    return None if row is None else _account(row)


def account_by_id(store: Store, account: int) -> Account | None:
    row = store.db.execute("SELECT * FROM accounts WHERE id = ?", (account,)).fetchone()
    return None if row is None else _account(row)


def account_of_key(store: Store, fingerprint: str) -> Account | None:
    row = store.db.execute("SELECT a.* FROM accounts a JOIN keys k ON k.account = a.id "
                           "WHERE k.fingerprint = ?", (fingerprint,)).fetchone()
    return None if row is None else _account(row)


def keys_of(store: Store, account: int) -> list[str]:
    """The fingerprints of the account's keys, oldest first."""
    return [str(r[0]) for r in store.db.execute(
        "SELECT fingerprint FROM keys WHERE account = ? ORDER BY added, fingerprint",
        (account,))]


def _seen(store: Store, account: Account, now: float) -> Account:
    store.db.execute("UPDATE accounts SET seen = ? WHERE id = ?", (now, account.id))
    return Account(account.id, account.name, account.created, now)


def sign_in(store: Store, name: str, fingerprint: str | None) -> SignIn:
    """Who the visitor called ``name`` (as shown: ``names.player_name``) is, signing in with
    the key of ``fingerprint`` (None: no key): a guest, a member (claiming the name when it
    is free), or refused."""
    if is_guest_name(name):
        return Guest(name)
    now = store.now()
    with transaction(store.db):
        owner = account_named(store, name)
        if fingerprint is None:
            return Guest(name) if owner is None else Refused(TAKEN, owner.name)
        mine = account_of_key(store, fingerprint)
        if mine is not None:
            if owner is not None and owner.id == mine.id:
                return Member(_seen(store, mine, now))
            return Refused(OTHER_NAME, mine.name)
        if owner is not None:
            return Refused(TAKEN, owner.name)
        cur = store.db.execute(
            "INSERT INTO accounts (name, skeleton, created, seen) VALUES (?, ?, ?, ?)",
            (name, skeleton(name), now, now))
        account = Account(int(cur.lastrowid or 0), name, now, now)
        store.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                         (fingerprint, account.id, now))
        return Member(account, claimed=True)


def new_code(store: Store, account: int) -> str:
    """A fresh one-time code for the account's next key (any earlier code is void), valid
    ``CODE_LIFETIME`` seconds; as it is shown, ``ABCD-EFGH``."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
    with transaction(store.db):
        store.db.execute(
            "INSERT INTO codes (account, code, expires, misses) VALUES (?, ?, ?, 0) "
            "ON CONFLICT (account) DO UPDATE SET code = excluded.code, "
            "expires = excluded.expires, misses = 0",
            (account, code, store.now() + CODE_LIFETIME))
    return f"{code[:4]}-{code[4:]}"


def normal_code(text: str) -> str:
    """A code as typed, compared: capitals, without spaces or dashes."""
    return "".join(c for c in text.upper() if c not in " -")


def split_code(username: str) -> tuple[str, str | None]:
    """A user name that carries a code, ``ann+ABCD-EFGH``: the name and the code; any other
    user name (``c++`` among them) is a name alone."""
    name, plus, rest = username.rpartition("+")
    code = normal_code(rest)
    if plus and name and len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code):
        return name, code
    return username, None


def _use_code(store: Store, owner: Account, code: str, now: float) -> bool:
    """Whether ``code`` is the owner's code, valid now; it is used up when it is (and void
    once expired). A wrong one is counted (``misses``) but voids nothing: anybody who knows
    the name could otherwise void its owner's code; the doors count it as a failed login of
    its address instead, which their lockout bounds. Inside the caller's transaction."""
    row = store.db.execute("SELECT code, expires, misses FROM codes WHERE account = ?",
                           (owner.id,)).fetchone()
    if row is None or row["expires"] <= now:
        store.db.execute("DELETE FROM codes WHERE account = ?", (owner.id,))
        return False
    if not hmac.compare_digest(str(row["code"]).encode(), normal_code(code).encode()):
        store.db.execute("UPDATE codes SET misses = misses + 1 WHERE account = ?",
                         (owner.id,))
        return False
    store.db.execute("DELETE FROM codes WHERE account = ?", (owner.id,))
    return True


def sign_in_by_code(store: Store, name: str, code: str) -> SignIn:
    """Signs in, without a key, the owner of the account called ``name`` (or a look-alike)
    who gives its one-time ``code`` (a browser: the web door); the code is used up. A wrong,
    expired or used code, or a name nobody owns, is refused (``BAD_CODE``); a guest's name
    is a guest."""
    if is_guest_name(name):
        return Guest(name)
    now = store.now()
    with transaction(store.db):
        owner = account_named(store, name)
        if owner is None or not _use_code(store, owner, code, now):
            return Refused(BAD_CODE, owner.name if owner is not None else name)
        return Member(_seen(store, owner, now))


def add_key(store: Store, name: str, code: str, fingerprint: str | None) -> SignIn:
    """Adds the key of ``fingerprint`` to the account called ``name`` with its one-time
    ``code``, and signs the visitor in. A key that already owns this account just signs in;
    one that owns another is refused, as is a wrong, expired or used code."""
    if fingerprint is None:
        return Refused(NO_KEY, name)
    now = store.now()
    with transaction(store.db):
        owner = account_named(store, name)
        mine = account_of_key(store, fingerprint)
        if mine is not None:
            if owner is not None and owner.id == mine.id:
                return Member(_seen(store, mine, now))
            return Refused(OTHER_NAME, mine.name)
        if owner is None:
            return Refused(BAD_CODE, name)
        if not _use_code(store, owner, code, now):
            return Refused(BAD_CODE, owner.name)
        if len(keys_of(store, owner.id)) >= MAX_KEYS:
            return Refused(TOO_MANY_KEYS, owner.name)
        store.db.execute("INSERT INTO keys (fingerprint, account, added) VALUES (?, ?, ?)",
                         (fingerprint, owner.id, now))
        return Member(_seen(store, owner, now), key_added=True)


def refusal_text(refused: Refused) -> str:
    """What the refused visitor reads: why, and what to do."""
    name = refused.name
    if refused.reason == TAKEN:
        # TRANSLATORS: {name}: a player's name; NAME+CODE is typed as it is (the code
        # replaces CODE): keep it.
        return _("The name {name} belongs to another player's key. Choose another name; or, "
                 "if {name} is yours, ask for a code in your lobby and connect once from "
                 "this computer as {name}+CODE.").format(name=name)
    if refused.reason == OTHER_NAME:
        return _("This key belongs to {name}: connect as {name}.").format(name=name)
    if refused.reason == NO_KEY:
        return _("A code adds a key to {name}, and you connected without one: connect with "
                 "your SSH key.").format(name=name)
    if refused.reason == TOO_MANY_KEYS:
        return ngettext("{name} has {count} key already, the most an account may have.",
                        "{name} has {count} keys already, the most an account may have.",
                        MAX_KEYS).format(name=name, count=MAX_KEYS)
    minutes = int(CODE_LIFETIME // 60)
    # TRANSLATORS: {minutes}: how long a code is valid (10)
    return ngettext("That code does not add a key to {name}: it is wrong, used or more than "
                    "{minutes} minute old. Ask for a new one in your lobby.",
                    "That code does not add a key to {name}: it is wrong, used or more than "
                    "{minutes} minutes old. Ask for a new one in your lobby.",
                    minutes).format(name=name, minutes=minutes)


__all__ = ["BAD_CODE", "CODE_LIFETIME", "GUEST", "MAX_KEYS", "NO_KEY",
           "OTHER_NAME", "TAKEN", "TOO_MANY_KEYS", "Account", "Guest", "Member", "Refused",
           "SignIn", "account_by_id", "account_named", "account_of_key", "add_key",
           "is_guest_name", "keys_of", "new_code", "normal_code", "refusal_text", "sign_in",
           "sign_in_by_code", "split_code"]
