"""``tui-domino serve``: the command line of the SSH server."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui_domino import env, i18n
from tui_domino.i18n import _, ngettext
from tui_domino.ssh.limits import Limits, duration_text
from tui_domino.ssh.pairing import MOVE_TIMES, TURN_DEFAULT, TURN_HIGHEST, TURN_LOWEST

if TYPE_CHECKING:
    from tui_domino.ssh.server import Door, GameServer

    WebDoorMaker = Callable[[GameServer, argparse.Namespace], Door | str]

PASSWORD_ENV = env.SSH_PASSWORD
VARIANTS = ("classic", "spider", "triominos")


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535 (0: any free one)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is a number from 0 to 65535, not {text}").format(text=repr(text)))
    return port


def turn_seconds(text: str) -> int:
    """``--turn-seconds``'s value: whole seconds a move, ``TURN_LOWEST`` to
    ``TURN_HIGHEST``."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not TURN_LOWEST <= n <= TURN_HIGHEST:
        raise argparse.ArgumentTypeError(
            # TRANSLATORS: {value}: what was given; {least}, {most}: 5 and 3600
            _("{value!r} is not a number of seconds from {least} to {most}").format(
                value=text, least=TURN_LOWEST, most=TURN_HIGHEST))
    return n


def duel_target(text: str) -> int:
    """``--duel-target``'s value: a whole number of points, 1 to ``MAX_TARGET``."""
    # lazy: start-up (the parser loads this module for every command)
    from tui_domino.ssh.duel import MAX_TARGET

    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_TARGET:
        raise argparse.ArgumentTypeError(
            # TRANSLATORS: {value}: what was given; {most}: 10000
            _("{value!r} is not a number of points from 1 to {most}").format(
                value=text, most=MAX_TARGET))
    return n


