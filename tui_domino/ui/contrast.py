"""Themes made readable: every colour the game writes text in meets WCAG AA (a contrast
ratio of 4.5:1) against the background it is written on, whatever theme the player chose;
and in a 256-colour terminal each colour is the palette's nearest to the eye (CIELAB), so
that a pale grey stays grey instead of turning pink.

``readable_variables`` takes the CSS variables a theme generates and returns them mended
(nothing changes where a theme already reads well). Themes of ANSI colours (``ansi-*``) are
left alone: their colours are the terminal's own and cannot be measured here."""

from __future__ import annotations

import math
from functools import lru_cache

from textual.color import Color, ColorParseError

AA = 4.5  # WCAG 2 level AA for text

# (foreground, background) pairs of variables that the game writes text with.
TEXT_PAIRS: tuple[tuple[str, str], ...] = (
    ("foreground", "background"),
    ("foreground", "surface"),
    ("foreground", "panel"),
    ("footer-key-foreground", "footer-background"),
    ("footer-description-foreground", "footer-background"),
    ("footer-foreground", "footer-background"),
    ("block-cursor-foreground", "block-cursor-background"),
    ("button-foreground", "surface"),
    ("button-color-foreground", "primary"),
    ("button-color-foreground", "error"),
    *((colour, ground) for colour in ("accent", "success", "primary", "warning", "error")
      for ground in ("background", "surface", "panel")),
)
# Grounds that widgets tint a little towards the text when focused (an option list, a
# button): the text must read on the tinted ground too.
TINTED = frozenset({"surface"})
TINT = 0.05
# "auto N%" colours (the contrast colour at N% over whatever is behind): the grounds they
# are read on.
AUTO_GROUNDS: dict[str, tuple[str, ...]] = {
    "text": ("background", "surface", "panel"),
    "text-muted": ("background", "surface", "panel"),
}


def luminance(c: Color) -> float:
    """WCAG relative luminance."""
    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)


def ratio(a: Color, b: Color) -> float:
    """WCAG contrast ratio of two opaque colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=2048)
def parse(value: str) -> Color | None:
    """An opaque colour from a CSS variable's value (None: ANSI, auto or unreadable).
    (Kept: a value Textual cannot read costs it a search for a suggestion.)"""
    try:
        c = Color.parse(value.strip())
    except ColorParseError:
        return None
    if c.ansi is not None:
        return None
    return c


def on(colour: Color, ground: Color) -> Color:
    """``colour`` (perhaps translucent) as it shows over the opaque ``ground``."""
    return ground.blend(colour.with_alpha(1.0), colour.a) if colour.a < 1 else colour


def readable(colour: Color, grounds: list[Color], minimum: float = AA) -> Color:
    """``colour``, moved towards black or white (whichever the grounds are further from) in
    small steps until it reads on every ground: the least change that suffices."""
    if all(ratio(colour, g) >= minimum for g in grounds):
        return colour
    dark_ground = sum(luminance(g) for g in grounds) / len(grounds) < 0.18
    target = Color(255, 255, 255) if dark_ground else Color(0, 0, 0)
    for step in range(1, 21):
        c = colour.blend(target, step / 20)
        if all(ratio(c, g) >= minimum for g in grounds):
            return c
    return target


def _lab(c: Color) -> tuple[float, float, float]:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = lin(c.r), lin(c.g), lin(c.b)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def chroma(c: Color) -> float:
    """How colourful ``c`` is (CIELAB chroma: 0 for a grey)."""
    _, a, b = _lab(c)
    return math.hypot(a, b)


def hue(c: Color) -> float:
    """The CIELAB hue angle of ``c``, in degrees."""
    _, a, b = _lab(c)
    return math.degrees(math.atan2(b, a)) % 360


@lru_cache(maxsize=1)
def _palette() -> list[tuple[Color, tuple[float, float, float]]]:
    """The 240 colours of the 256-colour palette that do not depend on the terminal (the
    6x6x6 cube and the grey ramp), with their CIELAB coordinates."""
    steps = (0, 95, 135, 175, 215, 255)
    colours = [Color(r, g, b) for r in steps for g in steps for b in steps]
    colours += [Color(8 + 10 * i, 8 + 10 * i, 8 + 10 * i) for i in range(24)]
    return [(c, _lab(c)) for c in colours]


@lru_cache(maxsize=4096)
def nearest_256(c: Color) -> Color:
    """The 256-colour palette's colour nearest to ``c`` to the eye (CIE76 in CIELAB); a
    terminal shows exactly this one."""
    lab = _lab(c)
    return min(_palette(), key=lambda entry: math.dist(entry[1], lab))[0]


# readable_variables's answers, by its question: a theme's are worked out once a process
# (and, on a server, once in the fork server for the themes a game starts with).
READABLE: dict[tuple[tuple[tuple[str, str], ...], bool], dict[str, str]] = {}
READABLE_KEPT = 64


def readable_variables(variables: dict[str, str], eight_bit: bool = False) -> dict[str, str]:
    """A theme's CSS variables with every text colour readable on its grounds (and, for a
    256-colour terminal, every colour one of the palette's)."""
    key = (tuple(sorted(variables.items())), eight_bit)
    known = READABLE.get(key)
    if known is None:
        known = _readable_variables(variables, eight_bit)
        if len(READABLE) >= READABLE_KEPT:
            READABLE.clear()
        READABLE[key] = known
    return dict(known)


