"""A lobby duel: the challenged visitor's game hosts on 127.0.0.1 (a free port), the
challenger's joins that port; both then play over the duel protocol like any two
players (``tui_domino.net``), on the game's own duel screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from tui_domino.i18n import _

LOOPBACK = "127.0.0.1"
CONNECT_TIMEOUT = 30.0
# How long a lobby duel waits for a dropped opponent before he forfeits, when the lobby says
# nothing else. Both games run on this server and talk over loopback, so a dropped connection
# means the other visitor's game has ended. A guest's game keeps no log: nothing can take his
# match up. An account's game logs the match in his folder, and the lobby gives such a duel
# its seat's time and a margin (``window``): a fresh game of his takes the match up from the
# log (ssh/seats.py says when).
RESUME_WINDOW = 10.0
# The most seconds a lobby may give a duel's resume window (its seat's time and a margin).
MAX_WINDOW = 3600.0
# A lobby duel's channel is keyed on a secret the lobby hands to both games (32 hex digits):
# nobody types a code, and another user of the machine who finds the port gets nowhere.
SECRET_DIGITS = 32
MAX_TARGET = 10_000  # the most points a lobby duel's target may be (serve --duel-target)
TURN_TIMEOUT = 60.0  # a lobby duel's seconds a move, when the lobby names none


def valid_window(window: object) -> float:
    """A lobby duel's resume window as the lobby sent it (seconds), checked."""
    if isinstance(window, (int, float)) and not isinstance(window, bool) \
            and 1 <= window <= MAX_WINDOW:
        return float(window)
    return RESUME_WINDOW


def valid_target(target: object) -> int | None:
    """A lobby duel's target as the lobby sent it (None: the game's usual one), checked."""
    return target if type(target) is int and 1 <= target <= MAX_TARGET else None


@runtime_checkable
class LobbyDuelTable(Protocol):
    """What the visitor's app asks of a lobby duel's screen (``ssh/lobby_duel.py``, loaded
    with the first duel)."""

    rematch: Callable[[], None] | None  # asks the lobby for another match
    send_frame: Callable[[dict[str, Any]], None] | None  # the table, for the watchers
    muted: Callable[[], str | None] | None  # why this visitor may not chat now, or None
    guest: bool  # a visitor without an account: his seat ends with his connection
    match_over: Callable[[str | None], None] | None  # the match is over (this side's offence)

    def watched_by(self, n: int) -> None:
        """``n`` visitors watch this duel."""

    def report_result(self) -> None:
        """Reports this side's result of the match to the lobby, once."""

    def rematch_offered(self, name: str) -> None:
        """The other side, ``name``, asks for a rematch."""

    def ratings_settled(self, text: str) -> None:
        """The lobby's words on the match's ratings."""

    def partner_left(self, why: str) -> None:
        """The opponent left the table (``why``): no rematch is offered any more."""

    def peer_away(self, name: str, seconds: float) -> None:
        """The opponent's connection dropped; his game keeps his seat for ``seconds``."""

    def peer_back(self, name: str) -> None:
        """The opponent is back at the table."""

    def abandon(self) -> None:
        """This visitor did not come back in time: his game leaves the duel, saying so."""

    def peer_left_for_good(self) -> None:
        """The opponent's game stopped and no new one took the match up: he forfeits."""


class DuelUnavailable(Exception):
    """This version of the game cannot play duels (the duel layer or screen is missing)."""


def duel_session_class() -> Any:
    try:
        # lazy: optional (a version without the duel layer: DuelUnavailable)
        from tui_domino.net.transport import DuelSession
    except ImportError as exc:
        # TRANSLATORS: {error} is Python's own words (in English)
        raise DuelUnavailable(_("Duels are not available in this version ({error}).").format(
            error=exc)) from exc
    return DuelSession


def duel_screen_class() -> Any:
    try:
        # lazy: optional (a version without the duel screen: DuelUnavailable)
        from tui_domino.ssh.lobby_duel import LobbyDuelScreen
    except ImportError as exc:
        raise DuelUnavailable(_("Duels are not available in this version "
                                "(the game has no duel screen).")) from exc
    return LobbyDuelScreen


def valid_secret(secret: object) -> str:
    """The lobby's secret for a duel's channel, checked: 32 lowercase hex digits."""
    if (not isinstance(secret, str) or len(secret) != SECRET_DIGITS
            or any(c not in "0123456789abcdef" for c in secret)):
        raise DuelUnavailable(_("The lobby sent no valid key for this duel."))
    return secret


async def connect_duel(*, role: str, name: str, variant: str, port: int,
                       on_hosting: Callable[[int], None], secret: object,
                       target: int | None = None, turn: float = TURN_TIMEOUT,
                       window: float = RESUME_WINDOW, journal: Path | None = None) -> Any:
    """This side's ``DuelSession``: hosting on loopback (``on_hosting`` gets the port,
    for the lobby to pass on; a resumed host listens on ``port`` again) or joining
    ``port``, the channel keyed on ``secret``; ``turn`` seconds a move (the lobby's word,
    the same to both sides), ``window`` the seconds a dropped side may be away; ``journal``:
    the match's log, from which a game started afresh takes the match up."""
    # lazy: optional (a version without the duel layer: see duel_session_class)
    from tui_domino.net import MatchSettings

    secret = valid_secret(secret)
    session_class = duel_session_class()
    if role == "host":
        session = await session_class.host(port=port, addr=LOOPBACK, name=name,
                                           settings=MatchSettings(variant, target),
                                           resume_window=window, code=secret,
                                           code_tries=None, turn_timeout=turn,
                                           journal_path=journal, fsync=False)
        on_hosting(int(session.port))
        return session
    return await session_class.join(LOOPBACK, port, name=name,
                                    connect_timeout=CONNECT_TIMEOUT,
                                    resume_window=window, code=secret,
                                    turn_timeout=turn, journal_path=journal, fsync=False)


async def open_duel(*, role: str, name: str, variant: str, port: int,
                    on_hosting: Callable[[int], None], secret: object,
                    report: Callable[[Any, bool], None] | None = None,
                    ratings: tuple[str | None, str | None] = (None, None),
                    target: int | None = None,
                    turn: float = TURN_TIMEOUT, window: float = RESUME_WINDOW,
                    journal: Path | None = None) -> tuple[Any, Any]:
    """Opens this side of a lobby duel; returns (session, screen to push). ``report``
    gets the match's result at its end, and whether each side moved; ``ratings`` are the
    seats' (0: the host), shown beside the names; ``target`` the match's (the host's
    choice: None for the game's usual one); ``turn`` the seconds a move."""
    screen_class = duel_screen_class()  # before connecting: fail without a half-open duel
    session = await connect_duel(role=role, name=name, variant=variant, port=port,
                                 on_hosting=on_hosting, secret=secret, target=target,
                                 turn=turn, window=window, journal=journal)
    session.code_shown = False  # the lobby's key: nobody is to read it out
    return session, screen_class(session, report, ratings)
