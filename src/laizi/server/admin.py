"""The hall's admin page and its API, behind the operator's admin token
(``laizi serve --admin-token`` / ``LAIZI_ADMIN_TOKEN``; without a token there are no
admin routes at all).

=========================================  ============================================
``GET /admin``                             the page (``static/admin.html``, zh and en)
``GET /admin/api/rooms``                   the hall's live rooms, with their info
``POST /admin/api/rooms/{code}/end``       end a room's match (as its host's ``end``)
``GET /admin/api/bans``                    ``[{"kind", "value", "created"}]``
``POST /admin/api/bans``                   ``{"kind": "name" | "address", "value"}``
``DELETE /admin/api/bans/{kind}/{value}``  lift a ban
=========================================  ============================================

Every API request carries ``Authorization: Bearer TOKEN`` (compared in constant time);
without it: ``401 not_admin``. Bans are stored (table ``bans``) and read by every process
(cached for :data:`BAN_CACHE` seconds); a banned name or address is refused room
creation and joining with ``403 banned`` (:meth:`Bans.check`).
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from enum import StrEnum
from typing import Any

from sqlalchemy import Float, String, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server.context import context_of
from laizi.server.hall import Hall
from laizi.server.http import STATIC, json_object
from laizi.server.limits import MAX_BODY
from laizi.server.storage import Base, Store

__all__ = ["BAN_CACHE", "BanRow", "Bans", "routes"]

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


def _status(exc: LaiziError) -> int:
    return {ErrorCode.NOT_ADMIN: 401, ErrorCode.UNKNOWN_ROOM: 404,
            ErrorCode.TABLE_OVER: 409, ErrorCode.STORAGE: 503}.get(exc.code, 400)


def _error(exc: LaiziError) -> JSONResponse:
    return JSONResponse({"error": dict(exc.to_json())}, status_code=_status(exc))


def _authorised(request: Request) -> None:
    token = context_of(request).admin_token
    given = request.headers.get("authorization", "")
    scheme, _, value = given.partition(" ")
    if token is None or scheme.lower() != "bearer" or not secrets.compare_digest(
            value.strip().encode(), token.encode()):
        raise TableError("the admin token is needed (Authorization: Bearer TOKEN)",
                         code=ErrorCode.NOT_ADMIN)


def _hall(request: Request) -> Hall:
    hall = context_of(request).hall
    return hall


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "admin.html", headers={"Cache-Control": "no-store"})


async def rooms(request: Request) -> Response:
    try:
        _authorised(request)
    except LaiziError as exc:
        return _error(exc)
    hall = _hall(request)
    if hall.cluster is None:
        return JSONResponse([dict(room.info()) for room in list(hall.rooms.values())
                             if not room.closed and not room.gone])
    # several processes: every live room of the hall, each one's info from its owner
    out = []
    for code in await hall.store.live_rooms():
        try:
            out.append(dict(await hall.info(code)))
        except LaiziError:
            continue  # ended or moving meanwhile
    return JSONResponse(out)


async def end_room(request: Request) -> Response:
    """End a room's match, whichever process plays it: with ``--redis`` the answering
    process asks the room's owner (laizi.server.hall.Hall.end)."""
    try:
        _authorised(request)
        code = request.path_params["code"]
        await _hall(request).end(code)
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"code": code, "over": True})


async def bans(request: Request) -> Response:
    try:
        _authorised(request)
        store = context_of(request).bans
        if request.method == "POST":
            data = await json_object(request, limit=MAX_BODY)
            return JSONResponse(await store.add(data.get("kind"), data.get("value")),
                                status_code=201)
        if request.method == "DELETE":
            await store.remove(request.path_params["kind"], request.path_params["value"])
            return JSONResponse({"ok": True})
        return JSONResponse(await store.all())
    except LaiziError as exc:
        return _error(exc)


def routes() -> list[BaseRoute]:
    return [
        Route("/admin", page),
        Route("/admin/api/rooms", rooms),
        Route("/admin/api/rooms/{code}/end", end_room, methods=["POST"]),
        Route("/admin/api/bans", bans, methods=["GET", "POST"]),
        Route("/admin/api/bans/{kind}/{value}", bans, methods=["DELETE"]),
    ]
