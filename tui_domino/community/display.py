"""How a rating reads next to a name: ``1512``, provisional ``1512?``, and after a rated match
``ann 1512 (+12)``."""

from __future__ import annotations

from tui_domino.community import glicko2


def rating_text(r: glicko2.Rating, system: glicko2.System = glicko2.DEFAULT) -> str:
    """The rating, whole, with ``?`` while it is provisional."""
    return f"{r.rating:.0f}" + ("?" if glicko2.provisional(r, system) else "")


def change_text(before: float, after: float) -> str:
    """A rating's change, whole and signed: ``+12``, ``-3`` (a minus sign), ``±0``."""
    delta = round(after) - round(before)
    if delta == 0:
        return "±0"
    return f"+{delta}" if delta > 0 else f"\u2212{-delta}"


def rated_name(name: str, r: glicko2.Rating, before: float | None = None,
               system: glicko2.System = glicko2.DEFAULT) -> str:
    """``ann 1512?``, or with the rating before the match ``ann 1512 (+12)``."""
    text = f"{name} {rating_text(r, system)}"
    return text if before is None else f"{text} ({change_text(before, r.rating)})"


__all__ = ["change_text", "rated_name", "rating_text"]
