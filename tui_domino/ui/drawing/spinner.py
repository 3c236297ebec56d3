"""The Domino Spider board: the centre double with four arms, North, East, South, West."""

from __future__ import annotations

from typing import Any

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import domino_h, domino_v

ARMS = ("N", "E", "S", "W")


def _tile(cv: Canvas, arm: str, pos: int, inner: int, outer: int, style: str,
          key: object = None, close: bool = False) -> int:
    """Draws one tile of ``arm`` whose inner side touches ``pos`` (a column for E/W, a row
    for N/S); returns the position just beyond its outer side."""
    double = inner == outer
    if arm in ("E", "W"):
        w = 3 if double else 5
        x = pos if arm == "E" else pos - w + 1
        if double:
            domino_v(cv, x, -2, inner, outer, style)
            box = (x, -2, x + 3, 3)
        else:
            a, b = (inner, outer) if arm == "E" else (outer, inner)
            domino_h(cv, x, -1, a, b, style)
            box = (x, -1, x + 5, 2)
        nxt = pos + w if arm == "E" else pos - w
    else:
        h = 3 if double else 5
        y = pos if arm == "S" else pos - h + 1
        if double:
            domino_h(cv, -2, y, inner, outer, style)
            box = (-2, y, 3, y + 3)
        else:
            a, b = (inner, outer) if arm == "S" else (outer, inner)
            domino_v(cv, -1, y, a, b, style)
            box = (-1, y, 2, y + 5)
        nxt = pos + h if arm == "S" else pos - h
    if key is not None:
        cv.hit(*box, key)
    if style in ("last", "sel"):
        cv.add_focus(*box, selected=style == "sel")
    if close:
        _bar(cv, arm, nxt, style or "closed")
        nxt = nxt + (1 if arm in ("E", "S") else -1)
    return nxt


def _bar(cv: Canvas, arm: str, pos: int, style: str) -> None:
    if arm in ("E", "W"):
        for y in range(-2, 3):
            cv.put(pos, y, "┃", style)
    else:
        cv.text(-2, pos, "━━━━━", style)


def last_placements(history: list[dict[str, Any]]) -> set[tuple[str, int]]:
    """(arm, tile count on that arm after it) of the last placement move's tiles."""
    counts = {a: 0 for a in ARMS}
    last: set[tuple[str, int]] = set()
    for rec in history:
        mv = rec["move"]
        if mv["kind"] != "place":
            continue
        last = set()
        for p in mv["placements"]:
            if p["arm"] in counts:
                counts[p["arm"]] += 1
                last.add((p["arm"], counts[p["arm"]]))
            else:
                last.add(("center", 0))
    return last


def layout_spider(
    view: dict[str, Any],
    places: list[Any],
    selected: int | None,
    pending: list[Any],
) -> Canvas:
    """``places``: single placements (Placement objects with tile, arm, close) offered for the
    selected tile; ``pending``: the doubles already chosen for this turn."""
    cv = Canvas()
    center = view.get("center")
    arms = view.get("arms") or {}
    last = last_placements(view.get("history") or [])
    ghosts: dict[str, list[tuple[Any, str, object]]] = {}
    for p in pending:
        ghosts.setdefault(p.arm, []).append((p, "sel", None))
    for i, p in enumerate(places):
        if any(g[0].arm == p.arm for g in ghosts.get(p.arm, [])):
            continue
        ghosts.setdefault(p.arm, []).append((p, "sel" if i == selected else "ghost", i))
    if center is None:
        for p, style, key in ghosts.get("center", []):
            n = p.tile[0]
            domino_v(cv, -1, -2, n, n, style)
            if key is not None:
                cv.hit(-1, -2, 2, 3, key)
            cv.add_focus(-1, -2, 2, 3, selected=True)
        if not ghosts.get("center"):
            cv.text(-9, 0, "the table is empty", "dim")
        cv.freeze()
        return cv
    domino_v(cv, -1, -2, center, center, "last" if ("center", 0) in last else "spinner")
    starts = {"E": 2, "W": -2, "N": -3, "S": 3}
    for arm in ARMS:
        info = arms.get(arm) or {"tiles": [], "end": center, "closed": False}
        pos = starts[arm]
        tiles = info["tiles"]
        for j, (inner, outer) in enumerate(tiles):
            style = "last" if (arm, j + 1) in last else ""
            closing = info.get("closed") and j == len(tiles) - 1
            pos = _tile(cv, arm, pos, inner, outer, style, close=bool(closing))
        for p, style, key in ghosts.get(arm, []):
            end = info.get("end", center)
            a, b = p.tile
            other = b if a == end else a
            _tile(cv, arm, pos, end, other, style, key, close=p.close)
        label = {"N": (0, pos - 1), "S": (0, pos + 1), "E": (pos + 1, 0), "W": (pos - 1, 0)}[arm]
        if not info.get("closed") and not ghosts.get(arm):
            cv.put(label[0], label[1], "·", "dim")
    cv.freeze()
    return cv
