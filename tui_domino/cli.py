"""The command line: ``tui-domino`` starts the game; subcommands for the rest."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tui-domino",
        description="Classic dominoes, Domino Spider and Triominos in the terminal.",
    )
    sub = p.add_subparsers(dest="command")
    sub.add_parser("play", help="start the game (the default)")
    b = sub.add_parser("bench", help="measure the rules engine's speed")
    b.add_argument("--json", action="store_true", help="end with one line of JSON")
    b.add_argument("--seconds", type=float, default=1.5, help="time per figure (default 1.5)")
    b.add_argument("--seed", type=int, default=2024)
    b.add_argument("--variant", choices=("classic", "spider", "triominos"), action="append",
                   help="only this variant (repeatable)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "bench":
        from tui_domino.bench import VARIANTS, run

        run(as_json=args.json, seconds=args.seconds, seed=args.seed,
            variants=tuple(args.variant) if args.variant else VARIANTS)
        return 0
    from tui_domino.ui.app import main_app

    return main_app() or 0


if __name__ == "__main__":
    sys.exit(main())
