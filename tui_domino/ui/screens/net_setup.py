"""Setting up a duel over the network: host one (game, target, name, address, port) or
join one (host:port, name). Hosting opens the duel screen in its waiting state, which
shows where the host can be reached; joining waits for the host's greeting here, so that
a refused connection, a timeout or a mismatch is told on this screen."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import re
import socket
from typing import TYPE_CHECKING

import msgspec
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import (
    Button,
    Footer,
    Input,
    Label,
    Select,
    Static,
    TabbedContent,
    TabPane,
    Tabs,
)

from tui_domino import rules
from tui_domino.logs import logged
from tui_domino.net import events as ev
from tui_domino.ui.plain import plain
from tui_domino.ui.session import VARIANT_TITLES
from tui_domino.ui.storage import DUEL_PORT, DuelForm

if TYPE_CHECKING:  # the duel loads when one starts
    from tui_domino.net.transport import DuelSession

DEFAULT_PORT = DUEL_PORT
CONNECT_TIMEOUT = 10.0
GREETING_TIMEOUT = 15.0
HELP = "←→ on the tabs: host or join · Tab: the next field · ⏎ or F5 starts"


def duel_name(name: str) -> str:
    """The name a duel's form opens with: the player's own, but not "You" (the game's
    default, which would read on the other side as the opponent himself); else the one
    the command line goes by (the login name)."""
    from tui_domino.terminal import login_name

    name = name.strip()
    return name if name and name.casefold() != "you" else login_name()


def parse_host_port(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[v6]:PORT``, or ``HOST`` alone (the default port); ValueError with
    a sentence for the player otherwise."""
    text = text.strip()
    if not text:
        raise ValueError("Type the host's address, e.g. 192.168.1.20:7777.")
    m = re.fullmatch(r"(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\s]+))(?::(?P<port>\d+))?", text)
    if not m:
        raise ValueError(f"{text!r} is not an address: write HOST:PORT, e.g. 127.0.0.1:7777.")
    host = m.group("v6") or m.group("host")
    port = int(m.group("port")) if m.group("port") else DEFAULT_PORT
    if not 1 <= port <= 65535:
        raise ValueError(f"The port must be between 1 and 65535, not {port}.")
    return host, port


def parse_port(text: str) -> int:
    text = text.strip()
    if not text:
        return DEFAULT_PORT
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise ValueError(f"The port is a number from 0 to 65535, not {text!r}.")
    return int(text)


