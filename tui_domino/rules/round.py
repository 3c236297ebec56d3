"""Starting a round of any variant, and reading one back from JSON."""

from __future__ import annotations

import random as _random
from collections.abc import Mapping
from typing import Any, TypeGuard

from tui_domino.rules.moves import move_from_json
from tui_domino.rules.options import resolve_options
from tui_domino.rules.state import RoundState, Tile
from tui_domino.rules.types import DealJSON, SeatView


def _state_class(variant: str) -> type[RoundState]:
    if variant == "classic":
        # lazy: start-up (a variant's rules load with its first round)
        from tui_domino.rules.classic import ClassicState

        return ClassicState
    if variant == "spider":
        # lazy: start-up (a variant's rules load with its first round)
        from tui_domino.rules.spider import SpiderState

        return SpiderState
    if variant == "triominos":
        # lazy: start-up (a variant's rules load with its first round)
        from tui_domino.rules.triominos import TriominosState

        return TriominosState
    raise ValueError(f"unknown variant {variant!r}")


def new_round(
    variant: str,
    seed: int | None = None,
    deal: DealJSON | None = None,
    leader: int | None = None,
    options: Mapping[str, object] | None = None,
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
    return cls.new(opts, seed=seed, deal=deal, leader=leader)


def state_from_json(d: object) -> RoundState:
    """Reads back ``state.to_json()``; ValueError on anything malformed or inconsistent."""
    if not isinstance(d, dict):
        raise ValueError("a state must be a JSON object")
    variant = d.get("variant")
    if not isinstance(variant, str):
        raise ValueError("a state needs its variant")
    cls = _state_class(variant)
    try:
        return cls.from_json(d)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"malformed {variant} state: {exc!r}") from exc


def deal_implied(state: RoundState) -> DealJSON:
    """The deal ``state``'s round started from, as its history tells it: the hands now, less
    the tiles drawn, plus the tiles placed; the tiles drawn, in order, then the bazaar now.
    ValueError for a history that cannot tell one (a record of no player, a draw without its
    tile, a tile drawn that its player never held)."""
    variant = state.variant
    tiles = set(full_set(variant))
    hands: list[list[Tile]] = [list(h) for h in state.hands]
    drawn: list[Tile] = []
    drawn_by: list[list[Tile]] = [[], []]
    for n, rec in enumerate(state.history, 1):
        if not isinstance(rec, dict) or rec.get("player") not in (0, 1) or isinstance(
            rec.get("player"), bool
        ):
            raise ValueError(f"move {n} of the history is not a record of a player's move")
        player = rec["player"]
        move = move_from_json(variant, rec.get("move"))
        if move.kind == "draw":
            tile = rec.get("tile")
            t = tuple(sorted(tile)) if _numbers(tile) else ()
            if t not in tiles:
                raise ValueError(f"move {n} of the history is a draw without its tile")
            drawn.append(t)
            drawn_by[player].append(t)
        elif move.kind == "place":
            if move.placements is not None:
                hands[player] += [p.tile for p in move.placements]
            elif move.corners is not None:
                hands[player].append(tuple(sorted(move.corners)))
            elif move.tile is not None:
                hands[player].append(tuple(sorted(move.tile)))
    for player in (0, 1):
        for t in drawn_by[player]:
            if t not in hands[player]:
                raise ValueError("the history draws a tile its player never held")
            hands[player].remove(t)
    return {"hands": [[list(t) for t in sorted(h)] for h in hands],
            "bazaar": [list(t) for t in drawn + list(state.bazaar)]}


def check_history(state: RoundState) -> None:
    """ValueError unless ``state``'s history tells its round: the deal it implies
    (``deal_implied``), replayed move by move, must give ``state`` exactly (the board, the
    hands, the turn, the points and every record); without a history, the state must be its
    deal as dealt."""
    history = state.history
    variant = state.variant
    deal = deal_implied(state)
    saved = state.to_json()
    try:
        replay = new_round(variant, deal=deal, leader=saved.get("leader"), options=state.options)
    except ValueError as exc:
        raise ValueError(f"the history does not start from a deal ({exc})") from exc
    for n, rec in enumerate(history, 1):
        if replay.to_move != rec["player"]:
            raise ValueError(f"move {n} of the history is played out of turn")
        try:
            replay.apply(rec["move"])
        except ValueError as exc:
            raise ValueError(f"move {n} of the history is illegal ({exc})") from exc
    if replay.to_json() != saved:
        raise ValueError("the round does not agree with its history")


def _numbers(value: object) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(
        isinstance(n, int) and not isinstance(n, bool) for n in value
    )


def full_set(variant: str) -> list[tuple[int, ...]]:
    """Every tile of the variant's set, sorted."""
    if variant in ("classic", "spider"):
        return [(a, b) for a in range(7) for b in range(a, 7)]
    if variant == "triominos":
        return [(a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)]
    raise ValueError(f"unknown variant {variant!r}")


def board_tiles(d: Mapping[str, Any]) -> list[tuple[int, ...]]:
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


def unseen_tiles(view: SeatView) -> list[tuple[int, ...]]:
    """The tiles a view does not show: the opponent's hand and the bazaar, together."""
    seen = {tuple(t) for t in view["hand"]} | set(board_tiles(view))
    return [t for t in full_set(view["variant"]) if t not in seen]


def determinize(
    view: SeatView,
    rng: Any = None,
    opponent_hand: list[Any] | None = None,
    bazaar: list[Any] | None = None,
) -> RoundState:
    """A full state consistent with ``view``: the hidden tiles are ``opponent_hand`` and
    ``bazaar`` when given, else dealt from the unseen tiles at random with ``rng`` (a
    ``random.Random``). The viewer's legal moves in it are his real legal moves."""
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
