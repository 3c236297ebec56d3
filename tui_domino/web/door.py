"""The web door: ``tui-domino serve --web PORT`` serves a page on which a browser visitor
plays in the same lobby as the SSH visitors (docs/web.md).

The page (``static/``: xterm.js, its fit addon and the DejaVu Sans Mono font, all served
from here: the page asks no other host for anything) signs the visitor in, then shows his
game in a terminal. Each tab with a game open is a visitor like an SSH one: a process of
its own on a pseudo-terminal of its own (``web/visit.py``), under the SSH server's caps
(``GameServer``: visitors at once, connections at once in all and per address, new ones per
address and minute, the failed-login lockout) and its password.

The websocket (``/ws``) is only accepted from the page's own origin (its ``Origin`` is the
``Host`` it was asked of: no other site's page can open it), its frames are bounded
(``MAX_FRAME``), and it costs a game only once the visitor is signed in: the first frame,
within ``login_grace`` seconds, is ``{"t": "hello", "name": ..., "code": ...,
"password": ..., "resume": ..., "cols": 80, "rows": 24}``. The server answers
``{"t": "ready"}`` (the game starts; to an account, with ``"resume"``: the tab's pass back
in after a reload, ``Passes``) or ``{"t": "refused", "text": ...}`` and closes.

Who is who: a name alone is a guest's (checked as an SSH visitor's is: what shows of it, and
a name an account owns, or a look-alike of it, is refused); an account's owner signs in with
the one-time code his SSH lobby gives him (``c``), and plays rated as himself.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gettext
import hashlib
import hmac
import html
import ipaddress
import json
import logging
import secrets
import ssl
import time
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from importlib import resources
from typing import Any, cast
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from aiohttp.web_protocol import RequestHandler

from tui_domino import i18n
from tui_domino.community import accounts
from tui_domino.i18n import N_
from tui_domino.names import player_name
from tui_domino.net.guessing import plain_address
from tui_domino.ssh.server import GameServer, shown_name
from tui_domino.ssh.visit import catalog, told
from tui_domino.web.visit import WebVisit

log = logging.getLogger("tui_domino.web")

# The largest frame a browser may send (a paste is cut by the InputGate's burst anyway).
MAX_FRAME = 16 * 1024
# The most of a hello's fields read.
MAX_FIELD = 256
# TCP connections at once from one address: this many, and two for each visitor the server
# lets an address have (a browser opens up to six to load a page, and one for its game);
# and in all: the server's connections at once (``Limits.max_connections``) and this many.
PER_ADDRESS = 8
EXTRA = 32
# Seconds an HTTP connection is kept open for its next request.
KEEPALIVE = 5.0
SERVER = "tui-domino"  # the responses' Server header

STATIC = resources.files("tui_domino.web") / "static"
# What the page loads, and its type; nothing else is served.
FILES = {
    "xterm.js": "text/javascript",
    "addon-fit.js": "text/javascript",
    "app.js": "text/javascript",
    "xterm.css": "text/css",
    "page.css": "text/css",
    "DejaVuSansMono.ttf": "font/ttf",
    "DejaVuSansMono-Bold.ttf": "font/ttf",
}

# Every response: the page runs only its own scripts, loads and connects only to its own
# server, and is shown in no other site's frame.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; "  # (xterm.js colours its cells with styles)
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}

# The page's words, in the visitor's language (his browser's Accept-Language).
PAGE_WORDS = {
    # TRANSLATORS: the web page's sign-in form: its first line
    "intro": N_("Dominoes in your browser, in the same lobby as the SSH visitors. Choose a "
                "name to play as a guest."),
    # TRANSLATORS: the web page's sign-in form: a field's label
    "name_label": N_("Your name"),
    # TRANSLATORS: the web page's sign-in form: a field's label
    "code_label": N_("Code (only if you have an account)"),
    # TRANSLATORS: the web page's sign-in form, under the code's field
    "code_hint": N_("Have an account? Press c in your SSH lobby: the one-time code it shows "
                    "signs this browser in as you, to play rated."),
    # TRANSLATORS: the web page's sign-in form: a field's label
    "password_label": N_("The server's password"),
    # TRANSLATORS: the web page's sign-in form: its button
    "play": N_("Play"),
    # TRANSLATORS: the web page, when its connection to the server ends without a word
    "gone": N_("The connection to the server was lost."),
    # TRANSLATORS: the web page, when Play is pressed and the server does not answer
    "down": N_("The server does not answer: it may be down, or your network is. Try again "
               "in a moment."),
    # TRANSLATORS: the web page, while it connects again by itself after a lost connection
    "retrying": N_("The connection to the server was lost: connecting again…"),
}

# TRANSLATORS: the web page: the password given is not the server's
WRONG_PASSWORD = N_("That is not the server's password.")
# TRANSLATORS: the web page, on a server that lets in only the SSH keys it knows
KEYS_ONLY = N_("This server lets in only the SSH keys it knows: a browser cannot sign in.")
# TRANSLATORS: the web page: {name}: a player's name; c is the key to press in the lobby
TAKEN = N_("The name {name} belongs to a player with an account. Choose another name; or, "
           "if it is yours, press c in your SSH lobby and give the code here.")
# TRANSLATORS: the web page, when a reloaded tab's sign-in is no longer good (used, too
# old, or the server restarted); c is the key to press in the lobby
PASS_GONE = N_("Your sign-in has ended: sign in again (c in your SSH lobby gives a code).")


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a websocket's ``Origin`` is the page's own: the ``Host`` it was asked of
    (a browser always sends ``Origin``; without one, it is refused too)."""
    if not origin or not host:
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` is one the page is served under: an address (what no
    other site's page can be made to send: a page that rebinds its own name to this
    machine still sends that name), ``localhost``, or one of ``names``
    (``serve --web-host``)."""
    if not host:
        return False
    try:
        name = urlsplit(f"//{host}").hostname or ""
    except ValueError:
        return False
    if name in names or name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def language_of(accept: str | None) -> str:
    """The visitor's language from his browser's ``Accept-Language`` ("ru-RU,ru;q=0.9,
    en;q=0.8"): the most wanted one the game speaks; English when none."""
    wanted: list[tuple[float, int, str]] = []
    for n, part in enumerate((accept or "")[:500].split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        code = i18n.supported(tag.strip())
        if code is not None and quality > 0:
            wanted.append((-quality, n, code))
    return min(wanted)[2] if wanted else i18n.DEFAULT


@functools.cache
def static_file(name: str) -> bytes:
    """One of the page's ``FILES``, read once."""
    return (STATIC / name).read_bytes()


@functools.cache
def page(language: str, password: bool) -> str:
    """The page, in ``language``; with the password's field on a server that asks one."""
    words = catalog(language)
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    values = {key: told(words, message) for key, message in PAGE_WORDS.items()}
    values["lang"] = language
    values["password_hidden"] = "" if password else " hidden"
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", html.escape(value, quote=True)
                            if key != "password_hidden" else value)
    return text


class QuietHandler(RequestHandler):
    """aiohttp's request handler, but a request it cannot read (a malformed line, a header
    too long) or that fails is answered with its status alone, not with what it sent (which
    aiohttp's answer echoed), under this server's headers, and logged in one line a few
    times a minute per address (``refused``), not with a traceback."""

    refused: Callable[[str, str], None] = staticmethod(lambda address, what: None)

    def handle_error(self, request: web.BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        what = type(exc).__name__ if exc is not None else str(status)
        self.refused(request.remote or "?", f"{status} ({what})")
        if status >= 500 and exc is not None:
            log.debug("a request's error", exc_info=exc)  # (ours: its trace, at debug)
        if request.writer.output_size > 0:  # (an answer had begun: the connection goes)
            raise ConnectionError("an answer was being sent")
        phrase = HTTPStatus(status).phrase if status in HTTPStatus.__members__.values() else ""
        response = web.Response(status=status, text=f"{status} {phrase}\n",
                                headers={**HEADERS, "Server": SERVER})
        response.force_close()
        return response


class Gate(asyncio.Protocol):
    """One TCP connection to the web door, counted by its ``Gatekeeper``: past the caps it
    is closed as it opens; a connection that has not become a game's socket is closed
    ``deadline`` seconds after it opened, whatever it sends (a page and its files take a
    moment; a socket that holds a descriptor without asking anything, or asks slowly, is
    gone then). Everything else is the request handler's (``inner``)."""

    def __init__(self, keeper: Gatekeeper, inner: asyncio.Protocol) -> None:
        self.keeper = keeper
        self.inner = inner
        self.address: str | None = None  # counted against this address
        self.timer: asyncio.TimerHandle | None = None
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.inner.connection_made(transport)
        self.keeper.opened(self, cast(asyncio.Transport, transport))

    def connection_lost(self, exc: Exception | None) -> None:
        self.keeper.closed(self)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Gatekeeper:
    """Counts the web door's TCP connections, in all and by address, from the moment they
    open (before any sign-in: a page, its files, a socket on its way to a game), and bounds
    them: at most ``per_address`` from one address and ``most`` in all at once, each
    ``deadline`` seconds at most until it becomes a game's socket (``upgraded``)."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], per_address: int, most: int,
                 deadline: float, refused: Callable[[str], None]) -> None:
        self.factory = factory
        self.per_address = per_address
        self.most = most
        self.deadline = deadline
        self.refused = refused  # (for the log: an address refused a connection)
        self.by_address: dict[str, int] = {}
        self.gates: dict[asyncio.BaseTransport, Gate] = {}

    def __call__(self) -> Gate:
        return Gate(self, self.factory())

    def opened(self, gate: Gate, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = plain_address(str(peer[0])) if peer else "?"
        if (len(self.gates) >= self.most
                or self.by_address.get(address, 0) >= self.per_address):
            self.refused(address)
            transport.abort()  # (a flood: no words, and its descriptor back at once)
            return
        gate.address = address
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.gates[transport] = gate
        gate.timer = asyncio.get_running_loop().call_later(self.deadline, transport.abort)

    def closed(self, gate: Gate) -> None:
        if gate.timer is not None:
            gate.timer.cancel()
            gate.timer = None
        if gate.address is None or gate.transport is None:
            return
        self.gates.pop(gate.transport, None)
        left = self.by_address.pop(gate.address, 1) - 1
        if left > 0:
            self.by_address[gate.address] = left
        gate.address = None

    def upgraded(self, transport: asyncio.BaseTransport | None) -> None:
        """``transport`` became a game's socket: its time is the socket's own now (the
        login grace, then the visit's limits); it still counts."""
        gate = self.gates.get(transport) if transport is not None else None
        if gate is not None and gate.timer is not None:
            gate.timer.cancel()
            gate.timer = None


class GatedSite(web.TCPSite):
    """aiohttp's TCP site, its connections let through a ``Gatekeeper``."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, keeper: Gatekeeper,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        super().__init__(runner, host, port, ssl_context=ssl_context)
        self.keeper = keeper

    async def start(self) -> None:
        await web.BaseSite.start(self)  # (registered with the runner: TCPSite's own
        # start would hand its server the handler's factory, not the gate)
        self._server = await asyncio.get_running_loop().create_server(
            self.keeper, self._host, self._port, ssl=self._ssl_context, backlog=self._backlog)
        if self._server.sockets:
            self._bound_port = self._server.sockets[0].getsockname()[1]


class WebConnection:
    """A websocket let in: counted against the server's caps until it closes."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws

    def close(self) -> None:
        if not self.ws.closed:
            asyncio.get_running_loop().create_task(self.ws.close())


class WebDoor:
    """The web door of ``server``: ``await start()``, ``await close()`` (after the server's
    own ``close``, which ends every visit)."""

    def __init__(self, server: GameServer, host: str = "127.0.0.1", port: int = 8080,
                 ssl_context: ssl.SSLContext | None = None,
                 names: frozenset[str] = frozenset()) -> None:
        self.server = server
        self.host = host
        self.port = port
        self.ssl_context = ssl_context
        # The host names the page is served under (besides addresses and localhost): a
        # request for another (a page that rebinds its name to this machine) is refused.
        self.names = frozenset(n.lower() for n in names)
        self.runner: web.AppRunner | None = None
        server.lobby.web = True  # (a code from the lobby signs a browser in too)
        self.passes = Passes()  # a signed-in tab's way back in after a reload
        self.gate: Gatekeeper | None = None  # its TCP connections, counted (once started)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_FRAME, middlewares=[self._host_check])
        app.router.add_get("/", self.index)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/ws", self.socket)
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> list[str]:
        self.runner = web.AppRunner(self.app(), access_log=None, handle_signals=False,
                                    shutdown_timeout=1.0, keepalive_timeout=KEEPALIVE)
        await self.runner.setup()
        assert self.runner.server is not None
        limits = self.server.limits
        manager, loop = self.runner.server, asyncio.get_running_loop()

        def handler() -> QuietHandler:
            made = QuietHandler(manager, loop=loop, keepalive_timeout=KEEPALIVE,
                                access_log=cast(logging.Logger, None))  # (no access log)
            made.refused = self._unreadable
            return made

        self.gate = Gatekeeper(
            handler, per_address=PER_ADDRESS + 2 * limits.max_per_address,
            most=limits.max_connections + EXTRA, deadline=limits.login_grace,
            refused=lambda address: self.server.refusals_log.line(
                address, "refused a web connection from %s: too many at once", address))
        site = GatedSite(self.runner, self.host, self.port, self.gate,
                         ssl_context=self.ssl_context)
        await site.start()
        addresses = self.runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        scheme = "https" if self.ssl_context is not None else "http"
        return [f"The web door is open: {scheme}://{self.host}:{self.port}/"]

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    def _unreadable(self, address: str, what: str) -> None:
        self.server.refusals_log.line(address, "a request from %s could not be served: %s",
                                      address, what)

    @web.middleware
    async def _host_check(self, request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                          ) -> web.StreamResponse:
        """A request for a host name the page is not served under is refused (421)."""
        if not host_allowed(request.host, self.names):
            log.info("refused a request from %s for the host %r", request.remote,
                     request.host[:100])
            raise web.HTTPMisdirectedRequest(
                text="tui-domino: this server is not served under that name (serve "
                     "--web-host NAME adds one).")
        return await handler(request)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)
        response.headers["Server"] = SERVER  # (not the Python and aiohttp versions)
        if self.ssl_context is not None:  # (served over HTTPS: browsers keep to it)
            response.headers["Strict-Transport-Security"] = "max-age=31536000"

    # -- the page ----------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        language = language_of(request.headers.get("Accept-Language"))
        return web.Response(text=page(language, self.server.password is not None),
                            content_type="text/html", headers={"Cache-Control": "no-store"})

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        kind = FILES.get(name)
        if kind is None:
            raise web.HTTPNotFound()
        return web.Response(body=static_file(name), content_type=kind,
                            headers={"Cache-Control": "max-age=3600"})

    # -- the game's socket -------------------------------------------------------------------

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        if not same_origin(request.headers.get("Origin"), request.host):
            log.info("refused a websocket from %s: its origin %r is not %r", request.remote,
                     request.headers.get("Origin", "")[:100], request.host[:100])
            raise web.HTTPForbidden(text="tui-domino: another site's page may not open this "
                                         "socket.")
        server = self.server
        limits = server.limits
        ws = web.WebSocketResponse(
            max_msg_size=MAX_FRAME, compress=False,
            heartbeat=limits.keepalive_interval or None,
            writer_limit=max(4096, limits.write_buffer // 4))
        await ws.prepare(request)
        if self.gate is not None:
            self.gate.upgraded(request.transport)
        address = request.remote or "?"
        language = language_of(request.headers.get("Accept-Language"))
        refusal = server.admission(address)
        if refusal is not None:
            server.refusals_log.line(address, "refused a web connection from %s: %s", address,
                                     refusal[0])
            await self._refuse(ws, refusal[0])  # (English: so are the SSH door's)
            return ws
        conn = WebConnection(ws)
        server.let_in(conn, address)
        try:
            await self._visit(ws, address, language)
        finally:
            server.let_out(conn, address)
            if not ws.closed:
                await ws.close()
        return ws

    async def _visit(self, ws: web.WebSocketResponse, address: str, language: str) -> None:
        server = self.server
        words = catalog(language)
        try:  # (a deadline from the socket's opening, whatever pings and pongs come)
            async with asyncio.timeout(server.limits.login_grace):
                msg = await ws.receive()
        except TimeoutError:
            log.info("a web socket from %s did not sign in within %gs; closed", address,
                     server.limits.login_grace)
            return
        hello = _hello(msg)
        if hello is None:
            return
        signed = await self.sign_in(hello, address, words)
        if isinstance(signed, str):
            await self._refuse(ws, signed)
            return
        name, account = signed
        refusal = server.refusal(words, account)
        if refusal is not None:
            await self._refuse(ws, refusal)
            return
        cols, rows = hello.get("cols"), hello.get("rows")
        size = ((cols, rows) if type(cols) is int and type(rows) is int
                and 0 < cols <= 1000 and 0 < rows <= 1000 else (80, 24))
        visit = WebVisit(server, ws, address, name, account, language, size)
        visit.take_seat()  # (now: no other visitor is let in past the cap meanwhile)
        game = asyncio.get_running_loop().create_task(visit.run())
        ready: dict[str, Any] = {"t": "ready"}
        if account is not None:  # (the tab keeps it: a reload comes back as him)
            ready["resume"] = self.passes.issue(account)
        try:  # (whatever ends the socket, an error too, ends the visit: no game is left)
            await ws.send_str(json.dumps(ready))
            async for frame in ws:
                if frame.type in (WSMsgType.BINARY, WSMsgType.TEXT):
                    visit.received(frame.data)
        finally:
            visit.hung_up()
        await game

    async def sign_in(self, hello: dict[str, Any], address: str,
                      words: gettext.NullTranslations) -> tuple[str, int | None] | str:
        """Who the hello's visitor is (his name as shown, his account or None), or why he
        may not come in (in his language)."""
        server = self.server
        locked_out = server.locked_out(address)
        if locked_out is not None:
            return locked_out
        if server.authorized_keys and not server.password:
            return told(words, KEYS_ONLY)
        if server.password is not None:
            given = hello.get("password", "")
            if not hmac.compare_digest(given.encode(), server.password.encode()):
                server.failures_log.line(address, "failed web login from %s: a wrong "
                                         "password for %s", address,
                                         shown_name(hello.get("name", "")))
                server.login_failed(address)
                await asyncio.sleep(server.limits.auth_delay)
                return server.locked_out(address) or told(words, WRONG_PASSWORD)
        name = player_name(hello.get("name", ""))
        store = server.store
        if store is None:
            return name, None
        if hello.get("resume"):  # a tab signed in before (reloaded): the same visitor
            kept = self.passes.take(hello["resume"])
            known = accounts.account_by_id(store, kept) if kept is not None else None
            if known is None:  # (spent, too old, or the server's restarted since)
                return told(words, PASS_GONE)
            log.info("%s came back by his tab's pass (%s, web)", known.name, address)
            return known.name, known.id
        code = accounts.normal_code(hello.get("code", ""))
        signed = (accounts.sign_in_by_code(store, name, code) if code
                  else accounts.sign_in(store, name, None))
        if isinstance(signed, accounts.Member):
            log.info("%s signed in by a code (%s, web)", signed.account.name, address)
            return signed.account.name, signed.account.id
        if isinstance(signed, accounts.Guest):
            return signed.name, None
        server.refusals_log.line(address, "refused %s from %s (web): %s", shown_name(name),
                                 address, signed.reason)
        if signed.reason == accounts.BAD_CODE:
            # (a failed login of the address: its lockout bounds the guessing, and the
            # owner's code stays good whatever a stranger tries)
            server.login_failed(address)
            await asyncio.sleep(server.limits.auth_delay)
            locked_out = server.locked_out(address)
            if locked_out is not None:
                return locked_out
            minutes = int(accounts.CODE_LIFETIME // 60)
            # TRANSLATORS: the web page; {name}: a player's name, {minutes}: how long a
            # code is valid (10)
            return words.ngettext("That code does not sign in {name}: it is wrong, used or "
                                  "more than {minutes} minute old. Press c in your SSH lobby "
                                  "for a new one.",
                                  "That code does not sign in {name}: it is wrong, used or "
                                  "more than {minutes} minutes old. Press c in your SSH lobby "
                                  "for a new one.", minutes).format(name=signed.name,
                                                                    minutes=minutes)
        return str(told(words, TAKEN).format(name=signed.name))

    @staticmethod
    async def _refuse(ws: web.WebSocketResponse, text: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(json.dumps({"t": "refused", "text": text}))
        await ws.close()


class Passes:
    """The passes of signed-in tabs: a tab that signed in to an account is given one (in
    ``ready``), keeps it in its session's storage, and shows it in its next hello when it
    is reloaded, instead of a code: it comes back as the same visitor (to his table, when
    his seat is kept: ssh/seats.py). A pass is good once (each use gives a new one), for
    ``LIFETIME`` seconds, and only while the server runs; only its hash is kept."""

    LIFETIME = 12 * 3600.0
    MOST = 4096  # passes kept at once (the oldest go first)

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._kept: dict[str, tuple[int, float]] = {}  # by hash: the account, its expiry

    @staticmethod
    def _hash(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    def issue(self, account: int) -> str:
        token = secrets.token_urlsafe(24)
        while len(self._kept) >= self.MOST:
            del self._kept[next(iter(self._kept))]
        self._kept[self._hash(token)] = (account, self.clock() + self.LIFETIME)
        return token

    def take(self, token: object) -> int | None:
        """The account of a pass (used up), or None when it is none (wrong, used, or too
        old)."""
        if not isinstance(token, str) or not token:
            return None
        kept = self._kept.pop(self._hash(token), None)
        if kept is None or kept[1] < self.clock():
            return None
        return kept[0]


def _hello(msg: Any) -> dict[str, Any] | None:
    """The hello's fields (strings cut at ``MAX_FIELD``; the size as numbers), or None when
    the frame is no hello."""
    if msg.type != WSMsgType.TEXT:
        return None
    try:
        data = json.loads(msg.data)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("t") != "hello":
        return None
    out: dict[str, Any] = {}
    for key in ("name", "code", "password", "resume"):
        value = data.get(key, "")
        out[key] = value[:MAX_FIELD] if isinstance(value, str) else ""
    for key in ("cols", "rows"):
        value = data.get(key)
        if type(value) is int:
            out[key] = value
    return out
