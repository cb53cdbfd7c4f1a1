"""The hall's messages between processes (``laizi.server.bus``) against a real Redis
(``LAIZI_TEST_REDIS_URL``, else a private ``redis-server``; in CI a missing Redis fails).

* every message published arrives once, in the order published, whatever its text, over
  many turns of the event loop and in bursts;
* ``on_nobody`` is called exactly for the messages nobody listened to;
* a connection killed by Redis (``CLIENT KILL``) is made again: the subscriber listens
  again by itself (and says so, once: what was published meanwhile is lost), the
  publisher's waiting messages are reported as unheard and the next ones go through;
* a Redis user with a password (ACL) is logged in, a wrong password refused at start;
* ``ask`` (the cluster's leases and checks in one round trip) answers each command in
  order, in the URL's database, between publishes, and raises a Redis error without
  upsetting the answers that follow.

Each runs on asyncio's own event loop and on uvloop's (what uvicorn runs ``laizi serve``
on when it is installed, as the server extra does): its transports are not subclasses of
asyncio's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

if os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
    pytest.importorskip("redis")
    pytest.importorskip("hiredis")

from conditions import until
from laizi.server.bus import Bus
from server_helpers import in_ci, redis_command, redis_for_tests


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[str]:
    with redis_for_tests(tmp_path) as url:
        yield url


Run = Callable[[Coroutine[object, object, None]], None]


@pytest.fixture(params=["asyncio", "uvloop"])
def run(request: pytest.FixtureRequest) -> Run:
    """Runs a test's coroutine on one event loop or the other."""
    if request.param == "asyncio":
        return asyncio.run
    if in_ci():  # a missing uvloop fails, as a missing Redis does
        import uvloop
    else:
        uvloop = pytest.importorskip("uvloop")
    loop_run: Run = uvloop.run
    return loop_run


def _channel() -> str:
    return f"laizi-test:{secrets.token_hex(6)}"


class _Inbox:
    def __init__(self) -> None:
        self.got: list[tuple[str, str]] = []
        self.errors: list[BaseException] = []
        self.resubscriptions = 0
        self.changed = asyncio.Event()
        self.back = asyncio.Event()
        """Set when the listener listens again after its connection was lost."""

    def resubscribed(self) -> None:
        self.resubscriptions += 1
        self.back.set()

    def receive(self, channel: str, text: str) -> None:
        self.got.append((channel, text))
        self.changed.set()

    async def wait_for(self, n: int, timeout: float = 10.0) -> None:
        async def enough() -> None:
            while len(self.got) < n:
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(enough(), timeout)


@contextlib.asynccontextmanager
async def _listener_and_sender(url: str, channels: tuple[str, ...], inbox: _Inbox,
                               errors: list[BaseException], name: str = "test"
                               ) -> AsyncIterator[tuple[Bus, Bus]]:
    """A bus listening on ``channels`` into ``inbox`` and one to publish with, started
    (connections named ``{name}:sub`` and ``{name}-sender:pub``), closed at the end."""
    listener = Bus(url, channels, inbox.receive, errors.append, name=name,
                   on_resubscribed=inbox.resubscribed)
    sender = Bus(url, (_channel(),), lambda c, t: None, errors.append,
                 name=f"{name}-sender")
    await listener.start()
    try:
        await sender.start()
        yield listener, sender
    finally:
        await sender.close()
        await listener.close()


def _client_ids(url: str, name: str) -> list[str]:
    listing = redis_command(url, "CLIENT", "LIST")
    ids = []
    for line in listing.splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if fields.get("name") == name:
            ids.append(fields["id"])
    return ids


def test_messages_arrive_once_in_order(redis: str, run: Run) -> None:
    texts = ["", "a", "1:2:3", "多行\n的\n消息", "x" * 70_000, "{\"op\": \"state\"}", "∅:"]

    async def main() -> None:
        ch_a, ch_b = _channel(), _channel()
        inbox = _Inbox()
        async with _listener_and_sender(redis, (ch_a, ch_b), inbox,
                                        inbox.errors) as (_, sender):
            expected: list[tuple[str, str]] = []
            for i in range(300):  # bursts within one turn, and one message a turn
                for j in range(i % 7):
                    channel = ch_a if (i + j) % 3 else ch_b
                    text = texts[(i * j) % len(texts)] + f"#{i}.{j}"
                    sender.publish(channel, text)
                    expected.append((channel, text))
                if i % 5 == 0:
                    await asyncio.sleep(0)
            await inbox.wait_for(len(expected))
            # A last message on each channel: one sent twice would have come before it
            # (a channel's messages arrive in the order published).
            for channel in (ch_a, ch_b):
                sender.publish(channel, "the last")
                expected.append((channel, "the last"))
            await inbox.wait_for(len(expected))
            for channel in (ch_a, ch_b):
                assert [t for c, t in inbox.got if c == channel] == \
                    [t for c, t in expected if c == channel]
            assert sorted(inbox.got) == sorted(expected)
            assert inbox.errors == []

    run(main())


