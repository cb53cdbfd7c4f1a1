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
without it: ``401 not_admin``. Bans (:mod:`laizi.server.bans`) are stored (table ``bans``)
and read by every process (cached for ``BAN_CACHE`` seconds); a banned name or address is
refused room creation and joining with ``403 banned`` (``Bans.check``).
"""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server.context import context_of
from laizi.server.hall import Hall
from laizi.server.http import STATIC, json_object
from laizi.server.limits import MAX_BODY

__all__ = ["routes"]

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
