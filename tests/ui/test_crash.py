"""An error of the game's own that nobody caught leaves a crash report in the data
directory and the player is told where; the log goes to a rotating file there."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from textual.screen import Screen

from tests.ui.conftest import make_app
from tui_domino import logs


class Broken(Screen[None]):
    def on_mount(self) -> None:
        raise KeyError("a bug of ours")


async def test_an_unhandled_error_leaves_a_crash_report(home: Path) -> None:
    app = make_app()
    with pytest.raises(KeyError):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(Broken())
            await pilot.pause()
    assert app.crash_path is not None and app.crash_path.parent == home / "crashes"
    report = app.crash_path.read_text()
    assert "stopped on an error in the game" in report
    assert "KeyError: 'a bug of ours'" in report and "on_mount" in report
    assert app.crash_path.stat().st_mode & 0o777 == 0o600


def test_the_log_goes_to_a_rotating_file_in_the_data_directory(home: Path) -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        path = logs.start()
        assert logs.start() == path  # once per process
        assert path == home / "logs" / "tui-domino.log" and not path.exists()  # opened lazily
        logging.getLogger("tui_domino.test").warning("the transport dropped a frame")
        assert "WARNING tui_domino.test: the transport dropped a frame" in path.read_text()
    finally:
        for h in root.handlers[:]:
            if h not in before:
                root.removeHandler(h)
                h.close()


def test_the_player_is_told_where_the_report_is(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from tui_domino.ui import app as app_module

    def run(self) -> None:  # type: ignore[no-untyped-def]
        self.crash_path = Path("/data/crashes/crash-1.txt")

    monkeypatch.setattr(app_module.DominoApp, "run", run)
    app_module.main_app()
    err = capsys.readouterr().err
    assert "stopped on an error of its own. A report is in /data/crashes/crash-1.txt" in err


def test_an_error_set_aside_goes_to_the_log_not_nowhere(caplog) -> None:  # type: ignore[no-untyped-def]
    with caplog.at_level(logging.WARNING, logger="tui_domino"), logs.logged("closing the duel"):
        raise ConnectionResetError("gone")
    lg = logging.getLogger("tui_domino")
    assert len(caplog.records) == 1, (lg.disabled, lg.level, lg.propagate, lg.handlers,
                                      logging.getLogger().handlers, logging.root.manager.disable)
    (record,) = caplog.records
    assert record.getMessage() == "closing the duel failed"
    assert record.exc_info is not None and record.exc_info[0] is ConnectionResetError
