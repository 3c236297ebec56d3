"""The command line: ``tui-domino`` starts the game; subcommands for the rest."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tui_domino import i18n
from tui_domino.i18n import _


def build_parser(game_only: bool = False) -> argparse.ArgumentParser:
    """The whole command line; ``game_only``: just the game's own (``tui-domino`` and
    ``tui-domino play``), which spares the start-up the other commands' modules."""
    p = argparse.ArgumentParser(
        prog="tui-domino",
        description=_("Classic dominoes, Domino Spider and Triominos in the terminal."),
    )
    sub = p.add_subparsers(dest="command")
    play = sub.add_parser("play", help=_("start the game (the default)"))
    play.add_argument("--variant", choices=("classic", "spider", "triominos"),
                      help=_("start a match of this variant straight away"))
    play.add_argument("--opponent", default=None,
                      # TRANSLATORS: the level names and 'person' are typed as they are: keep
                      # them in English.
                      help=_("the computer's strength (random, easy, greedy, normal, hard) "
                             "or 'person'"))
    play.add_argument("--seed", type=int, default=None,
                      help=_("deal the match from this seed"))
    play.add_argument("--ascii", action="store_true", default=None,
                      help=_("draw with plain ASCII instead of box-drawing characters"))
    if game_only:
        return p

    # lazy: start-up (the game's own command line loads none of the other commands)
    from tui_domino.net.cli import seconds

    b = sub.add_parser("bench", help=_("measure the rules engine's speed"))
    b.add_argument("--json", action="store_true", help=_("end with one line of JSON"))
    b.add_argument("--seconds", type=seconds, default=1.5,
                   help=_("time per figure (default 1.5)"))
    b.add_argument("--seed", type=int, default=2024)
    b.add_argument("--variant", choices=("classic", "spider", "triominos"), action="append",
                   help=_("only this variant (repeatable)"))

    # lazy: start-up (the game's own command line loads none of the other commands)
    from tui_domino.ai import arena

    a = sub.add_parser("arena", help=_("computer against computer: strength and speed"))
    arena.add_arguments(a)

    # lazy: start-up (the game's own command line loads none of the other commands)
    from tui_domino.net.cli import add_host_join

    add_host_join(sub)

    # lazy: start-up (the game's own command line loads none of the other commands)
    from tui_domino.ssh.cli import add_serve

    add_serve(sub)

    # lazy: start-up (the game's own command line loads none of the other commands)
    from tui_domino.history.cli import add_commands

    add_commands(sub)  # hint, review, history, stats
    return p


def missing_terminal() -> str | None:
    """Why the game's screen cannot start here, or None when it can. The screen reads keys
    from standard input and draws on standard error; either one redirected (or input at its
    end, as from /dev/null) leaves no one to play, and the screen would wait for ever."""
    # lazy: start-up (import tui_domino.cli stays light: only main() needs it)
    from tui_domino.terminal import is_terminal

    if not is_terminal(sys.__stdin__):
        why = _("the game needs a terminal, and standard input is not one.")
    elif not is_terminal(sys.__stderr__):
        why = _("the game needs a terminal, and standard error is not one.")
    else:
        return None
    # TRANSLATORS: the commands in backquotes are typed as they are: keep them in English.
    return f"tui-domino: {why}\n" + _(
        "Start it from a terminal. Without one, `tui-domino host` and `tui-domino join` play "
        "a duel on a plain console, and `tui-domino arena` plays computer against computer.")


def saved_language() -> str | None:
    """The language chosen in Settings, None for the environment's (none chosen, or settings
    that cannot be read: the game says why when it starts, so a bad file is left where it
    is, and nothing is written). Cheap: the game's start loads these modules anyway, and
    the other commands' parsers load all but the settings' own module."""
    # lazy: start-up (import tui_domino.cli stays light: main() reads the settings)
    from tui_domino.ui.storage import Settings

    settings = Settings.peek()
    return (settings.language or None) if settings is not None else None


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    # the language before anything is said: the help texts are looked up as the parser is made
    i18n.use(saved_language())
    # starting the game (no command, or play) needs none of the other commands' modules
    game_only = (not given or given[0] == "play") and not {"-h", "--help"} & set(given)
    args = build_parser(game_only).parse_args(given)
    # (``host`` and ``join`` play on a plain console without a terminal: below)
    why = missing_terminal() if args.command in (None, "play") else None
    if why is not None:
        print(why, file=sys.stderr)
        return 2
    if args.command == "bench":
        # lazy: start-up (only bench needs it)
        from tui_domino.rules.bench import VARIANTS, run

        run(as_json=args.json, seconds=args.seconds, seed=args.seed,
            variants=tuple(args.variant) if args.variant else VARIANTS)
        return 0
    if getattr(args, "history_handler", None):
        # lazy: start-up (only the history commands need it)
        from tui_domino.history.cli import main as history_main

        return history_main(args)
    if args.command == "arena":
        # lazy: start-up (only arena needs it)
        from tui_domino.ai import arena

        return arena.main(args)
    # lazy: start-up (bench, arena and the history commands load no logging)
    from tui_domino import logs

    if args.command != "serve":  # (serve logs to its standard error, and here: below)
        logs.start()
    if getattr(args, "net_handler", None):
        if args.name is None:  # the name the player goes by in the game (Settings)
            # lazy: start-up (only a duel from the command line reads the game's settings)
            from tui_domino.ui.session import duel_name
            from tui_domino.ui.storage import Settings

            args.name = duel_name(Settings.load().name)
        if not args.headless and missing_terminal() is None:  # else the plain console
            # lazy: start-up (import tui_domino.cli stays light: only main() needs it)
            from tui_domino.terminal import tune_environment

            tune_environment()

            async def duel_app(session: Any) -> Any:
                # lazy: start-up (the duel screen and Textual load only for a duel on a terminal)
                from tui_domino.ui.app import run_duel_app

                return await run_duel_app(session)

            args.duel_app = duel_app
        return int(args.net_handler(args))
    if args.command == "serve":
        # lazy: start-up (only serve loads it; the web door's aiohttp only with --web)
        from tui_domino.web.cli import web_door

        return int(args.handler(args, web_door))
    # lazy: start-up (import tui_domino.cli stays light: only main() needs it)
    from tui_domino.terminal import tune_environment

    tune_environment()  # colours, escape delay, frame rate and mouse: before textual loads
    # lazy: start-up (Textual loads after tune_environment(); the other commands load no UI)
    from tui_domino.ui.app import main_app

    if args.command == "play":
        return main_app(variant=args.variant, opponent=args.opponent, seed=args.seed,
                        ascii_mode=args.ascii) or 0
    return main_app() or 0


if __name__ == "__main__":
    sys.exit(main())
