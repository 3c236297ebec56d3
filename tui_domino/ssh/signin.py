"""Who a connection is, on a server with accounts (``GameServer(accounts=True)``, the
``tui-domino serve`` default when it lets anyone in): the owner of a name by his key, or a
guest without one (``tui_domino.community.accounts``).

asyncssh asks about a key (``key_refusal``) before the client proves it holds it, and again
with its proof: nothing is written then. The name is claimed, or the key added by its code,
once the key is proven (``sign_in``): the connection's authentication is complete.
"""

from __future__ import annotations

from tui_domino.community import accounts
from tui_domino.community.db import Store
from tui_domino.names import player_name


def wanted(username: str) -> tuple[str, str | None]:
    """The name a user name asks for (as it shows) and the code it carries, if any
    (``ann+ABCD-EFGH``)."""
    name, code = accounts.split_code(username)
    return player_name(name), code


def key_refusal(store: Store, username: str, fingerprint: str) -> accounts.Refused | None:
    """Why the key of ``fingerprint`` cannot sign in as ``username`` (nothing written), or
    None when it may: it owns that name, or neither owns a name nor is the name owned, or
    it gives a code for an owned name (the code is checked once the key is proven)."""
    name, code = wanted(username)
    if accounts.is_guest_name(name):
        return None
    owner = accounts.account_named(store, name)
    mine = accounts.account_of_key(store, fingerprint)
    if mine is not None:
        if owner is not None and owner.id == mine.id:
            return None
        return accounts.Refused(accounts.OTHER_NAME, mine.name)
    if owner is None:
        return None if code is None else accounts.Refused(accounts.BAD_CODE, name)
    return None if code is not None else accounts.Refused(accounts.TAKEN, owner.name)


def sign_in(store: Store, username: str, fingerprint: str | None) -> accounts.SignIn:
    """Signs the visitor in: with a key proven (``fingerprint``) or without one (None)."""
    name, code = wanted(username)
    if code is not None:
        return accounts.add_key(store, name, code, fingerprint)
    return accounts.sign_in(store, name, fingerprint)


__all__ = ["key_refusal", "sign_in", "wanted"]
