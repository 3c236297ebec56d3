"""Score events: every point a move adds or removes, with its reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tui_domino.rules.types import ScoreEventJSON

Reason = Literal["tile", "opening", "hexagon", "bridge", "draw", "pass", "domino", "blocked"]
REASONS: tuple[str, ...] = (
    "tile", "opening", "hexagon", "bridge", "draw", "pass", "domino", "blocked",
)


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """``points`` added to ``player``'s round points (negative for penalties).

    In Domino Spider the round points are the points charged, so an event
    there charges ``player``.
    """

    player: int
    points: int
    reason: str
    detail: str = ""

    def to_json(self) -> ScoreEventJSON:
        d: ScoreEventJSON = {"player": self.player, "points": self.points, "reason": self.reason}
        if self.detail:
            d["detail"] = self.detail
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> ScoreEvent:
        return ScoreEvent(int(d["player"]), int(d["points"]), str(d["reason"]),
                          str(d.get("detail", "")))
