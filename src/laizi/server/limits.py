"""The hall's size limits on what a client sends, enforced before it is read.

* A websocket frame is at most :data:`MAX_FRAME` bytes: uvicorn's ``ws_max_size`` (``laizi
  serve`` sets it, with one process or ``--workers N``), so a longer frame closes the
  socket with 1009 (message too big) from its header, before its payload is buffered. A
  message within the frame limit but over :data:`laizi.server.rooms.MAX_MESSAGE`
  characters is answered with a ``malformed`` error frame, the socket staying open.
* An HTTP request body is at most :data:`MAX_BODY` bytes (:class:`BodyLimit`): one that
  says more in its ``Content-Length`` is answered ``413 {"error": {"code": "too_large",
  …}}`` before any of it is read; a chunked one is counted as it streams in and refused the
  same way once it passes the limit. Either way the connection is closed after the answer.
* A connection has :data:`HEADER_TIMEOUT` seconds to send its first request's head
  (:class:`HallH11Protocol`; h11 refuses a head over 16 KiB), an idle keep-alive one
  ``laizi serve --keep-alive`` seconds; one address holds at most
  :data:`SOCKETS_PER_ADDRESS` websockets (:class:`SocketCap`), and a websocket that gave
  no token has :data:`HELLO_TIMEOUT` seconds to send it (laizi.server.app). Every
  connection at once: ``laizi serve --max-connections`` (uvicorn's ``limit_concurrency``).
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import h11
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from laizi.errors import ErrorCode
from laizi.server.asgi import (
    HTTP,
    HTTP_REQUEST,
    HTTP_RESPONSE_BODY,
    HTTP_RESPONSE_START,
    WEBSOCKET,
    WS_ACCEPT,
    WS_CLOSE,
    WS_CONNECT,
    WS_SEND,
)
from laizi.server.rooms import MAX_MESSAGE
from laizi.vocab import ServerOp

__all__ = ["CLOSE_NO_TOKEN", "CLOSE_TOO_MANY", "HEADER_TIMEOUT", "HELLO_TIMEOUT", "MAX_BODY",
           "MAX_FRAME", "SOCKETS_PER_ADDRESS", "BodyLimit", "BodyTooLarge", "HallH11Protocol",
           "SocketCap", "hello_timeout", "sockets_per_address"]

MAX_FRAME = 4 * MAX_MESSAGE
"""The longest websocket frame the hall reads (bytes): a message of MAX_MESSAGE
characters in UTF-8, at most 4 bytes each."""
MAX_BODY = 64 * 1024
"""The longest HTTP request body the hall reads (bytes): the score-keeper's limit, the
largest of any route (the lobby's routes refuse more than MAX_MESSAGE themselves)."""


class BodyTooLarge(Exception):
    """A streamed request body passed :data:`MAX_BODY` (raised from ``receive``)."""


def _too_large(limit: int) -> tuple[Message, bytes]:
    body = json.dumps({"error": {"code": ErrorCode.TOO_LARGE.value,
                                 "message": f"a request body is at most {limit} bytes",
                                 "seat": None, "phase": None}}).encode()
    start: Message = {"type": HTTP_RESPONSE_START, "status": 413,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode()),
                         (b"connection", b"close")]}
    return start, body


class BodyLimit:
    """ASGI middleware: HTTP request bodies over ``limit`` bytes get 413 unread."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, send: Send) -> None:
        start, body = _too_large(self.limit)
        await send(start)
        await send({"type": HTTP_RESPONSE_BODY, "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != HTTP:
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or len(value) > 12
                                              or int(value) > self.limit):
                await self._refuse(send)
                return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == HTTP_REQUEST:
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == HTTP_RESPONSE_START:
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if not started:
                await self._refuse(send)


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise ValueError(f"{name}={raw!r}: a number") from None
    if not 0 < value < 1e9:
        raise ValueError(f"{name}={raw!r}: a positive number")
    return value


HEADER_TIMEOUT = 10.0
"""Seconds a new connection has to send its first request's whole head
(``LAIZI_HEADER_TIMEOUT``); one that has not is closed (slow or silent connections)."""
SOCKETS_PER_ADDRESS = 64
"""Websockets one address may hold open at once (``LAIZI_WS_PER_ADDRESS``): a family
behind one router, each with a tab or two, is far below it."""
HELLO_TIMEOUT = 10.0
"""Seconds a websocket opened without ``?token=`` has to send its ``hello`` with the
token (``LAIZI_HELLO_TIMEOUT``); then it is closed with :data:`CLOSE_NO_TOKEN`."""
CLOSE_NO_TOKEN = 4401
"""The websocket close code of a connection that gave no token in time."""
CLOSE_TOO_MANY = 4429
"""The websocket close code of a connection refused: too many from its address
(``rate_limited``; the same code as a guesser's, laizi.server.ratelimit)."""


def hello_timeout() -> float:
    return _env_number("LAIZI_HELLO_TIMEOUT", HELLO_TIMEOUT)


def sockets_per_address() -> int:
    return int(_env_number("LAIZI_WS_PER_ADDRESS", SOCKETS_PER_ADDRESS))


class HallH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection when a request's whole head has not
    arrived within :data:`HEADER_TIMEOUT` of the connection's start or of the previous
    answer (uvicorn times out a keep-alive connection only until its next request's
    first bytes, and a new connection never): slow and silent connections are shed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = _env_number("LAIZI_HEADER_TIMEOUT", HEADER_TIMEOUT)
        self.head_timer: asyncio.TimerHandle | None = None
        self.answered: object = None
        """The request answered last (None: none yet) when the timer was set."""

    def _wait_for_head(self) -> None:
        self._head_arrived()
        self.answered = self.cycle
        self.head_timer = self.loop.call_later(self.header_timeout, self._head_late)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_head()

    def _head_late(self) -> None:
        self.head_timer = None
        if self.cycle is self.answered and not self.transport.is_closing():
            self.transport.close()  # no new request's head since

    def _head_arrived(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not self.answered:
            self._head_arrived()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._wait_for_head()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._head_arrived()  # the transport is the websocket's from now on
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_arrived()
        super().connection_lost(exc)


class SocketCap:
    """ASGI middleware: at most ``per_address`` websockets open from one address; one
    more is told ``rate_limited`` and closed with :data:`CLOSE_TOO_MANY` at once."""

    def __init__(self, app: ASGIApp, per_address: int | None = None) -> None:
        self.app = app
        self.per_address = per_address or sockets_per_address()
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != WEBSOCKET:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else ""
        if self.open.get(address, 0) >= self.per_address:
            await _refuse_socket(receive, send, "too many websockets from one address")
            return
        self.open[address] = self.open.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open[address] - 1
            if left:
                self.open[address] = left
            else:
                del self.open[address]


async def _refuse_socket(receive: Receive, send: Send, message: str) -> None:
    if (await receive())["type"] != WS_CONNECT:
        return
    error = {"code": ErrorCode.RATE_LIMITED.value, "message": message, "seat": None,
             "phase": None}
    await send({"type": WS_ACCEPT})
    await send({"type": WS_SEND, "text": json.dumps({"op": ServerOp.ERROR, "seq": None,
                                                     "error": error})})
    await send({"type": WS_CLOSE, "code": CLOSE_TOO_MANY})
