"""The memory of every match: records of rounds and matches, the SQLite history, statistics.

``record_match(...)`` stores a finished match (``db.record_match``); docs/coach.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

if TYPE_CHECKING:
    from tui_domino.history.records import MatchFields


def record_match(**kw: Unpack[MatchFields]) -> int:
    """Stores a finished match in the history (``db.record_match``); returns its id."""
    # lazy: start-up (the parser loads this package for every command; sqlite3 only to record)
    from tui_domino.history.db import record_match as _record

    return _record(**kw)


__all__ = ["record_match"]
