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
import textwrap
from typing import Any

from tui_domino import i18n
from tui_domino.i18n import _, ngettext
from tui_domino.text import visible

VARIANT_CHOICES = ("classic", "spider", "triominos")


class InputError(Exception):
    """Input the command refuses: its message is for the user."""


def add_commands(sub: Any) -> None:
    h = sub.add_parser("hint",
                       # TRANSLATORS: state.view(p) is a name in the code: keep it as it is.
                       help=_("the coach's ranked moves for a view (state.view(p) JSON)"))
    h.add_argument("view", help=_("the view's JSON file ('-': standard input)"))
    h.add_argument("--json", action="store_true", help=_("end with one line of JSON"))
    h.add_argument("--seed", type=int, default=0)
    h.add_argument("--iterations", type=_positive, default=None,
                   help=_("search iterations (default: the coach's per game)"))
    h.add_argument("--ms", type=_positive, default=None, help=_("search time cap in ms"))
    h.set_defaults(history_handler=run_hint)

    r = sub.add_parser("review",
                       help=_("the coach's judgement of every choice of a match record"))
    r.add_argument("match", help=_("an exported match record (JSON; '-': standard input)"))
    r.add_argument("--json", action="store_true", help=_("end with one line of JSON"))
    r.add_argument("--iterations", type=_positive, default=None)
    r.add_argument("--ms", type=_positive, default=None)
    r.set_defaults(history_handler=run_review)

    hi = sub.add_parser("history", help=_("the matches played, newest first"))
    hi.add_argument("--json", action="store_true", help=_("end with one line of JSON"))
    hi.add_argument("--variant", choices=VARIANT_CHOICES)
    # TRANSLATORS: the names are typed as they are: keep them in English.
    hi.add_argument("--opponent", help=_("easy, normal, hard, ..., person or duel"))
    hi.add_argument("--limit", type=_positive, default=20)
    hi.add_argument("--export", type=_positive, metavar="ID",
                    # TRANSLATORS: ID is the option's value, as the help shows it: keep it.
                    help=_("print match ID as an exported record (JSON) instead"))
    hi.set_defaults(history_handler=run_history)

    st = sub.add_parser("stats", help=_("statistics of the matches played"))
    st.add_argument("--json", action="store_true", help=_("end with one line of JSON"))
    st.add_argument("--variant", choices=VARIANT_CHOICES)
    st.add_argument("--opponent")
    st.set_defaults(history_handler=run_stats)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text} is not a whole number").format(text=repr(text))) from None
    if n <= 0:
        raise argparse.ArgumentTypeError(_("must be at least 1"))
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
        raise InputError(_("cannot read {name}: {reason}").format(
            name=name, reason=exc.strerror or exc)) from None
    if len(data) > limit:
        raise InputError(ngettext("{name} is larger than {limit} byte",
                                  "{name} is larger than {limit} bytes", limit)
                         .format(name=name, limit=limit))
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise InputError(_("{name} is not UTF-8 text").format(name=name)) from None
    except RecursionError:
        raise InputError(_("{name} is nested too deeply").format(name=name)) from None
    except ValueError as exc:
        # TRANSLATORS: {reason}: the JSON parser's own words (English).
        raise InputError(_("{name} is not JSON: {reason}").format(name=name, reason=exc)
                         ) from None


def run_hint(args: argparse.Namespace) -> int:
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino.ai import coach

    raw = read_json(args.view, coach.MAX_VIEW_BYTES)
    try:
        view = coach.check_view(raw)
    except coach.BadView as exc:
        raise InputError(_("not a view: {reason}").format(reason=exc)) from None
    ranked = coach.rank_json(view, args.seed, args.iterations, args.ms)
    name = coach.Namer(view)  # the moves named as the table names them
    best = ranked[0]["expected"] if ranked else 0.0
    for n, r in enumerate(ranked, 1):
        # TRANSLATORS: how often the coach's search tried a move
        visits = ngettext("({n} visit)", "({n} visits)", r["visits"]).format(n=r["visits"])
        # TRANSLATORS: the coach's best move in `tui-domino hint`'s list
        behind = (_("best") if n == 1 else
                  # TRANSLATORS: a move in `tui-domino hint`'s list, {points} ("3.2")
                  # points less than the best on average (the round's score difference)
                  _("{points} less").format(points=i18n.decimal(best - r["expected"])))
        print(f"{n:>2}. {name(r['move']):<30} {behind:>10}  {visits}")
    if ranked:
        for line in hint_legend(view["variant"]):
            print(textwrap.fill(line, 78))
    if args.json:
        print(json.dumps({"moves": [{"move": r["move"], "expected": r["expected"],
                                     "behind_best": round(best - r["expected"], 2),
                                     "name": name(r["move"])}
                                    for r in ranked]}))
    return 0


def hint_legend(variant: str) -> list[str]:
    """What `hint`'s figures and names mean (a player reads them without the table)."""
    if variant == "spider":
        # TRANSLATORS: `tui-domino hint` in Domino Spider (whose points are charged): what
        # its figures mean
        scale = _("Figures: how many points less than the best move each move brings on "
                  "average, counted as the round's final score difference (the other's "
                  "charged points less yours), over the deals of the unseen tiles the coach "
                  "imagines.")
    else:
        # TRANSLATORS: `tui-domino hint`: what its figures mean
        scale = _("Figures: how many points less than the best move each move brings on "
                  "average, counted as the round's final score difference (your points less "
                  "the other's), over the deals of the unseen tiles the coach imagines.")
    if variant != "triominos":
        return [scale]
    # TRANSLATORS: `tui-domino hint`: how Triominos places are named, as the table names
    # them when that tile is chosen; "turn 2/3" and r as the table says them
    return [scale, _("Places: the places where a tile fits are lettered a, b, c, ... in "
                     "reading order of their cells (top row first, then left to right), as "
                     "the table letters them when that tile is chosen; \"turn 2/3\" is the "
                     "second of the three ways it fits there (the r key).")]


