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


def full_set(variant: str) -> list[tuple[int, ...]]:
    """Every tile of the variant's set, sorted."""
    if variant in ("classic", "spider"):
        return [(a, b) for a in range(7) for b in range(a, 7)]
    if variant == "triominos":
        return [(a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)]
    raise ValueError(f"unknown variant {variant!r}")


def board_tiles(d: dict[str, Any]) -> list[tuple[int, ...]]:
    """The tiles on the table in a state's or a view's JSON."""
    variant = d["variant"]
    if variant == "classic":
        return [tuple(sorted(t)) for t in d["line"]]
    if variant == "spider":
        out: list[tuple[int, ...]] = []
        if d["center"] is not None:
            out.append((d["center"], d["center"]))
        for arm in d["arms"].values():
            out += [tuple(sorted(t)) for t in arm["tiles"]]
        return out
    return [tuple(sorted(p["corners"])) for p in d["board"]]


def unseen_tiles(view: dict[str, Any]) -> list[tuple[int, ...]]:
    """The tiles a view does not show: the opponent's hand and the bazaar, together."""
    seen = {tuple(t) for t in view["hand"]} | set(board_tiles(view))
    return [t for t in full_set(view["variant"]) if t not in seen]


def determinize(
    view: dict[str, Any],
    rng: Any = None,
    opponent_hand: list[Any] | None = None,
    bazaar: list[Any] | None = None,
) -> RoundState:
    """A full state consistent with ``view``: the hidden tiles are ``opponent_hand`` and
    ``bazaar`` when given, else dealt from the unseen tiles at random with ``rng`` (a
    ``random.Random``). The viewer's legal moves in it are his real legal moves."""
    import random as _random

    player = view["player"]
    opp_n = view["hand_sizes"][1 - player]
    if opponent_hand is None or bazaar is None:
        unseen = unseen_tiles(view)
        (rng or _random.Random(0)).shuffle(unseen)
        opponent_hand = [list(t) for t in unseen[:opp_n]]
        bazaar = [list(t) for t in unseen[opp_n:]]
    d = {k: v for k, v in view.items() if k not in ("player", "hand", "hand_sizes", "bazaar_size")}
    hands: list[Any] = [None, None]
    hands[player] = [list(t) for t in view["hand"]]
    hands[1 - player] = sorted([sorted(t) for t in opponent_hand])
    d["hands"] = hands
    d["bazaar"] = [sorted(t) for t in bazaar]
    return state_from_json(d)
