"""Rate limits: how often one address, and one name, may create rooms, join them and
guess room codes (docs/hall.md, "Limits"), and how fast one person's websocket messages
are answered.

Requests are counted with the ``limits`` library, a moving window: in this process's
memory for a hall of one process, and in Redis (``limits``' async Redis storage, keys
``laizi:limits:…``) when the hall runs with ``--redis``, so that every process of the
hall (``--workers N``, several machines) counts against one budget: a client spread over
N processes gets the rate once, not N times. Should Redis fail to answer, a request is
let through uncounted (the limits protect the hall; they must not stop it). A refusal
is ``429 {"error": {"code": "rate_limited", …}}`` with a ``Retry-After`` header, before
the request does anything.

* ``create``: ``POST /api/rooms``, per address and per host name.
* ``join``: ``POST /api/rooms/CODE/join``, per address and per name.
* ``guess``: a code that is not a room (an info, a join, a websocket, any
  ``/api/rooms/CODE…`` answered 404) counts one for the address; an address over the limit
  is refused every code lookup until its window moves on, so a guesser cannot tell a
  room from a miss meanwhile.
* ``identity``: ``POST /api/me`` (a new person), per address.
* ``recover``: ``POST /api/me/recover`` and ``POST /api/me/link/TOKEN`` (a recovery code
  or a device link tried, right or wrong), per address: 100-bit codes are out of a
  guesser's reach anyway, and this keeps one from trying.

Each is a ``limits`` string ("10/minute", "100/hour;20/minute"), from ``laizi serve
--rate-create / --rate-join / --rate-guess`` or ``LAIZI_RATE_CREATE`` / ``LAIZI_RATE_JOIN``
/ ``LAIZI_RATE_GUESS`` (``LAIZI_RATE_IDENTITY`` / ``LAIZI_RATE_RECOVER``); ``off`` turns
one off.

A person's websocket messages go through a :class:`TokenBucket` (``MESSAGE_RATE`` a
second, bursts of ``MESSAGE_BURST``; ``LAIZI_RATE_MESSAGES`` as ``RATE/BURST``): one over
it is answered with a ``rate_limited`` error frame and changes nothing.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.storage.redis.redispy import RedispyBridge
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from laizi.errors import ErrorCode, TableError
from laizi.server.asgi import (
    HTTP,
    HTTP_RESPONSE_BODY,
    HTTP_RESPONSE_START,
    WEBSOCKET,
    WS_ACCEPT,
    WS_CLOSE,
    WS_CONNECT,
    WS_SEND,
)
from laizi.vocab import ServerOp

if TYPE_CHECKING:  # redis-py is loaded by limits' Redis storage, only with --redis
    import redis.asyncio as aioredis

__all__ = ["CLOSE_RATE_LIMITED", "DEFAULTS", "ENV", "KEY_PREFIX", "MESSAGE_BURST",
           "MESSAGE_RATE", "REDIS_PAUSE", "REDIS_TIMEOUT", "GuessLimit", "RateLimited",
           "RateLimits", "TokenBucket", "message_rate_from_env", "rates_from_env"]

DEFAULTS: dict[str, str] = {"create": "60/hour;10/minute", "join": "120/hour;20/minute",
                            "guess": "100/hour;15/minute",
                            "identity": "100/hour;20/minute",
                            "recover": "30/hour;5/minute"}
"""A family evening: a person joining 5 rooms in a minute is fine; 30 wrong codes a
minute from one address is not."""
ENV = {"create": "LAIZI_RATE_CREATE", "join": "LAIZI_RATE_JOIN", "guess": "LAIZI_RATE_GUESS",
       "identity": "LAIZI_RATE_IDENTITY", "recover": "LAIZI_RATE_RECOVER"}
OFF = "off"
MESSAGE_RATE = 20.0
"""A person's websocket messages a second, sustained (a bot-fast player sends a few)."""
MESSAGE_BURST = 60.0
"""Messages a person may send at once (a reconnect resending what it had pending)."""
MESSAGE_ENV = "LAIZI_RATE_MESSAGES"


