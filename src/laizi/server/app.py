"""The hall's web application: HTTP for the lobby, records and health; websockets for play.

=====================================  =================================================
``GET /healthz``                       ``{"ok", "rooms", "owned", "errors", "process"}``
``GET /readyz``                        200 ``{"ready": true}`` when rooms can be taken, else 503
``GET /metrics``                       the Prometheus text format (:mod:`laizi.server.metrics`)
``GET /api/variants``                  every variant with its options and defaults
``GET /api/bots``                      the bots' strength levels (新手 / 熟手 / 高手)
``POST /api/rooms``                    ``{"name", "settings"}`` → ``{"code", "token", "link"}``
                                       (with ``X-Laizi-Person``: the seat is the person's)
``GET /api/rooms/{code}``              the room as everybody may see it
``POST /api/rooms/{code}/join``        ``{"name", "role"}`` (player / spectator) → a token
``GET /api/rooms/{code}/hands``        every finished hand (records, settlements)
``GET /api/rooms/{code}/log``          the table log, once the match is over (``laizi verify``)
``/api/me…``                           people: identities, recovery, 战绩 (people_api.py)
``/api/clubs…``                        clubs (亲友圈), their ledgers, ratings (clubs_api.py)
``GET /api/share``                     ``{"base", "lan", "local_only"}``: the address friends open
``GET /api/qr?text=LINK``              an SVG QR code of one of this hall's room links
``WS /ws/{code}?version=V``            play: ``{"op": "hello", "token"}`` first (docs/hall.md)
=====================================  =================================================

``/``, ``/r/{code}``, ``/replay/{code}`` and ``/score`` serve the browser client
(``static/index.html``; docs/hall.md, "The client pages"), with its files, service worker
and manifest (:mod:`laizi.server.assets`); the client's own endpoints
(settlements, replays, the score-keeper) are in :mod:`laizi.server.records`,
:mod:`laizi.server.scorekeeper` and :mod:`laizi.server.score_sessions`.

Every refusal is ``{"error": {"code", "message", "seat", "phase"}}`` with an HTTP status
(400 a bad request, 404 unknown, 409 not now, 413 a body over the limit:
:mod:`laizi.server.limits`; 403 a page of another site, 415 a body that is not JSON:
:mod:`laizi.server.headers`; 403 ``kicked`` / ``room_locked``: the host's powers,
:mod:`laizi.server.room_host`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import signal
import threading
from collections.abc import AsyncIterator, Iterable, Mapping
from typing import cast

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.scoring.mcr import prepare_tables
from laizi.server import (
    admin,
    assets,
    clubs_api,
    metrics,
    people_api,
    records,
    score_sessions,
    scorekeeper,
    variants_api,
)
from laizi.server.asgi import WS_DISCONNECT
from laizi.server.bans import Bans
from laizi.server.club_books import Books
from laizi.server.clubs import Clubs
from laizi.server.cluster import Cluster
from laizi.server.context import HallContext, context_of
from laizi.server.hall import BotPool, Hall
from laizi.server.headers import HELLO, BrowserSafety, allowed_from_env
from laizi.server.http import json_object, qr_svg
from laizi.server.lan import share_base
from laizi.server.limits import CLOSE_NO_TOKEN, BodyLimit, SocketCap, hello_timeout
from laizi.server.people import People
from laizi.server.proxies import trusted_from_env
from laizi.server.ratelimit import GuessLimit, RateLimited, RateLimits, rates_from_env
from laizi.server.rooms import MAX_MESSAGE, Connection, Room, RoomSettings, parse_client_text
from laizi.server.serving import (
    SERVICE_RESTART,
    Incoming,
    error_frame,
    refusal_close,
    serve_messages,
)
from laizi.server.storage import Store

__all__ = ["MAX_MESSAGE", "HallContext", "app_from_env", "create_app", "qr_svg"]


_STATUS = {ErrorCode.UNKNOWN_ROOM: 404, ErrorCode.UNKNOWN_TOKEN: 404,
           ErrorCode.TABLE_OVER: 409, ErrorCode.HAND_IN_PROGRESS: 409,
           ErrorCode.NOT_HOST: 403, ErrorCode.STORAGE: 503, ErrorCode.TOO_LARGE: 413,
           ErrorCode.RATE_LIMITED: 429, ErrorCode.FORBIDDEN_ORIGIN: 403,
           ErrorCode.NOT_JSON: 415, ErrorCode.BANNED: 403, ErrorCode.NOT_ADMIN: 401,
           ErrorCode.KICKED: 403, ErrorCode.ROOM_LOCKED: 403,
           ErrorCode.UNKNOWN_PERSON: 401, ErrorCode.MEMBERS_ONLY: 403,
           ErrorCode.NOT_CLUB_MEMBER: 403, ErrorCode.NOT_CLUB_MANAGER: 403,
           ErrorCode.UNKNOWN_CLUB: 404}


def _error(exc: LaiziError) -> JSONResponse:
    metrics.error(exc.code.value)
    headers = ({"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited)
               else None)
    return JSONResponse({"error": dict(exc.to_json())}, status_code=_STATUS.get(exc.code, 400),
                        headers=headers)


async def _body(request: Request) -> dict[str, object]:
    return await json_object(request, limit=MAX_MESSAGE)


def _fields(data: dict[str, object], allowed: set[str]) -> dict[str, object]:
    """``data`` if it has no field beyond ``allowed``, else a :class:`TableError`."""
    extra = sorted(set(data) - allowed)
    if extra:
        raise TableError(f"unknown field(s) {', '.join(extra)}", code=ErrorCode.MALFORMED)
    return data


def app_from_env() -> Starlette:
    """The hall of ``laizi serve --workers N``: each worker process builds its own app
    from ``LAIZI_HALL_DB``, ``LAIZI_HALL_REDIS``, ``LAIZI_HALL_BOT_PROCESSES`` and
    ``LAIZI_ALLOW_ORIGINS`` (and the trusted proxies, ``LAIZI_TRUSTED_PROXIES``)."""
    import os

    procs = os.environ.get("LAIZI_HALL_BOT_PROCESSES")
    return create_app(os.environ["LAIZI_HALL_DB"],
                      bot_processes=int(procs) if procs else None,
                      redis_url=os.environ.get("LAIZI_HALL_REDIS") or None,
                      listen_host=os.environ.get("LAIZI_HALL_HOST") or None,
                      allowed_origins=allowed_from_env(),
                      admin_token=os.environ.get("LAIZI_ADMIN_TOKEN") or None,
                      trusted_proxies=trusted_from_env())


QR_MAX = 300  # characters of a link the QR endpoint encodes


DRAIN_SECONDS = 20.0
"""The longest a SIGTERM's drain may take before the server stops anyway."""