def run_review(args: argparse.Namespace) -> int:
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino.ai import coach
    from tui_domino.history import records

    raw = read_json(args.match, records.MAX_RECORD_BYTES)
    try:
        record = records.check_match(raw)
    except ValueError as exc:
        raise InputError(_("not a match record: {reason}").format(reason=exc)) from None
    variant = record["variant"]
    options = record.get("options")
    names = [visible(p["name"]) for p in record["players"]]
    out: list[dict[str, Any]] = []
    for rnd in record["rounds"]:
        start = records.start_of(variant, rnd, options)
        judged = coach.review_round(start, rnd["moves"], (0, 1), args.iterations, args.ms)
        n = rnd.get("number", len(out) + 1)
        print(_("Round {number}").format(number=n))
        costs = []
        # the round before each move (the moves named in it as the table names them), and at
        # its end (how it ended, the scale of the coach's figures)
        states = [start.clone()]
        for rec in rnd["moves"]:
            states.append(states[-1].clone())
            states[-1].apply(rec["move"])
        final = states[-1]
        for seat in (0, 1):
            you = names[seat].strip().casefold() == "you"
            margin = (coach.margin_of(variant, final.points, seat) if final.is_over
                      else None)
            print("  " + coach.summary(judged, seat, name=None if you else names[seat],
                                       margin=margin))
            costs.append(round(sum(j.loss for j in judged if j.player == seat), 2))
        for j in judged:
            if j.mark:
                name = coach.Namer(states[j.index])
                n_less = max(1, round(j.loss))
                # TRANSLATORS: a move the coach judged: {number} the move's number, {name}
                # who played it, {mark} the coach's word (mistake, inaccuracy), {played} the
                # move played, {best} the coach's best, {n} the points (whole) the move
                # played gives up against it on average.
                print("    " + ngettext(
                    "move {number} ({name}): {mark}: {played}, about {n} point less on "
                    "average than {best}",
                    "move {number} ({name}): {mark}: {played}, about {n} points less on "
                    "average than {best}", n_less).format(
                    number=j.index + 1, name=names[j.player], mark=coach.mark_word(j.mark),
                    played=name(j.played), best=name(j.best), n=n_less))
        out.append({"number": n, "cost": costs, "judgements": [j.to_json() for j in judged]})
    if args.json:
        print(json.dumps({"variant": variant, "rounds": out}))
    return 0


def _connect() -> Any:
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino.history import db

    try:
        return db.connect()
    except (OSError, ValueError) as exc:  # sqlite3.Error is an Exception, not OSError
        raise InputError(_("cannot open the history: {reason}").format(reason=exc)) from None
    except Exception as exc:
        raise InputError(_("cannot open the history: {reason}").format(reason=exc)) from None


def run_history(args: argparse.Namespace) -> int:
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino.history import db

    con = _connect()
    try:
        if args.export:
            rec = db.load_match(con, args.export)
            if rec is None:
                raise InputError(_("there is no match {id}").format(id=args.export))
            print(json.dumps(rec))
            return 0
        rows, total = db.list_matches(con, args.variant, args.opponent, args.limit)
    finally:
        con.close()
    if rows and len(rows) < total:
        # TRANSLATORS: {shown}: how many of the {n} matches are listed below.
        heading = ngettext("{n} match, the newest {shown}:", "{n} matches, the newest {shown}:",
                           total)
    elif rows:
        heading = ngettext("{n} match:", "{n} matches:", total)
    else:
        heading = ngettext("{n} match.", "{n} matches.", total)
    print(heading.format(n=total, shown=len(rows)))
    for m in rows:
        # TRANSLATORS: {opponent}: the level, person or duel, as typed
        rounds = ngettext("({opponent}, {n} round)", "({opponent}, {n} rounds)",
                          m.rounds).format(opponent=m.opponent, n=m.rounds)
        print(f"{m.id:>6}  {m.played_at[:16].replace('T', ' ')}  {m.variant:<9}  "
              f"{visible(m.players[0])} {m.totals[0]} - {m.totals[1]} {visible(m.players[1])}"
              f"  {rounds}")
    if args.json:
        print(json.dumps({"total": total, "matches": [m.to_json() for m in rows]}))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    # lazy: start-up (the command line's parser loads this module for every command)
    from tui_domino.history import stats

    con = _connect()
    try:
        st = stats.compute(con, args.variant, args.opponent)
    finally:
        con.close()
    what = " · ".join(x for x in (args.variant, args.opponent) if x) or _("all matches")
    # TRANSLATORS: {what}: the variant and the opponent asked for, as typed (classic ·
    # hard), or "all matches".
    print(_("Statistics: {what}").format(what=what))
    for line in stats.lines(st):
        print("  " + line)
    chart = stats.chart(st.cost_by_period)
    if chart:
        print("  " + _("What your choices cost per reviewed round:"))
        for line in chart:
            print("    " + line)
    if args.json:
        print(json.dumps(st.to_json()))
    return 0


__all__ = ["add_commands", "main"]
