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
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from laizi.errors import ErrorCode
from laizi.server.asgi import HTTP, HTTP_REQUEST, HTTP_RESPONSE_BODY, HTTP_RESPONSE_START
from laizi.server.rooms import MAX_MESSAGE

__all__ = ["MAX_BODY", "MAX_FRAME", "BodyLimit", "BodyTooLarge"]

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
