"""The fork server: visitors' games that start in a blink.

Started afresh, a game spends most of a second of CPU importing Textual, rich and the game
before it draws anything, and each holds its own copy of all that in memory. The fork
server is one process (``python -m tui_domino.ssh.fork_server``), started with the server,
that imports them once (no thread, no event loop) and then forks a game for each visitor:
the game starts with everything loaded, and shares those pages with every other game
until it writes to them.

The server hands it each game's terminal (the pseudo-terminal's slave side) and the lobby's
socket over a unix socket pair (``send_fds``), with the game's command line, environment and
home. The forked game becomes what a fresh interpreter started by ``Spawner`` would be: a
session of its own with the terminal as its controlling terminal on 0, 1 and 2; the
visitor's environment (and nothing of the fork server's), his home as the working directory,
umask 077, every other descriptor closed; randomness reseeded; Textual's settings read again
from his environment (``terminal.textual_follows_environment``, called by the visitor's
game after it tunes its environment); then his command runs (``-m module`` or ``-c code``).
What else Textual reads at import (TEXTUAL_DEBUG, TEXTUAL_THEME, LC_TERMINAL, TERM_PROGRAM...)
comes from variables no visitor can send (``server.ACCEPTED_ENV``): the fork server's own
environment, what every game's environment has in common, holds for every game.

The game is the fork server's child, not the server's: the fork server tells the server
each game's pid (with a pidfd) and, when it ends, its exit status. The server signals a
game's process group as it would a game it started itself. When the fork server stops, the
server starts another (and starts games afresh meanwhile); after ``RESTARTS`` stops within
``RESTART_WINDOW`` seconds it gives up and starts every game afresh. A game that outlives
its fork server plays on; the server learns that it ended from its pidfd, though not its
exit status.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import importlib
import json
import logging
import os
import random
import runpy
import selectors
import socket
import sys
import termios
import time
import types
from collections.abc import Mapping, Sequence
from typing import Any

from tui_domino.ssh.spawn import GameProcess, GameStart, Spawner
from tui_domino.terminal import textual_follows_environment

log = logging.getLogger("tui_domino.ssh")

# What the fork server loads before its first fork: the visitor's game (the app, its screens,
# Textual and rich), what every game loads as it starts (the terminal's driver and input
# parser, layouts, the computer players' process pool), and what a lobby duel loads (its
# screens, the classic rules, the sealed channel and its key exchange: about 45 ms of CPU
# for each visitor who duels, loaded after the fork). The game's entry module itself is
# not loaded (runpy runs it afresh). A module's ``prewarm()``, if it has one, runs once
# loaded: what each game would otherwise work out afresh.
PRELOAD = ("tui_domino.ssh.visitor_app", "tui_domino.ssh.driver",
           "tui_domino.ssh.leaderboard_screen", "textual.drivers.linux_driver",
           "textual.layouts.factory", "textual.layouts.horizontal", "textual.layouts.stream",
           "multiprocessing.spawn", "multiprocessing.resource_tracker", "tty",
           "tui_domino.ssh.lobby_duel", "tui_domino.rules.classic", "tui_domino.net.channel")

MAX_MESSAGE = 256 * 1024  # a request: the game's command line and environment
MAX_FDS = 16  # a game's terminal and the descriptors it keeps

# The fork server is started again after it stopped, unless it stopped this often within
# this many seconds: then every game starts afresh.
RESTARTS = 3
RESTART_WINDOW = 60.0

# The longest wait for a fork (the fork server may still be loading the game on a busy
# machine); then the fork server is taken for stuck, stopped, and the game started afresh.
FORK_TIMEOUT = 60.0


def available() -> bool:
    """Whether this system can run the fork server (fork, descriptors over unix sockets,
    pidfds: Linux)."""
    if not (hasattr(os, "fork") and hasattr(socket, "send_fds")
            and hasattr(os, "pidfd_open") and hasattr(socket, "SOCK_SEQPACKET")):
        return False
    try:  # (a kernel older than 5.3 has no pidfds)
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


def forkable(command: Sequence[str]) -> list[str] | None:
    """The part of ``command`` the fork server runs (``-m module ...`` or ``-c code ...``)
    when it is this interpreter's; else None (such a game is started afresh)."""
    if len(command) >= 3 and command[0] == sys.executable and command[1] in ("-m", "-c"):
        return list(command[1:])
    return None


