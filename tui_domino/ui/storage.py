"""Where the game keeps its files: settings and the saved match.

The directory is ``$TUI_DOMINO_HOME`` when set (tests point it at a temporary
directory), else the user's data directory from platformdirs. Every write is atomic:
a temporary file in the same directory, then a rename.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import msgspec

from tui_domino import ai, env, files, i18n, rules
from tui_domino.files import quarantine
from tui_domino.i18n import N_, _

if TYPE_CHECKING:
    from tui_domino import formats

SAVE_NAME = "current-match.json"
SETTINGS_NAME = "settings.json"
SAVE_KIND = "tui-domino-save"

log = logging.getLogger(__name__)


def data_dir() -> Path:
    return files.data_dir()


def write_json_atomic(path: Path, data: object) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


DUEL_PORT = 7777  # the network duel's port unless the player chose another


class DuelForm(msgspec.Struct, kw_only=True):
    """The network duel's form as last filled in (net_setup.py)."""

    variant: str = ""  # "": the game last played
    listen: str = "0.0.0.0"
    port: Annotated[int, msgspec.Meta(ge=0, le=65535)] = DUEL_PORT
    join: str = f"127.0.0.1:{DUEL_PORT}"


class Remembered(msgspec.Struct, kw_only=True):
    """What the screens remember between games: the target last played to in each game
    (New game) and the duel's form."""

    targets: dict[str, int] = msgspec.field(default_factory=dict)
    duel: DuelForm = msgspec.field(default_factory=DuelForm)


class Settings(msgspec.Struct, kw_only=True):
    """The player's preferences, kept in settings.json. Read with msgspec: a whole number
    in a decimal field is taken (``"computer_delay": 1``); a wrong type or an unknown game
    or level refuses the file (``load_settings``). Keys this version does not know are
    ignored (and dropped at the next save); ``extra`` keeps what other screens store."""

    theme: str = "textual-dark"
    language: str = ""  # "", the environment's (LANG); else "en", "ru" or "bg"
    ascii: bool = False
    pips: bool = True  # dominoes with pips when the table has room for them
    animations: bool = True
    take_backs: bool = True  # u takes your last move back against the computer
    bell: bool | None = None  # the terminal's bell (None: on, but off over ssh)
    name: str = "You"
    second_name: str = "Guest"
    computer_delay: Annotated[float, msgspec.Meta(ge=0)] = 0.6
    last_variant: str = "classic"
    last_level: str = "normal"
    extra: Remembered = msgspec.field(default_factory=Remembered)

    def __post_init__(self) -> None:
        if self.language and self.language not in i18n.LANGUAGES:
            raise ValueError(f"language {self.language!r} is not one of "
                             f"{', '.join(i18n.LANGUAGES)}")
        if self.last_variant not in rules.VARIANTS:
            raise ValueError(f"last_variant {self.last_variant!r} is not one of "
                             f"{', '.join(rules.VARIANTS)}")
        if self.last_level not in ai.NAMES:
            raise ValueError(f"last_level {self.last_level!r} is not one of "
                             f"{', '.join(ai.NAMES)}")

    @classmethod
    def decode(cls, data: bytes) -> Settings:
        """Settings from a file's bytes (msgspec.DecodeError or ValidationError)."""
        return msgspec.json.decode(data, type=cls, strict=False)

    @classmethod
    def peek(cls) -> Settings | None:
        """The saved settings, read without a word or a change: None when there are none or
        they cannot be read (``read``, at the game's start, says why and keeps them aside)."""
        try:
            return cls.decode((files.data_dir(create=False) / SETTINGS_NAME).read_bytes())
        except (OSError, ValueError):  # msgspec's DecodeError and ValidationError too
            return None

    @classmethod
    def read(cls) -> Settings:
        """The saved settings, the defaults when there are none; SettingsError (after
        moving the file aside) when it is not JSON or holds a wrong type or value."""
        path = data_dir() / SETTINGS_NAME
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            # TRANSLATORS: {error} is the system's reason, in English.
            raise SettingsError(N_("The settings could not be read ({error}); the defaults "
                                   "are used."), error=exc) from exc
        try:
            return cls.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            kept = quarantine(path)
            # TRANSLATORS: {error} is what is wrong with the file, in English ("Expected
            # `str`, got `int` - at `$.name`"); {path} is where the file was kept.
            raise SettingsError(N_("The settings could not be read ({error}). They were kept "
                                   "as {path}; the defaults are used."),
                                error=exc, path=kept) from exc

    @classmethod
    def load(cls) -> Settings:
        """The saved settings, or the defaults when they cannot be read (logged)."""
        return load_settings()[0]

    def save(self) -> None:
        write_json_atomic(data_dir() / SETTINGS_NAME, msgspec.to_builtins(self))


