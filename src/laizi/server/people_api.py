"""The HTTP API of people (:mod:`laizi.server.people`; docs/hall.md, "People").

==================================  ===================================================
``POST /api/me``                    ``{"name"}`` → 201 ``{"id", "name", "credential"}``:
                                    a new person and this device's credential (given
                                    once; sent back as ``X-Laizi-Person``)
``GET /api/me``                     ``{"id", "name", "devices", "recovery"}``
``GET /api/me/devices``             ``{"devices": [{"id", "created", "current"}]}``:
                                    the person's devices (设备), oldest first
``DELETE /api/me/devices/{id}``     → ``{"dropped", "devices"}``: that device's
                                    credential is refused from now on (a lost phone);
                                    ``404 unknown_device`` for an id not the person's
``POST /api/me/recovery``           ``{"code"}``: a new recovery code, shown this once
``POST /api/me/recover``            ``{"code"}`` → ``{"id", "name", "credential"}``: this
                                    device joins the person of the code
``POST /api/me/link``               ``{"link", "expires", "qr"}``: a device link (single
                                    use, 10 minutes) and its QR code (SVG)
``POST /api/me/link/{token}``       → ``{"id", "name", "credential"}``: the device that
                                    opened the link joins its person
``GET /api/me/history``             战绩: ``{"rooms", "stats"}`` of the caller alone
``GET /me/link/{token}``            the page that takes a device link
==================================  ===================================================

Every ``/api/me…`` request but the first two kinds (``POST /api/me``, recover, a link)
carries ``X-Laizi-Person: ID.SECRET``; without it, or with a forged or altered one:
``401 unknown_person``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypedDict

from sqlalchemy import select
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server import assets
from laizi.server.context import context_of
from laizi.server.hall import check_name
from laizi.server.http import json_object, qr_svg
from laizi.server.people import LINK_SECONDS, PERSON_HEADER, People
from laizi.server.ratelimit import RateLimited
from laizi.server.storage import LogLineRow, Played, Store

__all__ = ["VariantStats", "me_or_refuse", "person_of", "routes", "tie_seat",
           "variant_stats"]

_MAX_BODY = 1024


class VariantStats(TypedDict):
    """A person's play of one variant (``GET /api/me/history``'s ``stats``)."""

    hands: int
    """Hands dealt with the person at the table."""
    wins: int
    """Hands the person won (和)."""
    dealt_in: int
    """Hands won off the person's discard (点炮)."""
    points: int
    """The person's net over those hands."""
    average: float
    """``points / hands``."""
    biggest: int
    """The most the person took in one hand won (0 before a win)."""


def _people(conn: HTTPConnection) -> People:
    return context_of(conn).people


async def person_of(conn: HTTPConnection) -> tuple[str, str] | None:
    """(person id, name) of the request's ``X-Laizi-Person``; None without one; an
    ``unknown_person`` error for one the hall did not give."""
    header = conn.headers.get(PERSON_HEADER)
    if header is None:
        return None
    return await _people(conn).authenticate(header)


async def me_or_refuse(conn: HTTPConnection) -> tuple[str, str]:
    """(person id, name) of the request's identity; ``unknown_person`` without one."""
    found = await person_of(conn)
    if found is None:
        raise TableError(f"this needs the {PERSON_HEADER} header of an identity",
                         code=ErrorCode.UNKNOWN_PERSON)
    return found


async def tie_seat(request: Request, token: str, person: tuple[str, str] | None,
                   name: object) -> None:
    """The new seat token is the person's (``members.person_id``); the name they last
    played under becomes their display name. A guest (no identity) ties nothing."""
    if person is None:
        return
    people = _people(request)
    await people.tie(token, person[0])
    if name != person[1]:
        await people.rename(person[0], check_name(name))