class ForkServerGone(Exception):
    """The fork server stopped before it answered."""


# -- the server's side ----------------------------------------------------------------------

class ForkedGame:
    """A game the fork server forked (a ``GameProcess``): its pid, its exit status once the
    fork server reported it."""

    def __init__(self, pid: int, pidfd: int | None) -> None:
        self._pid = pid
        self.pidfd = pidfd
        self._returncode: int | None = None
        self._ended: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    @property
    def pid(self) -> int:
        return self._pid

    @property
    def returncode(self) -> int | None:
        return self._returncode

    async def wait(self) -> int:
        return await asyncio.shield(self._ended)

    def ended(self, status: int) -> None:
        """The game ended with ``status`` (negative: the signal that stopped it)."""
        if self._returncode is None:
            self._returncode = status
            self._ended.set_result(status)
        self._close_pidfd()

    def orphaned(self) -> None:
        """Its fork server stopped: the game plays on, and its end is learnt from its
        pidfd (without its exit status: only its parent could read it)."""
        if self._returncode is not None:
            return
        if self.pidfd is None:
            self.ended(0)
            return
        asyncio.get_running_loop().add_reader(self.pidfd, self._gone)

    def _gone(self) -> None:
        log.info("game %d ended after its fork server; its exit status is not known",
                 self._pid)
        self.ended(0)

    def _close_pidfd(self) -> None:
        if self.pidfd is not None:
            asyncio.get_running_loop().remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = None


