"""The game's side of the history: what a local match keeps of its rounds until it ends, and
the coach's hints on the table.

A ``MatchLog`` belongs to a ``Session``: each finished round's record (``round_record``, with
the hints used in it) is added as the round ends, and when the match is over the whole match
goes to the database (``history.db.record_match``) in a thread. Until then the rounds are kept
in ``match-rounds.json`` beside the saved match, so that a match left and continued later is
recorded whole. Nothing here makes the screen wait on the disk: every write runs in a thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from tui_domino import rules
from tui_domino.history.records import MatchFields, PlayerJSON, RoundRecord, round_record
from tui_domino.logs import logged
from tui_domino.ui import storage
from tui_domino.ui.selection import ArmPlace, Selection
from tui_domino.ui.session import Session

if TYPE_CHECKING:  # not imported at run time: the duel's modules load with the duel
    from tui_domino.ai.coach import JudgementJSON
    from tui_domino.net.records import MatchResult

ROUNDS_NAME = "match-rounds.json"


class MatchKey(TypedDict):
    variant: str
    seed: int


class RoundsFile(TypedDict):
    """``match-rounds.json``: the rounds of the match in play, and the hints and take-backs
    used so far in its round ``round``."""

    key: MatchKey
    round: int
    hints: int
    take_backs: int
    rounds: list[RoundRecord]
_lock = threading.Lock()


_threads: list[threading.Thread] = []


def _start(fn: Callable[..., object], *args: object) -> None:
    """``fn(*args)`` in a thread of its own (the disk is never waited for on the screen)."""
    t = threading.Thread(target=fn, args=args, daemon=True, name="history-write")
    with _lock_threads:
        _threads[:] = [x for x in _threads if x.is_alive()]
        _threads.append(t)
    t.start()


_lock_threads = threading.Lock()


def wait_for_writes(timeout: float = 10.0) -> None:
    """Waits for the writes under way (for tests and for leaving the game)."""
    with _lock_threads:
        pending = list(_threads)
    for t in pending:
        t.join(timeout)


def rounds_path() -> Path:
    return storage.data_dir() / ROUNDS_NAME


class MatchLog:
    """The rounds of one match so far, and the hints of the round in play."""

    def __init__(self, session: Session) -> None:
        m = session.match
        self.key = MatchKey(variant=m.variant, seed=m.seed)
        self.rounds: list[RoundRecord] = []
        self.hints = 0  # in the round in play
        self.take_backs = 0  # in the round in play
        self.match_id: int | None = None  # once stored
        self.recorded = False
        self._load(session)

    def _load(self, session: Session) -> None:
        try:
            raw = json.loads(rounds_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(raw, dict) or raw.get("key") != self.key:
            return
        rounds = raw.get("rounds")
        if isinstance(rounds, list) and all(isinstance(r, dict) for r in rounds):
            self.rounds = [r for r in rounds if r.get("number", 0) < session.match.round_no
                           or session.state.is_over]
        hints = raw.get("hints")
        if isinstance(hints, int) and raw.get("round") == session.match.round_no:
            self.hints = hints
        backs = raw.get("take_backs")
        if isinstance(backs, int) and raw.get("round") == session.match.round_no:
            self.take_backs = backs

    def payload(self, round_no: int) -> RoundsFile:
        return {"key": self.key, "round": round_no, "hints": self.hints,
                "take_backs": self.take_backs, "rounds": self.rounds}


_logs: weakref.WeakKeyDictionary[Session, MatchLog] = weakref.WeakKeyDictionary()


def log_for(session: Session) -> MatchLog:
    log = _logs.get(session)
    if log is None:
        log = _logs[session] = MatchLog(session)
    return log


def known(session: Session) -> MatchLog | None:
    """The match's log if the game keeps one (a local match; not a duel)."""
    return _logs.get(session)


def round_of(session: Session) -> RoundRecord | None:
    """The record of the round just finished, when the game keeps one."""
    log = _logs.get(session)
    if log is None:
        return None
    return next((r for r in log.rounds if r.get("number") == session.match.round_no), None)


def reviewed(session: Session, number: int, review: list[JudgementJSON]) -> None:
    """A round's review is complete: kept with the round, and in the history once stored."""
    log = _logs.get(session)
    if log is None:
        return
    for rec in log.rounds:
        if rec.get("number") == number:
            rec["review"] = review
    if log.match_id is not None:
        _start(save_review, log.match_id, number, review)
    elif session.autosave and not log.recorded:
        payload = json.loads(json.dumps(log.payload(session.match.round_no + 1)))
        payload["hints"] = 0
        _start(_quiet(_write_rounds), payload)


def _write_rounds(payload: RoundsFile) -> None:
    with _lock:
        storage.write_json_atomic(rounds_path(), payload)


def _remove_rounds() -> None:
    with _lock, contextlib.suppress(FileNotFoundError):
        rounds_path().unlink()


def take_back_used(session: Session) -> None:
    """One more take-back in the round in play (kept in the side file, in a thread)."""
    _count(session, "take_backs")


def hint_used(session: Session) -> None:
    """One more hint in the round in play (kept in the side file, in a thread)."""
    _count(session, "hints")


def _count(session: Session, what: str) -> None:
    log = log_for(session)
    setattr(log, what, getattr(log, what) + 1)
    if session.autosave:
        payload = json.loads(json.dumps(log.payload(session.match.round_no)))
        _start(_quiet(_write_rounds), payload)


