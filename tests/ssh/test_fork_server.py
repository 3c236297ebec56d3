"""Games forked by the fork server (ssh/fork_server.py) are each the visitor's own: his
environment, language, terminal, home and randomness; one game's crash, death or flood
touches no other; the exit status reaches the server; the fork server's own death is
survived, and a stuck fork server leaves no visitor waiting; visitors arriving together
cost each game one list of people, and their games start in turn, one a core."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from tests.ssh.conftest import Terminal, eventually, visit
from tests.ssh.test_duel import Game
from tests.test_cli import children
from tui_domino.ssh import fork_server
from tui_domino.ssh.fork_server import ForkServer
from tui_domino.ssh.lobby import Lobby
from tui_domino.ssh.server import ACCEPTED_ENV, GameServer, default_spawner
from tui_domino.ssh.spawn import Arrivals, Spawner
from tui_domino.ssh.visit import catalog

# A game that says what it was given, as the visitor's game takes it (``prepare``), then
# quits: whether the game was loaded before (forked), its language, terminal, colours,
# Textual's settings, rich's console, home, working directory, umask, descriptors and a
# random number.
SAY_WHO = [sys.executable, "-c", """
import sys
loaded = 'textual.app' in sys.modules
from tui_domino.ssh.visitor import prepare
language = prepare()
import os, random, rich, textual.constants as tc, textual.screen as ts
from tui_domino import env
from tui_domino.files import data_dir
console = rich.get_console()
mask = os.umask(0); os.umask(mask)
def is_open(fd):
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True
lobby = int(os.environ[env.LOBBY_FD])
stray = [n for n in range(4096) if is_open(n) and n not in (0, 1, 2, lobby)]
print(f'loaded={loaded} language={language} TERM={os.environ["TERM"]} '
      f'colors={tc.COLOR_SYSTEM} no_color={console.no_color} fps={tc.MAX_FPS} '
      f'period={ts.UPDATE_PERIOD:.4f} escape={tc.ESCAPE_DELAY} width={console.width} '
      f'home={data_dir()} cwd={os.getcwd()} umask={mask:o} stray={len(stray)} '
      f'tty={os.isatty(0)} sid={os.getsid(0) == os.getpid()} '
      f'random={random.getrandbits(64)} end', flush=True)
"""]

# Each visitor's game by his name: hog floods his terminal, bob crashes, cat ends with
# status 3; anybody else plays the real game.
BY_NAME = [sys.executable, "-c", """
import os, runpy, sys, time
who = os.environ['TUI_DOMINO_PLAYER']
if who == 'hog':
    for _ in range(1024): os.write(1, b'x' * 65536)
    time.sleep(60)
elif who == 'bob':
    raise RuntimeError('a bug in the game')
elif who == 'cat':
    sys.exit(3)
else:
    runpy.run_module('tui_domino.ssh.visitor', run_name='__main__', alter_sys=True)
"""]


async def visit_with(port: int, name: str, term_type: str, cols: int = 80,
                     env: dict[str, str] | None = None) -> Terminal:
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  agent_path=None, client_keys=None, env=env or {})
    _chan, term = await conn.create_session(lambda: Terminal(cols, 24), term_type=term_type,
                                            term_size=(cols, 24), encoding=None)
    term.conn = conn
    return term


def said(term: Terminal) -> dict[str, str]:
    """What SAY_WHO printed, as a dict."""
    line = term.output().split("loaded=", 1)[1].split(" end", 1)[0]
    return dict(part.split("=", 1) for part in ("loaded=" + line).split())


def parent_of(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


@pytest.fixture
def games_spawner() -> None:
    """This file's servers have fork servers of their own: its tests stop them."""
    return None


@pytest.fixture
async def shared(make_server: Any, shared_spawner: Any) -> GameServer:
    """A server whose games the process's one fork server forks, for a test that stops
    no fork server (starting one of its own costs about half a CPU-second)."""
    server: GameServer = await make_server(spawner=shared_spawner)
    return server


def game_of(server: GameServer, name: str) -> Any:
    visit_ = next(v for v in server.visits if v.name == name)
    assert visit_.proc is not None
    return visit_.proc


