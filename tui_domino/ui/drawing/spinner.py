"""The Domino Spider board: the centre double with four arms, North, East, South, West."""

from __future__ import annotations

from typing import Any

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import DIGITS, TileShape

ARMS = ("N", "E", "S", "W")


def _tile(cv: Canvas, shape: TileShape, arm: str, pos: int, inner: int, outer: int,
          style: str, key: object = None, close: bool = False) -> int:
    """Draws one tile of ``arm`` whose inner side touches ``pos`` (a column for E/W, a row
    for N/S); returns the position just beyond its outer side."""
    double = inner == outer
    s = shape
    if arm in ("E", "W"):
        w = s.v_w if double else s.h_w
        x = pos if arm == "E" else pos - w + 1
        if double:
            y = -(s.v_h // 2)
            s.upright(cv, x, y, inner, outer, style)
            box = (x, y, x + s.v_w, y + s.v_h)
        else:
            a, b = (inner, outer) if arm == "E" else (outer, inner)
            y = -(s.h_h // 2)
            s.lengthwise(cv, x, y, a, b, style)
            box = (x, y, x + s.h_w, y + s.h_h)
        nxt = pos + w if arm == "E" else pos - w
    else:
        h = s.h_h if double else s.v_h
        y = pos if arm == "S" else pos - h + 1
        if double:
            x = -(s.h_w // 2)
            s.lengthwise(cv, x, y, inner, outer, style)
            box = (x, y, x + s.h_w, y + s.h_h)
        else:
            a, b = (inner, outer) if arm == "S" else (outer, inner)
            x = -(s.v_w // 2)
            s.upright(cv, x, y, a, b, style)
            box = (x, y, x + s.v_w, y + s.v_h)
        nxt = pos + h if arm == "S" else pos - h
    if key is not None:
        cv.hit(*box, key)
    if style in ("last", "sel"):
        cv.add_focus(*box, selected=style == "sel")
    if close:
        _bar(cv, shape, arm, nxt, style or "closed")
        nxt = nxt + (1 if arm in ("E", "S") else -1)
    return nxt


def _bar(cv: Canvas, shape: TileShape, arm: str, pos: int, style: str) -> None:
    if arm in ("E", "W"):
        for y in range(-(shape.v_h // 2), shape.v_h // 2 + 1):
            cv.put(pos, y, "┃", style)
    else:
        cv.text(-(shape.h_w // 2), pos, "━" * shape.h_w, style)


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
    shape: TileShape = DIGITS,
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
    cx, cy = -(shape.v_w // 2), -(shape.v_h // 2)
    centre_box = (cx, cy, cx + shape.v_w, cy + shape.v_h)
    if center is None:
        for p, style, key in ghosts.get("center", []):
            n = p.tile[0]
            shape.upright(cv, cx, cy, n, n, style)
            if key is not None:
                cv.hit(*centre_box, key)
            cv.add_focus(*centre_box, selected=True)
        if not ghosts.get("center"):
            cv.text(-9, 0, "the table is empty", "dim")
        cv.freeze()
        return cv
    shape.upright(cv, cx, cy, center, center, "last" if ("center", 0) in last else "spinner")
    starts = {"E": cx + shape.v_w, "W": cx - 1, "N": cy - 1, "S": cy + shape.v_h}
    for arm in ARMS:
        info = arms.get(arm) or {"tiles": [], "end": center, "closed": False}
        pos = starts[arm]
        tiles = info["tiles"]
        for j, (inner, outer) in enumerate(tiles):
            style = "last" if (arm, j + 1) in last else ""
            closing = info.get("closed") and j == len(tiles) - 1
            pos = _tile(cv, shape, arm, pos, inner, outer, style, close=bool(closing))
        for p, style, key in ghosts.get(arm, []):
            end = info.get("end", center)
            a, b = p.tile
            other = b if a == end else a
            _tile(cv, shape, arm, pos, end, other, style, key, close=p.close)
        label = {"N": (0, pos - 1), "S": (0, pos + 1), "E": (pos + 1, 0), "W": (pos - 1, 0)}[arm]
        if not info.get("closed") and not ghosts.get(arm):
            cv.put(label[0], label[1], "·", "dim")
    cv.freeze()
    return cv
