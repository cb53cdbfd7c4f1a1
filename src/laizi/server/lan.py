"""The addresses other machines on this network can open the hall at (standard library only).

``laizi serve --host 0.0.0.0`` prints them, and the share box of a room opened on
``127.0.0.1`` gives friends one of them instead of a loopback link (docs/hall.md).

Nothing here sends a packet: the interfaces are read with ``SIOCGIFADDR`` (Linux), the
host name is resolved, and a UDP socket is "connected" (which only chooses the route and
the source address the system would use; UDP has no handshake).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import struct
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from starlette.requests import Request

__all__ = ["Addresses", "Share", "bases", "is_loopback", "lan_addresses",
           "listens_beyond_loopback", "share_base"]

_SIOCGIFADDR = 0x8915  # Linux: an interface's (first) IPv4 address


def _interfaces() -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every interface that has one (Linux; else [])."""
    if not sys.platform.startswith("linux"):
        return []
    try:
        import fcntl

        names = socket.if_nameindex()
    except (ImportError, OSError):
        return []
    out = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in names:
            try:
                raw = fcntl.ioctl(s.fileno(), _SIOCGIFADDR,
                                  struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on this interface
                continue
            out.append((name, socket.inet_ntoa(raw[20:24])))
    return out


def _hostname() -> list[tuple[str, str]]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [("", str(info[4][0])) for info in infos]


def _route() -> list[tuple[str, str]]:
    """The source address of the default route: connecting a UDP socket sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 9))
            return [("", str(s.getsockname()[0]))]
    except OSError:
        return []


_SOURCES: tuple[Callable[[], list[tuple[str, str]]], ...] = (_interfaces, _hostname, _route)


def _rank(address: str) -> int:
    ip = ipaddress.IPv4Address(address)
    if ip in ipaddress.IPv4Network("192.168.0.0/16"):
        return 0  # home and office wifi first
    if ip in ipaddress.IPv4Network("10.0.0.0/8"):
        return 1
    if ip in ipaddress.IPv4Network("172.16.0.0/12"):
        return 2  # often a container bridge: last of the private ones
    return 3


def lan_addresses(found: Iterable[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """This machine's non-loopback IPv4 addresses as (interface or "", address), each once,
    private networks first (192.168, 10, 172.16), in the order found within each."""
    if found is None:
        found = [pair for source in _SOURCES for pair in source()]
    seen: dict[str, str] = {}
    for name, address in found:
        try:
            ip = ipaddress.IPv4Address(address)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast:
            continue
        if address not in seen or (name and not seen[address]):
            seen[address] = name
    ordered = sorted(seen, key=_rank)  # stable: the order found within a rank
    return [(seen[a], a) for a in ordered]


class Addresses:
    """:func:`lan_addresses`, looked up in a thread (never on the event loop: resolving
    the host name may wait for a slow resolver) at most once every ``ttl`` seconds; a
    lookup under way is shared by every request that waits for it."""

    def __init__(self, ttl: float = 60.0) -> None:
        self.ttl = ttl
        self._found: list[tuple[str, str]] | None = None
        self._at = 0.0
        self._lock = asyncio.Lock()

    def _fresh(self) -> bool:
        return self._found is not None and time.monotonic() - self._at < self.ttl

    async def get(self) -> list[tuple[str, str]]:
        if not self._fresh():
            async with self._lock:
                if not self._fresh():
                    self._found = await asyncio.to_thread(lan_addresses)
                    self._at = time.monotonic()
        assert self._found is not None
        return list(self._found)


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (an address or a name, as in a URL) is this machine only."""
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listens_beyond_loopback(host: str | None) -> bool:
    """Whether a server bound to ``host`` can be reached from other machines (None:
    unknown, taken as yes)."""
    return host is None or not is_loopback(host)


def bases(host: str, port: int, found: Iterable[tuple[str, str]] | None = None
          ) -> list[tuple[str, str]]:
    """The URLs (with their interface names) a server bound to ``host`` is reached at from
    this network: every LAN address for a wildcard host (0.0.0.0, ::, ""), the host itself
    for a specific address, none for a loopback host."""
    if is_loopback(host):
        return []
    if host in ("0.0.0.0", "::", ""):
        return [(name, f"http://{a}:{port}") for name, a in lan_addresses(found)]
    shown = f"[{host}]" if ":" in host else host
    return [("", f"http://{shown}:{port}")]


class Share(TypedDict):
    """``GET /api/share``'s answer."""

    base: str
    lan: list[str]
    local_only: bool


def share_base(request: Request, listen_host: str | None,
               found: Iterable[tuple[str, str]]) -> Share:
    """Where friends open this hall: the address the page was opened at, unless that is
    this machine only (127.0.0.1, localhost) and the hall listens beyond it, then the
    first LAN address (same port). ``local_only``: the hall listens on loopback only.
    ``found``: this machine's LAN addresses (:class:`Addresses`). The room links
    (``GET /api/share``) and the score-keeper's join links share it.

    The LAN addresses are told only to a page of this machine: its host (the ``Host``
    header, which the client writes) is loopback and so is the peer that sent the
    request; a remote client naming ``Host: 127.0.0.1`` learns nothing."""
    here = str(request.base_url).rstrip("/")
    port = request.url.port or (443 if request.url.scheme == "https" else 80)
    peer = request.client.host if request.client is not None else None
    if not (is_loopback(request.url.hostname) and is_loopback(peer)):
        return {"base": here, "lan": [], "local_only": False}
    if not listens_beyond_loopback(listen_host):
        return {"base": here, "lan": [], "local_only": True}
    reach = [url for _, url in bases(listen_host or "0.0.0.0", port, found)]
    return {"base": reach[0] if reach else here, "lan": reach, "local_only": False}