def add_serve(subparsers: Any) -> argparse.ArgumentParser:
    """Registers ``serve`` on the command line's subparsers."""
    d = Limits()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help=_("host the game over SSH: visitors play with just an ssh client"),
        # TRANSLATORS: `ssh -p PORT NAME@HOST` is typed as it is: keep it in English.
        description=_(
            "Host the game over SSH: `ssh -p PORT NAME@HOST` puts each visitor into a game "
            "of their own, and a lobby where visitors challenge each other to duels. "
            "The ssh user name becomes the player's name."
        ),
    )
    p.add_argument("--port", type=port_number, default=2222,
                   help=_("port to listen on (default 2222)"))
    p.add_argument(
        "--host", default="127.0.0.1",
        help=_("address to listen on (default 127.0.0.1: this machine only; "
               "0.0.0.0 or :: lets others connect)"),
    )
    p.add_argument("--web", type=port_number, default=None, metavar="PORT",
                   # TRANSLATORS: help of serve --web
                   help=_("also open a web door on this port: a page where a browser visitor "
                          "plays in the same lobby (on --host too; docs/web.md)"))
    p.add_argument("--web-host", action="append", default=None, metavar="NAME",
                   # TRANSLATORS: help of serve --web-host
                   help=_("a host name the web page is served under (besides addresses and "
                          "localhost; again for more): a request for another name is "
                          "refused"))
    p.add_argument("--cert", type=Path, default=None, metavar="FILE",
                   # TRANSLATORS: help of serve --cert
                   help=_("with --web: serve the page over HTTPS with this certificate "
                          "(PEM; the chain too)"))
    p.add_argument("--key", type=Path, default=None, metavar="FILE",
                   # TRANSLATORS: help of serve --key
                   help=_("with --cert: the certificate's private key (PEM)"))
    p.add_argument(
        "--password", default=None,
        # TRANSLATORS: {variable}: the environment variable's name.
        help=_("a password every visitor must give (default: none; the environment variable "
               "{variable} keeps it out of the process list)").format(variable=PASSWORD_ENV),
    )
    p.add_argument("--authorized-keys", type=Path, default=None, metavar="FILE",
                   help=_("only visitors with a key in this file (OpenSSH format) get in "
                          "(or with the password, when one is set as well)"))
    p.add_argument("--operators", type=Path, default=None, metavar="FILE",
                   # TRANSLATORS: help of serve --operators; /help is typed as it is
                   help=_("the server's operators: visitors signed in with a key in this "
                          "file (OpenSSH format) may mute, kick and ban from the lobby "
                          "(/help there lists the commands)"))
    p.add_argument("--max-visitors", type=int, default=d.max_visitors,
                   help=_("visitors at once (default {default})").format(
                       default=d.max_visitors))
    p.add_argument("--per-address", type=int, default=d.max_per_address, metavar="N",
                   help=_("connections at once from one address (default {default})").format(
                       default=d.max_per_address))
    p.add_argument("--rate", type=int, default=d.rate_count, metavar="N",
                   help=_("new connections per address and minute (default {default})")
                   .format(default=d.rate_count))
    p.add_argument("--login-grace", type=float, default=d.login_grace, metavar="S",
                   help=_("close a connection that opens no game this many seconds after "
                          "logging in (default {default})").format(
                       default=f"{d.login_grace:g}"))
    p.add_argument("--idle-minutes", type=float, default=d.idle_timeout / 60,
                   help=_("disconnect a visitor idle this long (default {default}; 0: never)")
                   .format(default=f"{d.idle_timeout / 60:g}"))
    p.add_argument("--turn-seconds", type=turn_seconds, default=TURN_DEFAULT, metavar="N",
                   help=_("a lobby duel's time for each move when a challenge names none "
                          "(default {default}; challenges and seeks may also choose "
                          "{choices} seconds)").format(
                       default=TURN_DEFAULT, choices=", ".join(map(str, MOVE_TIMES))))
    p.add_argument("--seat-seconds", type=float, default=d.seat_window, metavar="S",
                   help=_("keep an account's seat in a duel this long after his connection "
                          "drops, for him to come back to (default {default}; 0: never)")
                   .format(default=f"{d.seat_window:g}"))
    p.add_argument("--stall-seconds", type=float, default=d.stall_timeout,
                   help=_("disconnect a client that takes no output this long "
                          "(default {default})").format(default=f"{d.stall_timeout:g}"))
    # TRANSLATORS: S is the option's value as the help shows it (--keepalive S): keep it;
    # {n}: how many times S (3).
    p.add_argument("--keepalive", type=float, default=d.keepalive_interval, metavar="S",
                   help=ngettext("ask a silent client every S seconds whether it is there; "
                                 "silent for {n} time S, its visit ends "
                                 "(default {default}; 0: never)",
                                 "ask a silent client every S seconds whether it is there; "
                                 "silent for {n} times S, its visit ends "
                                 "(default {default}; 0: never)",
                                 d.keepalive_count_max + 1).format(
                       n=d.keepalive_count_max + 1, default=f"{d.keepalive_interval:g}"))
    p.add_argument("--max-failures", type=int, default=d.fail_count, metavar="N",
                   # TRANSLATORS: {window}: a length of time ("10 minutes")
                   help=_("lock out an address after this many failed logins within "
                          "{window} (default {default}; 0: never)").format(
                       window=duration_text(d.fail_window, ngettext),
                       default=d.fail_count))
    p.add_argument("--lockout-minutes", type=float, default=d.lockout / 60, metavar="M",
                   help=_("refuse a locked-out address for this many minutes "
                          "(default {default})").format(default=f"{d.lockout / 60:g}"))
    p.add_argument("--duel-target", type=duel_target, default=None, metavar="N",
                   # TRANSLATORS: help of serve --duel-target
                   help=_("the points that win a lobby duel (a limit in Spider), for every "
                          "game (default: each game's usual target)"))
    p.add_argument("--host-key", type=Path, default=None, metavar="FILE",
                   help=_("the ed25519 host key (default: made on the first start and kept "
                          "in the data directory)"))
    p.add_argument("--no-fork-server", dest="fork_server", action="store_false",
                   # TRANSLATORS: help of serve --no-fork-server; {variable}: the environment
                   # variable's name
                   help=_("start every visitor's game in a fresh interpreter, not forked "
                          "from one that loaded the game once (slower to start, more "
                          "memory; also {variable}=0)").format(variable=env.FORK_SERVER))
    p.add_argument("--verbose", "-v", action="store_true",
                   help=_("log every arrival, departure and refusal"))
    p.add_argument("--data", type=Path, default=None, metavar="DIR",
                   # TRANSLATORS: {variable}: the environment variable's name.
                   help=_("the server's data directory: host key, accounts, ratings "
                          "(default: {variable} when set, else the user's data directory)")
                   .format(variable=env.HOME))
    p.add_argument("--leaderboard", choices=VARIANTS, default=None, metavar="VARIANT",
                   # TRANSLATORS: the variants' names are typed as they are: keep them.
                   help=_("print the leaderboard of this variant (classic, spider or "
                          "triominos) from the server's database, and exit: the server "
                          "does not start"))
    p.add_argument("--json", action="store_true",
                   help=_("with --leaderboard: print it as one line of JSON"))
    p.set_defaults(handler=run_serve)
    return p