def _drain_on_sigterm(hall: Hall) -> None:
    """SIGTERM drains the hall before the server's own handler (uvicorn's) stops it:
    ``/readyz`` answers 503 at once, the rooms are stored and handed over, their
    connections closed with 1012 (docs/deploy.md, "Stopping"). Only where the server
    runs on the main thread and handles the signal (``laizi serve``, each worker)."""
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGTERM)
    if not callable(previous):
        return
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[None]] = []

    async def drain_then_stop(sig: int, frame: object) -> None:
        try:
            # bounded: a stop never waits on a stuck room for ever (the rooms are stored
            # action by action anyway; the drain only makes the hand-over prompt)
            await asyncio.wait_for(hall.drain(SERVICE_RESTART), DRAIN_SECONDS)
        except Exception as exc:
            hall.report(None, exc)
        finally:
            previous(sig, frame)  # type: ignore[arg-type]

    def on_sigterm(sig: int, frame: object) -> None:
        hall.draining = True
        loop.call_soon_threadsafe(
            lambda: tasks.append(loop.create_task(drain_then_stop(sig, frame))))

    signal.signal(signal.SIGTERM, on_sigterm)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    context = cast(HallContext, app.state.context)
    context.hall.store.on_batch = metrics.storage_batch
    await context.hall.start()
    _drain_on_sigterm(context.hall)
    gauges = asyncio.create_task(metrics.refresh_forever(context.hall))
    await context.lan_found()  # looked up once before the first request needs it
    prepare_tables()  # before a player's turn would pay for it (and kept by gc.freeze)
    # Garbage collection: what was loaded at start (modules, tables, rooms) is never
    # collected again, and the young generation is collected every 20,000
    # allocations, not 700: a room's frames allocate thousands of short-lived
    # objects, and frequent collections of a heap of hundreds of tables were the
    # hall's longest pauses (p99 of bench_server.py, docs/hall.md).
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
    try:
        yield
    finally:
        gauges.cancel()
        await context.hall.stop()
        with contextlib.suppress(Exception):  # a stop never waits on Redis for long
            await asyncio.wait_for(context.limits.close(), 2)
        metrics.process_exit()


