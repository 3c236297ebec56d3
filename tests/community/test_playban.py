"""Conduct in lobby duels (``community.playban``), on an injected clock: two offences a day
are free, the third bans from pairing for 10 minutes, each ban within a week makes the next
three times longer, up to 48 hours; an offence counts once per match; a ban ends on time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_domino.community import accounts, playban
from tui_domino.community.db import Store, db_path, open_store


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(tmp_path: Path, clock: Clock) -> Store:
    s = open_store(db_path(tmp_path), now=clock)
    yield s
    s.close()


def account(store: Store, name: str = "ann") -> int:
    signed = accounts.sign_in(store, name, f"SHA256:{name}")
    assert isinstance(signed, accounts.Member)
    return signed.account.id


def test_two_offences_a_day_are_free_and_the_third_bans_for_ten_minutes(
        store: Store, clock: Clock) -> None:
    ann = account(store)
    assert playban.offend(store, ann, playban.ABORT, "m1") is None
    clock.now += 3600
    assert playban.offend(store, ann, playban.STALL, "m2") is None
    assert playban.current(store, ann) is None
    clock.now += 3600
    ban = playban.offend(store, ann, playban.WALKAWAY, "m3")
    assert ban is not None and ban.offences == 3 and ban.length == 600
    assert playban.current(store, ann) == ban
    clock.now += 599
    assert playban.current(store, ann) is not None
    clock.now += 1
    assert playban.current(store, ann) is None  # the ban ends on time


def test_offences_older_than_a_day_do_not_count(store: Store, clock: Clock) -> None:
    ann = account(store)
    playban.offend(store, ann, playban.ABORT, "m1")
    playban.offend(store, ann, playban.ABORT, "m2")
    clock.now += playban.WINDOW + 1
    assert playban.offend(store, ann, playban.ABORT, "m3") is None
    assert [kind for _at, kind in playban.offences(store, ann)] == [playban.ABORT]


def test_an_offence_counts_once_per_match(store: Store) -> None:
    ann = account(store)
    for _ in range(5):
        assert playban.offend(store, ann, playban.STALL, "m1") is None
    assert len(playban.offences(store, ann)) == 1


def test_each_ban_within_a_week_makes_the_next_three_times_longer_up_to_two_days(
        store: Store, clock: Clock) -> None:
    ann, bob = account(store, "ann"), account(store, "bob")
    lengths = []
    for n in range(8):
        for i in range(3):  # (while the day holds three offences, one more bans again)
            ban = playban.offend(store, ann, playban.STALL, f"m{n}-{i}")
            if ban is not None:
                break
        assert ban is not None
        lengths.append(ban.length)
        clock.now = ban.until + 1  # served
    assert lengths[:6] == [600, 1800, 5400, 16200, 48600, 145800]
    assert lengths[6:] == [playban.LONGEST] * 2 == [48 * 3600.0] * 2
    assert playban.current(store, bob) is None  # another account is untouched


def test_bans_older_than_a_week_are_forgotten(store: Store, clock: Clock) -> None:
    ann = account(store)
    for i in range(3):
        first = playban.offend(store, ann, playban.ABORT, f"a{i}")
    assert first is not None and first.length == 600
    clock.now += playban.BANS_WINDOW + 1
    for i in range(3):
        again = playban.offend(store, ann, playban.ABORT, f"b{i}")
    assert again is not None and again.length == 600


def test_an_unknown_offence_is_refused(store: Store) -> None:
    with pytest.raises(ValueError):
        playban.offend(store, account(store), "rudeness", "m1")
