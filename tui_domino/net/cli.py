"""The ``host`` and ``join`` subcommands.

``tui-domino host [ADDR:]PORT`` prints an invitation code; ``tui-domino join HOST:PORT CODE``
joins with it (``--open`` on both sides: no code, plain text, for a trusted network); with
``--headless
--bot LEVEL`` a computer player takes the seat and the match's result is printed as one
JSON line. Without ``--headless`` the duel opens in the game's duel screen (a plain text
console when the terminal is not interactive or with ``--bot``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path

from tui_domino import i18n, rules
from tui_domino.i18n import _
from tui_domino.net import events as ev
from tui_domino.net.core import MatchSettings
from tui_domino.net.journal import default_path
from tui_domino.net.transport import DuelSession
from tui_domino.terminal import login_name
from tui_domino.text import visible

VARIANTS = ("classic", "spider", "triominos")


def parse_addr(text: str, default_host: str | None) -> tuple[str, int]:
    """``[ADDR:]PORT`` or ``HOST:PORT`` (``[v6]:PORT`` too) -> (host, port)."""
    m = re.fullmatch(r"(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:]*)):(?P<port>\d+)", text)
    if m:
        host = m.group("v6") or m.group("host") or default_host
        port = int(m.group("port"))
    elif text.isdigit() and default_host is not None:
        host, port = default_host, int(text)
    else:
        form = "[ADDR:]PORT" if default_host else "HOST:PORT"
        # TRANSLATORS: {form} is [ADDR:]PORT or HOST:PORT, as typed; {text}, what was typed.
        raise argparse.ArgumentTypeError(
            _("expected {form}, not {text}").format(form=form, text=repr(text)))
    if host is None or not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("bad address {text}").format(text=repr(text)))
    return host, port


def add_host_join(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Registers ``host`` and ``join`` on an argparse subparsers object; each sets
    ``net_handler`` (call it with the parsed args; it returns the exit code)."""
    h = subparsers.add_parser("host", help=_("host a duel over the network"))
    h.add_argument("address", metavar="[ADDR:]PORT",
                   help=_("where to listen (default address 0.0.0.0)"))
    h.add_argument("--variant", choices=VARIANTS, default="classic")
    h.add_argument("--target", type=int, default=None,
                   help=_("the match target (default: the variant's)"))
    h.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                   # TRANSLATORS: "--option hand_size=9" is typed as it is: keep it in English.
                   help=_("a house rule, e.g. --option hand_size=9 (repeatable)"))
    h.add_argument("--open", action="store_true",
                   help=_("no invitation code: whoever connects first plays, and the frames "
                          "travel in plain text (only on a network you trust)"))
    _common(h)
    h.set_defaults(net_handler=handle, net_role="host")
    j = subparsers.add_parser("join", help=_("join a duel hosted over the network"))
    j.add_argument("address", metavar="HOST:PORT")
    j.add_argument("code", metavar="CODE", nargs="?", default=None,
                   # TRANSLATORS: a code is typed as it is: keep 7-classic-orlando in English.
                   help=_("the invitation code the host shows, e.g. 7-classic-orlando"))
    j.add_argument("--open", action="store_true",
                   help=_("join a host started with --open (no code, plain text)"))
    j.add_argument("--variant", choices=VARIANTS, default=None,
                   help=_("refuse a match of another variant"))
    j.add_argument("--target", type=int, default=None,
                   help=_("refuse a match to another target"))
    _common(j)
    j.set_defaults(net_handler=handle, net_role="join")