def limits_from(args: argparse.Namespace) -> Limits:
    return Limits(
        max_visitors=max(1, args.max_visitors),
        max_per_address=max(1, args.per_address),
        rate_count=max(1, args.rate),
        login_grace=max(1.0, args.login_grace),
        idle_timeout=max(0.0, args.idle_minutes * 60),
        stall_timeout=max(1.0, args.stall_seconds),
        seat_window=max(0.0, args.seat_seconds),
        keepalive_interval=max(0.0, args.keepalive),
        fail_count=max(0, args.max_failures),
        lockout=max(0.0, args.lockout_minutes * 60),
    )


def run_leaderboard(args: argparse.Namespace) -> int:
    """``serve --leaderboard VARIANT [--json]``: prints the leaderboard from the database in
    the data directory (made by nobody here: a missing database is an error)."""
    # lazy: start-up (the parser loads this module; the database only for the leaderboard)
    import json
    import sqlite3

    # lazy: start-up (as above: the community's modules only for the leaderboard)
    from tui_domino.community.db import db_path, open_store
    from tui_domino.community.leaderboard import (
        leaderboard,
        leaderboard_json,
        leaderboard_text,
    )
    from tui_domino.ssh.home import data_dir

    path = db_path(args.data if args.data is not None else data_dir(create=False))
    if not path.is_file():
        print("tui-domino: " + _("no accounts database at {path}: the server has kept no "
                                 "accounts there, or its data directory is another (--data)")
              .format(path=path), file=sys.stderr)
        return 1
    try:
        with open_store(path) as store:
            entries = leaderboard(store, args.leaderboard)
            at = store.now()
    except (sqlite3.Error, ValueError) as exc:
        print("tui-domino: " + _("cannot read {name}: {reason}").format(name=path, reason=exc),
              file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(leaderboard_json(args.leaderboard, entries, at), ensure_ascii=False))
    else:
        print(leaderboard_text(args.leaderboard, entries))
    return 0


def web_problem(args: argparse.Namespace, password: str | None) -> str | None:
    """Why ``--web`` (``--cert``, ``--key``) cannot be as asked, or None."""
    if args.web is None:
        if args.cert is not None or args.key is not None:
            return _("--cert and --key go with --web")
        return None
    if args.key is not None and args.cert is None:
        return _("--key goes with --cert")
    if args.authorized_keys is not None and not password:
        # TRANSLATORS: --web, --authorized-keys and --password are options: keep them
        return _("--web with --authorized-keys needs --password too: a browser has no SSH "
                 "key")
    return None


