"""Accounts by key: the first key claims a name, other keys and guests are refused it (and its
look-alikes), the owner gets in again, a second key comes in by a one-time code."""

from __future__ import annotations

import pytest

from tests.community.conftest import Clock
from tui_domino.community import accounts
from tui_domino.community.accounts import (
    BAD_CODE,
    CODE_LIFETIME,
    MAX_KEYS,
    NO_KEY,
    OTHER_NAME,
    TAKEN,
    TOO_MANY_KEYS,
    Guest,
    Member,
    Refused,
    add_key,
    new_code,
    sign_in,
)
from tui_domino.community.db import Store

ANN_KEY = "SHA256:annsfirstkey"
LAPTOP = "SHA256:annslaptop"
EVE_KEY = "SHA256:eveskey"


def claim(store: Store, name: str, key: str) -> accounts.Account:
    member = sign_in(store, name, key)
    assert isinstance(member, Member) and member.claimed, member
    return member.account


def test_the_first_key_claims_the_name_and_gets_in_again(store: Store,
                                                         clock: Clock) -> None:
    ann = claim(store, "ann", ANN_KEY)
    assert ann.name == "ann" and ann.created == ann.seen == clock.t
    clock.advance(3600)
    again = sign_in(store, "ann", ANN_KEY)
    assert again == Member(accounts.Account(ann.id, "ann", ann.created, clock.t))
    assert accounts.keys_of(store, ann.id) == [ANN_KEY]


def test_another_key_or_no_key_is_refused_the_name(store: Store) -> None:
    claim(store, "ann", ANN_KEY)
    assert sign_in(store, "ann", EVE_KEY) == Refused(TAKEN, "ann")
    assert sign_in(store, "ann", None) == Refused(TAKEN, "ann")  # a guest cannot pass for her
    assert accounts.account_of_key(store, EVE_KEY) is None  # nothing was made for eve's key
    assert isinstance(sign_in(store, "ann", ANN_KEY), Member)


@pytest.mark.parametrize("look_alike", [
    "\u0430nn",  # Cyrillic a
    "\uff41nn",  # fullwidth a
    "ann\u200b",  # a zero-width space after it
])
def test_a_claimed_name_protects_its_look_alikes(store: Store, look_alike: str) -> None:
    from tui_domino.names import player_name

    claim(store, "ann", ANN_KEY)
    shown = player_name(look_alike)
    assert sign_in(store, shown, EVE_KEY) == Refused(TAKEN, "ann")
    assert sign_in(store, shown, None) == Refused(TAKEN, "ann")
    owner = sign_in(store, shown, ANN_KEY)  # the owner, typing it otherwise, is ann
    assert isinstance(owner, Member) and owner.account.name == "ann"


def test_a_key_owns_one_name(store: Store) -> None:
    claim(store, "ann", ANN_KEY)
    assert sign_in(store, "anne", ANN_KEY) == Refused(OTHER_NAME, "ann")
    assert accounts.account_named(store, "anne") is None


def test_a_visitor_without_a_key_is_a_guest_and_claims_nothing(store: Store) -> None:
    assert sign_in(store, "bob", None) == Guest("bob")
    assert accounts.account_named(store, "bob") is None
    claim(store, "bob", EVE_KEY)  # the name was free all along


def test_nobody_owns_the_name_guest(store: Store) -> None:
    assert sign_in(store, "guest", ANN_KEY) == Guest("guest")
    assert sign_in(store, "gu\u0435st", ANN_KEY) == Guest("gu\u0435st")  # Cyrillic e
    assert accounts.account_of_key(store, ANN_KEY) is None


def test_a_second_key_comes_in_by_the_owners_code(store: Store, clock: Clock) -> None:
    ann = claim(store, "ann", ANN_KEY)
    code = new_code(store, ann.id)
    assert len(code) == 9 and code[4] == "-"
    clock.advance(CODE_LIFETIME - 1)
    added = add_key(store, "ann", code.lower().replace("-", " "), LAPTOP)
    assert added == Member(accounts.Account(ann.id, "ann", ann.created, clock.t),
                           key_added=True)
    assert accounts.keys_of(store, ann.id) == [ANN_KEY, LAPTOP]
    assert isinstance(sign_in(store, "ann", LAPTOP), Member)  # from now on, as any key
    assert add_key(store, "ann", code, EVE_KEY) == Refused(BAD_CODE, "ann")  # used once


def test_a_code_expires_after_ten_minutes(store: Store, clock: Clock) -> None:
    ann = claim(store, "ann", ANN_KEY)
    code = new_code(store, ann.id)
    clock.advance(CODE_LIFETIME)
    assert add_key(store, "ann", code, LAPTOP) == Refused(BAD_CODE, "ann")
    assert sign_in(store, "ann", LAPTOP) == Refused(TAKEN, "ann")
    assert accounts.keys_of(store, ann.id) == [ANN_KEY]


def test_a_new_code_voids_the_old_one(store: Store) -> None:
    ann = claim(store, "ann", ANN_KEY)
    old = new_code(store, ann.id)
    new = new_code(store, ann.id)
    if old != new:
        assert add_key(store, "ann", old, LAPTOP) == Refused(BAD_CODE, "ann")
    assert isinstance(add_key(store, "ann", new, LAPTOP), Member)


