"""A peer's knowledge of the round: a move is checked on a working copy (``copy``), which
must share nothing with the knowledge it was taken from."""

from __future__ import annotations

import json

import pytest

from tui_domino import rules
from tui_domino.net.knowledge import Knowledge


@pytest.mark.parametrize("variant", ["classic", "spider", "triominos"])
def test_a_move_on_the_working_copy_leaves_the_knowledge_as_it_was(variant: str) -> None:
    dealt = rules.new_round(variant, seed=4)
    options = rules.resolve_options(variant, None)
    for me in (0, 1):
        know = Knowledge(variant, options, me, [tuple(t) for t in dealt.hands[me]])
        know.start(leader=me)
        before = json.dumps(know.state.to_json(), sort_keys=True)
        legal = know.legal_moves()
        work = know.copy()
        move = next(m for m in legal if m.kind == "place")
        work.apply_mine(move)
        assert json.dumps(know.state.to_json(), sort_keys=True) == before
        assert know.legal_moves() == legal and know.state.to_move == me
        assert json.dumps(work.state.to_json(), sort_keys=True) != before  # (it moved)
        # and the other way: the knowledge moving on leaves an earlier copy as it was
        copied = know.copy()
        know.apply_mine(move)
        assert json.dumps(copied.state.to_json(), sort_keys=True) == before
