"""The Domino Spider board: the centre double with four arms, North, East, South, West."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from tui_domino.i18n import _
from tui_domino.rules.places import arm_letter
from tui_domino.rules.types import ArmJSON, HistoryRecord, SeatView
from tui_domino.ui.drawing.canvas import Canvas
from tui_domino.ui.drawing.tiles import DIGITS, TileShape

ARMS = ("N", "E", "S", "W")


Box = tuple[int, int, int, int]  # x0, y0, x1, y1, inclusive

# Clockwise: each arm leaves the centre in its own direction and, at the table's edge,
# turns right (North runs up, then along the top to the right, then down the right edge),
# so the four arms wind round the centre like a pinwheel, each in its own quarter.
DIRECTIONS = ("up", "right", "down", "left")
LEAVES = {"N": "up", "E": "right", "S": "down", "W": "left"}


def _clockwise(d: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(d) + 1) % 4]


def _inside(box: Box, region: Box) -> bool:
    return (region[0] <= box[0] and box[2] <= region[2] and region[1] <= box[1]
            and box[3] <= region[3])


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def touches(a: Box, b: Box) -> bool:
    """Whether two boxes lie side by side, sharing a stretch of edge, with no gap."""
    across = a[2] + 1 == b[0] or b[2] + 1 == a[0]
    along = a[3] + 1 == b[1] or b[3] + 1 == a[1]
    return ((across and a[1] <= b[3] and b[1] <= a[3])
            or (along and a[0] <= b[2] and b[0] <= a[2]))


def _covered(box: Box, regions: list[Box]) -> bool:
    """Whether every cell of ``box`` lies in one of ``regions``."""
    if any(_inside(box, r) for r in regions):
        return True
    return all(any(r[0] <= x <= r[2] and r[1] <= y <= r[3] for r in regions)
               for y in range(box[1], box[3] + 1) for x in range(box[0], box[2] + 1))


def quarters(shape: TileShape, bounds: Box) -> dict[str, tuple[Box, Box]]:
    """Each arm's quarter of the table: for its first leg, and (a cell back from its
    neighbours' first legs) for the legs after a turn."""
    cw, ch, hw = shape.v_w // 2, shape.v_h // 2, shape.h_w // 2
    left, top, right, bottom = bounds
    return {
        "N": ((-hw, top, right, -ch - 1), (-hw, top, right, -ch - 2)),
        "E": ((cw + 1, -ch, right, bottom), (hw + 2, -ch, right, bottom)),
        "S": ((left, ch + 1, hw, bottom), (left, ch + 2, hw, bottom)),
        "W": ((left, top, -cw - 1, ch), (left, top, -hw - 2, ch)),
    }


def start_box(shape: TileShape, arm: str) -> Box:
    """Where an arm's first tile lies (and its name beside it), kept free for it."""
    cw, ch = shape.v_w // 2, shape.v_h // 2
    return {"N": (-cw - 1, -ch - shape.v_h, cw, -ch - 1),
            "E": (cw + 1, -ch, cw + shape.h_w, ch),
            "S": (-cw, ch + 1, cw + 1, ch + shape.v_h),
            "W": (-cw - shape.h_w, -ch, -cw - 1, ch)}[arm]


