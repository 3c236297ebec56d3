"""``tui-domino bench`` runs and ends with one line of JSON in the documented shape."""

from __future__ import annotations

import json

from tui_domino.cli import main


def test_bench_json_shape(capsys):
    assert main(["bench", "--json", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert set(data) == {"classic", "spider", "triominos"}
    for figures in data.values():
        assert {"rounds_per_s", "api_rounds_per_s", "legal_per_s", "api_legal_per_s"} <= set(
            figures
        )
        assert all(v > 0 for v in figures.values())
    assert out[2].startswith("classic")