def run_serve(args: argparse.Namespace, web: WebDoorMaker | None = None) -> int:
    """Runs the server until Ctrl-C (or prints a leaderboard); returns the exit status.
    ``web`` makes the web door (``--web``: tui_domino/web/cli.py, above this layer), or says
    why it cannot."""
    if args.leaderboard is not None:
        return run_leaderboard(args)
    if args.json:
        print("tui-domino: " + _("--json goes with --leaderboard"), file=sys.stderr)
        return 2
    if args.data is not None:
        # The one place the data directory is decided reads it from here (files.data_dir):
        # the host key, the visitors' folders and the accounts follow.
        os.environ[env.HOME] = str(args.data.resolve())
    try:
        with warnings.catch_warnings():
            # cryptography's deprecation of DSA keys, which asyncssh still knows: a line
            # that tells the server's owner nothing he can act on
            warnings.filterwarnings("ignore", message="DSA is deprecated")
            # lazy: optional (serve says how to install asyncssh)
            import asyncssh  # noqa: F401
    except ImportError:
        # TRANSLATORS: "tui-domino serve" and "pip install asyncssh" are commands: keep them.
        print(_("tui-domino serve needs asyncssh: pip install asyncssh"), file=sys.stderr)
        return 2
    # lazy: start-up (the parser loads this module; the server and asyncssh only for serve)
    from tui_domino.ssh.hostkey import HostKeyError
    from tui_domino.ssh.server import GameServer, serve_forever

    password = args.password or os.environ.get(PASSWORD_ENV) or None
    if args.authorized_keys is not None and not args.authorized_keys.is_file():
        print("tui-domino: " + _("no such file: {path}").format(path=args.authorized_keys),
              file=sys.stderr)
        return 2
    operators: frozenset[str] = frozenset()
    if args.operators is not None:
        # lazy: start-up (asyncssh only for serve)
        from tui_domino.ssh.operators import OperatorsError, read_operators

        if password or args.authorized_keys is not None:
            print("tui-domino: " + _("--operators needs a server with accounts (without "
                                     "--password and --authorized-keys): operators are "
                                     "known by the key they sign in with."), file=sys.stderr)
            return 2
        try:
            operators = read_operators(args.operators)
        except OperatorsError as exc:
            print(f"tui-domino: {exc}", file=sys.stderr)
            return 2
    problem = web_problem(args, password)
    if problem is not None:
        print("tui-domino: " + problem, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # a line per packet otherwise
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino import logs

    logs.start(logging.INFO if args.verbose else logging.WARNING)  # and the log file
    server = GameServer(
        host=args.host,
        port=args.port,
        limits=limits_from(args),
        password=password,
        authorized_keys=args.authorized_keys,
        host_key_path=args.host_key,
        accounts=True,  # (on a server that lets anyone in: names owned by keys)
        duel_target=args.duel_target,
        turn_seconds=args.turn_seconds,
        operators=operators,
        # (None: as TUI_DOMINO_FORK_SERVER says; on unless it is 0)
        fork_server=None if args.fork_server else False,
    )
    doors: list[Door] = []
    if args.web is not None:
        made = (web(server, args) if web is not None
                else _("--web needs the whole command line: run tui-domino serve"))
        if isinstance(made, str):
            print("tui-domino: " + made, file=sys.stderr)
            return 2
        doors.append(made)
    try:
        asyncio.run(serve_forever(server, announce=lambda line: print(line, flush=True),
                                  doors=doors))
    except HostKeyError as exc:
        print(f"tui-domino: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print("tui-domino: " + _("cannot listen on {host} port {port}: {reason}").format(
            host=args.host, port=args.port, reason=exc.strerror or exc), file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m tui_domino.ssh.cli``: the same as ``tui-domino serve`` (in the
    environment's language: only ``tui-domino`` reads the one chosen in Settings)."""
    i18n.use(None)  # before the parser: its help texts are looked up as it is made
    parser = argparse.ArgumentParser(prog="tui-domino")
    add_serve(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
