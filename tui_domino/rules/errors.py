"""The engine's one exception."""


class IllegalMove(ValueError):
    """A move that is malformed or not legal in the current state.

    The message says why, in words a player understands.
    """