def _quiet(fn: Callable[..., None]) -> Callable[..., None]:
    """``fn`` whose failure to write goes to the log (the play goes on)."""
    def run(*args: object) -> None:
        with logged(f"writing the history ({fn.__name__})", exceptions=(OSError, ValueError)):
            fn(*args)

    return run


def players_of(session: Session) -> list[PlayerJSON]:
    return [{"name": s.name, "kind": s.kind, "level": s.level} for s in session.seats]


def me_of(session: Session) -> int | None:
    humans = session.human_seats
    return humans[0] if len(humans) == 1 else None


def round_over(session: Session) -> RoundRecord:
    """Keeps the finished round in play (once) and, when it ends the match, stores the match;
    returns the round's record. The disk is written in a thread."""
    log = log_for(session)
    m = session.match
    number = m.round_no
    rec = next((r for r in log.rounds if r.get("number") == number), None)
    if rec is None:
        rec = round_record(session.state, number, hints=log.hints,
                           take_backs=log.take_backs)
        log.rounds.append(rec)
        log.hints = log.take_backs = 0
    if m.is_over and not log.recorded:
        log.recorded = True
        kw: MatchFields = {"variant": m.variant, "target": m.target, "options": m.options,
              "players": players_of(session), "rounds": json.loads(json.dumps(log.rounds)),
              "totals": list(m.totals), "winner": m.winner, "me": me_of(session),
              "kind": "computer" if any(s.is_computer for s in session.seats) else "person",
              "seed": m.seed}
        if session.autosave:
            _start(_store, log, kw)
    elif session.autosave:
        payload = json.loads(json.dumps(log.payload(number + 1)))
        payload["hints"] = 0
        _start(_quiet(_write_rounds), payload)
    return rec


def _store(log: MatchLog, kw: MatchFields) -> None:
    # lazy: worker (a writer thread loads sqlite3, never the screen)
    import sqlite3

    from tui_domino.history import db  # worker: the writer thread loads the history's store

    try:
        log.match_id = db.record_match(**kw)
    except (sqlite3.Error, OSError, ValueError):  # the match stays in the side file
        logging.getLogger(__name__).warning(
            "the match could not be written to the history; its rounds stay in %s",
            rounds_path(), exc_info=True)
        log.recorded = False
        return
    _remove_rounds()
    for rec in log.rounds:  # a review made before the match was stored
        review = rec.get("review")
        if review:
            save_review(log.match_id, rec["number"], review)


def save_review(match_id: int | None, number: int, review: list[JudgementJSON]) -> None:
    """Keeps a round's review in the database (call from a thread)."""
    if match_id is None:
        return
    # lazy: worker (a writer thread loads sqlite3, never the screen)
    from tui_domino.history import db

    with logged("keeping a review in the history"):
        con = db.connect()
        try:
            db.save_review(con, match_id, number, review)
        finally:
            con.close()


# -- the coach on the table ---------------------------------------------------------------------


def select_move(sel: Selection, move: rules.Move) -> bool:
    """Makes ``move`` the chosen tile and place (and, in Spider, the doubles gathered with
    it), so that the board shows it and Enter plays it. False for a draw or a pass."""
    if move.kind != "place":
        return False
    sel.pending = []
    if move.placements is not None:
        *first, last = move.placements
        for p in first:
            sel.pending.append(ArmPlace(p.tile, p.arm, p.close))
        tile: tuple[int, ...] | None = last.tile
    else:
        tile = move.tile
    if tile not in sel.hand:
        return False
    sel.select_tile(sel.hand.index(tile))
    places = sel.places()
    for i, place in enumerate(places):
        if move.placements is not None:
            if isinstance(place, ArmPlace) and place.arm == move.placements[-1].arm:
                sel.select_place(i)
                sel.close = move.placements[-1].close and sel.can_close(place)
                return True
        elif place == move:
            sel.select_place(i)
            return True
    return False


__all__ = ["MatchLog", "hint_used", "log_for", "round_over", "save_review", "select_move"]


def duel_round(rounds: list[RoundRecord], number: int, state: rules.StateJSON) -> None:
    """Keeps a duel's round, verified (``state``: the referee's replay on the revealed deal,
    both hands in it), for the duel's record in the history."""
    if any(r.get("number") == number for r in rounds):
        return
    with contextlib.suppress(ValueError, KeyError, TypeError):  # a round that cannot be read
        rounds.append(round_record(rules.state_from_json(state), number))


def duel_over(*, variant: str, target: int, options: rules.Options, names: list[str],
              rounds: list[RoundRecord], result: MatchResult, me: int) -> None:
    """Stores a finished duel in the history (in a thread): its verified rounds, the totals
    and the winner as the match ended (a forfeit or a verdict included)."""
    kw: MatchFields = {"variant": variant, "target": target, "options": options,
          "players": [{"name": n or "player", "kind": "human", "level": ""} for n in names],
          "rounds": json.loads(json.dumps(rounds)), "totals": list(result["totals"]),
          "winner": result["winner"], "me": me, "kind": "duel"}

    def store() -> None:
        # lazy: worker (a writer thread loads sqlite3, never the screen)
        from tui_domino.history import db

        with logged("keeping the duel in the history"):
            db.record_match(**kw)

    _start(store)
