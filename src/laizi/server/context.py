"""The hall's typed context: everything a request handler reaches through the app (the
hall, its stores of people, clubs, ledgers and bans, the rate limits, the admin token,
the address it listens on), behind one typed door, :func:`context_of`. Starlette's
``app.state`` is untyped (``Any``): reached directly, a misspelt name or a coroutine left
unawaited passes the type checker, so nothing else reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast

from laizi.club_ledger import LedgerEntry, Verdict
from laizi.server import lan
from laizi.server.bans import Bans
from laizi.server.clubs import Clubs
from laizi.server.hall import Hall
from laizi.server.people import People
from laizi.server.ratelimit import RateLimits

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection, Request

__all__ = ["ALL_ADDRESSES", "ClubLedgers", "HallContext", "context_of"]

ALL_ADDRESSES = (None, "0.0.0.0", "::", "")
"""``listen_host`` values that listen on every address (LAN addresses included)."""


class ClubLedgers(Protocol):
    """What handlers do with the clubs' ledgers (账本; :class:`laizi.server.club_books.Books`,
    which reads the score-keeping sessions and so cannot be imported here)."""

    async def sync(self, club: str) -> None: ...

    async def entries(self, club: str) -> list[LedgerEntry]: ...

    async def verify(self, club: str) -> Verdict: ...


@dataclass
class HallContext:
    """What the handlers reach (:func:`context_of`): the hall, its stores, the address it
    listens on (``laizi serve --host``; None: unknown, taken as every address) and this
    machine's LAN addresses."""

    hall: Hall
    people: People
    """Identities (身份): :mod:`laizi.server.people`."""
    clubs: Clubs
    """亲友圈: :mod:`laizi.server.clubs`."""
    books: ClubLedgers
    """The clubs' ledgers (账本): :mod:`laizi.server.club_books`."""
    bans: Bans
    """The operator's bans (封禁): :mod:`laizi.server.admin`."""
    listen_host: str | None = None
    addresses: lan.Addresses = field(default_factory=lan.Addresses)
    limits: RateLimits = field(default_factory=RateLimits)
    admin_token: str | None = None
    """The operator's token (``--admin-token``); None: the admin API is off."""

    async def count(self, kind: str, request: Request, name: object) -> None:
        """One ``kind`` (create, join) for the request's address and the name it gives
        (:mod:`laizi.server.ratelimit`); :class:`RateLimited` when either has none left."""
        address = request.client.host if request.client is not None else ""
        await self.limits.hit(kind, f"address:{address}", f"name:{str(name).strip()[:64]}")

    async def lan_found(self) -> list[tuple[str, str]]:
        """This machine's LAN addresses when the hall listens on all of them (looked up
        off the event loop, cached for a minute)."""
        if self.listen_host not in ALL_ADDRESSES:
            return []  # loopback only, or one address (``listen_host`` itself)
        return await self.addresses.get()


def context_of(conn: HTTPConnection) -> HallContext:
    """The hall's context of the app serving ``conn`` (set once by ``create_app``)."""
    return cast(HallContext, conn.app.state.context)
