"""The server's operators (``tui-domino serve --operators FILE``): a file of OpenSSH public
keys, as in ``authorized_keys`` (one key a line, options before it and a comment after it
allowed and ignored, ``#`` comments and blank lines skipped). A visitor signed in to his
account with one of these keys is an operator. A line that holds no key is refused as the
server starts, with its number."""

from __future__ import annotations

from pathlib import Path

import asyncssh

from tui_domino.i18n import _

MAX_OPERATORS_FILE = 1024 * 1024
# The key types OpenSSH writes (a line's first word of these starts its key).
KEY_TYPES = ("ssh-", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-sha2-")


class OperatorsError(ValueError):
    """The operators file cannot be read, or a line of it holds no key."""


def _key_words(words: list[str]) -> str | None:
    """The ``TYPE BASE64`` of an authorized_keys line's words (options before it skipped)."""
    for i, word in enumerate(words):
        if word.startswith(KEY_TYPES) and i + 1 < len(words):
            return f"{word} {words[i + 1]}"
    return None


def parse_operators(text: str, name: str = "operators") -> frozenset[str]:
    """The SHA-256 fingerprints of the keys in ``text`` (``name``: the file's, for the
    message of a bad line)."""
    found: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = _key_words(line.split())
        try:
            if words is None:
                raise ValueError("no key type")
            key = asyncssh.import_public_key(words)
        except (ValueError, asyncssh.KeyImportError) as exc:
            # TRANSLATORS: {name}: the file's name; {line}: the line's number; {error}: the
            # reason in English
            raise OperatorsError(_("{name}, line {line}: not an OpenSSH public key "
                                   "({error}).").format(name=name, line=number,
                                                        error=exc)) from exc
        found.add(key.get_fingerprint("sha256"))
    return frozenset(found)


def read_operators(path: Path) -> frozenset[str]:
    """The operators' key fingerprints in the file at ``path`` (OperatorsError)."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_OPERATORS_FILE + 1)
    except OSError as exc:
        raise OperatorsError(_("cannot read {name}: {reason}").format(
            name=path, reason=exc.strerror or exc)) from exc
    if len(data) > MAX_OPERATORS_FILE:
        raise OperatorsError(_("{name} is too large for a file of keys.").format(name=path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise OperatorsError(_("{name} is not text (UTF-8).").format(name=path)) from exc
    return parse_operators(text, str(path))


__all__ = ["OperatorsError", "parse_operators", "read_operators"]