def zygote_of(server: GameServer) -> Any:
    assert isinstance(server.spawner, ForkServer)
    assert server.spawner.zygote is not None
    return server.spawner.zygote


async def test_the_servers_games_are_forked_by_its_fork_server(shared: GameServer) -> None:
    assert isinstance(shared.spawner, ForkServer)
    term = await visit(shared.port, "ann")
    await term.wait_for("Welcome, ann.")
    assert parent_of(game_of(shared, "ann").pid) == zygote_of(shared).pid
    await term.close()


async def test_a_visitors_arrival_starts_no_other_process(shared: GameServer) -> None:
    """His game alone: multiprocessing's helper process (an interpreter of its own, a tenth
    of a CPU-second) starts with the computer's worker process, if he ever plays one, not
    with every game."""
    term = await visit(shared.port, "ann")
    await term.wait_for("Welcome, ann.")
    await term.to_menu()
    assert children(game_of(shared, "ann").pid) == []
    await term.close()


async def test_servers_given_one_fork_server_share_it_and_leave_it_to_whoever_made_it(
        make_server: Any, home: Path) -> None:
    shared = default_spawner(fork=True)
    assert isinstance(shared, ForkServer)
    await shared.start()
    try:
        first = await make_server(spawner=shared)
        second = await make_server(spawner=shared)
        ann, bob = await visit(first.port, "ann"), await visit(second.port, "bob")
        await asyncio.gather(ann.wait_for("Welcome, ann."), bob.wait_for("Welcome, bob."))
        zygote = zygote_of(first)
        assert parent_of(game_of(first, "ann").pid) == zygote.pid
        assert parent_of(game_of(second, "bob").pid) == zygote.pid
        await ann.close()
        await first.close("closed")  # the fork server is not the first server's to close
        cat = await visit(second.port, "cat")
        await cat.wait_for("Welcome, cat.")
        assert shared.zygote is zygote and parent_of(game_of(second, "cat").pid) == zygote.pid
        await asyncio.gather(bob.close(), cat.close())
    finally:
        await shared.close()


async def test_each_forked_game_has_its_visitors_environment_language_and_terminal(
        make_server: Any, home: Path) -> None:
    server = await make_server(command=SAY_WHO)
    ivan = await visit_with(server.port, "ivan", "xterm-256color", cols=80,
                            env={"LANG": "ru_RU.UTF-8"})
    dora = await visit_with(server.port, "dora", "xterm", cols=100,
                            env={"LANG": "bg_BG.UTF-8", "NO_COLOR": "1",
                                 "TEXTUAL_FPS": "12", "ESCDELAY": "400"})
    await ivan.wait_for(" end", where=Terminal.output)
    await dora.wait_for(" end", where=Terminal.output)
    a, b = said(ivan), said(dora)
    assert a["loaded"] == b["loaded"] == "True"  # forked: Textual was loaded before
    assert (a["language"], b["language"]) == ("ru", "bg")
    assert (a["TERM"], b["TERM"]) == ("xterm-256color", "xterm")
    assert (a["colors"], a["no_color"]) == ("256", "False")
    assert b["no_color"] == "True"
    # Textual's settings at import, read again from each visitor's own environment.
    assert (a["fps"], a["period"], a["escape"]) == ("30", f"{1 / 30:.4f}", "0.25")
    assert (b["fps"], b["period"], b["escape"]) == ("12", f"{1 / 12:.4f}", "0.4")
    assert (a["width"], b["width"]) == ("80", "100")  # rich's console: his terminal
    for who in (a, b):
        assert who["home"] == who["cwd"]
        assert Path(who["home"]).is_relative_to(home)
        assert (who["umask"], who["stray"], who["tty"], who["sid"]) == ("77", "0", "True",
                                                                        "True")
    assert a["home"] != b["home"]
    assert a["random"] != b["random"]
    # The exit status reaches the server: both games ended well, and said so.
    await ivan.wait_for(catalog("ru").gettext("Thanks for playing."), where=Terminal.output)
    await dora.wait_for(catalog("bg").gettext("Thanks for playing."), where=Terminal.output)
    await asyncio.gather(ivan.close(), dora.close())