def _readable_variables(variables: dict[str, str], eight_bit: bool) -> dict[str, str]:
    out = dict(variables)
    if parse(out.get("background", "")) is None:
        out.update(table_marks(out))
        return out  # a theme of the terminal's own colours
    if eight_bit:
        for key, value in variables.items():
            c = parse(value)
            if c is not None and c.a == 1 and not key.startswith("scrollbar"):
                out[key] = nearest_256(c).hex
    for _ in range(2):  # a ground moved for one pair is read again by the others
        for fg, bg in TEXT_PAIRS:
            colour, ground = parse(out.get(fg, "")), parse(out.get(bg, ""))
            if out.get(fg, "").startswith("auto") and ground is not None and ground.a == 1:
                _mend_auto(out, fg, bg, ground)
                continue
            if colour is None or ground is None or ground.a < 1:
                continue
            shown = on(colour, ground)
            grounds = [ground, ground.blend(shown, TINT)] if bg in TINTED else [ground]
            fixed = readable(shown, grounds)
            if eight_bit:
                fixed = _palette_readable(fixed, ground)
            if fixed != shown:
                out[fg] = fixed.hex
    for key, ground_keys in AUTO_GROUNDS.items():
        value = out.get(key, "")
        if not value.startswith("auto"):
            continue
        alpha = _auto_alpha(value)
        colours = [c for c in (parse(out.get(g, "")) for g in ground_keys) if c is not None]
        while alpha < 1 and any(ratio(on(g.get_contrast_text(alpha), g), g) < AA
                                for g in colours):
            alpha = min(1.0, alpha + 0.05)
        out[key] = f"auto {round(alpha * 100)}%"
    out.update(table_marks(out, eight_bit))
    return out


# The table's marks (the last move, the selected place, the other places, tiles that cannot
# be played): each a colour of the theme that stands out from the board's ground as WCAG asks
# of the parts of a drawing (3:1), and reads as text where digits or letters are written in
# it (4.5:1), and each far enough from the others and from the tiles' own colour to tell them
# apart at a glance (a distance in CIELAB: 2.3 is the least a trained eye sees side by side;
# the accent and the warning orange of a theme lie 0 to 15 apart, and every built-in theme
# has colours at least 20 apart for the three marks).
GRAPHIC = 3.0
MARKS_APART = 20.0
# The theme's colours a mark may take, in the order they are tried.
MARK_COLOURS = {
    "mark-last": ("accent", "warning", "secondary", "primary", "error"),
    "mark-sel": ("success", "secondary", "primary", "accent", "error"),
    "mark-place": ("warning", "secondary", "primary", "error", "accent", "success"),
}


def distance(a: Color, b: Color) -> float:
    """How far apart two colours look (CIE76: the distance in CIELAB)."""
    return math.dist(_lab(a), _lab(b))