def _link(request: Request, code: str, token: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/r/{code}?t={token}"


# ---------------------------------------------------------------------- HTTP handlers


async def healthz(request: Request) -> Response:
    return JSONResponse(context_of(request).hall.health())


async def readyz(request: Request) -> Response:
    ready = await context_of(request).hall.ready()
    return JSONResponse({"ready": ready}, status_code=200 if ready else 503,
                        headers={"Cache-Control": "no-store"})


async def metrics_page(request: Request) -> Response:
    return Response(metrics.render(context_of(request).hall),
                    media_type=metrics.CONTENT_TYPE_LATEST)


async def create_room(request: Request) -> Response:
    hall = context_of(request).hall
    try:
        data = _fields(await _body(request), {"name", "settings"})
        await context_of(request).bans.check(request, data.get("name"))
        await context_of(request).count("create", request, data.get("name", ""))
        person = await people_api.person_of(request)
        settings = RoomSettings.from_json(data.get("settings", {}))
        room, member = await hall.create(settings, data.get("name", ""))
        await people_api.tie_seat(request, member.token, person, data.get("name"))
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"code": room.code, "token": member.token,
                         "seats": room.table.variant.seats,
                         "link": _link(request, room.code, member.token)}, status_code=201)


async def room_info(request: Request) -> Response:
    """The room as everybody may see it, with ``members_only`` (a club's room) and
    ``may_join``: whether the asking person (``X-Laizi-Person``) may join it."""
    try:
        info = dict(await context_of(request).hall.info(request.path_params["code"]))
        clubs = context_of(request).clubs
        club = await clubs.club_of_room(request.path_params["code"])
        person = None
        if club is not None:
            with contextlib.suppress(LaiziError):  # a stale identity: a stranger here
                person = await people_api.person_of(request)
        info["members_only"] = club is not None
        info["may_join"] = club is None or (
            person is not None and await clubs.role(club, person[0]) is not None)
        return JSONResponse(info)
    except LaiziError as exc:
        return _error(exc)


async def join(request: Request) -> Response:
    hall = context_of(request).hall
    try:
        data = _fields(await _body(request), {"name", "role"})
        await context_of(request).bans.check(request, data.get("name"))
        await context_of(request).count("join", request, data.get("name", ""))
        person = await people_api.person_of(request)
        await context_of(request).clubs.may_join(request.path_params["code"],
                                               person[0] if person else None)
        joined = await hall.join(request.path_params["code"], data.get("name", ""),
                                 data.get("role", "player"))
        await people_api.tie_seat(request, joined["token"], person, data.get("name"))
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({**joined, "link": _link(request, joined["code"], joined["token"])})


async def hands(request: Request) -> Response:
    hall = context_of(request).hall
    try:
        room = await hall.room(request.path_params["code"])
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse(await hall.store.hands(room.code))


async def room_log(request: Request) -> Response:
    try:
        room = await context_of(request).hall.room(request.path_params["code"])
    except LaiziError as exc:
        return _error(exc)
    if not room.closed:
        return _error(TableError("the log (with the table secret) is published when the "
                                 "match is over", code=ErrorCode.TABLE_OVER))
    return PlainTextResponse(room.table.dumps(), media_type="application/x-ndjson")