async def test_two_visitors_of_the_real_game_each_read_his_language(
        shared: GameServer) -> None:
    ivan = await visit(shared.port, "ivan", env={"LANG": "ru_RU.UTF-8"})
    dora = await visit(shared.port, "dora", env={"LANG": "bg_BG.UTF-8"})
    await ivan.wait_for(catalog("ru").gettext("tui-domino · lobby"),
                        catalog("ru").gettext("Play alone"))
    await dora.wait_for(catalog("bg").gettext("tui-domino · lobby"),
                        catalog("bg").gettext("Play alone"))
    assert catalog("bg").gettext("Play alone") not in ivan.text()
    await asyncio.gather(ivan.close(), dora.close())


async def test_a_crash_a_death_or_a_flood_touches_no_other_forked_game(
        make_server: Any) -> None:
    server = await make_server(command=BY_NAME)
    ann = await visit(server.port, "ann")
    await ann.wait_for("Welcome, ann.")
    hog = await visit(server.port, "hog")
    bob = await visit(server.port, "bob")
    cat = await visit(server.port, "cat")
    dan = await visit(server.port, "dan")
    await dan.wait_for("Welcome, dan.")
    # bob's game crashes, cat's ends with status 3, dan's is killed: each visit is told so.
    await bob.wait_for("The game stopped unexpectedly (status 1).", where=Terminal.output)
    assert "a bug in the game" in bob.output()  # its traceback, on its own terminal only
    await cat.wait_for("The game stopped unexpectedly (status 3).", where=Terminal.output)
    await asyncio.wait_for(cat.closed.wait(), 30)
    assert cat.exit_status == 3
    os.killpg(game_of(server, "dan").pid, signal.SIGKILL)
    await dan.wait_for("The game stopped unexpectedly (signal 9).", where=Terminal.output)
    await hog.wait_until(lambda out: out.count("x") > 100_000, "the flood",
                         where=Terminal.output)
    # Meanwhile ann plays on, and nothing of theirs reached her terminal.
    await ann.to_menu()
    assert "a bug in the game" not in ann.output() and "xxxx" not in ann.output()
    assert {v.name for v in server.visits} >= {"ann", "hog"}
    await asyncio.gather(*(t.close() for t in (ann, hog, bob, cat, dan)))


async def test_a_killed_fork_server_is_started_again_and_its_games_play_on(
        server: GameServer, caplog: pytest.LogCaptureFixture) -> None:
    ann = await visit(server.port, "ann")
    await ann.wait_for("Welcome, ann.")
    first = zygote_of(server)
    first.proc.kill()
    await eventually(lambda: isinstance(server.spawner, ForkServer)
                     and server.spawner.zygote is not None
                     and server.spawner.zygote is not first, "another fork server")
    assert "stopped (status -9); starting another" in caplog.text
    bob = await visit(server.port, "bob")
    await bob.wait_for("Welcome, bob.")
    assert parent_of(game_of(server, "bob").pid) == zygote_of(server).pid
    # ann's game, forked by the fork server that is gone, plays on; and her visit ends
    # when her game does.
    await ann.to_menu()
    ann.press("q")
    await ann.wait_for("Thanks for playing.", where=Terminal.output)
    await asyncio.gather(ann.close(), bob.close())


