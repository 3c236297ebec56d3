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

import msgspec
from textual import work
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static, TabbedContent, TabPane, Tabs

from tui_domino import rules
from tui_domino.i18n import N_, _, ngettext
from tui_domino.logs import logged
from tui_domino.net import events as ev
from tui_domino.net.core import MatchSettings
from tui_domino.net.journal import default_path, unfinished
from tui_domino.net.transport import DuelSession
from tui_domino.ui.host import NO_NETWORK, game_app
from tui_domino.ui.keys import Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.screens.duel_words import game_title
from tui_domino.ui.session import duel_name
from tui_domino.ui.storage import DUEL_PORT, DuelForm

DEFAULT_PORT = DUEL_PORT
CONNECT_TIMEOUT = 10.0
GREETING_TIMEOUT = 15.0
# TRANSLATORS: the help line under the duel's setup (one line of 60 columns); Tab, ⏎ and
# F5 are keys' names, which stay as they are
HELP = N_("←→ on the tabs: host or join · Tab: the next field · ⏎ or F5 starts")
# TRANSLATORS: the pattern of an address, in the empty field of the host's address
ADDRESS_HINT = N_("HOST:PORT")
# TRANSLATORS: in the empty field of the invitation code: an example of one (kept as it
# is), and what an empty field means
CODE_HINT = N_("7-classic-orlando (empty: an open host)")


