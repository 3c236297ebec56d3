"""Play over SSH: the built-in server (``tui-domino serve``) and what keeps the game
comfortable inside any remote terminal.

Importing this package imports nothing heavy: the server (``server``), the lobby and
the Textual pieces are their own modules.
"""
