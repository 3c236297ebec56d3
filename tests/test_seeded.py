"""The tests' random draws are the same on every run: Hypothesis's examples too (the tests'
profile, ``tests/conftest.py``), so that a run fails where the one before it failed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st


def draws() -> list[tuple[int, str]]:
    seen: list[tuple[int, str]] = []

    @settings(max_examples=30)  # (enough to compare; the profile's seed is what is tested)
    @given(st.integers(), st.text(max_size=8))
    def draw(n: int, s: str) -> None:
        seen.append((n, s))

    draw()
    return seen


def test_hypothesis_draws_the_same_examples_on_every_run() -> None:
    first = draws()
    assert len(set(first)) > 10  # (many examples, not one drawn again and again)
    assert draws() == first