class Zygote:
    """One fork server's process, and the server's end of its socket."""

    def __init__(self, proc: asyncio.subprocess.Process, sock: socket.socket) -> None:
        self.proc = proc
        self.sock = sock
        self.gone = asyncio.Event()
        self.ready = False
        self.pending: dict[int, asyncio.Future[ForkedGame]] = {}
        self.games: dict[int, ForkedGame] = {}
        self._next_id = 0
        asyncio.get_running_loop().add_reader(sock.fileno(), self.read_messages)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @classmethod
    async def launch(cls, env: Mapping[str, str], preload: Sequence[str]) -> Zygote:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui_domino.ssh.fork_server", str(theirs.fileno()),
                *preload,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=None,  # the server's: what goes wrong as it loads is seen there
                pass_fds=(theirs.fileno(),),
                env=dict(env),
                cwd="/",
                start_new_session=True,  # the server's Ctrl-C is not the fork server's
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        return cls(proc, ours)

    async def fork(self, argv: Sequence[str], start: GameStart) -> ForkedGame:
        """Asks for a game: ``argv`` (``-m module`` or ``-c code``) on ``start``'s terminal."""
        if self.gone.is_set():
            raise ForkServerGone
        self._next_id += 1
        request = self._next_id
        message = json.dumps({"id": request, "argv": list(argv), "env": dict(start.env),
                              "cwd": str(start.cwd), "keep": list(start.keep)}).encode()
        answer: asyncio.Future[ForkedGame] = asyncio.get_running_loop().create_future()
        self.pending[request] = answer
        try:
            await self._send(message, [start.terminal, *start.keep])
            return await asyncio.wait_for(asyncio.shield(answer), FORK_TIMEOUT)
        except TimeoutError:
            log.warning("the fork server (pid %d) gave no game in %g s; stopping it",
                        self.pid, FORK_TIMEOUT)
            self.pending.pop(request, None)
            answer.cancel()
            self.stop()
            raise ForkServerGone from None
        except asyncio.CancelledError:
            # The visit ended while its game was forked: nobody waits for that game.
            if answer.done() and not answer.cancelled() and answer.exception() is None:
                stop_orphan(answer.result())
            raise
        finally:
            self.pending.pop(request, None)  # (a game forked for nobody is stopped)

    async def _send(self, message: bytes, fds: list[int]) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                socket.send_fds(self.sock, [message], fds)
                return
            except BlockingIOError:
                writable: asyncio.Future[None] = loop.create_future()
                loop.add_writer(self.sock.fileno(), settle, writable)
                try:
                    await writable
                finally:
                    loop.remove_writer(self.sock.fileno())
            except OSError as exc:
                self._lost(f"sending failed: {exc}")
                raise ForkServerGone from exc

    def read_messages(self) -> None:
        """Reads every message waiting on the socket (and notices its end)."""
        while not self.gone.is_set():
            try:
                data, fds, _flags, _addr = socket.recv_fds(self.sock, MAX_MESSAGE, MAX_FDS)
            except BlockingIOError:
                return
            except OSError as exc:
                self._lost(f"reading failed: {exc}")
                return
            if not data:
                self._lost("it closed its socket")
                return
            try:
                message = json.loads(data)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                log.error("the fork server sent what is not a message: %r", data[:200])
                for fd in fds:
                    os.close(fd)
                continue
            self._handle(message, fds)

    def _handle(self, message: dict[str, Any], fds: list[int]) -> None:
        if message.get("ready"):
            self.ready = True
            log.info("the fork server (pid %d) is ready", self.pid)
        elif "status" in message:
            game = self.games.pop(int(message["pid"]), None)
            if game is not None:
                game.ended(int(message["status"]))
        elif "id" in message:
            answer = self.pending.get(int(message["id"]))
            if "pid" in message:
                game = ForkedGame(int(message["pid"]), fds.pop(0) if fds else None)
                self.games[game.pid] = game
                if answer is not None and not answer.done():
                    answer.set_result(game)
                else:
                    stop_orphan(game)
            elif answer is not None and not answer.done():
                answer.set_exception(OSError(str(message.get("error", "no game"))))
        for fd in fds:
            os.close(fd)

    def _lost(self, why: str) -> None:
        if self.gone.is_set():
            return
        self.gone.set()
        with contextlib.suppress(ValueError, OSError):  # (the loop may be closing)
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
        self.sock.close()
        for answer in self.pending.values():
            if not answer.done():
                answer.set_exception(ForkServerGone(why))
        for game in self.games.values():
            game.orphaned()
        self.games.clear()

    def stop(self) -> None:
        """Stops the fork server: it closes its socket (its games play on)."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        self._lost("it was stopped")

    async def close(self) -> None:
        """No more games: the fork server ends once it reads the end of its socket."""
        self._lost("the server closed")
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


def settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def stop_orphan(game: GameProcess) -> None:
    """Stops a game nobody waits for any more (its visit ended while it was forked)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(game.pid, 9)