def test_a_strangers_wrong_codes_do_not_void_the_owners(store: Store) -> None:
    """Anyone who knew the name voided its owner's code with five wrong ones; the doors
    count each as a failed login of his address instead (tests/ssh, tests/web)."""
    ann = claim(store, "ann", ANN_KEY)
    code = new_code(store, ann.id)
    wrong = "ZZZZ-ZZZZ" if code != "ZZZZ-ZZZZ" else "YYYY-YYYY"
    for _i in range(50):
        assert add_key(store, "ann", wrong, EVE_KEY) == Refused(BAD_CODE, "ann")
    assert isinstance(add_key(store, "ann", code, LAPTOP), Member)


def test_a_code_adds_no_key_in_the_wrong_hands(store: Store) -> None:
    ann = claim(store, "ann", ANN_KEY)
    claim(store, "eve", EVE_KEY)
    code = new_code(store, ann.id)
    assert add_key(store, "ann", code, None) == Refused(NO_KEY, "ann")  # no key to add
    assert add_key(store, "ann", code, EVE_KEY) == Refused(OTHER_NAME, "eve")  # eve's key
    assert add_key(store, "bob", code, LAPTOP) == Refused(BAD_CODE, "bob")  # nobody's name
    assert isinstance(add_key(store, "ann", code, LAPTOP), Member)  # still good for ann


def test_the_owners_code_signs_a_browser_in_once_and_adds_no_key(store: Store,
                                                                  clock: Clock) -> None:
    ann = claim(store, "ann", ANN_KEY)
    code = new_code(store, ann.id)
    clock.advance(CODE_LIFETIME - 1)
    signed = accounts.sign_in_by_code(store, "аnn", code.lower())  # (a look-alike's spelling)
    assert signed == Member(accounts.Account(ann.id, "ann", ann.created, clock.t))
    assert accounts.keys_of(store, ann.id) == [ANN_KEY]
    assert accounts.sign_in_by_code(store, "ann", code) == Refused(BAD_CODE, "ann")  # used
    assert add_key(store, "ann", code, LAPTOP) == Refused(BAD_CODE, "ann")  # for a key too


def test_a_browsers_code_is_refused_wrong_expired_or_for_nobodys_name(store: Store,
                                                                      clock: Clock) -> None:
    ann = claim(store, "ann", ANN_KEY)
    code = new_code(store, ann.id)
    wrong = "ZZZZ-ZZZZ" if code != "ZZZZ-ZZZZ" else "YYYY-YYYY"
    assert accounts.sign_in_by_code(store, "bob", code) == Refused(BAD_CODE, "bob")
    for _i in range(50):
        assert accounts.sign_in_by_code(store, "ann", wrong) == Refused(BAD_CODE, "ann")
    assert isinstance(accounts.sign_in_by_code(store, "ann", code), Member)  # still good
    code = new_code(store, ann.id)
    clock.advance(CODE_LIFETIME)
    assert accounts.sign_in_by_code(store, "ann", code) == Refused(BAD_CODE, "ann")
    assert accounts.sign_in_by_code(store, "guest", "anything") == Guest("guest")


def test_an_account_holds_at_most_eight_keys(store: Store) -> None:
    ann = claim(store, "ann", ANN_KEY)
    for i in range(1, MAX_KEYS):
        assert isinstance(add_key(store, "ann", new_code(store, ann.id), f"k{i}"), Member)
    code = new_code(store, ann.id)
    assert add_key(store, "ann", code, "one-too-many") == Refused(TOO_MANY_KEYS, "ann")
    assert len(accounts.keys_of(store, ann.id)) == MAX_KEYS


def test_a_user_name_carries_a_code_after_a_plus() -> None:
    assert accounts.split_code("ann+abcd-efgh") == ("ann", "ABCDEFGH")
    assert accounts.split_code("ann+ABCDEFGH") == ("ann", "ABCDEFGH")
    assert accounts.split_code("c++") == ("c++", None)
    assert accounts.split_code("a+b") == ("a+b", None)
    assert accounts.split_code("+ABCDEFGH") == ("+ABCDEFGH", None)
    assert accounts.split_code("ann+ABCDEFG1") == ("ann+ABCDEFG1", None)  # 1 is no code's


def test_the_accounts_outlive_the_connection(tmp_path, clock: Clock) -> None:  # type: ignore[no-untyped-def]
    from tui_domino.community.db import open_store

    path = tmp_path / "community.sqlite3"
    with open_store(path, now=clock) as s:
        claim(s, "ann", ANN_KEY)
    with open_store(path, now=clock) as s:
        assert isinstance(sign_in(s, "ann", ANN_KEY), Member)
        assert sign_in(s, "ann", EVE_KEY) == Refused(TAKEN, "ann")


@pytest.mark.parametrize("reason", [TAKEN, OTHER_NAME, BAD_CODE, NO_KEY, TOO_MANY_KEYS])
def test_each_refusal_says_why_in_each_language(reason: str) -> None:
    from tui_domino import i18n

    texts = []
    for language in ("en", "ru", "bg"):
        i18n.use(language)
        text = accounts.refusal_text(Refused(reason, "ann"))
        assert "ann" in text and "{" not in text
        texts.append(text)
    assert len(set(texts)) == 3