async def share(request: Request) -> Response:
    context = context_of(request)
    return JSONResponse(share_base(request, context.listen_host, await context.lan_found()),
                        headers={"Cache-Control": "no-store"})


async def qr(request: Request) -> Response:
    """The QR code of a room link of this hall only: ``{base}/r/{code}`` where base
    is this page's address or one of the LAN addresses, and the room exists. The
    page's address is whatever ``Host`` the browser sent (a proxy's name too,
    docs/deploy.md): the image goes back to that client alone, so a forged ``Host``
    only draws the forger a code of its own link."""
    from urllib.parse import urlsplit

    context = context_of(request)
    text = request.query_params.get("text", "")
    if not text or len(text) > QR_MAX:
        return _error(TableError(f"text: a room link of at most {QR_MAX} characters",
                                 code=ErrorCode.MALFORMED))
    parts = urlsplit(text)
    found = await context.lan_found()
    bases = set(share_base(request, context.listen_host, found)["lan"])
    bases.add(str(request.base_url).rstrip("/"))
    base = f"{parts.scheme}://{parts.netloc}"
    segs = parts.path.split("/")
    if (base not in bases or parts.query or parts.fragment or len(segs) != 3
            or segs[1] != "r" or not segs[2]):
        return _error(TableError("text: not a room link of this hall",
                                 code=ErrorCode.MALFORMED))
    try:
        await context.hall.info(segs[2])
    except LaiziError as exc:
        return _error(exc)
    return Response(qr_svg(text), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


# ---------------------------------------------------------------------- websockets


async def _receive(ws: WebSocket) -> Incoming:
    """A message's text, the error frame answering a bad one, or None: gone."""
    message = await ws.receive()
    if message["type"] == WS_DISCONNECT:
        return None
    text = message.get("text")
    if text is None and message.get("bytes") is not None:
        text = message["bytes"].decode("utf-8", "replace")
    if text is None or len(text) > MAX_MESSAGE:
        return parse_client_text(None)[1]
    return str(text)


async def _hello(ws: WebSocket) -> str | None:
    """The token of the connection's first message, ``{"op": "hello", "token": T}``;
    None when it sent something else or nothing in time (it is then closed)."""
    try:
        first = await asyncio.wait_for(_receive(ws), hello_timeout())
    except TimeoutError:
        first = None
    msg, _ = parse_client_text(first) if isinstance(first, str) else (None, None)
    if (isinstance(msg, dict) and msg.get("op") == HELLO and isinstance(msg.get("token"), str)
            and set(msg) <= {"op", "token"}):
        return str(msg["token"])
    with contextlib.suppress(Exception):  # the client may be gone already
        await ws.send_json(error_frame(TableError(
            'the first message is {"op": "hello", "token": T} (or ?token= in the URL)',
            code=ErrorCode.MALFORMED)))
        await ws.close(code=CLOSE_NO_TOKEN)
    return None


async def play(ws: WebSocket) -> None:
    """``WS /ws/{code}``: a member's websocket, served here when this process plays
    the room, else forwarded to the process that does (:mod:`laizi.server.cluster`)."""
    hall = context_of(ws).hall
    code = ws.path_params["code"]
    token = ws.query_params.get("token", "")
    raw_version = ws.query_params.get("version", "0")
    await ws.accept()
    if not token:  # the page's way: the token in a first message, never in the URL
        hello = await _hello(ws)
        if hello is None:
            return
        token = hello
    version = int(raw_version) if raw_version.isdigit() and len(raw_version) < 12 else 0
    try:
        where = await hall.locate(code)
        if isinstance(where, Room):
            member = where.member(token)
    except LaiziError as exc:
        await ws.send_json(error_frame(exc))
        await ws.close(code=refusal_close(exc))
        return
    if not isinstance(where, Room):
        assert hall.cluster is not None
        with contextlib.suppress(WebSocketDisconnect):
            await hall.cluster.proxy(
                where, code, token, version, lambda: _receive(ws), ws.send_text,
                lambda close_code: ws.close(code=close_code))
        return

    async def close(close_code: int) -> None:
        await ws.close(code=close_code)

    conn = Connection(ws.send_text, version, close=close)
    conn.start()
    await where.attach(member, conn)
    try:
        await serve_messages(where, member, conn, lambda: _receive(ws))
    except WebSocketDisconnect:
        pass
    finally:
        await where.detach(member, conn)


def _routes() -> list[BaseRoute]:
    """Every route of the hall."""
    routes: list[BaseRoute] = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics_page),
        *variants_api.routes(),  # GET /api/variants (options, descriptors), /api/bots
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/join", join, methods=["POST"]),
        Route("/api/rooms/{code}/hands", hands),
        Route("/api/rooms/{code}/log", room_log),
        *people_api.routes(),  # /api/me…: identities, recovery, device links, 战绩
        *clubs_api.routes(),  # /api/clubs…: clubs, their ledgers and ratings
        Route("/api/share", share),
        Route("/api/qr", qr),
        WebSocketRoute("/ws/{code}", play),
        *records.routes(),  # the client's settlements and replays
        *scorekeeper.routes(),  # the score-keeper of a physical table
        *score_sessions.routes(),  # its sessions, shared by the phones at the table
        # the pages, /sw.js, the manifest, /static (versioned and not): assets.py
        *assets.routes(),
    ]
    return routes