class ArmWalker:
    """Lays the tiles of one arm outward from the centre: straight on while the table has
    room, then a turn to the right at its edge (with a tile laid round the corner as at a
    real table), never into another arm's quarter of the table. ``bounds`` is the table's
    area around the centre (None: no edge, the arm runs straight)."""

    def __init__(self, shape: TileShape, arm: str, bounds: Box | None = None,
                 taken: list[Box] | None = None, lent: Box | None = None) -> None:
        s = self.shape = shape
        self.arm = arm
        self.direction = LEAVES[arm]
        cw, ch = s.v_w // 2, s.v_h // 2
        # the open end: the first cell beyond it along the way, and the line the arm follows
        self.pos = {"up": -ch - 1, "down": ch + 1, "right": cw + 1, "left": -cw - 1}[
            self.direction]
        self.line = 0
        self.legs = 1
        self.last: Box | None = None
        self.boxes: list[Box] = []  # this arm's tiles
        self.taken = taken if taken is not None else []  # every tile on the table
        self.kept: list[Box] = []  # the places of the other arms' first tiles
        self.first: list[Box] | None = None
        self.later: list[Box] | None = None
        self.bounds = bounds
        if bounds is None:
            return
        # its own quarter; after a turn also the next arm's (clockwise), when that arm has
        # no tile yet and lends it (``lent``: but where its first tile will go)
        first, later = quarters(shape, bounds)[arm]
        # (with the next quarter lent, nothing is there to keep a cell's distance from)
        self.first, self.later = [first], [later] if lent is None else [first, lent]

    @property
    def vertical(self) -> bool:
        return self.direction in ("up", "down")

    def _box(self, double: bool) -> Box:
        """Where the next tile goes on the way the arm runs now."""
        s = self.shape
        if self.vertical:  # upright, or a double across
            w, h = (s.h_w, s.h_h) if double else (s.v_w, s.v_h)
            x0 = self.line - w // 2
            y0 = self.pos if self.direction == "down" else self.pos - h + 1
        else:
            w, h = (s.v_w, s.v_h) if double else (s.h_w, s.h_h)
            y0 = self.line - h // 2
            x0 = self.pos if self.direction == "right" else self.pos - w + 1
        return (x0, y0, x0 + w - 1, y0 + h - 1)

    def _free(self, box: Box) -> bool:
        """Nothing on the table there, and a cell's gap to this arm's earlier tiles (but
        the one it joins), so that a winding arm never reads as two."""
        if any(_overlaps(box, b) for b in self.taken) or any(
                _overlaps(box, b) for b in self.kept):
            return False
        near = (box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)
        return not any(_overlaps(near, b) for b in self.boxes[:-1])

    def _fits(self, box: Box) -> bool:
        region = self.first if self.legs == 1 else self.later
        if region is None:
            return True
        if not (_covered(box, region) and self._free(box)):
            return False
        # at the table's edge, room for the turn that follows: a double on the next leg
        # stands out further than a tile does
        assert self.bounds is not None
        s = self.shape
        left, top, right, bottom = self.bounds
        ahead_v, ahead_h = (s.v_h - s.h_h) // 2, (s.h_w - s.v_w) // 2
        return {"up": box[1] - ahead_v >= top, "down": box[3] + ahead_v <= bottom,
                "right": box[2] + ahead_h <= right, "left": box[0] - ahead_h >= left,
                }[self.direction]

    def _turn(self) -> None:
        """To the right, round the corner of the last tile's outer end."""
        s, last = self.shape, self.last
        self.direction = _clockwise(self.direction)
        self.legs += 1
        if last is None:
            return
        x0, y0, x1, y1 = last
        if self.direction == "down":  # from running right
            self.line, self.pos = x1 - s.v_w // 2, y1 + 1
        elif self.direction == "left":  # from running down
            self.line, self.pos = y1 - s.h_h // 2, x0 - 1
        elif self.direction == "up":  # from running left
            self.line, self.pos = x0 + s.v_w // 2, y0 - 1
        else:  # right, from running up
            self.line, self.pos = y0 + s.h_h // 2, x1 + 1

    def _next_box(self, double: bool) -> Box:
        """The box of the next tile, turning first where the table ends (a tile that
        fits nowhere goes straight on, off the table's edge: the board then scrolls)."""
        box = self._box(double)
        if self.last is None or self._fits(box):
            return box
        saved = (self.direction, self.line, self.pos, self.legs)
        for _turn in range(3):
            self._turn()
            box = self._box(double)
            if self._fits(box):
                return box
        # past the table's edge (the board then scrolls): straight on where that is free,
        # else the first free way round
        self.direction, self.line, self.pos, self.legs = saved
        for _way in range(4):
            box = self._box(double)
            if self._free(box):
                return box
            self._turn()
        # hemmed in by the other arms' quarters: against the last tile still, on any side
        # of it where no tile lies nor another arm's first one will, slid along that side
        # if need be
        for _way in range(4):
            beside = self._touching(double)
            if beside is not None:
                return beside
            self._turn()
        # nowhere beside it without covering a tile (no round has been seen to come to
        # this): on past whatever is in the way, never over it
        self.direction, self.line, self.pos, self.legs = saved
        step = 1 if self.direction in ("down", "right") else -1
        for _step in range(200):
            self.pos += step
            box = self._box(double)
            if self._free(box):
                return box
        return box

    def _touching(self, double: bool) -> Box | None:
        """The next tile's box on the way the arm runs now, against the last tile, over no
        other tile nor the place of another arm's first one: in line with the arm, else slid
        sideways while it still touches."""
        box = self._box(double)
        last = self.last
        assert last is not None
        reach = max(box[2] - box[0], box[3] - box[1]) + 1
        for shift in sorted(range(-reach, reach + 1), key=abs):
            dx, dy = (shift, 0) if self.vertical else (0, shift)
            moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
            if touches(last, moved) and not any(
                    _overlaps(moved, b) for b in (*self.taken, *self.kept)):
                return moved
        return None

    def place(self, cv: Canvas, inner: int, outer: int, style: str,
              key: object = None, close: bool = False) -> None:
        s = self.shape
        double = inner == outer
        box = self._next_box(double)
        x0, y0, x1, y1 = box
        if self.vertical:
            a, b = (inner, outer) if self.direction == "down" else (outer, inner)
            if double:
                s.lengthwise(cv, x0, y0, inner, outer, style)
            else:
                s.upright(cv, x0, y0, a, b, style)
            self.pos = y1 + 1 if self.direction == "down" else y0 - 1
            self.line = x0 + (x1 - x0 + 1) // 2  # (moved, when slid along to touch)
        else:
            a, b = (inner, outer) if self.direction == "right" else (outer, inner)
            if double:
                s.upright(cv, x0, y0, inner, outer, style)
            else:
                s.lengthwise(cv, x0, y0, a, b, style)
            self.pos = x1 + 1 if self.direction == "right" else x0 - 1
            self.line = y0 + (y1 - y0 + 1) // 2
        if self.last is not None:
            cv.joins.append((self.last, box))
        self.last = box
        self.boxes.append(box)
        self.taken.append(box)
        if key is not None:
            cv.hit(x0, y0, x1 + 1, y1 + 1, key)
        if style in ("last", "sel"):
            cv.add_focus(x0, y0, x1 + 1, y1 + 1, selected=style == "sel")
        if close:
            self.bar(cv, style or "closed")

    def bar(self, cv: Canvas, style: str) -> None:
        """The bar across a closed arm's end."""
        last = self.last
        if last is None:
            return
        x0, y0, x1, y1 = last
        if self.vertical:
            cv.text(x0, self.pos, "━" * (x1 - x0 + 1), style)
        else:
            for y in range(y0, y1 + 1):
                cv.put(self.pos, y, "┃", style)
        self.pos += 1 if self.direction in ("down", "right") else -1

    def end_mark(self, cv: Canvas) -> None:
        """A dot just beyond an open end (where nothing else is drawn there)."""
        x, y = (self.line, self.pos) if self.vertical else (self.pos, self.line)
        if cv.get(x, y) is None and not any(_overlaps((x, y, x, y), b) for b in self.taken):
            cv.put(x, y, "·", "dim")


