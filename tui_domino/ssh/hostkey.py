"""The server's ed25519 host key: made on the first start, then kept (mode 0600) so that
visitors' ``known_hosts`` entries stay valid across restarts."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

from tui_domino.ssh.home import data_dir

HOST_KEY_NAME = "ssh_host_ed25519_key"


class HostKeyError(Exception):
    """The host key file exists but cannot be used; the message says why."""


def host_key_path() -> Path:
    return data_dir() / HOST_KEY_NAME


def load_or_create_host_key(path: Path | None = None) -> tuple[asyncssh.SSHKey, bool]:
    """The key at ``path`` (default: the data directory's), made first when missing.
    Returns (key, created). A key readable by others is refused, as OpenSSH does."""
    path = path or host_key_path()
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        blob = key.export_private_key("openssh")
        # O_EXCL: never overwrite a key another server start wrote a moment ago.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        return key, True
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise HostKeyError(
            f"{path} is readable by other users (mode {mode:04o}); "
            f"run: chmod 600 {path}"
        )
    try:
        return asyncssh.read_private_key(str(path)), False
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        raise HostKeyError(f"{path} is not a usable private key ({exc})") from exc


def fingerprint(key: asyncssh.SSHKey) -> str:
    return str(key.get_fingerprint("sha256"))
