"""Starting a round of any variant, and reading one back from JSON."""

from __future__ import annotations

from typing import Any

from tui_domino.rules.options import resolve_options
from tui_domino.rules.state import RoundState


def _state_class(variant: str) -> type[RoundState]:
    if variant == "classic":
        from tui_domino.rules.classic import ClassicState

        return ClassicState
    if variant == "spider":
        from tui_domino.rules.spider import SpiderState

        return SpiderState
    if variant == "triominos":
        from tui_domino.rules.triominos import TriominosState

        return TriominosState
    raise ValueError(f"unknown variant {variant!r}")


def new_round(
    variant: str,
    seed: int | None = None,
    deal: dict[str, Any] | None = None,
    leader: int | None = None,
    options: dict[str, Any] | None = None,
) -> RoundState:
    """A new round: a shuffled deal from ``seed`` or an explicit ``deal`` (exactly one)."""
    cls = _state_class(variant)
    opts = resolve_options(variant, options)
    if (seed is None) == (deal is None):
        raise ValueError("give exactly one of seed and deal")
    if leader not in (None, 0, 1):
        raise ValueError("leader must be None, 0 or 1")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ValueError("seed must be a whole number")
    return cls.new(opts, seed=seed, deal=deal, leader=leader)  # type: ignore[attr-defined,no-any-return]


def state_from_json(d: dict[str, Any]) -> RoundState:
    """Reads back ``state.to_json()``; ValueError on anything malformed or inconsistent."""
    if not isinstance(d, dict):
        raise ValueError("a state must be a JSON object")
    variant = d.get("variant")
    if not isinstance(variant, str):
        raise ValueError("a state needs its variant")
    cls = _state_class(variant)
    try:
        return cls.from_json(d)  # type: ignore[attr-defined,no-any-return]
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"malformed {variant} state: {exc!r}") from exc