class SettingsError(Exception):
    """Settings that cannot be read; the message says what was wrong and what was done, in
    the language in use when it was raised (``logged``: in English, for the log)."""

    def __init__(self, message: str, **fields: object) -> None:
        """``message``: a message marked for translation, with ``fields`` in its braces."""
        super().__init__(_(message).format(**fields))
        self.logged = message.format(**fields)


def load_settings() -> tuple[Settings, str | None]:
    """The saved settings and None, or the defaults and what was wrong with the file (also
    logged as a warning); the file is kept aside, never deleted."""
    try:
        return Settings.read(), None
    except SettingsError as exc:
        log.warning("%s", exc.logged)
        return Settings(), str(exc)


def effective_delay(settings: Settings) -> float:
    """The computer's pause before its move: Settings' own choice (the animations setting
    does not take it away), or the environment's TUI_DOMINO_DELAY."""
    env_delay = env.number(env.DELAY)
    if env_delay is not None:
        return max(0.0, env_delay)
    return max(0.0, settings.computer_delay)


class SaveError(Exception):
    """A saved match that cannot be read; the message says what happened to the file."""


def save_path() -> Path:
    return data_dir() / SAVE_NAME


def write_save(payload: Mapping[str, object]) -> None:
    write_json_atomic(save_path(), {"kind": SAVE_KIND, "format": 1, **payload})


def read_save() -> formats.SavedMatch | None:
    """The saved match as its format reads it (every type checked), None when there is
    none; SaveError (after moving the file aside) when it is not JSON, not ours, or not as
    the game writes it (msgspec's words and where: "Expected `int`, got `str` - at
    `$.match.round.points[0]`")."""
    path = save_path()
    if not path.exists():
        return None
    # lazy: start-up (the formats load with a saved match, the menu's start without one)
    from tui_domino import formats

    try:
        data = path.read_bytes()
        head = msgspec.json.decode(data, type=formats.Head)
        if head.kind != SAVE_KIND:
            # TRANSLATORS: why the saved match could not be read (the file is another's).
            raise ValueError(_("it is not a tui-domino saved match"))
        if head.format != 1 or isinstance(head.format, bool):
            # TRANSLATORS: why the saved match could not be read; {format} is the file's
            # format number, as written in it.
            raise ValueError(_("its format {format} is not one this version reads").format(
                format=repr(head.format)))
        return msgspec.json.decode(data, type=formats.SavedMatch)
    except (OSError, ValueError, RecursionError) as exc:  # msgspec's errors are ValueErrors
        kept = quarantine(path)
        # TRANSLATORS: why the saved match could not be read: lists or objects inside each
        # other too many times over for the game to read
        reason = _("it is nested too deeply") if isinstance(exc, RecursionError) else exc
        raise SaveError(
            # TRANSLATORS: {error} is the reason (the system's or msgspec's in English, or
            # one of the reasons above); {path} is a file's path
            _("The saved match could not be read ({error}). It was kept as {path}.")
            .format(error=reason, path=kept)
        ) from exc


def remove_save() -> None:
    with contextlib.suppress(FileNotFoundError):
        save_path().unlink()
