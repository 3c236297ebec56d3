"""The web door without a browser: a websocket as the page opens it (aiohttp's client)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import replace
from typing import Any

import aiohttp
import pytest

from tests.ssh.conftest import TEST_LIMITS, eventually
from tests.ssh.test_accounts import come, new_key
from tests.ssh.test_play import footer_at
from tests.web.conftest import Served, open_browser
from tui_domino.community import accounts
from tui_domino.ssh.visit import catalog
from tui_domino.web.door import MAX_FRAME, language_of, same_origin


async def test_a_browser_visitor_signs_in_by_name_and_reaches_the_lobby(web: Served) -> None:
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("lobby", "dora")
    assert [m.name for m in web.server.lobby.members.values()] == ["dora"]
    await browser.close()
    await eventually(lambda: not web.server.visits, "the visit ends with its socket")
    assert not web.server.connections and not web.server.lobby.members


async def test_another_sites_page_may_not_open_the_socket(web: Served) -> None:
    async with aiohttp.ClientSession() as session:
        for origin in ("http://evil.example", f"http://127.0.0.1:{web.door.port + 1}",
                       "null"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(web.url + "ws", origin=origin)
            assert refused.value.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):  # no Origin at all
            await session.ws_connect(web.url + "ws")
    assert not web.server.connections and not web.server.visits


async def test_an_owner_signs_a_browser_in_with_his_lobbys_code(web: Served) -> None:
    ann = await come(web.server, "ann", new_key())
    await ann.wait_for("Welcome, ann.")
    ann.press("c")
    shown = await ann.wait_until(lambda s: "with the code" in s.replace("\n", " "), "the code")
    code = shown.split("ann+", 1)[1].split()[0]
    await ann.close()
    # (his close returns before the server has heard of it: in the lobby still, the browser's
    # visitor would be ann-2)
    await eventually(lambda: not web.server.lobby.members, "ann's visit over")
    browser = await open_browser(web)
    ready = await browser.hello("ann", code=code)
    assert ready["t"] == "ready" and isinstance(ready["resume"], str)  # (her tab's pass)
    await browser.wait_for("Welcome, ann.")
    member = next(iter(web.server.lobby.members.values()))
    store = web.server.store
    assert store is not None and member.account is not None
    assert accounts.account_by_id(store, member.account).name == "ann"  # type: ignore[union-attr]
    await browser.close()
    again = await open_browser(web)  # the code is spent
    said = await again.hello("ann", code=code)
    assert said["t"] == "refused" and "That code does not sign in ann" in said["text"]
    await again.close()
    await eventually(lambda: not web.server.lobby.members, "ann's visit over")
    # the pass signs her tab in again, as her (a reload), once: each use gives the next
    for name in ("", "bob"):  # (whatever name comes with it)
        reloaded = await open_browser(web)
        said = await reloaded.hello(name, resume=ready["resume"])
        if name == "":
            assert said["t"] == "ready" and said["resume"] != ready["resume"]
            await reloaded.wait_for("Welcome, ann.")
        else:  # spent: refused, and the page shows its form again
            assert said["t"] == "refused" and "sign in again" in said["text"]
        await reloaded.close()
        await eventually(lambda: not web.server.lobby.members, "the visit over")


@pytest.mark.parametrize("name", ["ann", "аnn", "ann\u200b"])
async def test_a_name_an_account_owns_or_its_look_alike_is_refused_without_its_code(
        web: Served, name: str) -> None:
    store = web.server.store
    assert store is not None
    accounts.sign_in(store, "ann", "SHA256:annskey")
    browser = await open_browser(web)
    said = await browser.hello(name)
    assert said["t"] == "refused" and "belongs to a player with an account" in said["text"]
    assert "press c in your SSH lobby" in said["text"]
    await browser.close()
    assert not web.server.visits


async def test_the_page_and_the_servers_words_speak_the_browsers_language(
        make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, max_visitors=0))  # always full
    bulgarian = {"Accept-Language": "bg,en;q=0.5"}
    async with aiohttp.ClientSession() as session, session.get(web.url,
                                                               headers=bulgarian) as page:
        text = await page.text()
    assert '<html lang="bg"' in text and "hidden>" in text  # (no password asked)
    browser = await open_browser(web, **{"Accept-Language": "ru-RU,ru;q=0.9"})
    said = await browser.hello("ann")
    assert said == {"t": "refused", "text": web.server.refusal(catalog("ru"))}
    assert said["text"] != web.server.refusal(catalog("en"))
    await browser.close()


async def test_the_password_is_asked_of_a_browser_too(make_web: Any) -> None:
    web = await make_web(password="sesame")
    async with aiohttp.ClientSession() as session, session.get(web.url) as page:
        assert "hidden>" not in await page.text()  # the password's field shows
    wrong = await open_browser(web)
    said = await wrong.hello("dora", password="open")
    assert said == {"t": "refused", "text": "That is not the server's password."}
    await wrong.close()
    right = await open_browser(web)
    assert await right.hello("dora", password="sesame") == {"t": "ready"}
    await right.wait_for("Welcome, dora.")
    await right.close()


async def test_a_socket_that_never_signs_in_starts_no_game_and_is_closed(
        make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, login_grace=1.0))
    browser = await open_browser(web)
    assert len(web.server.connections) == 1
    said = await browser.next_said(timeout=10)
    assert said["t"] == "closed" and not web.server.visits
    await browser.close()
    await eventually(lambda: not web.server.connections, "the connection is let out")


async def test_a_frame_too_large_closes_the_socket(web: Served) -> None:
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("Welcome, dora.")
    await browser.ws.send_bytes(b"x" * (MAX_FRAME + 1))
    while (await browser.next_said())["t"] != "closed":
        pass
    assert browser.ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await browser.close()
    await eventually(lambda: not web.server.visits, "the visit ends")


async def test_the_caps_count_browsers_and_ssh_visitors_together(make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, max_visitors=2, max_per_address=3))
    ann = await come(web.server, "ann")
    first = await open_browser(web)
    assert await first.hello("bob") == {"t": "ready"}
    full = await open_browser(web)
    said = await full.hello("carl")
    assert said["t"] == "refused" and "The table is full (2 visitors" in said["text"]
    await full.close()
    await first.wait_for("Welcome, bob.")
    await eventually(lambda: len(web.server.connections) == 2, "the refused one let out")
    second = await open_browser(web)
    third = await open_browser(web)  # one too many from this address (ann's is one)
    said = await third.next_said()
    assert said["t"] == "refused" and "too many connections from your address" in said["text"]
    await asyncio.gather(ann.close(), first.close(), second.close(), third.close())


async def test_a_resize_reaches_the_game(web: Served) -> None:
    browser = await open_browser(web, cols=80, rows=24)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("Welcome, dora.")
    await browser.press("p")
    await browser.wait_for("New game")
    browser.screen.resize(100, 30)
    await browser.ws.send_str(json.dumps({"t": "resize", "cols": 100, "rows": 30}))
    await browser.wait_until(footer_at(100, 30))
    await browser.ws.send_str(json.dumps({"t": "resize", "cols": "wide", "rows": -1}))
    await browser.ws.send_str("not json")
    await browser.press("q")  # the game goes on: it quits when asked
    said = await browser.next_said()
    assert said == {"t": "bye", "text": "Thanks for playing."}
    await browser.close()


def test_an_origin_is_the_pages_own_only_with_the_same_host_and_port() -> None:
    assert same_origin("http://example.org:8080", "example.org:8080")
    assert same_origin("https://Example.org", "example.org")
    assert not same_origin("http://example.org:8081", "example.org:8080")
    assert not same_origin("http://example.org.evil:8080", "example.org:8080")
    assert not same_origin("file://example.org", "example.org")
    assert not same_origin(None, "example.org")
    assert not same_origin("http://example.org", None)


def test_the_browsers_language_is_the_most_wanted_the_game_speaks() -> None:
    assert language_of("fr-FR,ru;q=0.8,bg;q=0.9") == "bg"
    assert language_of("ru-RU") == "ru"
    assert language_of("fr, de;q=0.5") == "en"
    assert language_of("bg;q=0, ru;q=x") == "en"
    assert language_of(None) == "en"


async def test_closing_the_tab_ends_the_game_and_frees_the_seat(web: Served) -> None:
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("Welcome, dora.")
    visit = next(iter(web.server.visits))
    proc = visit.proc  # type: ignore[attr-defined]
    await browser.close()
    await eventually(lambda: proc.returncode is not None, "the game's process ends")
    await eventually(lambda: not web.server.visits and not web.server.sessions,
                     "the seat is free")
    await eventually(lambda: not web.server.connections, "the connection is let out")


async def test_keys_faster_than_a_hand_are_dropped_and_the_game_still_answers(
        make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, input_rate=512.0, input_burst=256))
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("Welcome, dora.")
    for _i in range(50):
        await browser.ws.send_bytes(b"\x1b[A" * 80)  # 240 bytes a frame, 12 KB in all
    visit = next(iter(web.server.visits))
    await eventually(lambda: visit.input_gate.dropped > 0, "the flood is dropped")  # type: ignore[attr-defined]
    await asyncio.sleep(256 / 512.0)  # the gate refills
    await browser.press("p")
    await browser.wait_for("New game")
    await browser.close()


async def test_an_idle_browser_is_told_and_let_go(make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, idle_timeout=1.0))
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    said = await browser.next_said()
    while said["t"] not in ("bye", "closed"):
        said = await browser.next_said()
    assert said == {"t": "bye", "text": "You were idle for 1 second; come back any time."}
    await browser.close()
    await eventually(lambda: not web.server.visits, "the visit ends")


async def test_an_ssh_visitor_challenges_a_browser_visitor(web: Served) -> None:
    ann = await come(web.server, "ann", new_key())
    browser = await open_browser(web)
    assert await browser.hello("bob") == {"t": "ready"}
    await browser.wait_for("Welcome, bob.", "ann")
    await ann.wait_for("bob · guest")
    ann.press("enter")
    await browser.wait_for("ann challenges you")
    await browser.press("a")
    await asyncio.gather(ann.wait_for("Your hand"), browser.wait_for("Your hand"))
    await asyncio.gather(ann.close(), browser.close())


async def test_a_browser_that_takes_no_output_pauses_its_game_then_is_let_go(
        make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, stall_timeout=1.0))
    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("Welcome, dora.")
    visit = next(iter(web.server.visits))
    never = asyncio.Event()

    async def stuck(data: bytes, *args: Any) -> None:
        await never.wait()  # the browser takes nothing more: the writer waits for ever

    visit.ws.send_bytes = stuck  # type: ignore[attr-defined]
    proc = visit.proc  # type: ignore[attr-defined]
    await browser.press("p")  # the menu: output that cannot go out
    await eventually(lambda: not web.server.visits, "the stalled visit ends", timeout=15)
    assert visit.cause == "stopped taking output"  # type: ignore[attr-defined]
    await eventually(lambda: proc.returncode is not None, "its game's process ends")
    await browser.close()


async def test_a_ban_of_an_address_refuses_a_browser_with_its_words(web: Served) -> None:
    from tui_domino.community import sanctions

    store = web.server.store
    assert store is not None
    sanctions.record(store, "olga", sanctions.BAN, sanctions.ADDRESS, "127.0.0.1",
                     "127.0.0.1", until=store.now() + 3600, reason="insults")
    browser = await open_browser(web)
    said = await browser.hello("dora")
    while said["t"] == "ready":  # (signed in, then refused before his game starts)
        said = await browser.next_said()
    assert said["t"] == "bye"
    assert "You are banned from this server until" in said["text"] and "insults" in said["text"]
    await eventually(lambda: not web.server.visits and not web.server.lobby.members,
                     "no game started")
    await browser.close()


async def test_an_operators_kick_ends_a_browser_visit_with_his_words(web: Served) -> None:
    from tui_domino.ssh.moderation import kick_words

    browser = await open_browser(web)
    assert await browser.hello("dora") == {"t": "ready"}
    await browser.wait_for("Welcome, dora.")
    (member,) = web.server.lobby.members.values()
    web.server.dismiss(member, kick_words("spam"))
    said = await browser.next_said()
    while said["t"] != "bye":
        said = await browser.next_said()
    assert said["text"] == "An operator ended your visit: spam"
    await eventually(lambda: not web.server.visits, "the visit ended")
    await browser.close()


async def test_a_frame_nested_past_the_parsers_depth_leaves_no_ghost_game(
        make_web: Any) -> None:
    """A text frame of 3,000 "[" raised RecursionError, which ended the socket's handler and
    left the game running, holding a seat, with nobody to end it."""
    web = await make_web()
    browser = await open_browser(web)
    assert (await browser.hello("dora"))["t"] == "ready"
    await browser.wait_for("Welcome, dora.")
    await browser.ws.send_str("[" * 3000)  # dropped: the visit goes on
    await browser.ws.send_str(json.dumps({"t": "resize", "cols": 90, "rows": 30}))
    await eventually(lambda: next(iter(web.server.visits)).size == (90, 30),
                     "the next frame taken")
    await browser.close()
    await eventually(lambda: not web.server.visits and not web.server.lobby.members,
                     "the visit over with its socket")


async def test_whatever_ends_the_socket_ends_the_visit(
        make_web: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The class: an error in taking a frame ends the socket's handler, and with it the
    visit and its game."""
    from tui_domino.web.visit import WebVisit

    web = await make_web()
    browser = await open_browser(web)
    assert (await browser.hello("dora"))["t"] == "ready"
    await browser.wait_for("Welcome, dora.")

    def broken(self: WebVisit, data: bytes | str) -> None:
        raise RuntimeError("a bug in taking a frame")

    monkeypatch.setattr(WebVisit, "received", broken)
    await browser.press("x")
    await eventually(lambda: not web.server.visits and not web.server.lobby.members,
                     "the visit over")
    await browser.session.close()


