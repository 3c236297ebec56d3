"""The Domino Spider board: the centre double with four arms, North, East, South, West."""

from __future__ import annotations

from typing import Any

from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import DIGITS, TileShape

ARMS = ("N", "E", "S", "W")


class ArmWalker:
    """Lays the tiles of one arm outward from the centre. East and West run straight;
    North and South leave the centre upright and, once a tile's height away, turn (North
    to the right, South to the left) so that the table stays low and wide."""

    def __init__(self, shape: TileShape, arm: str) -> None:
        s = self.shape = shape
        self.arm = arm
        cx, cy = -(s.v_w // 2), -(s.v_h // 2)
        self.vertical = arm in ("N", "S")
        self.step = {"N": -1, "S": 1, "E": 1, "W": -1}[arm]
        # straight on: a column for E/W (the next tile's inner edge), a row for N/S
        self.pos = {"E": cx + s.v_w, "W": cx - 1, "N": cy - 1, "S": cy + s.v_h}[arm]
        self.row = 0  # the middle row of a horizontal run
        self.climbed = 0

    def _turn(self) -> None:
        """From upright to a horizontal run beside the last tile's outer number."""
        s = self.shape
        last_outer = self.pos - self.step  # the outermost row of the last tile
        self.row = last_outer + self.step * -(s.h_h // 2)
        self.vertical = False
        self.step = 1 if self.arm == "N" else -1
        self.pos = (s.v_w // 2 + 1) if self.arm == "N" else -(s.v_w // 2 + 1)

    def place(self, cv: Canvas, inner: int, outer: int, style: str,
              key: object = None, close: bool = False) -> None:
        s = self.shape
        if self.vertical and self.climbed >= s.v_h:
            self._turn()
        double = inner == outer
        if self.vertical:
            h = s.h_h if double else s.v_h
            y = self.pos if self.step > 0 else self.pos - h + 1
            if double:
                x = -(s.h_w // 2)
                s.lengthwise(cv, x, y, inner, outer, style)
                box = (x, y, x + s.h_w, y + s.h_h)
            else:
                a, b = (inner, outer) if self.step > 0 else (outer, inner)
                x = -(s.v_w // 2)
                s.upright(cv, x, y, a, b, style)
                box = (x, y, x + s.v_w, y + s.v_h)
            self.pos += self.step * h
            self.climbed += h
        else:
            w = s.v_w if double else s.h_w
            x = self.pos if self.step > 0 else self.pos - w + 1
            if double:
                y = self.row - s.v_h // 2
                s.upright(cv, x, y, inner, outer, style)
                box = (x, y, x + s.v_w, y + s.v_h)
            else:
                a, b = (inner, outer) if self.step > 0 else (outer, inner)
                y = self.row - s.h_h // 2
                s.lengthwise(cv, x, y, a, b, style)
                box = (x, y, x + s.h_w, y + s.h_h)
            self.pos += self.step * w
        if key is not None:
            cv.hit(*box, key)
        if style in ("last", "sel"):
            cv.add_focus(*box, selected=style == "sel")
        if close:
            self.bar(cv, style or "closed")

    def bar(self, cv: Canvas, style: str) -> None:
        s = self.shape
        if self.vertical:
            cv.text(-(s.h_w // 2), self.pos, "━" * s.h_w, style)
        else:
            for y in range(self.row - s.v_h // 2, self.row + s.v_h // 2 + 1):
                cv.put(self.pos, y, "┃", style)
        self.pos += self.step

    def end_mark(self, cv: Canvas) -> None:
        """A dot just beyond an open end."""
        if self.vertical and self.climbed >= self.shape.v_h:
            self._turn()
        if self.vertical:
            cv.put(0, self.pos + (0 if self.step > 0 else 0), "·", "dim")
        else:
            cv.put(self.pos + self.step, self.row, "·", "dim")


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
    for arm in ARMS:
        info = arms.get(arm) or {"tiles": [], "end": center, "closed": False}
        walker = ArmWalker(shape, arm)
        tiles = info["tiles"]
        for j, (inner, outer) in enumerate(tiles):
            style = "last" if (arm, j + 1) in last else ""
            closing = bool(info.get("closed")) and j == len(tiles) - 1
            walker.place(cv, inner, outer, style, close=closing)
        for p, style, key in ghosts.get(arm, []):
            end = info.get("end", center)
            a, b = p.tile
            other = b if a == end else a
            walker.place(cv, end, other, style, key, close=p.close)
        if not info.get("closed") and not ghosts.get(arm):
            walker.end_mark(cv)
    cv.freeze()
    return cv
