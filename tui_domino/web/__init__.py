"""The web door: the game in a browser, in the same lobby as the SSH visitors (``door.py``:
the page and its socket; ``visit.py``: a browser visitor's game; ``static/``: the page's
files, xterm.js and a font among them). Loaded only by ``tui-domino serve --web``."""
