"""Colours, mouse, escape delay and frame rate for a game in a remote terminal."""

from __future__ import annotations

import pytest

from tui_domino.terminal import (
    DRIVER,
    REMOTE_ESCDELAY_MS,
    REMOTE_FPS,
    color_system,
    is_remote,
    mouse_mode,
    tune_environment,
)


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"TERM": "xterm-256color", "COLORTERM": "truecolor"}, "truecolor"),
        ({"TERM": "xterm-256color"}, "256"),
        ({"TERM": "screen-256color"}, "256"),
        ({"TERM": "xterm-kitty"}, "truecolor"),
        ({"TERM": "xterm-direct"}, "truecolor"),
        ({"TERM": "xterm"}, "standard"),
        ({"TERM": "linux"}, "standard"),
        ({"TERM": "dumb"}, None),
        ({}, None),
        ({"TERM": "xterm-256color", "NO_COLOR": "1"}, None),
        ({"TERM": "xterm", "TUI_DOMINO_COLORS": "truecolor"}, "truecolor"),
        ({"TERM": "xterm-256color", "COLORTERM": "truecolor", "TUI_DOMINO_COLORS": "16"},
         "standard"),
        ({"TERM": "xterm-256color", "TUI_DOMINO_COLORS": "mono"}, None),
    ],
)
def test_colours_follow_term_and_colorterm_unless_overridden(env, expected) -> None:
    assert color_system(env) == expected


def test_a_session_is_remote_over_ssh_unless_told_otherwise() -> None:
    assert is_remote({"SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22"})
    assert is_remote({"SSH_TTY": "/dev/pts/3"})
    assert not is_remote({"TERM": "xterm"})
    assert not is_remote({"SSH_TTY": "/dev/pts/3", "TUI_DOMINO_REMOTE": "0"})
    assert is_remote({"TUI_DOMINO_REMOTE": "1"})


def test_remote_defaults_never_override_the_players_own() -> None:
    env = {"SSH_TTY": "/dev/pts/1", "TERM": "xterm-256color", "ESCDELAY": "50"}
    done = tune_environment(env)
    assert env["ESCDELAY"] == "50" and "ESCDELAY" not in done
    assert env["TEXTUAL_FPS"] == str(REMOTE_FPS)
    assert env["TEXTUAL_COLOR_SYSTEM"] == "256"
    assert "TEXTUAL_DRIVER" not in env  # the mouse is on by default


def test_a_local_session_keeps_textuals_timing() -> None:
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
    tune_environment(env)
    assert "ESCDELAY" not in env and "TEXTUAL_FPS" not in env
    assert env["TEXTUAL_COLOR_SYSTEM"] == "truecolor"


def test_the_mouse_can_be_limited_or_turned_off() -> None:
    for value, mode in (("off", "off"), ("0", "off"), ("click", "click"), ("on", "on"),
                        ("nonsense", "on")):
        assert mouse_mode({"TUI_DOMINO_MOUSE": value}) == mode
    env = {"TUI_DOMINO_MOUSE": "off", "SSH_TTY": "x", "TERM": "xterm"}
    tune_environment(env)
    assert env["TEXTUAL_DRIVER"] == DRIVER
    assert env["ESCDELAY"] == str(REMOTE_ESCDELAY_MS)
    mono = {"TERM": "dumb"}
    tune_environment(mono)
    assert mono["NO_COLOR"] == "1"


async def test_the_driver_asks_for_clicks_only_or_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui_domino.ssh.driver import TerminalDriver

    written: list[str] = []
    for mode, expect_mouse in (("click", True), ("off", False)):
        monkeypatch.setenv("TUI_DOMINO_MOUSE", mode)
        driver = TerminalDriver(app=object(), mouse=True)
        assert driver._mouse is expect_mouse
        written.clear()
        driver.write = written.append  # type: ignore[method-assign]
        driver.flush = lambda: None  # type: ignore[method-assign]
        driver._enable_mouse_support()
        sent = "".join(written)
        assert ("?1002h" in sent) is expect_mouse
        assert "?1003h" not in sent  # never a report for every motion