async def test_the_login_grace_is_a_deadline_whatever_pings_come(make_web: Any) -> None:
    """A socket that never signs in, answering the server's heartbeat and pinging on its
    own, was still open at 65 s against a 20 s grace: the grace counts from the opening."""
    web = await make_web(limits=replace(TEST_LIMITS, login_grace=1.0,
                                        keepalive_interval=0.2))
    browser = await open_browser(web)
    loop = asyncio.get_running_loop()
    opened = loop.time()
    while not browser.ws.closed and loop.time() - opened < 5:
        await browser.ws.ping()
        with contextlib.suppress(TimeoutError):
            msg = await browser.ws.receive(timeout=0.1)
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.CLOSING):
                break
    assert browser.ws.closed or msg.type != aiohttp.WSMsgType.TEXT
    assert loop.time() - opened < 2.5  # (1 s, and a moment)
    await eventually(lambda: not web.server.connections, "its connection let out")
    await browser.session.close()


async def _idle(port: int, n: int, source: str) -> list[tuple[Any, Any]]:
    """``n`` TCP connections to ``port`` from ``source`` that send nothing."""
    out = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                       local_addr=(source, 0))
        out.append((reader, writer))
    return out


async def _open(pair: tuple[Any, Any]) -> bool:
    """Whether the server still holds this connection open (it sent nothing back)."""
    reader, _writer = pair
    try:
        data = await asyncio.wait_for(reader.read(1), 0.05)
    except TimeoutError:
        return True
    except ConnectionError:
        return False
    return bool(data)