def arm_labels(cv: Canvas, shape: TileShape) -> None:
    """N, E, S and W where the arms leave the centre double, each on the side its arm
    turns away from, so that a bent arm is still known by its name."""
    cw, ch = shape.v_w // 2, shape.v_h // 2
    for name, (x, y) in {"N": (-cw - 1, -ch - 1), "E": (cw + 2, -ch),
                         "S": (cw + 1, ch + 1), "W": (-cw - 2, ch)}.items():
        cv.put(x, y, arm_letter(name), "label")



class ArmTile(Protocol):
    """A tile offered on an arm or chosen for it (``ui.selection.ArmPlace``, a
    ``rules.Placement``)."""

    @property
    def tile(self) -> tuple[int, int]: ...
    @property
    def arm(self) -> str: ...
    @property
    def close(self) -> bool: ...


def last_placements(history: list[HistoryRecord]) -> set[tuple[str, int]]:
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
    view: SeatView,
    places: Sequence[ArmTile],
    selected: int | None,
    pending: Sequence[ArmTile],
    shape: TileShape = DIGITS,
    width: int | None = None,
    height: int | None = None,
) -> Canvas:
    """``places``: single placements (Placement objects with tile, arm, close) offered for the
    selected tile; ``pending``: the doubles already chosen for this turn. With the table's
    ``width`` and ``height`` the arms turn at its edges instead of running off it."""
    cv = Canvas()
    center = view.get("center")
    arms = view.get("arms") or {}
    last = last_placements(view.get("history") or [])
    ghosts: dict[str, list[tuple[ArmTile, str, int | None]]] = {}
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
            # TRANSLATORS: drawn in the middle of the table before the first tile
            words = _("the table is empty")
            cv.text(-(len(words) // 2), 0, words, "dim")
        cv.freeze()
        return cv
    bounds = None
    if width is not None and height is not None:
        w, h = width - 2, height - 2  # within the canvas's blank margin
        bounds = (-(w // 2), -(h // 2), w - w // 2 - 1, h - h // 2 - 1)
    arm_labels(cv, shape)
    shape.upright(cv, cx, cy, center, center, "last" if ("center", 0) in last else "spinner")
    taken: list[Box] = [(cx, cy, cx + shape.v_w - 1, cy + shape.v_h - 1)]
    empty = {a for a in ARMS if not (a in arms and arms[a]["tiles"]) and not ghosts.get(a)}
    # every arm keeps the place of its first tile (with a cell round it) from the others;
    # an arm with no tile lends the rest of its quarter to the arm before it
    kept = {}
    for a in ARMS:
        x0, y0, x1, y1 = start_box(shape, a)
        kept[a] = (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
    for arm in ARMS:
        info = arms.get(arm) or ArmJSON(tiles=[], end=center, closed=False)
        nxt = ARMS[(ARMS.index(arm) + 1) % 4]
        lent = quarters(shape, bounds)[nxt][0] if bounds is not None and nxt in empty else None
        walker = ArmWalker(shape, arm, bounds, taken, lent)
        walker.kept = [box for a, box in kept.items() if a != arm]
        tiles = info["tiles"]
        for j, (inner, outer) in enumerate(tiles):
            style = "last" if (arm, j + 1) in last else ""
            closing = info["closed"] and j == len(tiles) - 1
            walker.place(cv, inner, outer, style, close=closing)
        for p, style, key in ghosts.get(arm, []):
            end = center if info["end"] is None else info["end"]
            one, two = p.tile
            other = two if one == end else one
            walker.place(cv, end, other, style, key, close=p.close)
        if not info["closed"] and not ghosts.get(arm):
            walker.end_mark(cv)
    pad = 1
    if width is not None and height is not None:
        x0, y0, x1, y1 = cv.bounds()
        if x1 - x0 + 2 > width or y1 - y0 + 2 > height:
            pad = 0  # the blank margin goes before the table would have to scroll
    cv.freeze(pad)
    return cv