def create_app(db_url: str, *, bot_processes: int | None = None,
               redis_url: str | None = None, listen_host: str | None = None,
               allowed_origins: Iterable[str] = (), admin_token: str | None = None,
               rates: Mapping[str, str] | None = None,
               trusted_proxies: Iterable[str] = ()) -> Starlette:
    """The hall on the database at ``db_url`` (a SQLAlchemy async URL); with
    ``redis_url``, one of several processes sharing the rooms (docs/deploy.md).
    ``listen_host``: the address it is bound to (``laizi serve --host``), which says
    whether friends can reach it from the network (None: unknown, taken as yes).
    ``allowed_origins``: pages of other sites that may call it besides its own
    (``--allow-origin``; :mod:`laizi.server.headers`). ``admin_token``: the admin
    page and API (:mod:`laizi.server.admin`), none without one. ``rates``: request
    limits over ``LAIZI_RATE_*``'s (``--rate-create`` …; :mod:`laizi.server.ratelimit`).
    ``trusted_proxies``: the addresses (networks) whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` the hall believes (:mod:`laizi.server.proxies`; none: the peer
    is the client, whatever it writes)."""
    # with Redis, the hall is one of several processes; it sees its cluster through a port
    cluster = functools.partial(Cluster, redis_url) if redis_url else None
    hall = Hall(Store(db_url), BotPool(bot_processes), cluster=cluster)

    # The origin rule, JSON-only bodies and the security headers (headers.py), then
    # request bodies over limits.MAX_BODY: 413 before they are read (docs/hall.md).
    routes = _routes()
    if admin_token:
        routes[:0] = admin.routes()
    # An address guessing room codes: 429 before the route (ratelimit.py).
    # With Redis every process of the hall counts against the same budget.
    limits = RateLimits({**rates_from_env(), **(rates or {})}, redis_url=redis_url)
    # A trusted proxy's X-Forwarded-For / -Proto first, so that every rule below (the
    # origin, the limits, the caps, the bans) sees the client's address (proxies.py).
    trusted = list(trusted_proxies)
    proxies = [Middleware(ProxyHeadersMiddleware, trusted_hosts=trusted)] if trusted else []
    app = Starlette(routes=routes, lifespan=_lifespan, middleware=[
        *proxies, Middleware(BrowserSafety, allowed_origins=list(allowed_origins)),
        Middleware(BodyLimit), Middleware(GuessLimit, limits=limits), Middleware(SocketCap)])
    clubs = Clubs(hall.store)
    books = Books(hall.store, clubs)
    hall.on_hands = books.room_hands_stored  # a club room's hand → its ledger
    # The handlers' one way in (context.context_of): app.state is untyped.
    app.state.context = HallContext(
        hall, People(hall.store), clubs, books, Bans(hall.store), listen_host,
        limits=limits, admin_token=admin_token)
    return app
