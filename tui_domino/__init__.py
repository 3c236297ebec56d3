"""tui-domino: classic dominoes, Domino Spider and Triominos in the terminal."""

__version__ = "0.1.0"
