"""The one compiled part: the classic hard player's search in C (tui_domino.ai._classic_search).

It is optional: where no C compiler is found the package installs without it, and the
computer player runs the same search in Python (tui_domino.ai.classic_search), with the same
moves, only slower. Everything else about the package is in pyproject.toml.
"""

import sys

from setuptools import Extension, setup

# The C search must round like Python's floats: no fused multiply-adds.
ARGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "tui_domino.ai._classic_search",
            ["tui_domino/ai/_classic_search.c"],
            extra_compile_args=ARGS,
            optional=True,
        )
    ]
)
