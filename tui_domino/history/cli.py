"""The coach and the history on the command line: ``hint``, ``review``, ``history``, ``stats``.

Input from a file is hostile: it is read with a size limit, parsed, and checked strictly
(``coach.check_view``, ``records.check_match``); anything wrong is one line on standard error
and exit status 2, never a traceback. With ``--json`` the last line of the output is one JSON
object.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tui_domino.text import visible

VARIANT_CHOICES = ("classic", "spider", "triominos")


class InputError(Exception):
    """Input the command refuses: its message is for the user."""


def add_commands(sub: Any) -> None:
    h = sub.add_parser("hint", help="the coach's ranked moves for a view (state.view(p) JSON)")
    h.add_argument("view", help="the view's JSON file ('-': standard input)")
    h.add_argument("--json", action="store_true", help="end with one line of JSON")
    h.add_argument("--seed", type=int, default=0)
    h.add_argument("--iterations", type=_positive, default=None,
                   help="search iterations (default: the coach's per game)")
    h.add_argument("--ms", type=_positive, default=None, help="search time cap in ms")
    h.set_defaults(history_handler=run_hint)

    r = sub.add_parser("review", help="the coach's judgement of every choice of a match record")
    r.add_argument("match", help="an exported match record (JSON; '-': standard input)")
    r.add_argument("--json", action="store_true", help="end with one line of JSON")
    r.add_argument("--iterations", type=_positive, default=None)
    r.add_argument("--ms", type=_positive, default=None)
    r.set_defaults(history_handler=run_review)

    hi = sub.add_parser("history", help="the matches played, newest first")
    hi.add_argument("--json", action="store_true", help="end with one line of JSON")
    hi.add_argument("--variant", choices=VARIANT_CHOICES)
    hi.add_argument("--opponent", help="easy, normal, hard, ..., person or duel")
    hi.add_argument("--limit", type=_positive, default=20)
    hi.add_argument("--export", type=_positive, metavar="ID",
                    help="print match ID as an exported record (JSON) instead")
    hi.set_defaults(history_handler=run_history)

    st = sub.add_parser("stats", help="statistics of the matches played")
    st.add_argument("--json", action="store_true", help="end with one line of JSON")
    st.add_argument("--variant", choices=VARIANT_CHOICES)
    st.add_argument("--opponent")
    st.set_defaults(history_handler=run_stats)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n <= 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def main(args: argparse.Namespace) -> int:
    try:
        return int(args.history_handler(args))
    except InputError as exc:
        print(f"tui-domino {args.command}: {visible(str(exc))}", file=sys.stderr)
        return 2


def read_json(name: str, limit: int) -> Any:
    try:
        if name == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(name, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"{name} is larger than {limit} bytes")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{name} is not UTF-8 text") from None
    except RecursionError:
        raise InputError(f"{name} is nested too deeply") from None
    except ValueError as exc:
        raise InputError(f"{name} is not JSON: {exc}") from None


def run_hint(args: argparse.Namespace) -> int:
    from tui_domino.ai import coach

    raw = read_json(args.view, coach.MAX_VIEW_BYTES)
    try:
        view = coach.check_view(raw)
    except coach.BadView as exc:
        raise InputError(f"not a view: {exc}") from None
    ranked = coach.rank_json(view, args.seed, args.iterations, args.ms)
    for n, r in enumerate(ranked, 1):
        print(f"{n:>2}. {coach.describe(r['move']):<28} {coach.points_text(r['expected']):>7}"
              f"  ({r['visits']} visits)")
    if args.json:
        print(json.dumps({"moves": [{"move": r["move"], "expected": r["expected"]}
                                    for r in ranked]}))
    return 0


def run_review(args: argparse.Namespace) -> int:
    from tui_domino.ai import coach
    from tui_domino.history import records

    raw = read_json(args.match, records.MAX_RECORD_BYTES)
    try:
        record = records.check_match(raw)
    except ValueError as exc:
        raise InputError(f"not a match record: {exc}") from None
    variant = record["variant"]
    options = record.get("options")
    names = [visible(p["name"]) for p in record["players"]]
    out: list[dict[str, Any]] = []
    for rnd in record["rounds"]:
        start = records.start_of(variant, rnd, options)
        judged = coach.review_round(start, rnd["moves"], (0, 1), args.iterations, args.ms)
        n = rnd.get("number", len(out) + 1)
        print(f"Round {n}")
        costs = []
        for seat in (0, 1):
            who = "your" if names[seat].strip().casefold() == "you" else f"{names[seat]}'s"
            print("  " + coach.summary(judged, seat, who))
            costs.append(round(sum(j.loss for j in judged if j.player == seat), 2))
        for j in judged:
            if j.mark:
                print(f"    move {j.index + 1} ({names[j.player]}): {j.mark}: "
                      f"{coach.describe(j.played)} {coach.points_text(j.expected)}; best "
                      f"{coach.describe(j.best)} {coach.points_text(j.best_expected)}")
        out.append({"number": n, "cost": costs, "judgements": [j.to_json() for j in judged]})
    if args.json:
        print(json.dumps({"variant": variant, "rounds": out}))
    return 0


def _connect() -> Any:
    from tui_domino.history import db

    try:
        return db.connect()
    except (OSError, ValueError) as exc:  # sqlite3.Error is an Exception, not OSError
        raise InputError(f"cannot open the history: {exc}") from None
    except Exception as exc:
        raise InputError(f"cannot open the history: {exc}") from None


def run_history(args: argparse.Namespace) -> int:
    from tui_domino.history import db

    con = _connect()
    try:
        if args.export:
            rec = db.load_match(con, args.export)
            if rec is None:
                raise InputError(f"there is no match {args.export}")
            print(json.dumps(rec))
            return 0
        rows, total = db.list_matches(con, args.variant, args.opponent, args.limit)
    finally:
        con.close()
    print(f"{total} match{'' if total == 1 else 'es'}"
          + (f", the newest {len(rows)}:" if rows and len(rows) < total else ":" if rows
             else "."))
    for m in rows:
        print(f"{m.id:>6}  {m.played_at[:16].replace('T', ' ')}  {m.variant:<9}  "
              f"{visible(m.players[0])} {m.totals[0]} - {m.totals[1]} {visible(m.players[1])}"
              f"  ({m.opponent}, {m.rounds} rounds)")
    if args.json:
        print(json.dumps({"total": total, "matches": [m.to_json() for m in rows]}))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from tui_domino.history import stats

    con = _connect()
    try:
        st = stats.compute(con, args.variant, args.opponent)
    finally:
        con.close()
    what = " · ".join(x for x in (args.variant, args.opponent) if x) or "all matches"
    print(f"Statistics: {what}")
    for line in stats.lines(st):
        print("  " + line)
    chart = stats.chart(st.cost_by_period)
    if chart:
        print("  What your choices cost per reviewed round:")
        for line in chart:
            print("    " + line)
    if args.json:
        print(json.dumps(st.to_json()))
    return 0


__all__ = ["add_commands", "main"]
