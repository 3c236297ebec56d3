"""A reason of the lobby's, for a message to a game: the English sentence, and the same
sentence before its values went in (marked ``N_``: each visitor's game says it in his
language) with the values (names, times: never translated)."""

from __future__ import annotations

from typing import Any


def reason(said: str, **values: str) -> dict[str, Any]:
    """A reason of the lobby's, for a message to a game: ``why`` in English, and ``said``
    (marked ``N_``: the game translates it) with its ``values`` (names: never translated)."""
    return {"why": said.format(**values), "said": said, "values": values}


__all__ = ["reason"]
