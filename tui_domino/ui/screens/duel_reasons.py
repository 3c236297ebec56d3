"""Why a duel ended early, in the language in use.

The duel's reasons are the protocol's own English (docs/protocol.md): this side's and the
other side's program write them ("Bob did not come back", "Ann: held 6-6 but denied it when
the opening was called") and send them as they are. Shown here, a reason of a known shape is
put in the language in use, its names, tiles and numbers kept; one of no known shape (a newer
program's, or the rules' own words inside it) shows as it came."""

from __future__ import annotations

import re

from tui_domino import i18n
from tui_domino.i18n import N_, _

# What a player did, as the duel's reasons say it after his name ("Bob left the match").
# TRANSLATORS: these are what a player did that ended a duel, shown after his name as
# "{name} — {what}" (no verb that agrees with the name's gender, if the language has one)
DEEDS: tuple[str, ...] = (
    N_("left the match"),
    N_("did not come back"),
    N_("refused to reveal his keys"),
    N_("left before revealing his keys"),
    N_("stopped the match with an accusation his keys do not bear out"),
    N_("stopped the match saying time ran out, which this side's clock does not bear out"),
    N_("ran out of time"),
    N_("claimed a tile not held"),
    N_("claimed a block without a pass before it"),
    N_("moved after the round was blocked"),
    N_("moved after the round was over"),
    N_("claimed a blocked round while holding a playable tile"),
    N_("moved out of turn"),
    N_("drew while holding a playable tile"),
    N_("passed illegally"),
    N_("passed while holding a playable tile"),
    N_("passed while he could still draw"),
    N_("moved although the round was blocked"),
    N_("drew when no tile may be drawn"),
    N_("drew from an empty bazaar"),
    N_("placed a tile without proving it was dealt to him"),
    N_("claimed a blocked round while tiles may still be drawn"),
    N_("opened with a tile this side holds"),
    N_("placed a tile this side holds or saw played"),
    N_("the opening differs from the engine's"),
    N_("sent a deck with a repeated point (a stacked shuffle)"),
)

# Deeds with a tile or a number in them: the English shape, and the message that says it.
SHAPED = (
    (re.compile(r"held (?P<tile>\d(?:-\d)+) but denied it when the opening was called"),
     N_("held {tile} but denied it when the opening was called")),
    (re.compile(r"placed (?P<tile>\d(?:-\d)+) from deck position (?P<pos>\d+), which is not his"),
     N_("placed {tile} from deck position {pos}, which is not his")),
    (re.compile(r"placed (?P<tile>\d(?:-\d)+), which was not dealt to him"),
     N_("placed {tile}, which was not dealt to him")),
    (re.compile(r"made an illegal move: (?P<why>.+)"), N_("made an illegal move: {why}")),
    (re.compile(r"drew while holding a playable tile: (?P<why>.+)"),
     N_("drew while holding a playable tile: {why}")),
    (re.compile(r"passed illegally: (?P<why>.+)"), N_("passed illegally: {why}")),
    (re.compile(r"left the match \((?P<said>.*)\)"), N_("left the match ({said})")),
    # TRANSLATORS: why a duel ended: a player's move took longer than its time ({n}: "20")
    (re.compile(r"took more than (?P<n>\d+(?:\.\d+)?) seconds? over one move"),
     N_("took more than {n} s over one move")),
    # TRANSLATORS: why a duel ended: a player's move took longer than its time ({n}: "5")
    (re.compile(r"took more than (?P<n>\d+(?:\.\d+)?) minutes? over one move"),
     N_("took more than {n} min over one move")),
    (re.compile(r"sent an invalid key \((?P<why>.+)\)"), N_("sent an invalid key ({why})")),
    (re.compile(r"proved (?P<tile>\d(?:-\d)+) with an invalid key \((?P<why>.+)\)"),
     N_("proved {tile} with an invalid key ({why})")),
    (re.compile(r"sent an invalid point in shuffle stage (?P<stage>\d+) \((?P<why>.+)\)"),
     N_("sent an invalid point in shuffle stage {stage} ({why})")),
)

# Whole sentences.
SENTENCES = (
    (re.compile(r"(?P<first>.+) and (?P<second>.+) both disputed round (?P<round>\d+) and the "
                r"keys showed no cheat: neither wins"),
     # TRANSLATORS: why a duel ended; {first} and {second} are the players' names
     N_("{first} and {second} both disputed round {round} and the keys showed no cheat: "
        "neither wins")),
    (re.compile(r"(?P<name>.+) disputed round (?P<round>\d+) and the keys showed no cheat"),
     N_("{name} disputed round {round} and the keys showed no cheat")),
    (re.compile(r"(?P<name>.+)'s program stopped the match with an internal error"),
     N_("{name}'s program stopped the match with an internal error")),
    (re.compile(r"internal error \((?P<error>.+) at (?P<where>.+)\): this program stopped the "
                r"match; nobody is to blame"),
     N_("internal error ({error} at {where}): this program stopped the match; nobody is to "
        "blame")),
)


def deed_text(deed: str) -> str | None:
    """What a player did, in the language in use; None for a deed of no known shape."""
    if deed in DEEDS:
        return _(deed)
    for shape, message in SHAPED:
        found = shape.fullmatch(deed)
        if found:
            return _(message).format(**found.groupdict())
    return None


def reason_text(reason: str) -> str:
    """A duel's reason in the language in use (English: as it came)."""
    if i18n.current() == i18n.DEFAULT:
        return reason
    for shape, message in SENTENCES:
        found = shape.fullmatch(reason)
        if found:
            return _(message).format(**found.groupdict())
    for sep in (": ", " "):  # "Ann: held 6-6 …" (a cheat), "Bob did not come back"
        head, found_sep, deed = reason.partition(sep)
        while found_sep:
            said = deed_text(deed)
            if said is not None:
                # TRANSLATORS: why a duel ended: a player's name, and what he did
                return _("{name} — {what}").format(name=head, what=said)
            more_head, found_sep, deed = deed.partition(sep)
            head = f"{head}{sep}{more_head}"
    return deed_text(reason) or reason


__all__ = ["reason_text"]
