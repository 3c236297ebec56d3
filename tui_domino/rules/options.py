"""House rules: one options dict per variant, with the seeds' rules as defaults."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, cast

from tui_domino.rules.types import Options

DEFAULTS: dict[str, dict[str, Any]] = {
    "classic": {"hand_size": 7, "bazaar_reserve": 2},
    "spider": {"hand_size": 7, "lone_blank_double": 25},
    "triominos": {
        "hand_size": 16,
        "opening_bonus": [10, 40],
        "hexagon_bonus": [50, 100, 150],
        "bridge_bonus": 40,
        "draw_penalty": 5,
        "max_draws": None,
        "stuck_penalty": 10,
        "domino_bonus": 25,
        "blocked_penalty": 10,
    },
}

SET_SIZE = {"classic": 28, "spider": 28, "triominos": 56}

TARGETS: dict[str, tuple[int, ...]] = {
    "classic": (50, 100, 150, 200),
    "spider": (50, 70, 100, 120),
    "triominos": (200, 400, 500, 600),
}
DEFAULT_TARGET = {"classic": 100, "spider": 100, "triominos": 400}


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def resolve_options(variant: str, options: Mapping[str, object] | None) -> Options:
    """The full, validated options of ``variant``; raises ValueError on a bad key or value."""
    if variant not in DEFAULTS:
        raise ValueError(f"unknown variant {variant!r}")
    out = copy.deepcopy(DEFAULTS[variant])
    if options is None:
        return cast(Options, out)
    if not isinstance(options, dict):
        raise ValueError("options must be a dict")
    for key, value in options.items():
        if key not in out:
            raise ValueError(f"unknown option {key!r} for {variant}")
        if value is None and key != "max_draws":
            continue  # None means the default
        default = DEFAULTS[variant][key]
        if key == "hand_size":
            if not _is_int(value) or not 1 <= value <= SET_SIZE[variant] // 2:
                raise ValueError(f"hand_size must be 1..{SET_SIZE[variant] // 2}, not {value!r}")
        elif key == "max_draws":
            if value is not None and (not _is_int(value) or value < 1):
                raise ValueError(f"max_draws must be null or a positive number, not {value!r}")
        elif isinstance(default, list):
            if (
                not isinstance(value, list | tuple)
                or len(value) != len(default)
                or not all(_is_int(v) and v >= 0 for v in value)
            ):
                raise ValueError(
                    f"{key} must be {len(default)} non-negative numbers, not {value!r}"
                )
            value = list(value)
        elif not _is_int(value) or value < 0:
            raise ValueError(f"{key} must be a non-negative whole number, not {value!r}")
        out[key] = value
    return cast(Options, out)


def check_target(variant: str, target: int | None) -> int:
    """The match target; the variant's usual choices are ``TARGETS``, any positive number works."""
    if target is None:
        return DEFAULT_TARGET[variant]
    if not _is_int(target) or target < 1:
        raise ValueError(f"target must be a positive whole number, not {target!r}")
    return target
