"""scripts/suite_profile.py: what each test cost, summed by folder, the waiting worked out."""

from __future__ import annotations

import pytest

from tests.scripts import load_script


def test_the_report_sums_each_folder_and_works_out_the_waiting(
        capsys: pytest.CaptureFixture[str]) -> None:
    profile = load_script("suite_profile")
    rows = [("tests/ui/test_a.py::test_one", 2.0, 0.5, 0.0),
            ("tests/ui/test_b.py::test_two", 1.0, 0.25, 0.25),
            ("tests/net/test_c.py::test_three", 3.5, 0.5, 2.0)]
    profile.report(rows, wall=4.0, cpu=3.5)
    out = capsys.readouterr().out
    assert "3 tests in 4.0 s; CPU of the run 3.5 s (0.88 cores busy" in out
    assert "summed over the tests: 6.5 s, of it CPU 1.2 s in pytest's processes and 2.2 s" \
        " in theirs, 3.0 s waiting" in out
    lines = out.splitlines()
    net = next(line for line in lines if line.startswith("tests/net"))
    ui = next(line for line in lines if line.startswith("tests/ui"))
    assert net.split()[1:] == ["1", "3.5", "0.5", "2.0", "1.0"]
    assert ui.split()[1:] == ["2", "3.0", "0.8", "0.2", "2.0"]
    assert lines.index(net) < lines.index(ui)  # the longest folder first
    most_cpu = lines[lines.index("the most CPU (own + theirs, s):") + 1]
    assert most_cpu.split() == ["2.50", "tests/net/test_c.py::test_three"]
    most_waiting = lines[lines.index("the most waiting (s):") + 1]
    assert most_waiting.split() == ["1.50", "tests/ui/test_a.py::test_one"]