class ForkServer(Spawner):
    """Starts each game by asking the fork server (started at ``start()``) for a fork of it;
    a game whose ``command`` is not this interpreter's (``-m``/``-c``), or any game while no
    fork server runs, is started afresh (``Spawner``). ``env``: the fork server's own
    environment (what every game's has in common)."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str],
                 preload: Sequence[str] = PRELOAD) -> None:
        super().__init__(command)
        self.env = dict(env)
        self.preload = tuple(preload)
        self.zygote: Zygote | None = None
        self.stops: list[float] = []  # when the fork servers stopped (monotonic)
        self.given_up = False
        self.closed = False
        self._launching: asyncio.Task[Zygote | None] | None = None
        self._watchers: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self._launch()

    async def _launch(self) -> Zygote | None:
        try:
            zygote = await Zygote.launch(self.env, self.preload)
        except OSError:
            log.exception("the fork server could not start; every game starts afresh")
            self.given_up = True
            return None
        self.zygote = zygote
        watcher = asyncio.get_running_loop().create_task(self._watch(zygote))
        self._watchers.add(watcher)
        watcher.add_done_callback(self._watchers.discard)
        return zygote

    async def _watch(self, zygote: Zygote) -> None:
        """Notices the fork server's end and starts another (or gives up)."""
        status = await zygote.proc.wait()
        zygote.read_messages()  # what it said before it ended (the games that ended)
        zygote.stop()  # (its games play on, watched by their pidfds)
        if self.closed:
            return
        now = time.monotonic()
        self.stops = [t for t in self.stops if now - t < RESTART_WINDOW] + [now]
        if len(self.stops) > RESTARTS:
            self.given_up = True
            log.error("the fork server stopped (status %d) %d times within %g s; every game "
                      "starts afresh from now on", status, len(self.stops), RESTART_WINDOW)
            return
        log.warning("the fork server (pid %d) stopped (status %d); starting another",
                    zygote.pid, status)
        if self.zygote is zygote:
            self.zygote = None
        if self.zygote is None and (self._launching is None or self._launching.done()):
            self._launching = asyncio.get_running_loop().create_task(self._launch())

    async def _ready_zygote(self) -> Zygote | None:
        """The fork server, started again when it stopped; None when there is none."""
        if self.given_up or self.closed:
            return None
        zygote = self.zygote
        if zygote is not None and not zygote.gone.is_set():
            return zygote
        if self._launching is None or self._launching.done():
            self._launching = asyncio.get_running_loop().create_task(self._launch())
        return await asyncio.shield(self._launching)

    async def start_game(self, start: GameStart) -> GameProcess:
        argv = forkable(self.command)
        if argv is not None:
            for _attempt in range(2):
                zygote = await self._ready_zygote()
                if zygote is None:
                    break
                try:
                    return await zygote.fork(argv, start)
                except ForkServerGone:
                    continue  # the next one (started again) is asked
                except OSError as exc:  # it could not fork
                    log.warning("the fork server could not fork a game (%s); started afresh",
                                exc)
                    break
        return await super().start_game(start)

    async def close(self) -> None:
        self.closed = True
        if self._launching is not None and not self._launching.done():
            await asyncio.wait([self._launching])
        if self.zygote is not None:
            zygote, self.zygote = self.zygote, None
            await zygote.close()
        for watcher in list(self._watchers):
            watcher.cancel()


def spawner(command: Sequence[str], env: Mapping[str, str], fork: bool = True) -> Spawner:
    """The spawner of a server's games: the fork server's when ``fork`` and the system can
    run it, else one that starts every game afresh."""
    if fork and available():
        return ForkServer(command, env)
    return Spawner(command)


# -- the fork server's side -----------------------------------------------------------------

def send(sock: socket.socket, message: dict[str, Any], fds: Sequence[int] = ()) -> None:
    socket.send_fds(sock, [json.dumps(message).encode()], list(fds))


def main(argv: Sequence[str]) -> int:
    """The fork server: ``python -m tui_domino.ssh.fork_server FD MODULE...`` loads each
    MODULE, then forks a game for each request read from the socket ``FD``, until the end
    of that socket."""
    sock = socket.socket(fileno=int(argv[0]))
    sock.setblocking(True)
    for name in argv[1:]:
        module = importlib.import_module(name)
        prewarm = getattr(module, "prewarm", None)  # (what its games would each work out)
        if callable(prewarm):
            prewarm()
    # Everything loaded so far stays as it is: no garbage collection of it in any game
    # writes to the pages the games share.
    gc.collect()
    gc.freeze()
    try:
        send(sock, {"ready": True, "pid": os.getpid()})
    except OSError:
        return 0  # the server closed while the game loaded: no games to fork
    return serve(sock)


def serve(sock: socket.socket) -> int:
    """Forks a game for each request on ``sock``; reports each game's end."""
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ, None)
    while True:
        for key, _events in selector.select():
            if key.data is not None:  # a game's pidfd: it ended
                selector.unregister(key.fd)
                _pid, status = os.waitpid(key.data, 0)
                os.close(key.fd)
                send(sock, {"pid": key.data, "status": os.waitstatus_to_exitcode(status)})
                continue
            try:
                data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, MAX_FDS)
            except OSError:
                return 0
            if not data:
                return 0  # the server is gone, or closed: its games play on
            fork_game(sock, selector, data, fds)


