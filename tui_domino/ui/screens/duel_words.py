"""The duel screen's words: the status line and what the table says before a round is
dealt (the trouble, the wait for an opponent with the address and the invitation code)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from tui_domino.ui.session import VARIANT_TITLES

if TYPE_CHECKING:
    from tui_domino.net.transport import DuelSession

STATE_WORDS = {
    "waiting": "waiting",
    "connected": "connected",
    "reconnecting": "connection lost, reconnecting…",
    "closed": "closed",
}


def status_text(duel: DuelSession, opponent: str, conn: str, over: bool, quiet: str) -> Text:
    """The duel's status line: with whom, the connection, the phrase, the match."""
    t = Text()
    core = duel.core
    if core.started:
        t.append("Duel with ")
        t.append(opponent, style="bold")
        t.append(" · ")
    state = conn
    style = {"connected": "green", "reconnecting": "bold yellow", "closed": "red",
             "waiting": "yellow"}.get(state, "")
    if over:
        t.append("match over", style="bold")
    elif state == "waiting" and core.role == "host" and not core.started:
        t.append("waiting for an opponent", style=style)
    elif state == "waiting":
        t.append("connecting…", style=style)
    else:
        t.append(STATE_WORDS.get(state, state), style=style)
    if core.started and duel.phrase:  # the channel's verification phrase
        t.append(f" · phrase: {duel.phrase}", style="bold")
    if core.started and core.settings is not None:
        s = core.settings
        word = "limit" if s.variant == "spider" else "to"
        t.append(f" · {VARIANT_TITLES.get(s.variant, s.variant)} {word} {s.target}",
                 style=quiet)
        if not over:
            t.append(" · t chat", style=quiet)
    return t


def waiting_text(duel: DuelSession, opponent: str, conn: str, problem: str, detail: str,
                 quiet: str) -> Text:
    """What the table says before a round is dealt: the trouble, the wait, the code."""
    core = duel.core
    t = Text(justify="center")
    if problem:
        t.append("The duel could not start\n\n", style="bold red")
        t.append(problem + "\n\n")
        t.append("Esc goes back.", style=quiet)
        return t
    if conn == "closed":
        t.append("The connection is closed.\n\n", style="bold")
        t.append("Esc goes back.", style=quiet)
        return t
    if core.role == "host" and not core.started:
        settings = core.settings
        if settings is not None:
            word = "limit" if settings.variant == "spider" else "to"
            t.append(f"{VARIANT_TITLES.get(settings.variant, settings.variant)} "
                     f"{word} {settings.target}\n\n", style="bold")
        t.append("Waiting for an opponent…\n\n", style="bold")
        addresses = duel.addresses or [detail]
        t.append("Listening on:\n")
        for a in addresses:
            t.append(f"  {a}\n", style="bold")
        if not getattr(duel, "code_shown", True):  # a lobby duel: the lobby keys it
            t.append("\nYour opponent's game joins in a moment.\n\n", style=quiet)
        else:
            if duel.code:
                t.append("\nInvitation code: ")
                t.append(f"{duel.code}\n", style="bold")
            t.append("\nYour opponent joins one of these from the menu "
                     "(Network duel → Join)\n"
                     f"or with: {duel.join_command()}\n\n", style=quiet)
        t.append("Esc stops waiting.", style=quiet)
        return t
    if core.started:
        t.append(f"{opponent} is here: the tiles are being shuffled…",
                 style="bold")
        return t
    t.append("Connecting…\n\n", style="bold")
    t.append("Esc gives up.", style=quiet)
    return t