async def test_a_fork_server_that_keeps_stopping_gives_way_to_fresh_games(
        server: GameServer, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(fork_server, "RESTARTS", 0)
    zygote_of(server).proc.kill()
    assert isinstance(server.spawner, ForkServer)
    spawner = server.spawner
    await eventually(lambda: spawner.given_up, "the server gives up on it")
    assert "every game starts afresh" in caplog.text
    ann = await visit(server.port, "ann")
    await ann.wait_for("Welcome, ann.")
    assert parent_of(game_of(server, "ann").pid) == os.getpid()  # started afresh
    await ann.close()


async def test_a_stuck_fork_server_leaves_no_visitor_waiting(
        server: GameServer, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(fork_server, "FORK_TIMEOUT", 1.0)
    stuck = zygote_of(server)
    os.kill(stuck.pid, signal.SIGSTOP)
    try:
        ann = await visit(server.port, "ann")
        await ann.wait_for("Welcome, ann.")
    finally:
        with contextlib.suppress(ProcessLookupError):  # (it was stopped for good)
            os.kill(stuck.pid, signal.SIGCONT)
    assert "gave no game in 1 s; stopping it" in caplog.text
    assert zygote_of(server) is not stuck
    await ann.close()


async def test_the_fork_server_can_be_turned_off(home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert type(GameServer(fork_server=False).spawner) is Spawner
    monkeypatch.setenv("TUI_DOMINO_FORK_SERVER", "0")
    assert type(GameServer().spawner) is Spawner
    monkeypatch.setenv("TUI_DOMINO_FORK_SERVER", "1")
    assert isinstance(GameServer().spawner, ForkServer)
    # A game that is not this interpreter's is started afresh.
    assert fork_server.forkable(["/bin/sh", "-c", "true"]) is None
    assert fork_server.forkable([sys.executable, "-m", "x"]) == ["-m", "x"]


async def test_a_visitor_who_leaves_while_his_game_is_forked_leaves_no_game_behind(
        shared: GameServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # The fork is held back until the visitor has gone (a fork server still loading the
    # game on a busy machine takes seconds, and a visitor may hang up meanwhile).
    hold = asyncio.Event()
    forked: list[Any] = []
    fork = fork_server.Zygote.fork

    async def slow_fork(self: Any, *args: Any) -> Any:
        await hold.wait()
        game = await fork(self, *args)
        forked.append(game)
        return game

    monkeypatch.setattr(fork_server.Zygote, "fork", slow_fork)
    term = await visit(shared.port, "ann")
    await eventually(lambda: bool(shared.visits), "the visit asks for its game")
    v = next(iter(shared.visits))
    await term.close()
    await eventually(lambda: v.ended, "the server sees the visitor go")
    hold.set()
    await eventually(lambda: bool(forked), "the game is forked")
    assert await asyncio.wait_for(forked[0].wait(), 10) == -signal.SIGKILL  # stopped
    await eventually(lambda: not shared.visits, "the visit ends")
    assert v.master is None


async def test_the_visit_opens_on_the_lobby_and_the_menu_comes_when_asked(
        shared: GameServer) -> None:
    # (Each arrival is spared the making of a menu he may not open.)
    ann = await visit(shared.port, "ann")
    await ann.to_menu()
    ann.press("f2")
    await ann.wait_for("Welcome, ann.")
    await ann.to_menu()
    ann.press("q")  # the menu's Quit: the game ends, and the visit with it
    await ann.wait_for("Thanks for playing.", where=Terminal.output)
    await ann.close()


async def test_visitors_arriving_together_cost_each_game_one_list_of_people() -> None:
    lobby = Lobby()
    lobby.broadcast_delay = 3600  # (sent when the test says: broadcast_now)
    games = []
    for name in ("ann", "bob", "carl", "dan"):
        ours, theirs = socket.socketpair()
        await lobby.join(name, ours)
        game = Game(theirs)
        await game.receive("welcome")
        games.append(game)
    lobby.broadcast_now()  # (the delay is over)
    for game in games:
        listed = await game.receive("people")
        assert sorted(p["name"] for p in listed["people"]) == ["ann", "bob", "carl", "dan"]
    # One list each for the four arrivals, and no other on its way.
    await asyncio.sleep(0)
    for game in games:
        with pytest.raises(BlockingIOError):
            game.sock.recv(1)
    lobby.close("over")


async def test_the_lists_of_people_are_spaced_out_as_more_visitors_are_here() -> None:
    now = [100.0]
    lobby = Lobby(clock=lambda: now[0])
    lobby.broadcast_now()  # (alone: nobody to tell)
    # Alone, a change is told within the delay, and again within the delay after that.
    assert lobby.broadcast_wait() == pytest.approx(lobby.broadcast_delay)
    # With 16 here, a list costs 16 redraws: the next comes a second after the last.
    games = []
    for n in range(16):
        ours, theirs = socket.socketpair()
        await lobby.join(f"v{n}", ours)
        games.append(theirs)
    lobby.broadcast_now()
    assert lobby.broadcast_wait() == pytest.approx(1.0)
    now[0] += 0.7
    assert lobby.broadcast_wait() == pytest.approx(0.3)
    now[0] += 5
    assert lobby.broadcast_wait() == pytest.approx(lobby.broadcast_delay)
    lobby.close("over")
    for sock in games:
        sock.close()


async def test_a_crowds_games_start_in_turn_each_until_it_is_up() -> None:
    arrivals = Arrivals(limit=1, hold=3600)
    order: list[str] = []
    up = {name: asyncio.Event() for name in ("ann", "bob", "carl")}

    async def arrive(name: str, until: bool = True) -> None:
        async with arrivals.turn() as turn:
            order.append(name)
            if until:
                turn.until(up[name])

    ann = asyncio.ensure_future(arrive("ann"))
    bob = asyncio.ensure_future(arrive("bob", until=False))
    carl = asyncio.ensure_future(arrive("carl"))
    for _ in range(5):
        await asyncio.sleep(0)
    assert order == ["ann"]  # bob waits while ann's game is not up
    up["ann"].set()
    await asyncio.wait_for(asyncio.gather(ann, bob, carl), 5)
    # bob's turn ended with his block (he never said he was up); carl's is still his
    assert order == ["ann", "bob", "carl"]
    late = asyncio.ensure_future(arrive("dan", until=False))
    await asyncio.sleep(0)
    assert not late.done()
    up["carl"].set()
    await asyncio.wait_for(late, 5)


async def test_a_game_that_never_says_it_is_up_holds_its_turn_no_longer_than_the_hold(
        ) -> None:
    arrivals = Arrivals(limit=1, hold=0.01)
    async with arrivals.turn() as turn:
        turn.until(asyncio.Event())  # (never set)
    async with asyncio.timeout(5):
        async with arrivals.turn():
            pass


async def test_visitors_arriving_together_reach_the_lobby_one_game_at_a_time(
        shared: GameServer) -> None:
    # One turn at a time, held until a game is up: each game tells the lobby at once that it
    # is drawn (the test would otherwise wait the hour's hold for the second).
    shared.arrivals = Arrivals(limit=1, hold=3600)
    ann, bob = await asyncio.gather(visit(shared.port, "ann"), visit(shared.port, "bob"))
    await asyncio.wait_for(asyncio.gather(ann.wait_for("Welcome, ann."),
                                          bob.wait_for("Welcome, bob.")), 30)
    assert all(m.up.is_set() for m in shared.lobby.members.values())
    await ann.close()
    await bob.close()


def test_every_variable_a_visitor_may_send_reaches_a_forked_game() -> None:
    # A forked game finds Textual and rich loaded: what they read at import is read again
    # after the fork (textual_follows_environment: TEXTUAL_FPS, ESCDELAY, the colour system
    # that tune_environment derives from COLORTERM, TUI_DOMINO_COLORS and NO_COLOR; its
    # driver from TUI_DOMINO_MOUSE), or read when used (LANG and LC_*: i18n.use; NO_COLOR:
    # the app and rich's console). A variable added to those a visitor may send must be one
    # of these, or be read again after the fork too.
    read_after_fork = {"COLORTERM", "TUI_DOMINO_COLORS", "TUI_DOMINO_MOUSE", "LANG", "LC_ALL",
                       "LC_MESSAGES", "LC_CTYPE", "NO_COLOR", "ESCDELAY", "TEXTUAL_FPS"}
    assert set(ACCEPTED_ENV) <= read_after_fork


def test_the_games_get_the_servers_own_settings_for_them_and_nothing_else(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator's TEXTUAL_ANIMATIONS=none reaches every visitor's game (no tile slides
    into place on the server: the frames cost its CPU), as the computer's pause does; the
    rest of the server's environment stays its own."""
    from tui_domino.ssh.server import game_env

    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setenv("TUI_DOMINO_DELAY", "0.5")
    monkeypatch.setenv("SERVER_SECRET", "not for the games")
    games = game_env()
    assert games["TEXTUAL_ANIMATIONS"] == "none" and games["TUI_DOMINO_DELAY"] == "0.5"
    assert "SERVER_SECRET" not in games
    monkeypatch.delenv("TEXTUAL_ANIMATIONS")
    assert "TEXTUAL_ANIMATIONS" not in game_env()
