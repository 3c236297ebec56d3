"""What the game's screens ask of the app that shows them, typed: the settings, the bell,
starting or continuing a match, the language, ASCII drawing, whether it may open network
duels. ``DominoApp`` provides it (and the SSH visitor's app, which is one); a screen asks
``game_app(self)`` instead of reaching for attributes Textual's ``App`` does not have.

A widget of the game may also be shown by an app of another kind (a test's, a screenshot
script's): ``settings_of`` reads the settings where there are some, and None elsewhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from tui_domino.i18n import N_

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tui_domino import rules
    from tui_domino.ui.session import Seat
    from tui_domino.ui.storage import Settings


# What a player is told where the app does not open network duels (NETWORK_DUELS false).
NO_NETWORK = N_("Duels on this server are played through the lobby (F2): this game cannot "
                "listen on a port or connect to an address.")


@runtime_checkable
class GameApp(Protocol):
    """The game's app as its screens use it."""

    settings: Settings
    autosave: bool  # the match is saved after every move (not in tests and screenshots)
    NETWORK_DUELS: bool

    def ring(self) -> None:
        """The bell, when it is on."""

    def bell_on(self) -> bool:
        """Whether the bell is on (Settings, else on locally and off over ssh)."""

    def start_match(self, variant: str, seats: list[Seat], target: int | None = None,
                    options: rules.Options | None = None) -> None:
        """A new local match on the game screen."""

    def continue_match(self) -> None:
        """The saved match on the game screen."""

    def set_language(self, language: str) -> None:
        """Every screen in ``language`` ("": the environment's)."""

    def apply_ascii(self) -> None:
        """ASCII drawing turned on or off: every screen drawn again."""


def game_app(node: DOMNode) -> GameApp:
    """The game's app showing ``node`` (TypeError if an app of another kind shows it)."""
    app = node.app
    if not isinstance(app, GameApp):
        raise TypeError(f"{type(app).__name__} is not the game's app")
    return app


def settings_of(node: DOMNode) -> Settings | None:
    """The game's settings where the game's app shows ``node``; None in another app."""
    app = node.app
    return app.settings if isinstance(app, GameApp) else None