class RateLimited(TableError):
    """Too many of something from one address or name: HTTP 429 with ``Retry-After``."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many {what}: try again in {retry_after} s",
                         code=ErrorCode.RATE_LIMITED)
        self.retry_after = retry_after


def rates_from_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The limits set by ``LAIZI_RATE_*`` (only those set)."""
    env = os.environ if environ is None else environ
    return {kind: env[name] for kind, name in ENV.items() if env.get(name)}


def message_rate_from_env(environ: Mapping[str, str] | None = None) -> tuple[float, float]:
    """``LAIZI_RATE_MESSAGES`` (``RATE/BURST``, e.g. ``20/60``) or the defaults."""
    env = os.environ if environ is None else environ
    raw = env.get(MESSAGE_ENV, "")
    if not raw:
        return MESSAGE_RATE, MESSAGE_BURST
    rate, _, burst = raw.partition("/")
    try:
        values = float(rate), float(burst or rate)
    except ValueError:
        raise ValueError(f"{MESSAGE_ENV}={raw!r}: RATE/BURST, e.g. 20/60") from None
    if not all(0 < v < 1e9 for v in values):
        raise ValueError(f"{MESSAGE_ENV}={raw!r}: both positive")
    return values


def _parse(kind: str, text: str) -> list[RateLimitItem]:
    if text.strip().lower() == OFF:
        return []
    try:
        return list(parse_many(text))
    except ValueError:
        raise ValueError(f"{kind} rate {text!r}: like 10/minute or 100/hour;10/minute "
                         f"(or {OFF})") from None


KEY_PREFIX = "laizi:limits"
"""The Redis keys of the shared limits begin with this (docs/deploy.md, "Redis")."""
REDIS_TIMEOUT = 2.0
"""Seconds the limits wait for Redis before letting a request through uncounted."""
REDIS_PAUSE = 5.0
"""Seconds the limits stop asking a Redis that did not answer (requests go through)."""


def _storage(redis_url: str | None) -> MemoryStorage | RedisStorage:
    """Where the windows are kept: this process's memory, or the hall's Redis (through
    redis-py's asyncio client, which the hall depends on already)."""
    if not redis_url:
        return MemoryStorage()
    # A Redis that hangs is one that does not answer: a request waits at most this long.
    return RedisStorage(f"async+{redis_url}", implementation="redispy",
                        key_prefix=KEY_PREFIX, wrap_exceptions=True,
                        socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)


@dataclass
class RateLimits:
    """The hall's request limits: counted in this process's memory, or in Redis when
    ``redis_url`` is given (every process of the hall then shares one budget)."""

    rates: Mapping[str, str] = field(default_factory=dict)
    redis_url: str | None = None
    items: dict[str, list[RateLimitItem]] = field(init=False)

    def __post_init__(self) -> None:
        unknown = set(self.rates) - set(DEFAULTS)
        if unknown:
            raise ValueError(f"unknown rate(s): {', '.join(sorted(unknown))}")
        self.items = {kind: _parse(kind, self.rates.get(kind, default))
                      for kind, default in DEFAULTS.items()}
        self.storage = _storage(self.redis_url)
        self._limiter = MovingWindowRateLimiter(self.storage)
        self._down_until = 0.0

    async def _retry_after(self, item: RateLimitItem, *keys: str) -> int:
        reset, _ = await self._limiter.get_window_stats(item, *keys)
        return max(1, math.ceil(reset - time.time()))

    def _reachable(self) -> bool:
        """False for :data:`REDIS_PAUSE` seconds after Redis failed to answer: meanwhile
        requests go through uncounted without waiting on it again."""
        return time.monotonic() >= self._down_until

    def _failed(self) -> None:
        self._down_until = time.monotonic() + REDIS_PAUSE

    async def hit(self, kind: str, *keys: str) -> None:
        """Count one ``kind`` for each of ``keys`` (an address, a name); a
        :class:`RateLimited` when any is over its limit (then nothing is counted)."""
        await self.check(kind, *keys)
        if not self._reachable():
            return  # Redis did not answer: let it through (the module's docstring)
        try:
            for item in self.items[kind]:
                for key in keys:
                    await self._limiter.hit(item, kind, key)
        except StorageError:
            self._failed()

    async def check(self, kind: str, *keys: str) -> None:
        """A :class:`RateLimited` when any of ``keys`` has no ``kind`` left."""
        if not self._reachable():
            return
        try:
            for item in self.items[kind]:
                for key in keys:
                    if not await self._limiter.test(item, kind, key):
                        raise RateLimited(_WHAT[kind],
                                          await self._retry_after(item, kind, key))
        except StorageError:
            self._failed()

    async def miss(self, address: str) -> None:
        """A code that is not a room, from ``address`` (refused later, never now)."""
        if not self._reachable():
            return
        try:
            for item in self.items["guess"]:
                await self._limiter.hit(item, "guess", address)
        except StorageError:
            self._failed()

    async def close(self) -> None:
        """Close the Redis connections of the shared limits (none in memory)."""
        if isinstance(self.storage, RedisStorage):
            bridge = cast(RedispyBridge, self.storage.bridge)  # implementation="redispy"
            client = cast("aioredis.Redis", bridge.get_connection())
            await client.aclose()


