"""``tui-domino serve --web PORT``: the web door made from the command line's options."""

from __future__ import annotations

import argparse
import ssl
from typing import TYPE_CHECKING

from tui_domino.i18n import _

if TYPE_CHECKING:
    from tui_domino.ssh.server import Door, GameServer


def web_door(server: GameServer, args: argparse.Namespace) -> Door | str:
    """The web door of ``server`` on ``--host`` port ``--web`` (HTTPS with ``--cert`` and
    ``--key``), or why it cannot open."""
    try:
        # lazy: optional (serve --web says how to install aiohttp)
        from tui_domino.web.door import WebDoor
    except ImportError:
        # TRANSLATORS: "pip install aiohttp" is a command: keep it.
        return _("--web needs aiohttp: pip install aiohttp")
    context = None
    if args.cert is not None:
        try:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(args.cert, args.key)
        except (OSError, ssl.SSLError) as exc:
            return _("cannot use {path}: {reason}").format(path=args.cert, reason=exc)
    return WebDoor(server, args.host, args.web, ssl_context=context,
                   names=frozenset(args.web_host or ()))
