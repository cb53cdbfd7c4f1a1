"""The HTTP API of people (:mod:`laizi.server.people`; docs/hall.md, "People").

==================================  ===================================================
``POST /api/me``                    ``{"name"}`` → 201 ``{"id", "name", "credential"}``:
                                    a new person and this device's credential (given
                                    once; sent back as ``X-Laizi-Person``)
``GET /api/me``                     ``{"id", "name", "devices", "recovery"}``
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

import json
from collections.abc import Iterable
from typing import Any, TypedDict, cast

from sqlalchemy import select
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server import assets
from laizi.server.hall import check_name
from laizi.server.http import json_object, qr_svg
from laizi.server.people import LINK_SECONDS, PERSON_HEADER, People
from laizi.server.ratelimit import RateLimited, RateLimits
from laizi.server.storage import LogLineRow, Played, Store

__all__ = ["VariantStats", "person_of", "routes", "variant_stats"]

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
    return cast(People, conn.app.state.people)


async def person_of(conn: HTTPConnection) -> tuple[str, str] | None:
    """(person id, name) of the request's ``X-Laizi-Person``; None without one; an
    ``unknown_person`` error for one the hall did not give."""
    header = conn.headers.get(PERSON_HEADER)
    if header is None:
        return None
    return await _people(conn).authenticate(header)


async def _me(conn: HTTPConnection) -> tuple[str, str]:
    found = await person_of(conn)
    if found is None:
        raise TableError(f"this needs the {PERSON_HEADER} header of an identity",
                         code=ErrorCode.UNKNOWN_PERSON)
    return found


def _error(exc: LaiziError) -> JSONResponse:
    status = {ErrorCode.UNKNOWN_PERSON: 401, ErrorCode.RATE_LIMITED: 429}.get(exc.code, 400)
    headers = ({"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited)
               else None)
    return JSONResponse({"error": dict(exc.to_json())}, status_code=status, headers=headers)


async def _count(request: Request, kind: str) -> None:
    limits = cast(RateLimits, request.app.state.limits)
    address = request.client.host if request.client is not None else ""
    await limits.hit(kind, f"address:{address}")


async def create(request: Request) -> Response:
    try:
        data = await json_object(request, limit=_MAX_BODY)
        await _count(request, "identity")
        name = check_name(data.get("name", ""))
        made = await _people(request).create(name)
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse(made.to_json(), status_code=201,
                        headers={"Cache-Control": "no-store"})


async def me(request: Request) -> Response:
    try:
        person, name = await _me(request)
        devices, recovery = await _people(request).devices(person)
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"id": person, "name": name, "devices": devices,
                         "recovery": recovery}, headers={"Cache-Control": "no-store"})


async def recovery_code(request: Request) -> Response:
    try:
        person, _ = await _me(request)
        code = await _people(request).new_recovery_code(person)
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"code": code}, headers={"Cache-Control": "no-store"})


async def recover(request: Request) -> Response:
    try:
        data = await json_object(request, limit=_MAX_BODY)
        await _count(request, "recover")
        made = await _people(request).recover(data.get("code"))
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse(made.to_json(), headers={"Cache-Control": "no-store"})


async def new_link(request: Request) -> Response:
    try:
        person, _ = await _me(request)
        token, expires = await _people(request).new_link(person)
    except LaiziError as exc:
        return _error(exc)
    link = f"{str(request.base_url).rstrip('/')}/me/link/{token}"
    return JSONResponse({"link": link, "expires": expires, "seconds": LINK_SECONDS,
                         "qr": qr_svg(link)}, headers={"Cache-Control": "no-store"})


async def take_link(request: Request) -> Response:
    try:
        await _count(request, "recover")
        made = await _people(request).redeem_link(request.path_params["token"])
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse(made.to_json(), headers={"Cache-Control": "no-store"})


async def history(request: Request) -> Response:
    try:
        person, _ = await _me(request)
    except LaiziError as exc:
        return _error(exc)
    store = _people(request).store
    rooms = await store.history(person)
    return JSONResponse({"rooms": rooms, "stats": await variant_stats(store, rooms)},
                        headers={"Cache-Control": "no-store"})


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
        Route("/api/me/recovery", recovery_code, methods=["POST"]),
        Route("/api/me/recover", recover, methods=["POST"]),
        Route("/api/me/link", new_link, methods=["POST"]),
        Route("/api/me/link/{token}", take_link, methods=["POST"]),
        Route("/api/me/history", history),
        Route("/me/link/{token}", assets.index),
    ]
