"""The end-of-round check: the round replayed with the rules engine on the revealed deal.

Every step either side took on trust during the round is checked here: the call-down of the
opening, every draw (nobody may draw while holding a playable tile), every claimed pass and
the block. The first impossible step names its player. See docs/protocol.md, section 7.
"""

from __future__ import annotations

from dataclasses import dataclass

from tui_domino import rules
from tui_domino.net.knowledge import opening_order
from tui_domino.net.records import ChainEntry
from tui_domino.rules.types import DealJSON, Options

Tile = tuple[int, ...]


@dataclass
class Ruling:
    """The true round (``state``), or the player caught (``cheater``) and why."""

    state: rules.RoundState | None
    cheater: int | None = None
    reason: str = ""


def true_opening(variant: str, hands: list[list[Tile]]) -> tuple[int, Tile] | None:
    """Who must open and with what under the opening rule; None: a void spider deal."""
    held = {t: p for p in (0, 1) for t in hands[p]}
    for t in opening_order(variant):
        if t in held:
            return held[t], t
    return None


def call_entry(k: int) -> tuple[int, int]:
    """(rank, player) of the call-down's ``k``th answer: rank ``i`` is answered first by
    player ``i mod 2``, then by the other (docs/protocol.md, section 6)."""
    rank = k // 2
    first = rank % 2
    return rank, (first if k % 2 == 0 else 1 - first)


def name(tile: Tile) -> str:
    return "-".join(str(n) for n in tile)


def judge(
    variant: str,
    options: Options,
    deal: DealJSON,
    leader: int | None,
    opening: tuple[int, Tile] | None,
    log: list[ChainEntry],
    called: int | None = None,
) -> Ruling:
    """``deal``: the true hands and bazaar; ``leader``: a free leader, else ``opening`` is
    what the call-down found (None: every rank denied, a void deal). ``called``: how many
    answers of the call-down were given, when a dispute cut it short (no opening yet)."""
    hands = [[tuple(t) for t in h] for h in deal["hands"]]
    order = opening_order(variant)
    if leader is None and opening is None and called is not None and called < 2 * len(order):
        # A dispute during the call-down: every denial given so far must be true.
        for k in range(called):
            rank, p = call_entry(k)
            if order[rank] in hands[p]:
                return Ruling(None, p, f"held {name(order[rank])} but denied it when the "
                                       "opening was called")
        return Ruling(None)
    if leader is None:
        truth = true_opening(variant, hands)
        if truth != opening:
            if truth is None:  # pragma: no cover - a claimed holder proved his tile
                return Ruling(None, opening[0] if opening else 0, "claimed a tile not held")
            p, t = truth
            return Ruling(None, p, f"held {name(t)} but denied it when the opening was called")
        if opening is None:
            return Ruling(None)  # a void deal, honestly called
    state = rules.new_round(variant, deal=deal, leader=leader, options=options)
    if leader is None and opening is not None:
        d = state.to_json()
        engine = (d.get("opener"), (d.get("opening_double"),) * 2) if variant == "spider" \
            else (state.to_move, tuple(d.get("forced") or ()))
        if engine != opening:  # pragma: no cover - the orders agree (tested)
            return Ruling(None, opening[0], "the opening differs from the engine's")
    i = 0
    while i < len(log):
        e = log[i]
        p = e["p"]
        if e["k"] == "block":
            return Ruling(state, p, "claimed a block without a pass before it")
        move = rules.move_from_json(variant, e["m"])
        nxt = log[i + 1] if i + 1 < len(log) else None
        if move.kind == "pass" and nxt is not None and nxt["k"] == "block":
            if state.is_over and state.end_reason == "blocked":
                if i + 2 != len(log):
                    return Ruling(state, log[i + 2]["p"], "moved after the round was blocked")
                return Ruling(state)
            if state.is_over:
                return Ruling(state, p, "moved after the round was over")
            legal = state.legal_moves()
            if state.to_move == p and legal != [rules.PASS]:
                return Ruling(state, p, _why_not_pass(legal))
            return Ruling(state, nxt["p"], "claimed a blocked round while holding a playable "
                                           "tile")
        if state.is_over:
            return Ruling(state, p, "moved after the round was over")
        if state.to_move != p:
            return Ruling(state, p, "moved out of turn")
        try:
            state.apply(move)
        except rules.IllegalMove as exc:
            kind = move.kind
            if kind in ("draw", "pass"):
                return Ruling(state, p, f"{_claimed(kind)}: {exc}")
            return Ruling(state, p, f"made an illegal move: {exc}")
        i += 1
    if not state.is_over:
        return Ruling(state, None, "the round is not over")
    return Ruling(state)


def _claimed(kind: str) -> str:
    return "drew while holding a playable tile" if kind == "draw" else "passed illegally"


def _why_not_pass(legal: list[rules.Move]) -> str:
    if any(m.kind == "place" for m in legal):
        return "passed while holding a playable tile"
    return "passed while he could still draw"
