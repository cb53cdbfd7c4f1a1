"""The hall's web application: HTTP for the lobby, records and health; websockets for play.

=====================================  =================================================
``GET /healthz``                       ``{"ok": true, "rooms": n}``
``GET /api/variants``                  every variant with its options and defaults
``POST /api/rooms``                    ``{"name", "settings"}`` → ``{"code", "token", "link"}``
``GET /api/rooms/{code}``              the room as everybody may see it
``POST /api/rooms/{code}/join``        ``{"name", "role"}`` (player / spectator) → a token
``GET /api/rooms/{code}/hands``        every finished hand (records, settlements)
``GET /api/rooms/{code}/log``          the table log, once the match is over (``laizi verify``)
``GET /api/people/{name}/history``     战绩: a person's matches with their ledgers
``WS /ws/{code}?token=T&version=V``    play (docs/hall.md: the frames)
=====================================  =================================================

``/``, ``/r/{code}``, ``/replay/{code}`` and ``/score`` serve the browser client
(``static/index.html``; docs/hall.md, "The client pages"); the client's own endpoints
(settlements, replays, the score-keeper) are in :mod:`laizi.server.records` and
:mod:`laizi.server.scorekeeper`.

Every refusal is ``{"error": {"code", "message", "seat", "phase"}}`` with an HTTP status
(400 a bad request, 404 unknown, 409 not now).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server import records, scorekeeper
from laizi.server.hall import Hall
from laizi.server.rooms import Connection, RoomSettings
from laizi.server.storage import Store

__all__ = ["MAX_MESSAGE", "create_app"]

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 16 * 1024
"""The largest websocket message a client may send (bytes)."""

_STATUS = {ErrorCode.UNKNOWN_ROOM: 404, ErrorCode.UNKNOWN_TOKEN: 404,
           ErrorCode.TABLE_OVER: 409, ErrorCode.HAND_IN_PROGRESS: 409,
           ErrorCode.NOT_HOST: 403}


def _error(exc: LaiziError) -> JSONResponse:
    return JSONResponse({"error": dict(exc.to_json())}, status_code=_STATUS.get(exc.code, 400))


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_MESSAGE:
        raise TableError("request too large", code=ErrorCode.MALFORMED)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):  # not JSON, not UTF-8, 5000-digit ints, deep nesting
        raise TableError("the body is not JSON", code=ErrorCode.MALFORMED) from None
    if not isinstance(data, dict):
        raise TableError("the body is a JSON object", code=ErrorCode.MALFORMED)
    return data


def create_app(db_url: str, *, bot_processes: int | None = None) -> Starlette:
    """The hall on the database at ``db_url`` (a SQLAlchemy async URL)."""
    from laizi.server.hall import BotPool

    hall = Hall(Store(db_url), BotPool(bot_processes))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hall.start()
        try:
            yield
        finally:
            await hall.stop()

    def link(request: Request, code: str, token: str) -> str:
        return f"{str(request.base_url).rstrip('/')}/r/{code}?t={token}"

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "rooms": len(hall.rooms), "errors": hall.errors})

    async def variants(request: Request) -> Response:
        from laizi.variants import get, ids

        out = []
        for vid in ids():
            v = get(vid)
            out.append({"id": vid, "name": v.name, "seats": v.seats,
                        "options": v.options_to_json(v.default_options()),
                        "fields": [f.name for f in dataclasses.fields(v.options_type)]})
        return JSONResponse(out)

    async def create_room(request: Request) -> Response:
        try:
            data = await _body(request)
            extra = sorted(set(data) - {"name", "settings"})
            if extra:
                raise TableError(f"unknown field(s) {', '.join(extra)}",
                                 code=ErrorCode.MALFORMED)
            settings = RoomSettings.from_json(data.get("settings", {}))
            room, member = await hall.create(settings, data.get("name", ""))
        except LaiziError as exc:
            return _error(exc)
        return JSONResponse({"code": room.code, "token": member.token,
                             "seats": room.table.variant.seats,
                             "link": link(request, room.code, member.token)}, status_code=201)

    async def room_info(request: Request) -> Response:
        try:
            room = await hall.room(request.path_params["code"])
        except LaiziError as exc:
            return _error(exc)
        return JSONResponse(room.info())

    async def join(request: Request) -> Response:
        try:
            data = await _body(request)
            extra = sorted(set(data) - {"name", "role"})
            if extra:
                raise TableError(f"unknown field(s) {', '.join(extra)}",
                                 code=ErrorCode.MALFORMED)
            room, member = await hall.join(request.path_params["code"],
                                           data.get("name", ""),
                                           data.get("role", "player"))
        except LaiziError as exc:
            return _error(exc)
        return JSONResponse({"code": room.code, "token": member.token, "role": member.role,
                             "link": link(request, room.code, member.token)})

    async def hands(request: Request) -> Response:
        try:
            room = await hall.room(request.path_params["code"])
        except LaiziError as exc:
            return _error(exc)
        return JSONResponse(await hall.store.hands(room.code))

    async def room_log(request: Request) -> Response:
        try:
            room = await hall.room(request.path_params["code"])
        except LaiziError as exc:
            return _error(exc)
        if not room.closed:
            return _error(TableError("the log (with the table secret) is published when the "
                                     "match is over", code=ErrorCode.TABLE_OVER))
        return PlainTextResponse(room.table.dumps(), media_type="application/x-ndjson")

    async def history(request: Request) -> Response:
        return JSONResponse(await hall.store.history(request.path_params["name"]))

    async def index(request: Request) -> Response:
        page = STATIC / "index.html"
        if page.exists():
            return FileResponse(page)
        return PlainTextResponse("laizi hall: see docs/hall.md")

    async def play(ws: WebSocket) -> None:
        code = ws.path_params["code"]
        token = ws.query_params.get("token", "")
        raw_version = ws.query_params.get("version", "0")
        await ws.accept()
        try:
            room = await hall.room(code)
            member = room.member(token)
            version = int(raw_version) if raw_version.isdigit() and len(raw_version) < 12 \
                else 0
        except LaiziError as exc:
            await ws.send_json({"op": "error", "seq": None, "error": dict(exc.to_json())})
            await ws.close(code=4404)
            return
        conn = Connection(ws.send_json, version)
        conn.start()
        async with room.lock:
            member.connections.add(conn)
            room.connected(member)
            first = room._frame(member, conn)
            assert first is not None
            conn.put(first)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None and message.get("bytes") is not None:
                    text = message["bytes"].decode("utf-8", "replace")
                if text is None or len(text) > MAX_MESSAGE:
                    conn.put({"op": "error", "seq": None, "error": {
                        "code": "malformed", "message": "a message is JSON text, at most "
                        f"{MAX_MESSAGE} bytes", "seat": None, "phase": None}})
                    continue
                try:
                    msg: object = json.loads(text)
                except (ValueError, RecursionError):  # 5000-digit ints, deep nesting too
                    conn.put({"op": "error", "seq": None, "error": {
                        "code": "malformed", "message": "not JSON", "seat": None,
                        "phase": None}})
                    continue
                answer = await room.handle(member, msg)
                if answer is not None:
                    conn.put(answer)
        except WebSocketDisconnect:
            pass
        finally:
            member.connections.discard(conn)
            room.disconnected(member)
            await conn.stop()

    routes = [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/score", index),
        Route("/replay/{code}", index),
        Route("/healthz", healthz),
        Route("/api/variants", variants),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/join", join, methods=["POST"]),
        Route("/api/rooms/{code}/hands", hands),
        Route("/api/rooms/{code}/log", room_log),
        Route("/api/people/{name}/history", history),
        WebSocketRoute("/ws/{code}", play),
        *records.routes(),  # the client's settlements and replays
        *scorekeeper.routes(),  # the score-keeper of a physical table
    ]
    if STATIC.exists():
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return app
