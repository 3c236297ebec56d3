"""Failed logins: each is logged (a few lines per address and minute, the rest counted),
and an address with too many of them is locked out for a while, told why."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from tests.ssh.conftest import eventually, visit
from tui_domino.ssh.limits import FailureLedger, Limits, LogBudget
from tui_domino.ssh.server import RatedLog

# A server where only the failed logins limit anyone: they lock an address out at the third.
STRICT = Limits(max_visitors=8, max_per_address=100, rate_count=100, auth_delay=0.0,
                fail_count=3)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the ledger of failed logins --------------------------------------------------------------

def test_ten_failed_logins_lock_an_address_out_for_exactly_ten_minutes() -> None:
    clock = Clock()
    limits = Limits()
    ledger = FailureLedger(limits.fail_count, limits.fail_window, limits.lockout, clock)
    assert (limits.fail_count, limits.fail_window, limits.lockout) == (10, 600, 600)
    for _ in range(9):
        assert not ledger.fail("10.0.0.1")
        clock.now += 30
    assert not ledger.locked("10.0.0.1") and ledger.failures("10.0.0.1") == 9
    locked_at = clock.now
    assert ledger.fail("10.0.0.1")  # the tenth
    assert ledger.locked("10.0.0.1") == 600
    assert not ledger.locked("10.0.0.2")  # the lockout is per address
    clock.now = locked_at + 599.9
    assert ledger.locked("10.0.0.1") == pytest.approx(0.1)
    assert not ledger.fail("10.0.0.1")  # locked out: nothing more is counted
    clock.now = locked_at + 600
    assert not ledger.locked("10.0.0.1")
    # A lockout that ends starts a new count: one more failure does not lock again.
    assert ledger.failures("10.0.0.1") == 0
    assert not ledger.fail("10.0.0.1") and not ledger.locked("10.0.0.1")


def test_failed_logins_older_than_the_window_are_forgotten() -> None:
    clock = Clock()
    ledger = FailureLedger(10, 600.0, 600.0, clock)
    start = clock.now
    for _ in range(9):
        ledger.fail("10.0.0.1")
    clock.now = start + 600  # the nine are ten minutes old
    assert ledger.failures("10.0.0.1") == 0
    assert not ledger.fail("10.0.0.1") and not ledger.locked("10.0.0.1")
    for _ in range(8):
        clock.now += 1
        assert not ledger.fail("10.0.0.1")
    clock.now += 1
    assert ledger.fail("10.0.0.1")  # ten within the last ten minutes


def test_a_ledger_with_no_count_locks_no_one_out() -> None:
    ledger = FailureLedger(0, 600.0, 600.0, Clock())
    assert not any(ledger.fail("10.0.0.1") for _ in range(100))
    assert not ledger.locked("10.0.0.1")


# -- the log's budget -------------------------------------------------------------------------

def test_the_log_takes_the_first_few_lines_then_a_count_a_minute() -> None:
    clock = Clock()
    budget = LogBudget(first=3, period=60.0, clock=clock)
    logged = [budget.note("10.0.0.1") for _ in range(20)]
    assert logged == [True] * 3 + [False] * 17
    assert budget.note("10.0.0.2")  # another address has its own lines
    assert budget.noted("10.0.0.1") == 20
    assert budget.next_due() == clock.now + 60
    clock.now += 59.9
    assert budget.due() == []
    clock.now += 0.1
    assert budget.due() == [("10.0.0.1", 17)]
    assert budget.due() == []  # each count is given once
    # Still at it: no more lines of its own, only a count a minute.
    assert not any(budget.note("10.0.0.1") for _ in range(5))
    clock.now += 60
    assert budget.due() == [("10.0.0.1", 5)]
    # A quiet minute, and its next event is logged again.
    clock.now += 60
    assert budget.due() == [] and budget.next_due() is None
    assert budget.note("10.0.0.1")


def test_the_log_gives_every_count_left_when_it_ends() -> None:
    clock = Clock()
    budget = LogBudget(first=1, period=60.0, clock=clock)
    for address in ("a", "a", "a", "b"):
        budget.note(address)
    assert budget.due(everything=True) == [("a", 2)]
    assert budget.noted("a") == 0


async def test_the_server_logs_a_count_a_minute_per_address(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")
    clock = Clock()
    rated = RatedLog("%d more knocks from %s", LogBudget(first=1, period=60.0, clock=clock))
    for address in ("a", "a", "a", "b"):
        rated.line(address, "a knock from %s", address)
    assert messages(caplog, "knock") == ["a knock from a", "a knock from b"]
    clock.now += 60  # the minute is over (on the budget's clock): the count is due
    rated.flush()
    assert messages(caplog, "more knocks") == ["2 more knocks from a"]
    rated.line("a", "a knock from %s", "a")  # still at it: counted
    rated.close()  # and told as the log ends
    assert messages(caplog, "more knocks") == ["2 more knocks from a", "1 more knocks from a"]


# -- a real server ----------------------------------------------------------------------------

def messages(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "tui_domino.ssh" and text in r.getMessage()]


async def test_failed_passwords_are_logged_and_lock_the_address_out(
        make_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")
    server = await make_server(password="open sesame", limits=STRICT)
    for name in ("eve", "o'hara", "x" * 200):
        with pytest.raises(asyncssh.PermissionDenied):
            await visit(server.port, name, password="guess")
    failed = messages(caplog, "failed login from 127.0.0.1: a wrong password for ")
    # Quoted (ssh has already refused names with control characters), and cut.
    assert [line.rsplit(" for ", 1)[1] for line in failed] == [
        "'eve'", '"o\'hara"', "'" + "x" * 40 + "'..."]
    assert len(messages(caplog, "locked out 127.0.0.1 for 10 minutes after 3 failed")) == 1
    # Even the right password: the address is refused at once, told why.
    for _ in range(2):
        with pytest.raises(asyncssh.DisconnectError) as refused:
            await visit(server.port, "ann", password="open sesame")
        assert "too many failed logins from your address" in refused.value.reason
        assert "try again in 10 minutes" in refused.value.reason
    assert len(messages(caplog, "locked out")) == 1  # logged once
    # Another address is not locked out.
    term = await visit(server.port, "ann", password="open sesame",
                       local_addr=("127.0.0.2", 0))
    await term.wait_for("Welcome, ann.")
    await term.close()


async def test_a_connection_open_before_the_lockout_gets_no_more_tries(
        make_server: Any) -> None:
    server = await make_server(password="open sesame", limits=STRICT)
    go = asyncio.Event()

    class Patient(asyncssh.SSHClient):  # type: ignore[misc]
        """A wrong password, then the right one once told to go on."""

        tries = 0

        async def password_auth_requested(self) -> str:
            self.tries += 1
            if self.tries == 1:
                return "guess"
            await go.wait()
            return "open sesame"

    patient = asyncio.ensure_future(asyncssh.create_connection(
        Patient, "127.0.0.1", server.port, username="eve", known_hosts=None,
        client_keys=None, agent_path=None))
    await eventually(lambda: server.failed.failures("127.0.0.1") == 1, "its first try")
    for _ in range(2):  # meanwhile other connections fail: the address is locked out
        with pytest.raises(asyncssh.PermissionDenied):
            await visit(server.port, "eve", password="guess")
    assert server.failed.locked("127.0.0.1")
    go.set()
    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await asyncio.wait_for(patient, 20)
    assert "too many failed logins from your address" in refused.value.reason


async def test_refused_keys_are_logged_and_lock_the_address_out(
        make_server: Any, caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    server = await make_server(authorized_keys=keys, limits=STRICT)
    for n in range(3):
        with pytest.raises(asyncssh.PermissionDenied):
            await visit(server.port, "eve", client_keys=[other])
        # (a connection whose keys were all refused counts once it ends)
        await eventually(lambda n=n: n + 1 == server.failed.failures("127.0.0.1")
                         or bool(server.failed.locked("127.0.0.1")),
                         "the server counts the failed login")
    refused_key = messages(caplog, "failed login from 127.0.0.1: a key not authorized")
    assert len(refused_key) == 3
    assert all(other.get_fingerprint() in line and line.endswith("for 'eve'")
               for line in refused_key)
    assert server.failed.locked("127.0.0.1")
    with pytest.raises(asyncssh.DisconnectError) as refused:
        await visit(server.port, "ann", client_keys=[key])
    assert "too many failed logins from your address" in refused.value.reason


async def test_a_connection_open_before_the_lockout_cannot_log_in_by_key(
        make_server: Any, tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    server = await make_server(authorized_keys=keys, limits=STRICT)
    go = asyncio.Event()
    lost: asyncio.Future[Exception | None] = asyncio.get_running_loop().create_future()

    class Patient(asyncssh.SSHClient):  # type: ignore[misc]
        """A key not authorized, then the right one once told to go on."""

        async def public_key_auth_requested(self) -> list[Any]:
            await go.wait()
            return [key]

        def connection_lost(self, exc: Exception | None) -> None:
            lost.set_result(exc)

    patient = asyncio.ensure_future(asyncssh.create_connection(
        Patient, "127.0.0.1", server.port, username="eve", known_hosts=None,
        client_keys=[other], agent_path=None))
    await eventually(lambda: any(c.keys_refused for c in server.connections),
                     "its first key is refused")
    for n in range(3):  # meanwhile other connections fail: the address is locked out
        with pytest.raises(asyncssh.PermissionDenied):
            await visit(server.port, "eve", client_keys=[other])
        await eventually(lambda n=n: n + 1 == server.failed.failures("127.0.0.1")
                         or bool(server.failed.locked("127.0.0.1")),
                         "the server counts the failed login")
    assert server.failed.locked("127.0.0.1")
    go.set()
    try:  # (the disconnect may come as it logs in, or just after)
        await asyncio.wait_for(patient, 20)
        reason = await asyncio.wait_for(lost, 20)
    except asyncssh.DisconnectError as exc:
        reason = exc
    assert isinstance(reason, asyncssh.DisconnectError)
    assert "too many failed logins from your address" in reason.reason
    assert not server.visits


async def test_a_refused_key_then_the_right_password_is_no_failed_login(
        make_server: Any, tmp_path: Path) -> None:
    # An ssh client offers its keys first: a visitor who then gives the password has not
    # failed to log in.
    key = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(key.export_public_key())
    server = await make_server(authorized_keys=keys, password="open sesame", limits=STRICT)
    for n in range(4):
        term = await visit(server.port, f"ann{n}", client_keys=[other],
                           password="open sesame")
        await term.wait_for(f"Welcome, ann{n}.")
        await term.close()
    await eventually(lambda: not server.connections, "the connections end")
    assert server.failed.failures("127.0.0.1") == 0
    assert not server.failed.locked("127.0.0.1")


async def test_a_flood_of_failed_logins_takes_a_few_lines_of_the_log(
        make_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")
    server = await make_server(password="open sesame",
                               limits=Limits(rate_count=100, auth_delay=0.0, fail_count=100))
    for _ in range(8):
        with pytest.raises(asyncssh.PermissionDenied):
            await visit(server.port, "eve", password="guess")
    assert len(messages(caplog, "failed login from 127.0.0.1")) == 3
    assert server.failed.failures("127.0.0.1") == 8  # every one counted
    await server.close()
    assert messages(caplog, "more failed logins") == ["5 more failed logins from 127.0.0.1"]


async def test_a_flood_of_refused_connections_takes_a_few_lines_of_the_log(
        make_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tui_domino.ssh")
    server = await make_server(limits=Limits(rate_count=2, auth_delay=0.0))
    for _ in range(10):  # 2 let in, 8 refused (the rate), each told why
        try:
            conn = await asyncssh.connect("127.0.0.1", server.port, username="ann",
                                          known_hosts=None, client_keys=None,
                                          agent_path=None)
        except asyncssh.DisconnectError as exc:
            assert "too many new connections" in exc.reason
        else:
            conn.close()
    assert len(messages(caplog, "refused a connection from 127.0.0.1")) == 3
    await server.close()
    assert messages(caplog, "more refused connections") == [
        "5 more refused connections from 127.0.0.1"]