async def test_idle_connections_are_bounded_per_address_and_in_time(make_web: Any) -> None:
    """1,100 idle connections from one address took both doors down: they cost nothing
    before a sign-in. Now an address holds a few at once, each for the login grace (2 s
    here)."""
    web = await make_web(limits=replace(TEST_LIMITS, max_per_address=2, login_grace=2.0))
    gate = web.door.gate
    assert gate is not None and gate.per_address == 12
    idle = await _idle(web.door.port, 40, "127.0.0.2")
    await eventually(lambda: gate.by_address.get("127.0.0.2") == 12, "twelve counted")
    held = [await _open(pair) for pair in idle]
    assert sum(held) == 12, held  # the rest closed as they opened
    async with aiohttp.ClientSession() as session, session.get(web.url) as response:
        assert response.status == 200  # another address is served at once
    loop = asyncio.get_running_loop()
    start = loop.time()
    await eventually(lambda: not gate.gates, "the idle ones closed after the grace")
    assert loop.time() - start < 4
    assert not any([await _open(pair) for pair in idle])
    for _reader, writer in idle:
        writer.close()


async def test_idle_connections_are_bounded_in_all(make_web: Any) -> None:
    web = await make_web(limits=replace(TEST_LIMITS, max_visitors=1, max_per_address=100,
                                        login_grace=20.0))
    gate = web.door.gate
    assert gate is not None and gate.most == web.server.limits.max_connections + 32 == 42
    idle = []
    for n in range(3, 9):  # six addresses, ten each
        idle += await _idle(web.door.port, 10, f"127.0.0.{n}")
    await eventually(lambda: len(gate.gates) == 42, "42 counted in all")
    held = [await _open(pair) for pair in idle]
    assert sum(held) == 42
    for _reader, writer in idle:
        writer.close()
    await eventually(lambda: not gate.gates and not gate.by_address, "all let out")


