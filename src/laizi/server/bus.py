"""The hall's messages between processes: Redis pub/sub on two connections of its own.

Every action of a person whose websocket is held by another process than its room's owner
crosses Redis twice: the message to the owner, the frames back (docs/deploy.md). Through
redis-py's ``PubSub`` and a pipeline that cost about 0.3 ms of CPU a message here, more than
the rest of the hop together: an awaited read with its timeout and retry wrappers per
message received, a checkout, a pipeline and a read of the answer per message sent.

Here both ends are :class:`asyncio.Protocol` objects with hiredis's parser (the one
redis-py uses): the messages received in one read are parsed and handed on in the read's
callback, and what is published in one turn of the event loop is written at once, its
answers (how many processes listened) taken by callbacks. Nothing waits per message.
The other Redis commands of the hall (leases, sweeps) stay on redis-py: they are a few a
second, not a few per action.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections import deque
from collections.abc import Callable
from typing import TypeAlias, cast

import hiredis

__all__ = ["Bus", "OnNobody", "Reply", "pack", "unpack"]

OnNobody = Callable[[], None]
Reply: TypeAlias = "str | int | float | Exception | list[Reply] | None"
"""What hiredis makes of a Redis answer (an error answer is an exception object)."""
Waiter = Callable[[Reply], None]


def pack(messages: list[str]) -> str:
    """Messages in one Redis message: each as ``{length}:{text}`` (the length in
    characters), so a message may hold any text, newlines included."""
    return "".join(f"{len(m)}:{m}" for m in messages)


def unpack(data: str) -> list[str]:
    """The messages of :func:`pack`, in order."""
    out: list[str] = []
    i = 0
    while i < len(data):
        colon = data.index(":", i)
        n = int(data[i:colon])
        out.append(data[colon + 1:colon + 1 + n])
        i = colon + 1 + n
    return out


def _settle(future: asyncio.Future[Reply]) -> Waiter:
    def settle(reply: Reply) -> None:
        if not future.done():
            future.set_result(reply)
    return settle


def _pack(command: tuple[str, ...]) -> bytes:
    # hiredis's stub types the command as a 1-tuple; any tuple of strings is meant.
    packed: bytes = hiredis.pack_command(command)  # type: ignore[arg-type]
    return packed


class _Link(asyncio.Protocol):
    """One Redis connection: each answer goes to the oldest waiter; with none waiting
    (a subscribed connection), to ``on_push``."""

    def __init__(self, on_push: Waiter,
                 on_lost: Callable[[_Link, BaseException | None], None]) -> None:
        self.reader = hiredis.Reader(encoding="utf-8", errors="replace")
        self.waiters: deque[Waiter] = deque()
        self.transport: asyncio.Transport | None = None
        self.on_push = on_push
        self.on_lost = on_lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport, but not always a subclass of asyncio.Transport: uvloop's
        # (which uvicorn runs on when it is installed) only behaves as one.
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while True:
            try:
                reply = self.reader.gets()
            except hiredis.ProtocolError as exc:
                self._abort(exc)
                return
            if reply is False:
                return
            waiter = self.waiters.popleft() if self.waiters else self.on_push
            waiter(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.on_lost(self, exc)

    def _abort(self, exc: BaseException) -> None:
        transport = self.transport
        if transport is not None:
            transport.abort()
        self.on_lost(self, exc)

    def write(self, commands: list[tuple[str, ...]],
              waiters: list[Waiter]) -> None:
        assert self.transport is not None
        self.waiters.extend(waiters)
        self.transport.write(b"".join(_pack(c) for c in commands))

    async def call(self, *command: str) -> Reply:
        """One command and its answer (the hand-shake)."""
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self.write([command], [_settle(future)])
        reply = await future
        if isinstance(reply, Exception):
            raise reply
        return reply

    def fail_waiters(self) -> list[Waiter]:
        waiters, self.waiters = list(self.waiters), deque()
        return waiters


async def _connect(url: str, name: str, on_push: Waiter,
                   on_lost: Callable[[_Link, BaseException | None], None]) -> _Link:
    """A connection to the Redis of ``url``, logged in, named ``name`` (``CLIENT
    LIST`` shows which process and which end it is)."""
    from redis.asyncio.connection import parse_url  # with --redis only (cluster.py)

    options = parse_url(url)
    loop = asyncio.get_running_loop()

    def factory() -> _Link:
        return _Link(on_push, on_lost)

    if "path" in options:
        _, link = await loop.create_unix_connection(factory, str(options["path"]))
    else:
        context = ssl.create_default_context() if url.startswith("rediss:") else None
        _, link = await loop.create_connection(
            factory, str(options.get("host", "localhost")), int(options.get("port", 6379)),
            ssl=context)
    try:
        if options.get("password") is not None:
            if options.get("username") is not None:
                await link.call("AUTH", str(options["username"]), str(options["password"]))
            else:
                await link.call("AUTH", str(options["password"]))
        await link.call("CLIENT", "SETNAME", name)
        if int(options.get("db") or 0):
            # Channels are the same in every database, keys are not: the leases that
            # :meth:`Bus.ask` renews are in the URL's.
            await link.call("SELECT", str(options["db"]))
    except BaseException:
        if link.transport is not None:
            link.transport.abort()
        raise
    return link


class Bus:
    """This process's channels (``channels``, delivered to ``on_message(channel, text)``
    in the order published) and its publishing, in order on one connection."""

    def __init__(self, url: str, channels: tuple[str, ...],
                 on_message: Callable[[str, str], None],
                 report: Callable[[BaseException], None], *, name: str = "laizi",
                 on_resubscribed: Callable[[], None] | None = None) -> None:
        self.url = url
        self.name = "".join(c if "!" <= c <= "~" else "_" for c in name)
        """Its connections are named ``{name}:sub`` and ``{name}:pub`` in Redis."""
        self.channels = channels
        self.on_message = on_message
        self.report = report
        self.on_resubscribed = on_resubscribed
        """Called when the subscriber listens again after its connection was lost: what
        was published to it meanwhile is gone, and the caller mends that."""
        self._queue: list[tuple[str, str, OnNobody | None]] = []
        self._scheduled = False
        self._publisher: _Link | None = None
        self._connecting: asyncio.Task[None] | None = None
        self._subscriber: _Link | None = None
        self._resubscribing: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        """Subscribe (answered: from now on this process is listening) and connect the
        publisher."""
        await self._subscribe()
        self._publisher = await _connect(self.url, f"{self.name}:pub", self._unexpected,
                                     self._lost)

    async def _subscribe(self) -> None:
        link = await _connect(self.url, f"{self.name}:sub", self._push, self._lost)
        try:
            confirmed: list[asyncio.Future[Reply]] = []
            loop = asyncio.get_running_loop()
            for _ in self.channels:
                future: asyncio.Future[Reply] = loop.create_future()
                confirmed.append(future)
            link.write([("SUBSCRIBE", *self.channels)], [_settle(f) for f in confirmed])
            for future in confirmed:
                reply = await future
                if isinstance(reply, Exception):
                    raise reply
                if not (isinstance(reply, list) and reply and reply[0] == "subscribe"):
                    raise ConnectionError(f"Redis answered SUBSCRIBE with {reply!r}")
        except BaseException:
            if link.transport is not None:
                link.transport.abort()
            raise
        self._subscriber = link

    @property
    def listening(self) -> bool:
        """Whether this process is subscribed now (false while it subscribes again)."""
        return self._subscriber is not None and self._subscriber.transport is not None

    @property
    def publishing(self) -> bool:
        """Whether the publisher is connected now (false from the moment its connection
        is lost until it is made again, at the next publish)."""
        return self._publisher is not None and self._publisher.transport is not None

    # ---------------------------------------------------------------- receiving

    def _push(self, reply: Reply) -> None:
        if not (isinstance(reply, list) and len(reply) == 3 and reply[0] == "message"):
            return
        channel = str(reply[1])
        try:
            messages = unpack(str(reply[2]))
        except (ValueError, IndexError) as exc:
            self.report(exc)
            return
        for text in messages:
            try:
                self.on_message(channel, text)
            except Exception as exc:  # a bad message never stops the others
                self.report(exc)

    def _unexpected(self, reply: Reply) -> None:
        self.report(RuntimeError(f"the hall's Redis publisher got {reply!r} unasked"))

    def _lost(self, link: _Link, exc: BaseException | None) -> None:
        for waiter in link.fail_waiters():
            with contextlib.suppress(Exception):
                waiter(ConnectionError("the connection to Redis was lost"))
        if self._closed:
            return
        if link is self._publisher:
            self._publisher = None
            if exc is not None:
                self.report(exc)
            if self._queue:
                self._schedule()
        elif link is self._subscriber:
            self._subscriber = None
            if exc is not None:
                self.report(exc)
            if self._resubscribing is None:
                self._resubscribing = asyncio.get_running_loop().create_task(
                    self._resubscribe())

    async def _resubscribe(self) -> None:
        """Listen again after the subscriber's connection was lost; then
        ``on_resubscribed`` (what was published meanwhile is gone)."""
        delay = 0.2
        try:
            while not self._closed and self._subscriber is None:
                try:
                    await self._subscribe()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self.report(exc)
                    await asyncio.sleep(delay)
                    delay = min(2.0, delay * 2)
                else:
                    if self.on_resubscribed is not None and not self._closed:
                        try:
                            self.on_resubscribed()
                        except Exception as exc:
                            self.report(exc)
        finally:
            self._resubscribing = None

    # ---------------------------------------------------------------- publishing

    def publish(self, channel: str, data: str, on_nobody: OnNobody | None = None) -> None:
        """Queue a message for ``channel``; sent with the others of this turn of the
        loop. ``on_nobody``: called when no process listened (or Redis failed); without
        it Redis is asked not to answer."""
        self._queue.append((channel, data, on_nobody))
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Send what is queued: one PUBLISH a channel, its messages packed in order
        (:func:`pack`), so an update for four connections on one gateway is one message
        through Redis, not four."""
        self._scheduled = False
        if not self._queue or self._closed:
            return
        link = self._publisher
        if link is None or link.transport is None:
            if self._connecting is None:
                self._connecting = asyncio.get_running_loop().create_task(self._reconnect())
            return
        batch, self._queue = self._queue, []
        by_channel: dict[str, list[tuple[str, OnNobody | None]]] = {}
        for channel, data, on_nobody in batch:
            by_channel.setdefault(channel, []).append((data, on_nobody))
        commands: list[tuple[str, ...]] = []
        waiters: list[Waiter] = []
        for channel, items in by_channel.items():
            callbacks = [f for _, f in items if f is not None]
            if not callbacks:
                # Nobody needs the answer: Redis sends none, and there is nothing to
                # read (the check of the answer would be a read a message).
                commands.append(("CLIENT", "REPLY", "SKIP"))
            commands.append(("PUBLISH", channel, pack([data for data, _ in items])))
            if callbacks:
                waiters.append(self._answer(callbacks))
        link.write(commands, waiters)

    def _answer(self, callbacks: list[OnNobody]) -> Waiter:
        def answered(reply: Reply) -> None:
            if isinstance(reply, int) and reply > 0:
                return
            for callback in callbacks:
                try:
                    callback()
                except Exception as exc:
                    self.report(exc)
        return answered

    async def _reconnect(self) -> None:
        try:
            self._publisher = await _connect(self.url, f"{self.name}:pub", self._unexpected,
                                     self._lost)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # What waited is told nobody heard it, and the next message tries again (a
            # little later, so a Redis that is down is not called in a loop).
            self.report(exc)
            batch, self._queue = self._queue, []
            for _, _, on_nobody in batch:
                if on_nobody is not None:
                    with contextlib.suppress(Exception):
                        on_nobody()
            await asyncio.sleep(0.2)
        finally:
            self._connecting = None
        if self._queue:
            self._schedule()

    async def ask(self, *commands: tuple[str, ...]) -> list[Reply]:
        """Commands written at once on the publisher's connection (after what is queued)
        and their answers, in order: the hall's periodic checks in one round trip, with
        hiredis packing every key (a renewal names every room the process owns). A
        Redis error answer is raised; so is :class:`ConnectionError` when Redis cannot
        be reached."""
        self._flush()
        link = self._publisher
        if link is None or link.transport is None:
            if self._connecting is None and not self._closed:
                self._connecting = asyncio.get_running_loop().create_task(self._reconnect())
            raise ConnectionError("the hall's Redis publisher is not connected")
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[Reply]] = [loop.create_future() for _ in commands]
        link.write(list(commands), [_settle(f) for f in futures])
        replies = [await f for f in futures]
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return replies

    async def drain(self, timeout: float = 2.0) -> None:
        """Send what is queued and wait (at most ``timeout``) for Redis to take it."""
        self._flush()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            link = self._publisher
            if not self._queue and (link is None or not link.waiters):
                return
            if self._queue and self._connecting is None:
                self._flush()
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        self._closed = True
        for task in (self._connecting, self._resubscribing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for link in (self._publisher, self._subscriber):
            if link is not None and link.transport is not None:
                link.transport.close()
        self._publisher = self._subscriber = None
