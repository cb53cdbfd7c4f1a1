"""The HTTP API of clubs (亲友圈; :mod:`laizi.server.clubs`, docs/hall.md "Clubs").

Every request carries the person's ``X-Laizi-Person`` (401 ``unknown_person`` without);
everything about a club is for its members only (403 ``not_club_member``), what changes
it for its managers (403 ``not_club_manager``); an unknown club or invite is 404
``unknown_club``.

===========================================  ==========================================
``POST /api/clubs``                          ``{"name", "settings"?, "person_name"?}``
                                             → 201 ``{"id"}``
``GET /api/clubs``                           ``{"clubs"}``: the caller's clubs
``GET /api/clubs/invite/{invite}``           ``{"id", "name"}`` of an invite (any person)
``POST /api/clubs/invite/{invite}``          ``{"person_name"?}``: ask to join →
                                             ``{"id", "status"}``
                                             (``requested`` or ``member``)
``GET /api/clubs/{id}``                      the club's page: club, me, members (online),
                                             live rooms, score-keeping sessions; for
                                             managers the requests
``POST /api/clubs/{id}/invite``              a new invite code (manager)
``POST /api/clubs/{id}/requests/{person}``   ``{"approve": bool}`` (manager)
``POST /api/clubs/{id}/members/{person}``    ``{"role": "manager" | "member" | null}``
                                             (manager; null removes)
``POST /api/clubs/{id}/leave``               the caller leaves
``POST /api/clubs/{id}/settings``            ``{"name"?, "settings"?}`` (manager)
``POST /api/clubs/{id}/rooms``               ``{"name", "settings"?}`` → a member-only
                                             room with the club's variant and rules
``GET /api/clubs/{id}/ledger``               ``{"entries", "totals"}`` (per evening, total)
``GET /api/clubs/{id}/ledger.csv``           the ledger as CSV (``laizi verify-ledger``)
``GET /api/clubs/{id}/verify``               ``{"ok", "entries", "problem"}``: the check
``GET /api/clubs/{id}/ratings``              ``{"ratings": {variant: [...]}}``
``GET /api/persons/{id}/history``            a person's 战绩, to them and fellow members
===========================================  ==========================================
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from laizi.club_ledger import to_csv
from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server import assets
from laizi.server.club_books import ratings, totals
from laizi.server.clubs import Clubs
from laizi.server.context import ClubLedgers, context_of
from laizi.server.hall import check_name
from laizi.server.http import json_object, qr_svg
from laizi.server.people_api import me_or_refuse, person_of, tie_seat, variant_stats
from laizi.server.ratelimit import RateLimited
from laizi.server.room_settings import RoomSettings

__all__ = ["routes"]

_MAX_BODY = 8192
_STATUS = {ErrorCode.UNKNOWN_PERSON: 401, ErrorCode.RATE_LIMITED: 429,
           ErrorCode.UNKNOWN_CLUB: 404, ErrorCode.NOT_CLUB_MEMBER: 403,
           ErrorCode.NOT_CLUB_MANAGER: 403, ErrorCode.MEMBERS_ONLY: 403,
           ErrorCode.UNKNOWN_ROOM: 404, ErrorCode.BANNED: 403, ErrorCode.STORAGE: 503}
_NO_STORE = {"Cache-Control": "no-store"}

Handler = Callable[[Request], Awaitable[Response]]


def _error(exc: LaiziError) -> JSONResponse:
    headers = ({"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited)
               else None)
    return JSONResponse({"error": dict(exc.to_json())},
                        status_code=_STATUS.get(exc.code, 400), headers=headers)


def _refusals(handler: Handler) -> Handler:
    """A handler whose typed refusals are answered as JSON errors."""
    async def answer(request: Request) -> Response:
        try:
            return await handler(request)
        except LaiziError as exc:
            return _error(exc)
    answer.__name__ = handler.__name__
    return answer


def _clubs(request: Request) -> Clubs:
    return context_of(request).clubs


def _books(request: Request) -> ClubLedgers:
    return context_of(request).books


def _ok(data: object, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=_NO_STORE)


def _invite_link(request: Request, invite: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/c/{invite}"


async def _member(request: Request, *, manager: bool = False) -> tuple[str, str, str]:
    """(club id, person, role) of a request about a club by one of its members."""
    person, _ = await me_or_refuse(request)
    club = request.path_params["club"]
    role = await _clubs(request).need_member(club, person, manager=manager)
    return club, person, role


async def _renamed(request: Request, person: str, data: dict[str, object]) -> None:
    """``person_name`` in a body: the name the person goes by from now on (the lobby's
    name, typed after the identity was made)."""
    name = data.get("person_name")
    if name is not None:
        await context_of(request).people.rename(person, check_name(name))


@_refusals
async def create(request: Request) -> Response:
    person, _ = await me_or_refuse(request)
    data = await json_object(request, limit=_MAX_BODY)
    await _renamed(request, person, data)
    club = await _clubs(request).create(person, data.get("name"), data.get("settings"))
    return _ok({"id": club}, 201)


@_refusals
async def mine(request: Request) -> Response:
    person, _ = await me_or_refuse(request)
    return _ok({"clubs": await _clubs(request).of_person(person)})


@_refusals
async def invite_info(request: Request) -> Response:
    club, name = await _clubs(request).by_invite(request.path_params["invite"])
    return _ok({"id": club, "name": name})


@_refusals
async def ask(request: Request) -> Response:
    person, _ = await me_or_refuse(request)
    await _renamed(request, person, await json_object(request, limit=_MAX_BODY))
    club, status = await _clubs(request).request(request.path_params["invite"], person)
    return _ok({"id": club, "status": status})


async def _live_rooms(request: Request, club: str) -> list[dict[str, Any]]:
    hall = context_of(request).hall
    out: list[dict[str, Any]] = []
    for code, variant, _ in await _clubs(request).rooms(club, live=True):
        try:
            info = dict(await hall.info(code))
        except LaiziError:
            continue
        settings = info["settings"]  # a room's info, maybe from another process: JSON
        name = settings.get("name", "") if isinstance(settings, dict) else ""
        out.append({"code": code, "variant": variant, "name": name,
                    "seats": info["seats"], "online": info["online"],
                    "hands": info["hands"], "started": info["started"]})
    return out


@_refusals
async def page(request: Request) -> Response:
    club, person, role = await _member(request)
    clubs = _clubs(request)
    data = await clubs.club(club)
    data["link"] = _invite_link(request, data["invite"])
    data["qr"] = qr_svg(data["link"])
    rooms = await _live_rooms(request, club)
    playing: set[str] = set()
    for room in rooms:
        playing |= await clubs.persons_in(room["code"], room["online"])
    members = [{**m, "online": m["online"] or m["id"] in playing}
               for m in await clubs.members(club)]
    from laizi.server.score_sessions import club_sessions

    sessions = await club_sessions(clubs.store.engine, club)
    return _ok({"club": data, "me": {"id": person, "role": role},
                "members": members, "rooms": rooms, "sessions": sessions,
                "requests": await clubs.requests(club) if role == "manager" else []})


@_refusals
async def new_invite(request: Request) -> Response:
    club, _, _ = await _member(request, manager=True)
    invite = await _clubs(request).new_invite(club)
    return _ok({"invite": invite, "link": _invite_link(request, invite)})


@_refusals
async def answer_request(request: Request) -> Response:
    club, _, _ = await _member(request, manager=True)
    data = await json_object(request, limit=_MAX_BODY)
    approve = data.get("approve")
    if not isinstance(approve, bool):
        raise TableError("approve is true or false", code=ErrorCode.MALFORMED)
    await _clubs(request).answer(club, request.path_params["person"], approve)
    return _ok({"ok": True})


@_refusals
async def set_member(request: Request) -> Response:
    club, _, _ = await _member(request, manager=True)
    data = await json_object(request, limit=_MAX_BODY)
    role = data.get("role")
    if role not in ("manager", "member", None) or "role" not in data:
        raise TableError("role is manager, member or null", code=ErrorCode.MALFORMED)
    await _clubs(request).set_role(club, request.path_params["person"], role)
    return _ok({"ok": True})


@_refusals
async def leave(request: Request) -> Response:
    club, person, _ = await _member(request)
    await _clubs(request).set_role(club, person, None)
    return _ok({"ok": True})


@_refusals
async def settings(request: Request) -> Response:
    club, _, _ = await _member(request, manager=True)
    data = await json_object(request, limit=_MAX_BODY)
    await _clubs(request).update_settings(club, data.get("name"), data.get("settings"))
    return _ok(await _clubs(request).club(club))


@_refusals
async def new_room(request: Request) -> Response:
    """A member-only room of the club, its variant and house rules the club's unless the
    settings name others."""
    club, _, _ = await _member(request)
    data = await json_object(request, limit=_MAX_BODY)
    defaults = (await _clubs(request).club(club))["settings"]
    given = data.get("settings") or {}
    if not isinstance(given, dict):
        raise TableError("settings are a JSON object", code=ErrorCode.MALFORMED)
    merged = {"variant": defaults["variant"], "options": defaults["options"], **given}
    name = data.get("name")
    await context_of(request).bans.check(request, name)
    await context_of(request).count("create", request, name or "")
    room, member = await context_of(request).hall.create(RoomSettings.from_json(merged), name)
    await _clubs(request).add_room(club, room.code)
    await tie_seat(request, member.token, await person_of(request), name)
    link = f"{str(request.base_url).rstrip('/')}/r/{room.code}?t={member.token}"
    return _ok({"code": room.code, "token": member.token, "club": club,
                "seats": room.table.variant.seats, "link": link}, 201)


async def _names(request: Request, club: str) -> dict[str, str]:
    return {m["id"]: m["name"] for m in await _clubs(request).members(club)}


@_refusals
async def ledger(request: Request) -> Response:
    club, _, _ = await _member(request)
    entries = await _books(request).entries(club)
    # a member who left keeps their name in the totals
    names = await _clubs(request).names({p for e in entries for p in e["persons"].values()})
    return _ok({"entries": entries[-200:], "count": len(entries),
                "totals": totals(entries, {**names, **await _names(request, club)})})


@_refusals
async def ledger_csv(request: Request) -> Response:
    club, _, _ = await _member(request)
    entries = await _books(request).entries(club)
    return Response(to_csv(entries), media_type="text/csv; charset=utf-8", headers={
        **_NO_STORE, "Content-Disposition": f'attachment; filename="club-{club}.csv"'})


@_refusals
async def verify(request: Request) -> Response:
    club, _, _ = await _member(request)
    return _ok((await _books(request).verify(club)).to_json())


@_refusals
async def club_ratings(request: Request) -> Response:
    club, _, _ = await _member(request)
    entries = await _books(request).entries(club)
    over = {code: variant for code, variant, status
            in await _clubs(request).rooms(club, live=False) if status == "over"}
    return _ok({"ratings": ratings(entries, over, await _names(request, club))})


@_refusals
async def person_history(request: Request) -> Response:
    """战绩 of a person: to that person, and to people in a club with them; a fellow
    member is shown finished rooms only (never a live room's code)."""
    me, _ = await me_or_refuse(request)
    person = request.path_params["person"]
    if person != me and not await _clubs(request).share_a_club(me, person):
        raise TableError("a person's 战绩 is for them and their clubs' members",
                         code=ErrorCode.NOT_CLUB_MEMBER)
    store = _clubs(request).store
    rooms = await store.history(person)
    stats = await variant_stats(store, rooms)
    if person != me:
        rooms = [r for r in rooms if r["status"] == "over"]
    return _ok({"rooms": rooms, "stats": stats})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/clubs", create, methods=["POST"]),
        Route("/api/clubs", mine),
        Route("/api/clubs/invite/{invite}", invite_info),
        Route("/api/clubs/invite/{invite}", ask, methods=["POST"]),
        Route("/api/clubs/{club}", page),
        Route("/api/clubs/{club}/invite", new_invite, methods=["POST"]),
        Route("/api/clubs/{club}/requests/{person}", answer_request, methods=["POST"]),
        Route("/api/clubs/{club}/members/{person}", set_member, methods=["POST"]),
        Route("/api/clubs/{club}/leave", leave, methods=["POST"]),
        Route("/api/clubs/{club}/settings", settings, methods=["POST"]),
        Route("/api/clubs/{club}/rooms", new_room, methods=["POST"]),
        Route("/api/clubs/{club}/ledger", ledger),
        Route("/api/clubs/{club}/ledger.csv", ledger_csv),
        Route("/api/clubs/{club}/verify", verify),
        Route("/api/clubs/{club}/ratings", club_ratings),
        Route("/api/persons/{person}/history", person_history),
        Route("/c/{invite}", assets.index),
        Route("/club/{club}", assets.index),
    ]