def _error(exc: LaiziError) -> JSONResponse:
    status = {ErrorCode.UNKNOWN_PERSON: 401, ErrorCode.RATE_LIMITED: 429,
              ErrorCode.UNKNOWN_DEVICE: 404}.get(exc.code, 400)
    headers = ({"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited)
               else None)
    return JSONResponse({"error": dict(exc.to_json())}, status_code=status, headers=headers)


async def _count(request: Request, kind: str) -> None:
    limits = context_of(request).limits
    address = request.client.host if request.client is not None else ""
    await limits.hit(kind, f"address:{address}")


Body = Mapping[str, object]


def _answered(status: int = 200) -> Callable[[Callable[[Request], Awaitable[Body]]],
                                             Callable[[Request], Awaitable[Response]]]:
    """A handler of this API: what it returns is the JSON answer (``status``; never
    cached: a credential or a person's own data), a :class:`LaiziError` it raises the
    error answer (``_error``)."""
    def wrap(work: Callable[[Request], Awaitable[Body]]) -> Callable[[Request],
                                                                      Awaitable[Response]]:
        @functools.wraps(work)
        async def handler(request: Request) -> Response:
            try:
                body = await work(request)
            except LaiziError as exc:
                return _error(exc)
            return JSONResponse(body, status_code=status,
                                headers={"Cache-Control": "no-store"})
        return handler
    return wrap


@_answered(status=201)
async def create(request: Request) -> Body:
    data = await json_object(request, limit=_MAX_BODY)
    await _count(request, "identity")
    name = check_name(data.get("name", ""))
    return (await _people(request).create(name)).to_json()


@_answered()
async def me(request: Request) -> Body:
    person, name = await me_or_refuse(request)
    devices, recovery = await _people(request).devices(person)
    return {"id": person, "name": name, "devices": devices, "recovery": recovery}


@_answered()
async def devices(request: Request) -> Body:
    person, _ = await me_or_refuse(request)
    header = request.headers[PERSON_HEADER]
    return {"devices": await _people(request).device_list(person, header)}


@_answered()
async def drop_device(request: Request) -> Body:
    person, _ = await me_or_refuse(request)
    left = await _people(request).drop_device(person, request.path_params["device"])
    return {"dropped": request.path_params["device"], "devices": left}


@_answered()
async def recovery_code(request: Request) -> Body:
    person, _ = await me_or_refuse(request)
    return {"code": await _people(request).new_recovery_code(person)}


@_answered()
async def recover(request: Request) -> Body:
    data = await json_object(request, limit=_MAX_BODY)
    await _count(request, "recover")
    return (await _people(request).recover(data.get("code"))).to_json()


@_answered()
async def new_link(request: Request) -> Body:
    person, _ = await me_or_refuse(request)
    token, expires = await _people(request).new_link(person)
    link = f"{str(request.base_url).rstrip('/')}/me/link/{token}"
    return {"link": link, "expires": expires, "seconds": LINK_SECONDS, "qr": qr_svg(link)}


@_answered()
async def take_link(request: Request) -> Body:
    await _count(request, "recover")
    return (await _people(request).redeem_link(request.path_params["token"])).to_json()


@_answered()
async def history(request: Request) -> Body:
    person, _ = await me_or_refuse(request)
    store = _people(request).store
    rooms = await store.history(person)
    return {"rooms": rooms, "stats": await variant_stats(store, rooms)}


async def _seats(store: Store, code: str) -> dict[int, list[str]]:
    """Who sat where in each hand of a room (its ``hand`` lines)."""
    async with store.engine.connect() as conn:
        lines = (await conn.execute(
            select(LogLineRow.line).where(LogLineRow.room == code,
                                          LogLineRow.line.like('%"type":"hand"%')))).scalars()
        out: dict[int, list[str]] = {}
        for line in lines:
            entry = json.loads(line)
            if entry.get("type") == "hand" and isinstance(entry.get("number"), int):
                out[entry["number"]] = [str(s) for s in entry.get("seats", [])]
    return out


def _book(stats: VariantStats, end: dict[str, Any], seats: list[str], name: str) -> None:
    """One finished hand into a person's statistics (``name`` sat at ``seats``)."""
    seat = seats.index(name)
    record = end.get("record") or {}
    net = int(end.get("net", {}).get(name, 0))
    stats["hands"] += 1
    stats["points"] += net
    if record.get("outcome") == "win":
        if seat in record.get("winners", []):
            stats["wins"] += 1
            stats["biggest"] = max(stats["biggest"], net)
        elif record.get("from") == seat:
            stats["dealt_in"] += 1


async def variant_stats(store: Store, rooms: Iterable[Played]) -> dict[str, VariantStats]:
    """Per variant: hands, wins, 点炮, points, their average and the biggest hand won,
    over every finished hand of ``rooms`` the person sat in (under the room's name)."""
    out: dict[str, VariantStats] = {}
    for played in rooms:
        if not played["hands"]:
            continue
        seats = await _seats(store, played["room"])
        stats = out.setdefault(played["variant"], VariantStats(
            hands=0, wins=0, dealt_in=0, points=0, average=0.0, biggest=0))
        for end in await store.hands(played["room"]):
            sat = seats.get(int(end.get("number", -1)), [])
            if played["name"] in sat:
                _book(stats, end, sat, played["name"])
    for stats in out.values():
        stats["average"] = round(stats["points"] / stats["hands"], 2) if stats["hands"] else 0.0
    return out


def routes() -> list[BaseRoute]:
    return [
        Route("/api/me", create, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me/devices", devices, methods=["GET"]),
        Route("/api/me/devices/{device}", drop_device, methods=["DELETE"]),
        Route("/api/me/recovery", recovery_code, methods=["POST"]),
        Route("/api/me/recover", recover, methods=["POST"]),
        Route("/api/me/link", new_link, methods=["POST"]),
        Route("/api/me/link/{token}", take_link, methods=["POST"]),
        Route("/api/me/history", history),
        Route("/me/link/{token}", assets.index),
    ]