def parse_host_port(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[v6]:PORT``, or ``HOST`` alone (the default port); ValueError with
    a sentence for the player otherwise."""
    text = text.strip()
    if not text:
        raise ValueError(_("Type the host's address, e.g. 192.168.1.20:7777."))
    m = re.fullmatch(r"(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\s]+))(?::(?P<port>\d+))?", text)
    if not m:
        # TRANSLATORS: {address} is what the player typed, in quotes; HOST:PORT is the
        # pattern of an address (as the field's placeholder says it)
        raise ValueError(_("{address} is not an address: write HOST:PORT, e.g. "
                           "127.0.0.1:7777.").format(address=repr(text)))
    host = m.group("v6") or m.group("host")
    port = int(m.group("port")) if m.group("port") else DEFAULT_PORT
    if not 1 <= port <= 65535:
        raise ValueError(_("The port must be between 1 and 65535, not {port}.").format(
            port=port))
    return host, port


def parse_port(text: str) -> int:
    text = text.strip()
    if not text:
        return DEFAULT_PORT
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        # TRANSLATORS: {port} is what the player typed, in quotes
        raise ValueError(_("The port is a number from 0 to 65535, not {port}.").format(
            port=repr(text)))
    return int(text)


def listen_problem(addr: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return _("Port {port} is already in use on {address}: choose another port.").format(
            port=port, address=addr)
    if exc.errno == errno.EACCES:
        return _("Port {port} needs special rights: choose a port above 1023.").format(
            port=port)
    if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
        return _("{address} is not an address of this machine: try 0.0.0.0 (every "
                 "network).").format(address=addr)
    # TRANSLATORS: {error} is the system's own words (in English)
    return _("Cannot listen on {address}:{port}: {error}.").format(
        address=addr, port=port, error=exc.strerror or exc)


def connect_problem(host: str, port: int, exc: BaseException) -> str:
    where = f"{host}:{port}"
    if isinstance(exc, TimeoutError):
        seconds = round(CONNECT_TIMEOUT)
        return ngettext("No answer from {address} within {n} second: check the address, "
                        "and that the host's firewall lets the port in.",
                        "No answer from {address} within {n} seconds: check the address, "
                        "and that the host's firewall lets the port in.",
                        seconds).format(address=where, n=seconds)
    if isinstance(exc, ConnectionRefusedError):
        return _("Nobody is hosting a duel at {address} (the connection was refused): check "
                 "the address and that the host is waiting.").format(address=where)
    if isinstance(exc, socket.gaierror):
        return _("The host name {host} is unknown: check the address.").format(
            host=repr(host))
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return _("{address} cannot be reached from this machine: check the network.").format(
            address=where)
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    # TRANSLATORS: {error} is the system's own words (in English)
    return _("Cannot connect to {address}: {error}.").format(address=where, error=text)


def refusal(e: ev.ProtocolError) -> str:
    """The host's refusal in words; its message is the protocol's own (not translated)."""
    if e.code == "version":
        return _("The host runs another version of tui-domino ({message}).").format(
            message=e.message)
    if e.code == "mismatch":
        return _("The host's match is not the one you asked for: {message}.").format(
            message=e.message)
    if e.code == "busy":
        return _("That host is already playing a match.")
    return _("The host refused: {message}").format(message=e.message)


class DuelSetupScreen(Screen[None]):
    """Host or join a duel over the network."""

    CSS_PATH = "net_setup.tcss"

    BINDINGS = [
        Key("escape", "back", "Back"),
        Key("f5", "start", "Start"),
    ]

    def __init__(self, tab: str = "host") -> None:
        super().__init__()
        self.tab = tab
        self._session: DuelSession | None = None  # joined, waiting for the host
        self._help_shown = False  # the message line says HELP (not a problem, not progress)

    def compose(self) -> ComposeResult:
        settings = game_app(self).settings
        saved: DuelForm = settings.extra.duel
        variant = saved.variant or settings.last_variant
        if variant not in rules.VARIANTS:
            variant = "classic"
        with Vertical(id="setup-box") as box:
            box.border_title = _("Network duel")
            with TabbedContent(initial=f"{self.tab}-tab"):
                with TabPane(_("Host a duel"), id="host-tab"), Grid(classes="form"):
                    yield Label(_("Game"), id="variant-label")
                    yield Select(self._games(), value=variant, allow_blank=False,
                                 id="variant", compact=True)
                    yield Label(_("Target"), id="target-label")
                    yield Select(self._targets(variant), value=rules.DEFAULT_TARGET[variant],
                                 allow_blank=False, id="target", compact=True)
                    yield Label(_("Your name"), id="host-name-label")
                    yield Input(duel_name(settings.name), id="host-name", max_length=20,
                                compact=True)
                    # TRANSLATORS: a label: the address (of this machine) the host listens on
                    yield Label(_("Listen on"), id="listen-label")
                    yield Input(saved.listen, id="listen",
                                compact=True)
                    yield Label(_("Port"), id="port-label")
                    yield Input(str(saved.port), id="port",
                                compact=True, restrict=r"\d*", max_length=5)
                with TabPane(_("Join a duel"), id="join-tab"), Grid(classes="form"):
                    yield Label(_("Host address"), id="address-label")
                    yield Input(saved.join,
                                id="address", placeholder=_(ADDRESS_HINT), compact=True)
                    yield Label(_("Invitation code"), id="code-label")
                    yield Input("", id="code", placeholder=_(CODE_HINT), compact=True,
                                max_length=80)
                    yield Label(_("Your name"), id="join-name-label")
                    yield Input(duel_name(settings.name), id="join-name", max_length=20,
                                compact=True)
                    yield Label(_("Game"), id="want-label")
                    yield Select(self._wants(), value="", allow_blank=False, id="want",
                                 compact=True)
            yield Static(id="message")
            with Horizontal(id="buttons"):
                yield Button(_("Host"), variant="primary", id="start", compact=True)
                yield Button(_("Back"), id="back", compact=True)
        yield Footer()

    def _games(self) -> list[tuple[str, str]]:
        return [(game_title(v), v) for v in rules.VARIANTS]

    def _wants(self) -> list[tuple[str, str]]:
        # TRANSLATORS: the joiner's choice of game: any, or only the one named ({game})
        return [(_("Whatever the host plays"), ""),
                *[(_("Only {game}").format(game=game_title(v)), v) for v in rules.VARIANTS]]

    def relabel(self) -> None:
        """The language changed: every word anew, in place (what was typed and chosen is
        kept)."""
        self.query_one("#setup-box").border_title = _("Network duel")
        tabs = self.query_one(TabbedContent)
        tabs.get_tab("host-tab").label = _("Host a duel")
        tabs.get_tab("join-tab").label = _("Join a duel")
        for widget_id, word in (
                ("variant-label", _("Game")), ("target-label", _("Target")),
                ("host-name-label", _("Your name")), ("listen-label", _("Listen on")),
                ("port-label", _("Port")), ("address-label", _("Host address")),
                ("code-label", _("Invitation code")), ("join-name-label", _("Your name")),
                ("want-label", _("Game"))):
            self.query_one(f"#{widget_id}", Label).update(word)
        self.query_one("#address", Input).placeholder = _(ADDRESS_HINT)
        self.query_one("#code", Input).placeholder = _(CODE_HINT)
        with self.prevent(Select.Changed):  # (a game chosen anew would reset the target)
            for select_id, options in (("variant", self._games()), ("want", self._wants())):
                select: Select[str] = self.query_one(f"#{select_id}", Select)
                value = select.value
                select.set_options(options)
                select.value = value
        self._sync_button()
        self.query_one("#back", Button).label = _("Back")
        if self._help_shown:
            self.say("")

    def _targets(self, variant: str) -> list[tuple[str, int]]:
        return [(str(t), t) for t in rules.TARGETS[variant]]

    def allowed(self) -> bool:
        """Whether this game may open a port or connect out (not an SSH visitor's)."""
        return game_app(self).NETWORK_DUELS

    def on_mount(self) -> None:
        if not self.allowed():
            self.app.notify(_(NO_NETWORK), title=_("Network duel"), severity="warning")
            self.app.pop_screen()
            return
        self._sync_button()
        self.query_one(TabbedContent).query_one(Tabs).focus()
        self.find_unfinished()

    @work(thread=True, exclusive=True, group="unfinished")
    def find_unfinished(self) -> None:
        """A duel this player joined and did not finish (his game stopped): its address
        fills the join form, and the message line says it resumes without a code."""
        try:
            found = unfinished("join")
        except OSError:
            return
        if found:
            self.app.call_from_thread(self.offer_resume, *found[0])

    def offer_resume(self, host: str, port: int) -> None:
        address = self.query_one("#address", Input)
        if address.has_focus or self.query_one("#code", Input).value:
            return  # the player is typing another
        where = f"{host}:{port}"
        address.value = where
        # TRANSLATORS: {address} is the host's, as the form shows it; F5 is the key's name
        self.say(_("Your duel at {address} is not over: join it again (F5) to take it up, "
                   "no code needed.").format(address=where))

    @property
    def hosting(self) -> bool:
        return self.query_one(TabbedContent).active == "host-tab"

    def _sync_button(self) -> None:
        self.query_one("#start", Button).label = _("Host") if self.hosting else _("Join")

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._sync_button()
        self.say("")  # the help

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and event.value in rules.VARIANTS:
            target = self.query_one("#target", Select)
            target.set_options(self._targets(str(event.value)))
            target.value = rules.DEFAULT_TARGET[str(event.value)]

    def say(self, text: str, severity: str = "") -> None:
        """``text`` (in the language in use) on the message line; "": the help."""
        self._help_shown = not text
        message = self.query_one("#message", Static)
        message.update(plain(text or _(HELP)))
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
        settings = game_app(self).settings
        settings.extra.duel = msgspec.structs.replace(settings.extra.duel, **values)
        with contextlib.suppress(OSError):
            settings.save()

    # -- hosting --------------------------------------------------------------------------------

    @work(exclusive=True, group="setup")
    async def host(self) -> None:
        # lazy: on demand (the channel and the duel screen, ~80 ms, load when a duel starts)
        from tui_domino.net.channel import new_code
        from tui_domino.ui.screens.duel_run import push_duel

        variant = str(self.query_one("#variant", Select).value)
        target = int(str(self.query_one("#target", Select).value))
        name = self.query_one("#host-name", Input).value.strip()
        addr = self.query_one("#listen", Input).value.strip() or "0.0.0.0"
        try:
            port = parse_port(self.query_one("#port", Input).value)
        except ValueError as exc:
            self.say(str(exc), "error")
            return
        if not name:
            self.say(_("Type your name: your opponent sees it."), "error")
            return
        self.say(_("Opening port {port}…").format(port=port))
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
            self.say(_("These match settings cannot be played: {error}").format(error=exc),
                     "error")
            return
        self._remember(variant=variant, listen=addr, port=port)
        self.say("")
        push_duel(self.app, session)

    # -- joining --------------------------------------------------------------------------------

    @work(exclusive=True, group="setup")
    async def join(self) -> None:
        # lazy: on demand (the channel and the duel screen, ~80 ms, load when a duel starts)
        from tui_domino.net.channel import normalize_code
        from tui_domino.ui.screens.duel_run import push_duel

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
            self.say(_("Type your name: your opponent sees it."), "error")
            return
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.say(_("Connecting to {address}…").format(address=where))
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
        self.say(_("Connected to {address}: waiting for the host's greeting…").format(
            address=where))
        backlog: list[ev.Event] = []
        problem = ""
        closed = _("{address} closed the connection.").format(address=where)
        try:
            async with asyncio.timeout(GREETING_TIMEOUT):
                while True:
                    e = await session.next_event()
                    if e is None:
                        problem = problem or closed
                        break
                    backlog.append(e)
                    if isinstance(e, ev.Connected):
                        break
                    if isinstance(e, ev.ProtocolError) and e.from_peer or (
                            isinstance(e, ev.ProtocolError) and e.code == "mismatch"):
                        problem = problem or refusal(e)
                    elif isinstance(e, ev.ConnectionState) and e.state == "closed":
                        problem = problem or (e.detail or closed)
                        break
        except TimeoutError:
            seconds = round(GREETING_TIMEOUT)
            problem = ngettext("{address} accepted the connection but did not greet within "
                               "{n} second: is it a tui-domino duel?",
                               "{address} accepted the connection but did not greet within "
                               "{n} seconds: is it a tui-domino duel?",
                               seconds).format(address=where, n=seconds)
        if problem:
            self._session = None
            self.say(problem, "error")
            with logged("closing a duel that did not start"):
                await session.close()
            return
        self._session = None
        self.say("")
        push_duel(self.app, session, backlog)