def fork_game(sock: socket.socket, selector: selectors.BaseSelector, data: bytes,
              fds: list[int]) -> None:
    try:
        request = json.loads(data)
        number = int(request["id"])
        if len(fds) != 1 + len(request["keep"]):
            raise ValueError("descriptors missing")
    except (ValueError, KeyError, TypeError) as exc:  # (the server's own request: a bug)
        print(f"tui-domino fork server: a request refused: {exc}", file=sys.stderr)
        for fd in fds:
            os.close(fd)
        return
    settled_r, settled_w = os.pipe()  # closed by the child once it leads its session
    try:
        pid = os.fork()
    except OSError as exc:
        for fd in (*fds, settled_r, settled_w):
            os.close(fd)
        send(sock, {"id": number, "error": str(exc)})
        return
    if pid == 0:
        selector.close()
        sock.close()
        os.setsid()
        os.close(settled_w)
        become_game(request, fds)  # (does not return: the game ends the process)
    for fd in (*fds, settled_w):  # (the game's now: its terminal and socket must close
        os.close(fd)              # when it ends)
    # The server may signal the game's process group as soon as it knows the pid: it is
    # told once the game leads a group of its own.
    os.read(settled_r, 1)
    os.close(settled_r)
    pidfd = os.pidfd_open(pid)
    selector.register(pidfd, selectors.EVENT_READ, pid)
    send(sock, {"id": number, "pid": pid}, [pidfd])


def become_game(request: dict[str, Any], fds: list[int]) -> None:
    """In the forked child, leading a session of its own: becomes the game a fresh
    interpreter would be, and runs it."""
    targets = [int(n) for n in request["keep"]]
    # Out of the way of every number they are to take, then onto those numbers.
    floor = max([2, *targets, *fds]) + 1
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, floor) for fd in fds]
    for std in (0, 1, 2):
        os.dup2(moved[0], std)
    for fd, target in zip(moved[1:], targets, strict=True):
        os.dup2(fd, target)
    close_all_but([0, 1, 2, *targets])
    with contextlib.suppress(OSError):
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the controlling terminal: SIGWINCH on resize
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in request["env"].items()})
    os.chdir(request["cwd"])
    os.umask(0o077)  # the game's saves and settings: the server's user only
    fresh_process()
    run(request["argv"])
    raise SystemExit(0)


def close_all_but(kept: Sequence[int]) -> None:
    """Closes every descriptor but ``kept``."""
    try:
        top = os.sysconf("SC_OPEN_MAX")
    except (ValueError, OSError):
        top = 65536
    low = 0
    for fd in sorted(set(kept)):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, max(top, low))


def fresh_process() -> None:
    """What a fresh interpreter would have of its own: randomness, multiprocessing's key,
    output that goes out line by line on a terminal, Textual's settings."""
    random.seed()  # (os.fork reseeds it too; the secrets module and libsodium read the OS's)
    mp = sys.modules.get("multiprocessing")
    if mp is not None:
        mp.current_process().authkey = os.urandom(32)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(line_buffering=True)  # a terminal's, as the interpreter sets
    textual_follows_environment()  # (the game's own tuning does it again after its own)


def run(argv: Sequence[str]) -> None:
    """Runs ``-m module args...`` or ``-c code args...`` as the interpreter would."""
    mode, target, *args = argv
    if mode == "-m":
        sys.argv = ["-m", *args]  # (runpy puts the module's path first)
        sys.path[0] = os.getcwd()
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.argv = ["-c", *args]
        sys.path[0] = ""
        main_module = types.ModuleType("__main__")
        sys.modules["__main__"] = main_module
        exec(compile(target, "<string>", "exec"), main_module.__dict__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
