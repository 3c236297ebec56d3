"""The peer-to-peer duel: a sans-IO protocol core and a small asyncio transport around it.

See docs/protocol.md. Nothing here imports the user interface.
"""

from tui_domino.net.core import DuelCore, MatchSettings
from tui_domino.net.transport import DuelSession

__all__ = ["DuelCore", "DuelSession", "MatchSettings"]