def test_on_nobody_only_when_nobody_listened(redis: str, run: Run) -> None:
    async def main() -> None:
        heard, unheard = _channel(), _channel()
        inbox = _Inbox()
        calls: list[str] = []
        async with _listener_and_sender(redis, (heard,), inbox,
                                        inbox.errors) as (_, sender):
            for i in range(20):
                sender.publish(heard, f"h{i}", on_nobody=lambda i=i: calls.append(f"h{i}"))
                sender.publish(unheard, f"u{i}", on_nobody=lambda i=i: calls.append(f"u{i}"))
                sender.publish(unheard, f"quiet{i}")  # no callback: not answered
                if i % 4 == 0:
                    await asyncio.sleep(0)
            await inbox.wait_for(20)
            await sender.drain()
            assert sorted(calls) == sorted(f"u{i}" for i in range(20))
            assert [t for _, t in inbox.got] == [f"h{i}" for i in range(20)]

    run(main())


def test_connections_killed_by_redis_are_made_again(redis: str, run: Run) -> None:
    async def main() -> None:
        channel = _channel()
        name = f"test-{secrets.token_hex(4)}"
        inbox = _Inbox()
        errors: list[BaseException] = []
        async with _listener_and_sender(redis, (channel,), inbox, errors,
                                        name) as (listener, sender):
            sender.publish(channel, "before")
            await inbox.wait_for(1)

            (sub,) = _client_ids(redis, f"{name}:sub")
            redis_command(redis, "CLIENT", "KILL", "ID", sub)
            await asyncio.wait_for(inbox.back.wait(), 10)  # the subscriber came back
            assert listener.listening
            ids = _client_ids(redis, f"{name}:sub")
            assert ids and ids != [sub], ids
            assert inbox.resubscriptions == 1, "on_resubscribed was not called once"
            sender.publish(channel, "after the subscriber came back")
            await inbox.wait_for(2)

            (pub,) = _client_ids(redis, f"{name}-sender:pub")
            redis_command(redis, "CLIENT", "KILL", "ID", pub)
            await until(lambda: not sender.publishing, "the sender saw its connection go")
            lost: list[int] = []
            for i in range(5):
                sender.publish(channel, f"again {i}", on_nobody=lambda i=i: lost.append(i))
            await inbox.wait_for(7)
            await sender.drain()
            assert [t for _, t in inbox.got] == [
                "before", "after the subscriber came back", *(f"again {i}" for i in range(5))]
            assert lost == []
            new_pub = _client_ids(redis, f"{name}-sender:pub")
            assert new_pub and new_pub != [pub]

    run(main())


def test_password_and_wrong_password(redis: str, run: Run) -> None:
    user, password = f"laizi-test-{secrets.token_hex(4)}", secrets.token_hex(8)
    redis_command(redis, "ACL", "SETUSER", user, "on", f">{password}", "~*", "&*",
                  "+@all")
    parts = urlsplit(redis)

    def as_user(secret: str) -> str:
        netloc = f"{user}:{secret}@{parts.hostname}:{parts.port}"
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))

    async def main() -> None:
        channel = _channel()
        inbox = _Inbox()
        bus = Bus(as_user(password), (channel,), inbox.receive, inbox.errors.append)
        await bus.start()
        try:
            bus.publish(channel, "logged in")
            await inbox.wait_for(1)
        finally:
            await bus.close()
        wrong = Bus(as_user("not-" + password), (channel,), inbox.receive,
                    inbox.errors.append)
        with pytest.raises(Exception, match=r"WRONGPASS|invalid"):
            await wrong.start()
        await wrong.close()

    try:
        run(main())
    finally:
        redis_command(redis, "ACL", "DELUSER", user)


def test_ask_answers_in_order_in_the_urls_database(redis: str, run: Run) -> None:
    parts = urlsplit(redis)
    db = "3" if (parts.path or "/0").strip("/") != "3" else "4"
    url = urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))
    key, text = f"laizi-test:{secrets.token_hex(6)}", "甲:1"
    redis_command(url, "SET", key, text)
    try:
        async def main() -> None:
            channel = _channel()
            inbox = _Inbox()
            async with _listener_and_sender(url, (channel,), inbox,
                                            inbox.errors) as (_, sender):
                sender.publish(channel, "before")  # queued: written before the question
                answers = await sender.ask(("GET", key), ("MGET", key, key + ":none"),
                                           ("PUBSUB", "NUMSUB", channel, _channel()))
                assert answers[0] == text  # the key is in the URL's database, not 0
                assert answers[1] == [text, None]
                assert answers[2][1] == 1 and answers[2][3] == 0
                sender.publish(channel, "between", on_nobody=lambda: None)
                with pytest.raises(Exception, match="not an integer"):
                    await sender.ask(("INCR", key))
                sender.publish(channel, "after")
                assert await sender.ask(("GET", key), ("EXISTS", key)) == [text, 1]
                await inbox.wait_for(3)
                assert [t for _, t in inbox.got] == ["before", "between", "after"]
                assert inbox.errors == []
            await sender.close()
            with pytest.raises(ConnectionError):
                await sender.ask(("GET", key))

        run(main())
    finally:
        redis_command(url, "DEL", key)