_WHAT = {"create": "rooms created", "join": "joins", "guess": "room codes that are not rooms",
         "identity": "identities created", "recover": "recovery codes and device links tried"}


@dataclass
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each message takes one
    (``clock``: injectable for tests)."""

    rate: float = MESSAGE_RATE
    burst: float = MESSAGE_BURST
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    at: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self.at = self.clock()

    def take(self) -> bool:
        """One token if there is one (the message is answered), else False."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


GUESSED = ("/api/rooms/", "/api/qr", "/ws/")
"""The paths that take a room code: a 404 (HTTP) or 4404 (websocket) there is a miss."""
CLOSE_UNKNOWN = 4404
"""laizi.server.serving.CLOSE_UNKNOWN (an unknown room or token; not imported: serving
imports this module)."""
CLOSE_RATE_LIMITED = 4429
"""The websocket close code of an address over its guess limit (retry after a while)."""


class GuessLimit:
    """ASGI middleware: an address over its ``guess`` limit gets 429 (HTTP) or an error
    frame and close 4429 (websocket) on every path that takes a room code, unread; a
    code answered 404 / 4404 there counts one miss."""

    def __init__(self, app: ASGIApp, limits: RateLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in (HTTP, WEBSOCKET) or not scope["path"].startswith(GUESSED):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else ""
        try:
            await self.limits.check("guess", address)
        except RateLimited as exc:
            await _refuse(scope, receive, send, exc)
            return

        async def watched(message: Message) -> None:
            kind = message["type"]
            if ((kind == HTTP_RESPONSE_START and message["status"] == 404)
                    or (kind == WS_CLOSE and message.get("code") == CLOSE_UNKNOWN)):
                await self.limits.miss(address)
            await send(message)

        await self.app(scope, receive, watched)


def refusal_body(exc: RateLimited) -> bytes:
    return json.dumps({"error": dict(exc.to_json())}).encode()


async def _refuse(scope: Scope, receive: Receive, send: Send, exc: RateLimited) -> None:
    body = refusal_body(exc)
    if scope["type"] == HTTP:
        await send({"type": HTTP_RESPONSE_START, "status": 429,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"retry-after", str(exc.retry_after).encode())]})
        await send({"type": HTTP_RESPONSE_BODY, "body": body})
        return
    if (await receive())["type"] != WS_CONNECT:
        return
    frame = json.dumps({"op": ServerOp.ERROR, "seq": None, "error": dict(exc.to_json())})
    await send({"type": WS_ACCEPT})
    await send({"type": WS_SEND, "text": frame})
    await send({"type": WS_CLOSE, "code": CLOSE_RATE_LIMITED})