def seconds(text: str) -> float:
    """An argparse type: a number of seconds, more than 0 (and finite)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            _("a number of seconds above 0, not {text}").format(text=repr(text)))
    return value


def _common(p: argparse.ArgumentParser) -> None:
    # (none given: the name in the game's Settings, else the login name: cli.main fills it)
    p.add_argument("--name", default=None)
    p.add_argument("--bot", metavar="LEVEL", default=None,
                   # TRANSLATORS: the level names (random, greedy) are typed as they are.
                   help=_("a computer player takes this seat (random, greedy, ...)"))
    p.add_argument("--headless", action="store_true",
                   help=_("no screen: play with --bot and print the result as JSON"))
    p.add_argument("--seed", type=int, default=None, help=_("the bot's random seed"))
    p.add_argument("--heartbeat", type=seconds, default=5.0,
                   help=_("seconds between heartbeats"))
    p.add_argument("--resume-window", type=seconds, default=900.0,
                   help=_("seconds to wait for a dropped peer (default 900)"))
    p.add_argument("--reveal-timeout", type=seconds, default=30.0,
                   help=_("seconds a connected peer has to reveal his keys at the end of a "
                          "round (default 30)"))
    p.add_argument("--turn-timeout", type=seconds, default=600.0,
                   help=_("seconds a connected player may take over one move before he "
                          "forfeits the match (default 600)"))
    p.add_argument("--journal", default=None, metavar="PATH",
                   # TRANSLATORS: 'none' is typed as it is: keep it in English.
                   help=_("the match log (default: in the data directory); 'none' for no "
                          "log"))
    p.add_argument("--fresh", action="store_true", help=_("do not resume a logged match"))
    p.add_argument("--quiet", action="store_true",
                   help=_("headless: print only the result"))


def _journal_path(args: argparse.Namespace, host: str, port: int) -> Path | None:
    if args.journal == "none":
        return None
    if args.journal:
        path = Path(args.journal)
    else:
        path = default_path(args.net_role, host, port)
    if args.fresh and path.exists():
        path.unlink()
    return path


def handle(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 130


async def _main(args: argparse.Namespace) -> int:
    role = args.net_role
    try:
        host, port = parse_addr(args.address, "0.0.0.0" if role == "host" else None)
    except argparse.ArgumentTypeError as exc:
        print(f"tui-domino {role}: {exc}", file=sys.stderr)
        return 2
    if args.headless and not args.bot:
        print(f"tui-domino {role}: " + _("--headless needs --bot LEVEL"), file=sys.stderr)
        return 2
    if args.bot:
        # lazy: start-up (the command line's parser loads this module for every command)
        from tui_domino.net.headless import bot_levels

        if args.bot not in bot_levels():
            # TRANSLATORS: {levels}: the level names, as typed (random, easy, greedy, ...).
            print(f"tui-domino {role}: " + _("unknown bot level {level} (one of {levels})")
                  .format(level=repr(args.bot), levels=", ".join(bot_levels())),
                  file=sys.stderr)
            return 2
    code: str | None = None
    if role == "join" and not args.open:
        # lazy: start-up (the parser loads this module; the channel and PyNaCl only for a code)
        from tui_domino.net.channel import normalize_code

        if args.code is None:
            # TRANSLATORS: "tui-domino join HOST:PORT CODE" and --open are typed as they are.
            print("tui-domino join: " + _(
                "give the host's invitation code: tui-domino join HOST:PORT CODE (or --open "
                "for a host started with --open)"), file=sys.stderr)
            return 2
        try:
            code = normalize_code(args.code)
        except ValueError as exc:
            print(f"tui-domino join: {exc}", file=sys.stderr)
            return 2
    elif role == "join" and args.code is not None:
        print("tui-domino join: " + _("--open takes no code"), file=sys.stderr)
        return 2
    elif role == "host" and not args.open:
        # lazy: start-up (the parser loads this module; the channel and PyNaCl only for a code)
        from tui_domino.net.channel import new_code

        code = new_code()
    journal = _journal_path(args, host, port)
    kw = {"heartbeat": args.heartbeat, "resume_window": args.resume_window,
          "reveal_timeout": args.reveal_timeout, "turn_timeout": args.turn_timeout}
    try:
        if role == "host":
            options = {}
            for item in args.option:
                key, _eq, value = item.partition("=")  # (not ``_``: the translation)
                options[key] = json.loads(value)
            settings = MatchSettings(args.variant, args.target,
                                     rules.resolve_options(args.variant, options)).resolved()
            session = await DuelSession.host(port, addr=host, name=args.name or login_name(),
                                             settings=settings, journal_path=journal,
                                             code=code, **kw)
            if args.headless and code is not None:
                _print_code(session.code or code, session.join_command())
            if not args.quiet:
                # TRANSLATORS: {variant}: classic, spider or triominos, as typed; {target}:
                # the match target (points); {addresses}: where the host listens.
                print(_("hosting {variant} to {target} on {addresses}").format(
                    variant=settings.variant, target=settings.target,
                    addresses=", ".join(session.addresses)), file=sys.stderr)
                if code is None:
                    print(_("open duel (--open): no invitation code, the frames travel in "
                            "plain text"), file=sys.stderr)
                elif not args.headless:
                    # TRANSLATORS: {command}: the command the opponent types, as it is.
                    print(_("invitation code: {code}\nyour opponent joins with: {command}")
                          .format(code=code, command=session.join_command()),
                          file=sys.stderr)
        else:
            want = MatchSettings(args.variant or "", args.target) if (
                args.variant or args.target) else None
            session = await DuelSession.join(host, port, name=args.name or login_name(), want=want,
                                             journal_path=journal, code=code, **kw)
    except ConnectionError as exc:
        # lazy: start-up (the parser loads this module; the channel and PyNaCl only for a code)
        from tui_domino.net.channel import Refused

        if not isinstance(exc, Refused):
            print(f"tui-domino {role}: " + _("cannot connect to {host}:{port}: {reason}")
                  .format(host=host, port=port, reason=exc.strerror or exc), file=sys.stderr)
            return 1
        # TRANSLATORS: {reason}: the other program's own words (English, never translated).
        print(f"tui-domino {role}: " + _("{host}:{port} refused: {reason}").format(
            host=host, port=port, reason=visible(exc.message)), file=sys.stderr)
        return 1
    except (OSError, TimeoutError) as exc:
        reason = _("timed out") if isinstance(exc, TimeoutError) else (
            exc.strerror or str(exc))
        if role == "host":
            told = _("cannot listen on {host}:{port}: {reason}")
        else:
            told = _("cannot connect to {host}:{port}: {reason}")
        print(f"tui-domino {role}: "
              + told.format(host=host, port=port, reason=reason), file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"tui-domino {role}: {exc}", file=sys.stderr)
        return 2
    if session.notice:
        print(f"tui-domino {role}: {session.notice}", file=sys.stderr)
    if args.headless:
        # lazy: start-up (the command line's parser loads this module for every command)
        from tui_domino.net.headless import run_bot

        refusal: list[str] = []

        def show(e: ev.Event) -> None:

            if isinstance(e, ev.Invitation) and e.code != code:
                _print_code(e.code, e.join)  # a new code replaced the one printed first
            if isinstance(e, ev.ProtocolError) and e.from_peer:
                refusal.append(e.message or e.code)
            if not args.quiet:
                print(f"  {visible(str(e))}", file=sys.stderr)

        result = await run_bot(session, args.bot, seed=args.seed, on_event=show)
        if not session.core.started:  # refused before any of it was played: no result
            print(f"tui-domino {role}: " + _("{host}:{port} refused: {reason}").format(
                host=host, port=port, reason=visible(refusal[-1] if refusal else _(
                    "the connection ended before the match began"))), file=sys.stderr)
            return 1
        print(json.dumps({k: result[k] for k in (
            "variant", "totals", "winner", "rounds", "verified")} | {
            k: result[k] for k in ("seat", "names", "verdict") if k in result} | (
            {"phrase": session.phrase} if session.phrase else {})))
        if journal is not None and journal.exists() and session.core.finished:
            journal.rename(journal.with_suffix(".done.jsonl"))
        return 0 if result.get("verified") else 1
    # The screen to play on is given by the caller (the command line passes the game's duel
    # screen when there is a terminal to draw it on); the network layer never imports the
    # user interface.
    run_duel_app = getattr(args, "duel_app", None)
    if run_duel_app is not None and not args.bot:
        outcome = await run_duel_app(session)
        if journal is not None and journal.exists() and session.core.finished:
            journal.rename(journal.with_suffix(".done.jsonl"))
        return 0 if outcome and outcome.get("verified") else 1
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino.net.console import run_console

    return await run_console(session, bot=args.bot, seed=args.seed)


def _print_code(code: str, join: str) -> None:
    """The headless host's line for scripts: the invitation code (its first line of output,
    and one more each time a new code replaces it)."""
    print(json.dumps({"code": code, "join": join}), flush=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m tui_domino.net.cli host|join ...`` (the same as ``tui-domino host|join``,
    in the environment's language: only ``tui-domino`` reads the one chosen in Settings)."""
    i18n.use(None)  # before the parser: its help texts are looked up as it is made
    parser = argparse.ArgumentParser(prog="tui-domino")
    add_host_join(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.net_handler(args))


if __name__ == "__main__":
    sys.exit(main())