def listen_problem(addr: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"Port {port} is already in use on {addr}: choose another port."
    if exc.errno == errno.EACCES:
        return f"Port {port} needs special rights: choose a port above 1023."
    if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
        return f"{addr} is not an address of this machine: try 0.0.0.0 (every network)."
    return f"Cannot listen on {addr}:{port}: {exc.strerror or exc}."


def connect_problem(host: str, port: int, exc: BaseException) -> str:
    where = f"{host}:{port}"
    if isinstance(exc, TimeoutError):
        return (f"No answer from {where} within {CONNECT_TIMEOUT:.0f} seconds: check the "
                "address, and that the host's firewall lets the port in.")
    if isinstance(exc, ConnectionRefusedError):
        return (f"Nobody is hosting a duel at {where} (the connection was refused): check "
                "the address and that the host is waiting.")
    if isinstance(exc, socket.gaierror):
        return f"The host name {host!r} is unknown: check the address."
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return f"{where} cannot be reached from this machine: check the network."
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return f"Cannot connect to {where}: {text}."


def refusal(e: ev.ProtocolError) -> str:
    if e.code == "version":
        return f"The host runs another version of tui-domino ({e.message})."
    if e.code == "mismatch":
        return f"The host's match is not the one you asked for: {e.message}."
    if e.code == "busy":
        return "That host is already playing a match."
    return f"The host refused: {e.message}"


class DuelSetupScreen(Screen[None]):
    """Host or join a duel over the network."""

    CSS_PATH = "net_setup.tcss"

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("f5", "start", "Start"),
    ]

    def __init__(self, tab: str = "host") -> None:
        super().__init__()
        self.tab = tab
        self._session: DuelSession | None = None  # joined, waiting for the host

    def compose(self) -> ComposeResult:
        settings = self.app.settings  # type: ignore[attr-defined]
        saved: DuelForm = settings.extra.duel
        variant = saved.variant or settings.last_variant
        if variant not in rules.VARIANTS:
            variant = "classic"
        with Vertical(id="setup-box") as box:
            box.border_title = "Network duel"
            with TabbedContent(initial=f"{self.tab}-tab"):
                with TabPane("Host a duel", id="host-tab"), Grid(classes="form"):
                    yield Label("Game")
                    yield Select([(VARIANT_TITLES[v], v) for v in rules.VARIANTS],
                                 value=variant, allow_blank=False, id="variant",
                                 compact=True)
                    yield Label("Target")
                    yield Select(self._targets(variant), value=rules.DEFAULT_TARGET[variant],
                                 allow_blank=False, id="target", compact=True)
                    yield Label("Your name")
                    yield Input(duel_name(settings.name), id="host-name", max_length=20,
                                compact=True)
                    yield Label("Listen on")
                    yield Input(saved.listen, id="listen",
                                compact=True)
                    yield Label("Port")
                    yield Input(str(saved.port), id="port",
                                compact=True, restrict=r"\d*", max_length=5)
                with TabPane("Join a duel", id="join-tab"), Grid(classes="form"):
                    yield Label("Host address")
                    yield Input(saved.join,
                                id="address", placeholder="HOST:PORT", compact=True)
                    yield Label("Invitation code")
                    yield Input("", id="code", placeholder="7-classic-orlando (empty: an "
                                "open host)", compact=True, max_length=80)
                    yield Label("Your name")
                    yield Input(duel_name(settings.name), id="join-name", max_length=20,
                                compact=True)
                    yield Label("Game")
                    yield Select([("Whatever the host plays", ""),
                                  *[(f"Only {VARIANT_TITLES[v]}", v) for v in rules.VARIANTS]],
                                 value="", allow_blank=False, id="want", compact=True)
            yield Static(id="message")
            with Horizontal(id="buttons"):
                yield Button("Host", variant="primary", id="start", compact=True)
                yield Button("Back", id="back", compact=True)
        yield Footer()

    def _targets(self, variant: str) -> list[tuple[str, int]]:
        return [(str(t), t) for t in rules.TARGETS[variant]]

    def allowed(self) -> bool:
        """Whether this game may open a port or connect out (not an SSH visitor's)."""
        return bool(getattr(self.app, "NETWORK_DUELS", True))

    def on_mount(self) -> None:
        if not self.allowed():
            from tui_domino.ui.screens.menu import NO_NETWORK

            self.app.notify(NO_NETWORK, title="Network duel", severity="warning")
            self.app.pop_screen()
            return
        self._sync_button()
        self.query_one(TabbedContent).query_one(Tabs).focus()

    @property
    def hosting(self) -> bool:
        return self.query_one(TabbedContent).active == "host-tab"

    def _sync_button(self) -> None:
        self.query_one("#start", Button).label = "Host" if self.hosting else "Join"

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._sync_button()
        self.say(HELP)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and event.value in rules.VARIANTS:
            target = self.query_one("#target", Select)
            target.set_options(self._targets(str(event.value)))
            target.value = rules.DEFAULT_TARGET[str(event.value)]

    def say(self, text: str, severity: str = "") -> None:
        message = self.query_one("#message", Static)
        message.update(plain(text or HELP))
        message.set_class(severity == "error", "-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def action_back(self) -> None:
        self.workers.cancel_group(self, "setup")
        session, self._session = self._session, None
        if session is not None:
            self.app.run_worker(session.close(), group="duel-close", exit_on_error=False)
        self.app.pop_screen()

    def action_start(self) -> None:
        if self._session is not None or not self.allowed():
            return
        if self.hosting:
            self.host()
        else:
            self.join()

    def _remember(self, **values: str | int) -> None:
        settings = self.app.settings  # type: ignore[attr-defined]
        settings.extra.duel = msgspec.structs.replace(settings.extra.duel, **values)
        with contextlib.suppress(OSError):
            settings.save()

    # -- hosting --------------------------------------------------------------------------------

    @work(exclusive=True, group="setup")
    async def host(self) -> None:
        from tui_domino.net.channel import new_code
        from tui_domino.net.core import MatchSettings
        from tui_domino.net.journal import default_path
        from tui_domino.net.transport import DuelSession
        from tui_domino.ui.screens.duel import push_duel

        variant = str(self.query_one("#variant", Select).value)
        target = int(self.query_one("#target", Select).value)  # type: ignore[arg-type]
        name = self.query_one("#host-name", Input).value.strip()
        addr = self.query_one("#listen", Input).value.strip() or "0.0.0.0"
        try:
            port = parse_port(self.query_one("#port", Input).value)
        except ValueError as exc:
            self.say(str(exc), "error")
            return
        if not name:
            self.say("Type your name: your opponent sees it.", "error")
            return
        self.say(f"Opening port {port}…")
        try:
            # A match log on a fixed port: hosting there again resumes a match that
            # was cut short (the app killed), as the command line does.
            journal = default_path("host", addr, port) if port else None
            session = await DuelSession.host(port=port, addr=addr, name=name,
                                             settings=MatchSettings(variant, target),
                                             journal_path=journal, code=new_code())
        except OSError as exc:
            self.say(listen_problem(addr, port, exc), "error")
            return
        except ValueError as exc:
            self.say(f"These match settings cannot be played: {exc}", "error")
            return
        self._remember(variant=variant, listen=addr, port=port)
        self.say("")
        push_duel(self.app, session)

    # -- joining --------------------------------------------------------------------------------

    @work(exclusive=True, group="setup")
    async def join(self) -> None:
        from tui_domino.net.channel import normalize_code
        from tui_domino.net.core import MatchSettings
        from tui_domino.net.journal import default_path
        from tui_domino.net.transport import DuelSession
        from tui_domino.ui.screens.duel import push_duel

        name = self.query_one("#join-name", Input).value.strip()
        typed = self.query_one("#code", Input).value
        try:  # the code the host shows; none: a host that plays open (--open)
            code = normalize_code(typed) if typed.strip() else None
        except ValueError as exc:
            self.say(str(exc), "error")
            return
        want_variant = str(self.query_one("#want", Select).value or "")
        try:
            host, port = parse_host_port(self.query_one("#address", Input).value)
        except ValueError as exc:
            self.say(str(exc), "error")
            return
        if not name:
            self.say("Type your name: your opponent sees it.", "error")
            return
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.say(f"Connecting to {where}…")
        want = MatchSettings(want_variant, None) if want_variant else None
        try:
            session = await DuelSession.join(host, port, name=name, want=want,
                                             connect_timeout=CONNECT_TIMEOUT,
                                             journal_path=default_path("join", host, port),
                                             code=code)
        except (OSError, TimeoutError) as exc:
            self.say(connect_problem(host, port, exc), "error")
            return
        self._session = session
        self._remember(join=where)
        if session.core.started:  # a match of the log resumes: no greeting, a resume
            self._session = None
            self.say("")
            push_duel(self.app, session)
            return
        self.say(f"Connected to {where}: waiting for the host's greeting…")
        backlog: list[ev.Event] = []
        problem = ""
        try:
            async with asyncio.timeout(GREETING_TIMEOUT):
                while True:
                    e = await session.next_event()
                    if e is None:
                        problem = problem or f"{where} closed the connection."
                        break
                    backlog.append(e)
                    if isinstance(e, ev.Connected):
                        break
                    if isinstance(e, ev.ProtocolError) and e.from_peer or (
                            isinstance(e, ev.ProtocolError) and e.code == "mismatch"):
                        problem = problem or refusal(e)
                    elif isinstance(e, ev.ConnectionState) and e.state == "closed":
                        problem = problem or (e.detail or f"{where} closed the connection.")
                        break
        except TimeoutError:
            problem = (f"{where} accepted the connection but did not greet within "
                       f"{GREETING_TIMEOUT:.0f} seconds: is it a tui-domino duel?")
        if problem:
            self._session = None
            self.say(problem, "error")
            with logged("closing a duel that did not start"):
                await session.close()
            return
        self._session = None
        self.say("")
        push_duel(self.app, session, backlog)