def faded(colour: Color, ground: Color, minimum: float = GRAPHIC) -> Color:
    """``colour`` faded towards ``ground`` as far as it still stands out from it by
    ``minimum``: a tile that cannot be played, faint but there."""
    factor = 0.35
    while factor < 1 and ratio(ground.blend(colour, factor), ground) < minimum:
        factor = min(1.0, factor + 0.05)
    return ground.blend(colour, factor)


def table_marks(variables: dict[str, str], eight_bit: bool = False) -> dict[str, str]:
    """The colours of the table's marks in a theme (``mark-last``, ``mark-sel``,
    ``mark-place``, ``mark-dim``), as CSS variables; in a theme of the terminal's own colours
    (nothing to measure) the theme's accent, success, warning and a faded foreground."""
    ground = parse(variables.get("surface", ""))
    text = parse(variables.get("foreground", ""))
    if ground is None or text is None or ground.a < 1:
        return {"mark-last": variables.get("accent", "yellow"),
                "mark-sel": variables.get("success", "green"),
                "mark-place": variables.get("warning", "yellow"),
                "mark-dim": variables.get("foreground", "white")}
    text = on(text, ground)
    chosen: dict[str, Color] = {}
    for mark, names in MARK_COLOURS.items():
        best: tuple[float, Color] | None = None
        for name in names:
            colour = parse(variables.get(name, ""))
            if colour is None:
                continue
            colour = readable(on(colour, ground), [ground])
            if eight_bit:
                colour = _palette_readable(colour, ground)
            # apart from the marks chosen before it, and from the tiles' own colour
            apart = min((distance(colour, c) for c in (*chosen.values(), text)),
                        default=MARKS_APART)
            if apart >= MARKS_APART:
                best = (apart, colour)
                break
            if best is None or apart > best[0]:
                best = (apart, colour)
        chosen[mark] = best[1] if best is not None else text
    dim = faded(text, ground)
    if eight_bit:
        dim = nearest_256(dim)
    return {**{mark: c.hex for mark, c in chosen.items()}, "mark-dim": dim.hex}


def _mend_auto(out: dict[str, str], fg: str, bg: str, ground: Color) -> None:
    """An "auto" text colour on ``ground``: more opaque until it reads; where even the full
    contrast colour does not (a middling ground), the ground moves away from it."""
    alpha = _auto_alpha(out[fg])
    while alpha < 1 and ratio(on(ground.get_contrast_text(alpha), ground), ground) < AA:
        alpha = min(1.0, alpha + 0.05)
    out[fg] = f"auto {round(alpha * 100)}%"
    text = ground.get_contrast_text(1.0)
    if ratio(text, ground) < AA:
        out[bg] = readable(ground, [text]).hex


def muted(variables: dict[str, str], ground: str = "panel") -> str:
    """A rich style for secondary words on the theme's ``ground``: the foreground faded
    towards the ground as far as AA allows (a terminal's own dimming often goes below)."""
    colour, back = parse(variables.get("foreground", "")), parse(variables.get(ground, ""))
    if colour is None or back is None or back.a < 1:
        return "dim"
    factor = 0.66
    while factor < 1 and ratio(back.blend(colour, factor), back) < AA:
        factor = min(1.0, factor + 0.04)
    return back.blend(colour, factor).hex


def muted_of(node: object, ground: str = "panel") -> str:
    """The app's style for secondary words on ``ground`` (see ``muted``), for a widget or
    screen ``node``; plain "dim" outside the game's app."""
    style = getattr(getattr(node, "app", None), "muted", None)
    return str(style(ground)) if callable(style) else "dim"


def _auto_alpha(value: str) -> float:
    parts = value.split()
    if len(parts) > 1 and parts[1].endswith("%"):
        try:
            return float(parts[1][:-1]) / 100
        except ValueError:
            return 1.0
    return 1.0


def _palette_readable(colour: Color, ground: Color) -> Color:
    """A palette colour near ``colour`` that still reads on ``ground``."""
    dark_ground = luminance(ground) < 0.18
    target = Color(255, 255, 255) if dark_ground else Color(0, 0, 0)
    for step in range(21):
        near = nearest_256(colour.blend(target, step / 20))
        if ratio(near, ground) >= AA:
            return near
    return nearest_256(target)