@pytest.mark.parametrize(("host", "served"), [
    ("127.0.0.1:{port}", True), ("localhost:{port}", True), ("[::1]:{port}", True),
    ("10.1.2.3", True), ("game.example:{port}", True),  # (named with --web-host)
    ("evil.example:{port}", False), ("127.0.0.1.evil.example", False), ("", False),
])
async def test_a_request_for_a_name_the_page_is_not_served_under_is_refused(
        make_web: Any, host: str, served: bool) -> None:
    """DNS rebinding: another site's page that rebinds its name to this machine sends its
    own name as Host (and as its Origin, so the socket's check passed): refused."""
    from tui_domino.web.door import WebDoor

    web = await make_web()
    door = WebDoor(web.server, "127.0.0.1", 0, names=frozenset({"game.example"}))
    await door.start()
    try:
        async with aiohttp.ClientSession() as session:
            url = f"http://127.0.0.1:{door.port}/"
            async with session.get(url, headers={"Host": host.format(port=door.port)}
                                   ) as response:
                assert (response.status == 200) is served, response.status
                assert "Python" not in response.headers.get("Server", "")
                assert "aiohttp" not in response.headers.get("Server", "")
                if not served:
                    assert response.status == 421
                    assert "evil" not in await response.text()  # (no echo of the request)
    finally:
        await door.close()


