"""The host's listening sockets, and the addresses a friend can reach them at (for the
screen). The accept loops are the transport's (net/transport.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket

BACKLOG = 100


class Listening:
    """The host's listening sockets (its accept loops run on the session's tasks)."""

    def __init__(self, sockets: list[socket.socket]) -> None:
        self.sockets = sockets

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


async def _listen(addr: str, port: int) -> list[socket.socket]:
    """Listening sockets for ``addr:port`` (every address it resolves to), non-blocking."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(addr or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    out: list[socket.socket] = []
    seen: set[tuple[int, tuple[object, ...]]] = set()
    try:
        for family, kind, proto, _, sockaddr in infos:
            if (family, sockaddr) in seen:
                continue
            seen.add((family, sockaddr))
            sock = socket.socket(family, kind, proto)
            out.append(sock)
            if os.name == "posix":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, True)
            if port == 0 and out[0] is not sock:
                sockaddr = (sockaddr[0], out[0].getsockname()[1], *sockaddr[2:])
            sock.bind(sockaddr)
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except OSError:
        for sock in out:
            sock.close()
        raise
    return out


def listening_addresses(addr: str, port: int) -> list[str]:
    """The addresses a host listening on ``addr`` can be reached at (for the screen):
    on 0.0.0.0, this machine's interface addresses, loopback last. Nothing is sent."""
    if addr not in ("0.0.0.0", "", "::"):
        return [f"{addr}:{port}"]
    found: list[str] = []
    for ip in [*_interface_addresses(), *_hostname_addresses()]:
        if ip not in found and not ip.startswith("127."):
            found.append(ip)
    found.append("127.0.0.1")
    return [f"{ip}:{port}" for ip in found]


def _hostname_addresses() -> list[str]:
    out: list[str] = []
    with contextlib.suppress(OSError, UnicodeError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            out.append(str(info[4][0]))
    return out


def _interface_addresses() -> list[str]:
    """The IPv4 address of each network interface (Linux: ``SIOCGIFADDR``)."""
    out: list[str] = []
    try:
        # lazy: optional (fcntl is not on every system)
        import fcntl
        import struct
    except ImportError:  # not on this system
        return out
    siocgifaddr = 0x8915
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                req = struct.pack("256s", name.encode()[:15])
                res = fcntl.ioctl(s.fileno(), siocgifaddr, req)
                out.append(socket.inet_ntoa(res[20:24]))
    return out
