"""The duel screen's words: the status line and what the table says before a round is
dealt (the trouble, the wait for an opponent with the address and the invitation code)."""

from __future__ import annotations

from string import Formatter
from typing import TYPE_CHECKING

from rich.text import Text

from tui_domino.i18n import N_, _, ngettext
from tui_domino.ui.plain import plain
from tui_domino.ui.session import VARIANT_TITLES

if TYPE_CHECKING:
    from tui_domino.net.transport import DuelSession

# The connection's state on the status line (the keys are the session's states).
STATE_WORDS = {
    # TRANSLATORS: the connection's state, on the duel's status line (short)
    "waiting": N_("waiting"),
    # TRANSLATORS: the connection's state, on the duel's status line (short)
    "connected": N_("connected"),
    # TRANSLATORS: the connection's state, on the duel's status line (short)
    "reconnecting": N_("connection lost, reconnecting…"),
    # TRANSLATORS: the connection's state, on the duel's status line (short)
    "closed": N_("closed"),
    # TRANSLATORS: the opponent's state, on a lobby duel's status line (short): his
    # connection dropped and the server keeps his seat for him
    "away": N_("away, seat kept"),
}


def styled(template: str, style: str = "", **values: str | tuple[str, str]) -> Text:
    """A sentence already translated (``_("Welcome, {name}.")``) with its values put in by
    name, as plain text (``ui.plain``): a ``(text, style)`` value shows in its own style,
    so a name stays bold wherever the language puts it in the sentence."""
    out = Text(style=style)
    for literal, field, _spec, _conversion in Formatter().parse(template):
        if literal:
            out.append_text(plain(literal))
        if field is not None:
            value = values[field]
            out.append_text(plain(*value) if isinstance(value, tuple) else plain(value))
    return out


def game_title(variant: str) -> str:
    """The game's name in the language in use ("Classic dominoes")."""
    title = VARIANT_TITLES.get(variant, variant)
    return _(title) if title else title


def match_words(variant: str, target: int | None) -> str:
    """The match in a few words: "Classic dominoes to 100", "Domino Spider limit 150"."""
    n = target or 0  # (a plural: the language may say "points" after the number)
    if variant == "spider":
        # TRANSLATORS: a Spider match and the score that ends it ("Domino Spider limit 150")
        text = ngettext("{game} limit {target}", "{game} limit {target}", n)
    else:
        # TRANSLATORS: a match and its target score ("Classic dominoes to 100")
        text = ngettext("{game} to {target}", "{game} to {target}", n)
    return text.format(game=game_title(variant), target=target)


def status_text(duel: DuelSession, opponent: str, conn: str, over: bool, quiet: str,
                width: int | None = None, watchers: int = 0,
                clock: Text | None = None, phrase: str | None = None) -> Text:
    """The duel's status line: with whom, the connection, the move's clock, the phrase,
    the match, and how many watch (a lobby duel). Within ``width`` columns the least needed
    parts give way: the chat's key, then the match's game and target (the score panel names
    them too), then the opponent's name. ``phrase``: the verification phrase shown (None:
    the session's)."""
    parts: list[tuple[int, Text]] = []  # (rank: the higher gives way first, the part)
    core = duel.core
    if core.started:
        # TRANSLATORS: the start of the duel's status line; {name} is the opponent's name
        parts.append((2, styled(_("Duel with {name}"), name=(opponent, "bold"))))
    t = Text()
    state = conn
    style = {"connected": "green", "reconnecting": "bold yellow", "closed": "red",
             "waiting": "yellow", "away": "bold yellow"}.get(state, "")
    if over:
        t.append(_("match over"), style="bold")
    elif state == "waiting" and core.seat.role == "host" and not core.started:
        t.append(_("waiting for an opponent"), style=style)
    elif state == "waiting":
        t.append(_("connecting…"), style=style)
    else:
        t.append(_(STATE_WORDS[state]) if state in STATE_WORDS else state, style=style)
    parts.append((0, t))
    if clock is not None and not over:
        parts.append((0, clock))
    if watchers > 0:
        # TRANSLATORS: on a lobby duel's status line: how many visitors watch it
        parts.append((1, Text(ngettext("{n} watching", "{n} watching", watchers).format(
            n=watchers), style="bold")))
    phrase = duel.phrase if phrase is None else phrase  # ("": none shown)
    if core.started and phrase:  # the channel's verification phrase
        # TRANSLATORS: {phrase} is the channel's verification phrase (words that both
        # players' screens show alike: they stay as they are)
        parts.append((0, Text(_("phrase: {phrase}").format(phrase=phrase), style="bold")))
    if core.started and core.settings is not None:
        s = core.settings
        parts.append((3, Text(match_words(s.variant, s.target), style=quiet)))
        if not over:
            # TRANSLATORS: on the status line: the key t opens the chat (keep it short)
            parts.append((4, Text(_("t chat"), style=quiet)))

    def joined() -> Text:
        return Text(" · ").join(part for rank, part in parts)

    line = joined()
    while width is not None and line.cell_len > width and any(rank for rank, part in parts):
        rank, part = max(parts, key=lambda p: p[0])
        if rank == 2 and part.plain != opponent:  # "Duel with ann 1512" gives way to "ann 1512"
            parts[parts.index((rank, part))] = (rank, Text(opponent, style="bold"))
        else:
            parts.remove((rank, part))
        line = joined()
    return line