async def test_over_https_the_page_asks_browsers_to_keep_to_it(make_web: Any,
                                                               tmp_path: Any) -> None:
    import datetime
    import ssl

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    from tui_domino.web.door import WebDoor

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(1)
            .not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(key, hashes.SHA256()))
    (tmp_path / "c.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "k.pem").write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tmp_path / "c.pem", tmp_path / "k.pem")
    web = await make_web()
    door = WebDoor(web.server, "127.0.0.1", 0, ssl_context=context)
    await door.start()
    try:
        async with aiohttp.ClientSession() as session, \
                session.get(f"https://127.0.0.1:{door.port}/", ssl=False) as response:
            assert response.status == 200
            assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
        async with aiohttp.ClientSession() as session, session.get(web.url) as response:
            assert "Strict-Transport-Security" not in response.headers  # (plain HTTP)
    finally:
        await door.close()


async def test_wrong_codes_lock_the_guesser_out_and_leave_the_owners_code_good(
        make_web: Any) -> None:
    """Anyone who knew a name voided its owner's code with five wrong ones, answered at
    once and counted nowhere. Now each is a failed login of the guesser's address."""
    web = await make_web(limits=replace(TEST_LIMITS, fail_count=3))
    store = web.server.store
    assert store is not None
    ann = accounts.sign_in(store, "ann", "SHA256:annskey")
    assert isinstance(ann, accounts.Member)
    code = accounts.new_code(store, ann.account.id)
    wrong = "ZZZZ-ZZZZ" if code != "ZZZZ-ZZZZ" else "YYYY-YYYY"
    said = []
    for _ in range(3):
        browser = await open_browser(web)
        said.append(await browser.hello("ann", code=wrong))
        await browser.close()
    assert "That code does not sign in ann" in said[0]["text"]
    assert "too many failed logins" in said[-1]["text"]  # locked out at the third
    browser = await open_browser(web)  # the right code from the locked-out address: no
    said_now = await browser.hello("ann", code=code)
    assert said_now["t"] == "refused" and "too many failed logins" in said_now["text"]
    await browser.close()
    owner = accounts.sign_in_by_code(store, "ann", code)  # ... and the owner's code is good
    assert isinstance(owner, accounts.Member)


@pytest.mark.parametrize("request_bytes", [
    b"G\x00T / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",  # a method that is none
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"<b>" * 7000 + b"\r\n\r\n",  # too long
])
async def test_a_request_that_cannot_be_read_is_answered_by_its_status_alone(
        make_web: Any, caplog: pytest.LogCaptureFixture, request_bytes: bytes) -> None:
    """aiohttp's answer echoed the request ("Got more than 8190 bytes when reading: b'aaa…'"),
    named Python's and its own versions, and the log kept a traceback each time."""
    import logging

    web = await make_web()
    with caplog.at_level(logging.DEBUG):
        reader, writer = await asyncio.open_connection("127.0.0.1", web.door.port)
        writer.write(request_bytes)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 10)
        writer.close()
    head, _sep, body = answer.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == b"400"
    assert body == b"400 Bad Request\n"
    assert b"Server: tui-domino" in head and b"Python" not in answer
    assert not [r for r in caplog.records if r.exc_info or r.name.startswith("aiohttp")]
