"""Where the game keeps its files: settings and the saved match.

The directory is ``$TUI_DOMINO_HOME`` when set (tests point it at a temporary
directory), else the user's data directory from platformdirs. Every write is atomic:
a temporary file in the same directory, then a rename.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from tui_domino import files
from tui_domino.files import quarantine

SAVE_NAME = "current-match.json"
SETTINGS_NAME = "settings.json"
SAVE_KIND = "tui-domino-save"


def data_dir() -> Path:
    return files.data_dir()


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


@dataclass
class Settings:
    """The player's preferences, kept in settings.json."""

    theme: str = "textual-dark"
    ascii: bool = False
    pips: bool = True  # dominoes with pips when the table has room for them
    animations: bool = True
    name: str = "You"
    second_name: str = "Guest"
    computer_delay: float = 0.6
    last_variant: str = "classic"
    last_level: str = "normal"
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def load(cls) -> Settings:
        path = data_dir() / SETTINGS_NAME
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        out = cls()
        for f in fields(cls):
            if f.name in raw and isinstance(raw[f.name], type(getattr(out, f.name))):
                setattr(out, f.name, raw[f.name])
        return out

    def save(self) -> None:
        write_json_atomic(data_dir() / SETTINGS_NAME, asdict(self))


def effective_delay(settings: Settings) -> float:
    env_delay = os.environ.get("TUI_DOMINO_DELAY")
    if env_delay is not None:
        try:
            return max(0.0, float(env_delay))
        except ValueError:
            pass
    return max(0.0, settings.computer_delay) if settings.animations else 0.0


class SaveError(Exception):
    """A saved match that cannot be read; the message says what happened to the file."""


def save_path() -> Path:
    return data_dir() / SAVE_NAME


def write_save(payload: dict[str, Any]) -> None:
    write_json_atomic(save_path(), {"kind": SAVE_KIND, "format": 1, **payload})


def read_save() -> dict[str, Any] | None:
    """The saved payload, None when there is none; SaveError (after moving the file
    aside) when it is corrupt or not ours."""
    path = save_path()
    if not path.exists():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or raw.get("kind") != SAVE_KIND:
            raise ValueError("it is not a tui-domino saved match")
        if raw.get("format") != 1:
            raise ValueError(f"its format {raw.get('format')!r} is not one this version reads")
        return raw
    except (OSError, ValueError) as exc:
        kept = quarantine(path)
        raise SaveError(
            f"The saved match could not be read ({exc}). It was kept as {kept}."
        ) from exc


def remove_save() -> None:
    with contextlib.suppress(FileNotFoundError):
        save_path().unlink()
