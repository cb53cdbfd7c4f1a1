"""The operator's bans (封禁), stored (table ``bans``) and read by every process, with a
short-lived copy in memory: a name or an address refused room creation and joining with
``403 banned`` (:meth:`Bans.check`). The admin API (:mod:`laizi.server.admin`) adds and
lifts them; the handlers check them through the hall's context."""

from __future__ import annotations

import time
import unicodedata
from enum import StrEnum
from typing import Any

from sqlalchemy import Float, String, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column
from starlette.requests import Request

from laizi.errors import ErrorCode, TableError
from laizi.server.storage import Base, Store

__all__ = ["BAN_CACHE", "BanKind", "BanRow", "Bans"]

BAN_CACHE = 2.0
"""Seconds a process trusts its copy of the bans (another process may have added one)."""
class BanKind(StrEnum):
    """What a ban names (封禁): a person's name, or an address."""

    NAME = "name"
    ADDRESS = "address"


KINDS = tuple(BanKind)
MAX_VALUE = 128


class BanRow(Base):
    __tablename__ = "bans"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[str] = mapped_column(String(MAX_VALUE), primary_key=True)
    created: Mapped[float] = mapped_column(Float)


def _norm(kind: str, value: str) -> str:
    """A name as the hall compares names (NFKC, trimmed); an address as given."""
    value = value.strip()
    return unicodedata.normalize("NFKC", value) if kind == BanKind.NAME else value


class Bans:
    """The stored bans, with a short-lived copy in memory."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._cache: set[tuple[str, str]] = set()
        self._read = -BAN_CACHE

    async def all(self) -> list[dict[str, Any]]:
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(BanRow.kind, BanRow.value, BanRow.created)
                                       .order_by(BanRow.created))).all()
        self._cache = {(k, v) for k, v, _ in rows}
        self._read = time.monotonic()
        return [{"kind": k, "value": v, "created": c} for k, v, c in rows]

    async def add(self, kind: object, value: object) -> dict[str, Any]:
        if kind not in KINDS or not isinstance(value, str) or not value.strip() \
                or len(value) > MAX_VALUE:
            raise TableError(f"a ban is {{'kind': 'name' | 'address', 'value': at most "
                             f"{MAX_VALUE} characters}}", code=ErrorCode.MALFORMED)
        assert isinstance(kind, str)
        row = {"kind": kind, "value": _norm(kind, value), "created": time.time()}
        if (kind, row["value"]) not in {(b["kind"], b["value"]) for b in await self.all()}:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(BanRow), [row])
        self._read = -BAN_CACHE
        return row

    async def remove(self, kind: str, value: str) -> None:
        async with self.store.engine.begin() as conn:
            await conn.execute(delete(BanRow).where(BanRow.kind == kind,
                                                    BanRow.value == _norm(kind, value)))
        self._read = -BAN_CACHE

    async def check(self, request: Request, name: object) -> None:
        """Raises ``banned`` when the request's address or the ``name`` is banned."""
        if time.monotonic() - self._read >= BAN_CACHE:
            await self.all()
        if not self._cache:
            return
        address = request.client.host if request.client is not None else None
        if address is not None and (BanKind.ADDRESS, address) in self._cache:
            raise TableError("this address is banned from the hall", code=ErrorCode.BANNED)
        if isinstance(name, str) and (BanKind.NAME, _norm(BanKind.NAME, name)) in self._cache:
            raise TableError("this name is banned from the hall", code=ErrorCode.BANNED)
