"""The lobby's command line, read strictly: what a visitor types after ``/`` (or ``:``).

::

    /mute NAME DURATION [REASON]      operators: no chat (duel and watchers') until then
    /unmute NAME
    /kick NAME [REASON]               operators: the visit ends, with the reason
    /ban TARGET DURATION [REASON]     operators: TARGET is NAME, key:SHA256:... or addr:IP
    /unban TARGET
    /ignore NAME, /unignore NAME      anyone
    /help

A duration is a whole number and a unit, ``30s``, ``10m``, ``2h``, ``7d``, from one second
to ``MAX_DURATION``. Whatever does not read so is refused with a ``CommandError`` that says
what was expected (its ``said`` is marked for translation, its ``values`` go in as they
are). Which names exist, and who may do what, is the lobby's business (``ssh/lobby.py``).
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from tui_domino.i18n import N_
from tui_domino.net.guessing import plain_address

MAX_DURATION = 365 * 86400.0
MAX_LINE = 300  # the longest command line read
MAX_REASON = 200  # the longest reason kept
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DURATION = re.compile(r"([0-9]{1,9})([smhd])")
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")

OPERATOR_VERBS = ("mute", "unmute", "kick", "ban", "unban")
EVERYONE_VERBS = ("ignore", "unignore", "help")
VERBS = OPERATOR_VERBS + EVERYONE_VERBS
TIMED = ("mute", "ban")  # verbs that take a duration
REASONED = ("mute", "kick", "ban")  # verbs that take a reason


class CommandError(Exception):
    """A command that is not one: ``said`` (English, marked ``N_``) with ``values``."""

    def __init__(self, said: str, **values: str) -> None:
        super().__init__(said.format(**values))
        self.said = said
        self.values = values


@dataclass(frozen=True)
class Target:
    """Whom a command is about: a visitor's or an account's ``name``, a key's fingerprint
    (``kind`` "key") or an address ("addr")."""

    kind: str  # "name", "key" or "addr"
    value: str


@dataclass(frozen=True)
class Command:
    verb: str
    target: Target | None = None
    seconds: float | None = None
    reason: str = ""


def parse_duration(text: str) -> float:
    """Seconds in ``30s``, ``10m``, ``2h``, ``7d``; CommandError for anything else, for
    nothing, and for more than ``MAX_DURATION``."""
    found = DURATION.fullmatch(text)
    if found is None or int(found.group(1)) == 0:
        # TRANSLATORS: {text} is what was typed; 30s 10m 2h 7d are typed as they are
        raise CommandError(N_("{text} is not a duration: give a number and a unit, as in "
                              "30s, 10m, 2h or 7d."), text=text[:20])
    seconds = int(found.group(1)) * UNITS[found.group(2)]
    if seconds > MAX_DURATION:
        # TRANSLATORS: {most}: the longest duration, as typed (365d)
        raise CommandError(N_("{text} is too long: at most {most}."), text=text[:20],
                           most=f"{int(MAX_DURATION // 86400)}d")
    return float(seconds)


def clean_reason(text: str) -> str:
    """A reason as it is kept and shown: one line of printable characters, at most
    ``MAX_REASON`` of them."""
    line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return line[:MAX_REASON]


def parse_target(text: str, verb: str) -> Target:
    if text.startswith("key:"):
        if verb not in ("ban", "unban") or not FINGERPRINT.fullmatch(text[4:]):
            # TRANSLATORS: key:SHA256:... is typed as it is; ssh-keygen -l is a command
            raise CommandError(N_("key: takes a key's fingerprint, SHA256:... as ssh-keygen "
                                  "-l shows it, and only with /ban and /unban."))
        return Target("key", text[4:])
    if text.startswith("addr:"):
        try:
            address = plain_address(str(ipaddress.ip_address(text[5:])))
        except ValueError:
            address = ""
        if verb not in ("ban", "unban") or not address:
            # TRANSLATORS: addr: is typed as it is
            raise CommandError(N_("addr: takes an IP address (addr:203.0.113.7), and only "
                                  "with /ban and /unban."))
        return Target("addr", address)
    return Target("name", text)


def parse(line: str) -> Command:
    """The command in ``line`` (its leading ``/`` or ``:`` optional)."""
    if len(line) > MAX_LINE:
        raise CommandError(N_("That command is too long."))
    words = line.strip().lstrip("/:").split(None, 3)
    verb = words[0].lower() if words else ""
    if verb not in VERBS:
        # TRANSLATORS: {verb} is what was typed; /help is typed as it is
        raise CommandError(N_("There is no command {verb}: /help lists them."),
                           verb="/" + verb[:20])
    if verb == "help":
        return Command(verb)
    if len(words) < 2:
        raise CommandError(usage(verb))
    target = parse_target(words[1], verb)
    seconds: float | None = None
    rest = words[2:]
    if verb in TIMED:
        if not rest:
            raise CommandError(usage(verb))
        seconds = parse_duration(rest[0])
        rest = rest[1:]
    text = " ".join(rest)
    if verb not in REASONED and text:
        raise CommandError(usage(verb))
    return Command(verb, target, seconds, clean_reason(text))


def usage(verb: str) -> str:
    """How ``verb`` is typed (marked ``N_``)."""
    return {
        # TRANSLATORS: how a command is typed: the command and NAME, DURATION stay as
        # they are (NAME, DURATION and reason may be translated)
        "mute": N_("Type: /mute NAME DURATION [REASON], as in /mute bob 10m spam."),
        "unmute": N_("Type: /unmute NAME."),
        "kick": N_("Type: /kick NAME [REASON]."),
        "ban": N_("Type: /ban NAME|key:SHA256:...|addr:IP DURATION [REASON], as in /ban "
                  "bob 1d insults."),
        "unban": N_("Type: /unban NAME|key:SHA256:...|addr:IP."),
        "ignore": N_("Type: /ignore NAME."),
        "unignore": N_("Type: /unignore NAME."),
    }[verb]


__all__ = ["MAX_DURATION", "OPERATOR_VERBS", "VERBS", "Command", "CommandError", "Target",
           "clean_reason", "parse", "parse_duration", "usage"]
