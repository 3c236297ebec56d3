"""A round's JSON is copied, not shared: what a view or a save gives cannot change the round."""

from __future__ import annotations

import copy
import random

import pytest

from tui_domino import rules
from tui_domino.rules.types import copy_json


def played(variant: str, moves: int) -> rules.RoundState:
    state = rules.new_round(variant, seed=5)
    rng = random.Random(5)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_a_copy_equals_the_data_and_shares_none_of_it() -> None:
    data = {"a": [1, [2, {"b": None}], "x"], "c": {"d": [True, 1.5, -(10 ** 30)]}}
    copied = copy_json(data)
    assert copied == data == copy.deepcopy(data)
    copied["a"][1][1]["b"] = 7  # type: ignore[index]
    copied["c"]["d"].append(0)  # type: ignore[index]
    assert data == {"a": [1, [2, {"b": None}], "x"], "c": {"d": [True, 1.5, -(10 ** 30)]}}


def test_data_nested_too_deeply_is_refused_with_a_value_error() -> None:
    deep: list[object] = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError):
        copy_json(deep)


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_what_a_view_or_a_save_gives_cannot_change_the_round(variant: str) -> None:
    state = played(variant, 12)
    before = copy.deepcopy(state.to_json())
    view = state.view(0)
    saved = state.to_json()
    for d in (view, saved):
        d["history"][0]["move"]["kind"] = "changed"  # type: ignore[index]
        d["history"].clear()
        d["options"].clear()  # type: ignore[union-attr]
    assert state.to_json() == before
    loaded = type(state).from_json(before)  # type: ignore[arg-type]
    before["history"][0]["player"] = 9  # type: ignore[index]
    assert loaded.history[0]["player"] != 9