# The move's clock warns at these seconds left (the bell rings, when it is on).
WARN_AT = 30
ALARM_AT = 10


def clock_text(seconds: float) -> Text:
    """The move's clock as the status line shows it ("◷ 0:42": the time left to the step
    of the side to play, whom the score panel marks), yellow from ``WARN_AT`` seconds, red
    from ``ALARM_AT``."""
    left = max(0, int(seconds + 0.999))  # (0:01 until the last second is gone)
    style = ("bold red" if left <= ALARM_AT else "bold yellow" if left <= WARN_AT
             else "bold")
    return Text(f"◷ {left // 60}:{left % 60:02d}", style=style)


def waiting_text(duel: DuelSession, opponent: str, conn: str, problem: str, detail: str,
                 quiet: str) -> Text:
    """What the table says before a round is dealt: the trouble, the wait, the code."""
    core = duel.core
    t = Text(justify="center")
    if problem:
        t.append(_("The duel could not start") + "\n\n", style="bold red")
        t.append(problem + "\n\n")
        # TRANSLATORS: Esc is the key's name: it stays as it is
        t.append(_("Esc goes back."), style=quiet)
        return t
    if conn == "closed":
        t.append(_("The connection is closed.") + "\n\n", style="bold")
        t.append(_("Esc goes back."), style=quiet)
        return t
    if core.seat.role == "host" and not core.started:
        settings = core.settings
        if settings is not None:
            t.append(match_words(settings.variant, settings.target) + "\n\n", style="bold")
        t.append(_("Waiting for an opponent…") + "\n\n", style="bold")
        addresses = duel.addresses or [detail]
        # TRANSLATORS: followed by the addresses (host:port) where the host waits, one a line
        t.append(_("Listening on:") + "\n")
        for a in addresses:
            t.append(f"  {a}\n", style="bold")
        if not getattr(duel, "code_shown", True):  # a lobby duel: the lobby keys it
            t.append("\n" + _("Your opponent's game joins in a moment.") + "\n\n", style=quiet)
        else:
            if duel.code:
                t.append("\n")
                # TRANSLATORS: {code} is the invitation code (as 7-classic-orlando): it stays
                # as it is
                t.append_text(styled(_("Invitation code: {code}"), code=(duel.code, "bold")))
                t.append("\n")
            # TRANSLATORS: "Network duel" and "Join" are the menu's entry and the tab of the
            # duel's setup (use their words); {command} is a command line, kept as it is
            t.append("\n" + _("Your opponent joins one of these from the menu "
                              "(Network duel → Join)\nor with: {command}").format(
                                  command=duel.join_command()) + "\n\n", style=quiet)
        # TRANSLATORS: Esc is the key's name: it stays as it is
        t.append(_("Esc stops waiting."), style=quiet)
        return t
    if core.started:
        t.append(_("{name} is here: the tiles are being shuffled…").format(name=opponent),
                 style="bold")
        return t
    t.append(_("Connecting…") + "\n\n", style="bold")
    # TRANSLATORS: Esc is the key's name: it stays as it is
    t.append(_("Esc gives up."), style=quiet)
    return t
