"""The hall's limits against a stranger on the network (issue 42, the first findings):

* a person cannot pose as a bot: a name that, once normalised (trimmed, NFKC, invisible
  and format characters and marks dropped), holds the bot's 🤖 is refused;
* a websocket frame over the hall's limit closes the socket (1009) before it is buffered;
  an HTTP body over the limit gets 413 before it is read, by its ``Content-Length`` or by
  counting a chunked one, and the hall's memory does not grow;
* a person adds at most a few entropy strings between two hands; one more is a typed
  refusal that stores nothing;
* rates (laizi.server.ratelimit): rooms created and joins per address and per name, room
  codes that are no rooms per address (429 with Retry-After; a websocket closed 4429), a
  person's websocket messages (a token bucket: ``rate_limited`` frames, nothing read);
* connections: a request head late or never finished is shed, a websocket gives its
  token in its first message or is closed (4401), an address holds a capped number of
  websockets (4429).

Each runs against a real ``laizi serve`` on a loopback port (SQLite in a temporary
directory), except the name checks, which are the hall's function itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_helpers import in_ci  # skips this module without the server extras (not in CI)

if not in_ci():
    pytest.importorskip("alembic")

import websockets

from laizi.errors import ErrorCode, TableError
from laizi.server.hall import check_name
from laizi.server.limits import CLOSE_NO_TOKEN, CLOSE_TOO_MANY
from laizi.server.ratelimit import CLOSE_RATE_LIMITED, RateLimited, RateLimits, TokenBucket
from server_helpers import (
    FAST,
    HTTP,
    Client,
    Server,
    create_room,
    join,
    polls,
    redis_for_tests,
    sqlite_hall,
    sqlite_url,
    stored_lines,
    unique,
)

MIB = 1024 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "limits") as srv:
        yield srv


# --------------------------------------------------------------------------- names

BOT_LOOKALIKES = [
    "🤖 7",  # the bot's own name
    " 🤖 7",  # leading space: the prefix was tested before trimming
    "  🤖 1 ",
    "🤖7",  # the robot without the space
    "🤖",
    "\ufe0f🤖 7",  # a variation selector in front
    "🤖\ufe0f 7",  # ... and behind
    "\u0301🤖 2",  # a combining mark in front
    "\u3000🤖 3",  # an ideographic space (NFKC: a space)
    "x🤖",  # the robot anywhere
    "ann 🤖",
]
"""Names that pass for a bot's once the hall normalises them (those with characters
Python does not count as printable, U+200B, NBSP, are refused anyway: see below)."""

INVISIBLE_TRICKS = ["\u200b🤖 7", "\u00a0🤖 7", "\u2060🤖 7", "\u200d🤖 7", "\U000e0061🤖 7",
                    "\u202e🤖 7", "\u200b", "\ufe0f", "\u0301\u0301"]


@pytest.mark.parametrize("name", BOT_LOOKALIKES + INVISIBLE_TRICKS,
                         ids=[ascii(n) for n in BOT_LOOKALIKES + INVISIBLE_TRICKS])
def test_no_name_passes_for_a_bot(name: str) -> None:
    with pytest.raises(TableError) as info:
        check_name(name)
    assert info.value.code == ErrorCode.MALFORMED


@pytest.mark.parametrize("name", ["ann", " ann ", "张三", "robot 7", "Ｂｏｂ", "a\u0301",
                                  "🐼 panda", "7"])
def test_ordinary_names_still_pass(name: str) -> None:
    assert check_name(name) == name.strip()


def test_the_hall_refuses_a_bot_name_on_create_and_join(server: Server) -> None:
    for name in BOT_LOOKALIKES:
        r = HTTP.post(f"{server.http}/api/rooms", json={"name": name, "settings": FAST})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    for name in BOT_LOOKALIKES:
        r = HTTP.post(f"{server.http}/api/rooms/{room['code']}/join",
                      json={"name": name, "role": "player"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    info = HTTP.get(f"{server.http}/api/rooms/{room['code']}").json()
    assert set(info["ledger"]) == {info["host"], "🤖 1", "🤖 2"}, info  # nobody else
    assert info["seats"][1:] == ["🤖 1", "🤖 2"] and not info["waiting"], info
    assert not info["spectators"], info


# --------------------------------------------------------------------------- sizes


def _rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for process {pid}")


async def _send_over_the_limit(c: Client) -> None:
    """Send a 1 MiB text frame and see the socket closed with 1009 (message too big).

    The hall refuses the frame by its header, so its close can arrive while the client
    is still writing the frame's body: the send then fails with the close (a broken
    pipe under it). Either way the close code is what is checked."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await c.send_raw("x" * MIB)
    await asyncio.wait_for(c.closed.wait(), 10)
    assert c.ws.close_code == 1009, c.ws.close_code


def test_a_frame_over_the_limit_closes_the_socket(server: Server) -> None:
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)

    async def go() -> None:
        c = Client(server, room["code"], room["token"], "host")
        await c.connect()
        # Within the frame limit but over a message's: a typed error, the socket open.
        await c.send_raw(json.dumps({"op": "ping", "seq": 1, "pad": "x" * 20_000}))
        answer = await c.answer()
        assert answer["op"] == "error" and answer["error"]["code"] == "malformed"
        assert (await c.request("ping"))["op"] == "ack"
        # 1 MiB: refused by its header, the socket closed with 1009 (message too big).
        await _send_over_the_limit(c)
        assert c.answers.empty()

    asyncio.run(go())
    assert server.health()["ok"]


def test_a_binary_frame_over_the_limit_closes_the_socket_too(server: Server) -> None:
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)

    async def go() -> None:
        url = f"{server.ws}/ws/{room['code']}?token={room['token']}"
        async with websockets.connect(url, max_size=None) as ws:
            await ws.recv()  # the first state frame
            # The hall may close while the frame is still being sent.
            with pytest.raises(websockets.ConnectionClosed) as info:
                await ws.send(b"\0" * (2 * MIB))
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert info.value.rcvd is not None and info.value.rcvd.code == 1009, info.value

    asyncio.run(go())


def _post_streamed(port: int, path: str, total: int, *, chunked: bool,
                   piece: int = 256 * 1024, timeout: float = 20.0
                   ) -> tuple[int, dict[str, Any], int, float]:
    """POST about ``total`` bytes to ``path`` (whole pieces of ``piece`` bytes), chunked
    or under a ``Content-Length``, until the server answers or closes: (status, JSON
    body, bytes sent, seconds to the answer)."""
    pieces = -(-total // piece)
    start = time.monotonic()
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\n"
                + ("Transfer-Encoding: chunked\r\n" if chunked
                   else f"Content-Length: {pieces * piece}\r\n") + "\r\n")
        sock.sendall(head.encode())
        block = (b"[" + b"1," * piece)[:piece]
        if chunked:
            block = f"{len(block):x}\r\n".encode() + block + b"\r\n"
        sent = 0
        left = memoryview(b"")
        sock.setblocking(False)
        deadline = start + timeout
        while (pieces > 0 or left) and time.monotonic() < deadline:
            readable, writable, _ = select.select([sock], [sock], [], 1)
            if readable:
                break  # the answer (or the close) comes before the body is all sent
            if not writable:
                continue
            if not left:
                pieces -= 1
                left = memoryview(block + (b"0\r\n\r\n" if chunked and not pieces else b""))
            try:
                n = sock.send(left)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += n
            left = left[n:]
        sock.setblocking(True)
        sock.settimeout(max(1.0, deadline - time.monotonic()))
        raw = b""
        with contextlib.suppress(ConnectionResetError, TimeoutError):
            while b"\r\n\r\n" not in raw or len(raw) < _length(raw):
                more = sock.recv(65536)
                if not more:
                    break
                raw += more
        elapsed = time.monotonic() - start
    finally:
        sock.close()
    head_text, _, body = raw.partition(b"\r\n\r\n")
    assert head_text, "no answer"
    status = int(head_text.split(b" ", 2)[1])
    return status, json.loads(body[:_length(raw) - len(head_text) - 4]), sent, elapsed


def _length(raw: bytes) -> int:
    """The length of the whole answer in ``raw`` (head and body), once its head is in."""
    head, sep, _ = raw.partition(b"\r\n\r\n")
    if not sep:
        return 1 << 62
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value)
    return 1 << 62


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("path", ["/api/rooms", "/api/score", "/api/rooms/123456/join"])
def test_a_50_mb_body_is_refused_before_it_is_read(server: Server, path: str,
                                                   chunked: bool) -> None:
    assert server.proc is not None
    pid = server.proc.pid
    _post_streamed(server.port, "/api/rooms", 1000, chunked=chunked)  # warm up
    before = _rss_kib(pid)
    status, body, sent, elapsed = _post_streamed(server.port, path, 50 * 1000 * 1000,
                                                 chunked=chunked)
    grown = _rss_kib(pid) - before
    assert status == 413, (status, body)
    assert body["error"]["code"] == "too_large", body
    assert set(body["error"]) >= {"code", "message", "seat", "phase"}
    assert elapsed < 5, elapsed
    assert sent < 50 * 1000 * 1000, sent  # not even sent whole: refused on the way
    assert grown < 4 * 1024, f"RSS grew by {grown} KiB"
    assert server.health()["ok"]


def test_bodies_under_the_limit_are_read(server: Server) -> None:
    r = HTTP.post(f"{server.http}/api/rooms",
                  json={"name": unique("ann"), "settings": FAST, "pad": "x" * 30_000})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text
    r = HTTP.post(f"{server.http}/api/score", json={"record": {"variant": "x" * 40_000}})
    assert r.status_code == 400, r.text  # read, and refused for what it says
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    assert room["code"]


def test_the_limits_hold_with_workers(tmp_path: Path) -> None:
    """``laizi serve --workers 2`` (uvicorn started from an import string): the same
    frame and body limits in every worker."""
    with redis_for_tests(tmp_path) as url:
        srv = Server(sqlite_url(tmp_path / "hall.db"), tmp_path, redis_url=url,
                     extra_args=("--workers", "2")).start()
        try:
            for _ in range(4):  # whichever worker takes each connection
                status, body, _, _ = _post_streamed(srv.port, "/api/rooms", 10 * MIB,
                                                    chunked=True)
                assert status == 413 and body["error"]["code"] == "too_large", body
            room = create_room(srv, unique("host"), variant="jingzhou", **FAST)

            async def go() -> None:
                for _ in range(4):
                    c = Client(srv, room["code"], room["token"], "host")
                    await c.connect()
                    await _send_over_the_limit(c)

            asyncio.run(go())
        finally:
            srv.kill()


# --------------------------------------------------------------------------- entropy

ENTROPY_PER_HAND = 4


def test_entropy_is_capped_per_person_between_hands(server: Server) -> None:
    host = unique("host")
    room = create_room(server, host, variant="jingzhou", hands=2, **{**FAST, "between": 30})
    code = room["code"]
    guest = unique("guest")
    joined = join(server, code, guest, "player")

    async def go() -> None:
        c = Client(server, code, room["token"], host)
        g = Client(server, code, joined["token"], guest)
        await c.connect()
        await g.connect()
        for i in range(ENTROPY_PER_HAND):
            assert (await c.request("entropy", value=f"mine {i}"))["op"] == "ack"
        lines = stored_lines(server.db_url, code)
        for _ in range(3):
            refused = await c.request("entropy", value="one more")
            assert refused["op"] == "error", refused
            assert refused["error"]["code"] == "rate_limited", refused
        assert stored_lines(server.db_url, code) == lines  # nothing stored
        # Somebody else's own allowance is untouched.
        answer = await g.request("entropy", value="the guest's")
        assert answer["op"] == "ack", answer
        # The next hand gives a new allowance once the hand is over.
        assert (await c.request("start"))["op"] == "ack"

        def between(cl: Client) -> bool:
            return cl.latest is not None and not cl.latest["room"]["in_hand"] and any(
                e["type"] == "hand_end" for f in cl.frames for e in f["events"])

        await asyncio.gather(c.play(until=between, timeout=60),
                             g.play(until=between, timeout=60))
        assert (await c.request("entropy", value="after hand 1"))["op"] == "ack"
        await c.request("end")
        await g.close()
        await c.close()

    asyncio.run(go())
    entropy = [json.loads(line) for line in stored_lines(server.db_url, code)]
    values = [e["value"] for e in entropy if e["type"] == "entropy"]
    assert values == [*(f"mine {i}" for i in range(ENTROPY_PER_HAND)), "the guest's",
                      "after hand 1"]


# --------------------------------------------------------------------------- rates

TIGHT = {"LAIZI_RATE_CREATE": "3/minute", "LAIZI_RATE_JOIN": "4/minute",
         "LAIZI_RATE_GUESS": "5/minute", "LAIZI_RATE_MESSAGES": "2/5",
         "LAIZI_TRUSTED_PROXIES": "127.0.0.1"}
"""Limits small enough to reach in a test (each test below sends as its own address
through ``X-Forwarded-For``, which the hall takes from 127.0.0.1 as from a proxy on the
machine: ``LAIZI_TRUSTED_PROXIES``, laizi.server.proxies)."""


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "tight", env=TIGHT) as srv:
        yield srv


def _as(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def test_rate_strings_are_checked() -> None:
    async def go() -> None:
        limits = RateLimits({"create": "2/minute", "join": "off"})
        await limits.hit("create", "a")
        await limits.hit("create", "a")
        with pytest.raises(RateLimited) as info:
            await limits.hit("create", "a", "b")
        assert info.value.code == ErrorCode.RATE_LIMITED
        assert 1 <= info.value.retry_after <= 60
        await limits.hit("create", "b")  # "b" was not counted by the refused hit
        for _ in range(100):
            await limits.hit("join", "a")  # off

    asyncio.run(go())
    with pytest.raises(ValueError, match="10/minute"):
        RateLimits({"guess": "often"})
    with pytest.raises(ValueError, match="unknown"):
        RateLimits({"chat": "1/minute"})


def test_a_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(2, 3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.4  # 0.8 of a token
    assert not bucket.take()
    now[0] += 0.1
    assert bucket.take() and not bucket.take()
    now[0] += 100  # never more than the burst
    assert sum(bucket.take() for _ in range(10)) == 3


def test_code_guessing_is_refused_with_429(tight: Server) -> None:
    room = create_room(tight, unique("host"), variant="jingzhou", **FAST)
    me = _as("10.0.0.1")
    for n in range(5):
        r = HTTP.get(f"{tight.http}/api/rooms/9{n:05d}", headers=me)
        assert r.status_code == 404, r.text
    # Over the limit: every code is refused, the real one too (no telling them apart).
    for url in (f"/api/rooms/{room['code']}", "/api/rooms/900009",
                f"/api/rooms/{room['code']}/hands"):
        r = HTTP.get(f"{tight.http}{url}", headers=me)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        assert 1 <= int(r.headers["retry-after"]) <= 60
    r = HTTP.post(f"{tight.http}/api/rooms/{room['code']}/join", headers=me,
                  json={"name": unique("p"), "role": "player"})
    assert r.status_code == 429, r.text

    async def ws() -> None:
        url = f"{tight.ws}/ws/{room['code']}?token={room['token']}"
        async with websockets.connect(url, additional_headers=me) as sock:
            frame = json.loads(await asyncio.wait_for(sock.recv(), 10))
            assert frame["op"] == "error" and frame["error"]["code"] == "rate_limited"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(sock.recv(), 10)
            assert sock.close_code == CLOSE_RATE_LIMITED

    asyncio.run(ws())
    # Another address still finds the room.
    assert HTTP.get(f"{tight.http}/api/rooms/{room['code']}",
                    headers=_as("10.0.0.2")).status_code == 200


def test_an_unknown_room_on_the_websocket_counts_as_a_guess(tight: Server) -> None:
    me = _as("10.0.1.1")

    async def guess(code: str) -> int | None:
        async with websockets.connect(f"{tight.ws}/ws/{code}?token=x",
                                      additional_headers=me) as sock:
            with contextlib.suppress(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(sock.recv(), 10)
            return sock.close_code

    codes = [asyncio.run(guess(f"8{n:05d}")) for n in range(6)]
    assert codes == [4404] * 5 + [CLOSE_RATE_LIMITED], codes


def test_creating_and_joining_are_limited_per_address_and_per_name(tight: Server) -> None:
    me = _as("10.0.2.1")
    host = unique("host")
    codes = []
    for _ in range(3):
        r = HTTP.post(f"{tight.http}/api/rooms", headers=me,
                      json={"name": host, "settings": {"variant": "jingzhou", **FAST}})
        assert r.status_code == 201, r.text
        codes.append(r.json()["code"])
    r = HTTP.post(f"{tight.http}/api/rooms", headers=me,
                  json={"name": unique("other"), "settings": {"variant": "jingzhou"}})
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
    assert int(r.headers["retry-after"]) >= 1
    # The same name from another address: its own limit is spent too.
    r = HTTP.post(f"{tight.http}/api/rooms", headers=_as("10.0.2.2"),
                  json={"name": host, "settings": {"variant": "jingzhou"}})
    assert r.status_code == 429, r.text
    # Joins: one address joining 4 times in a minute is fine (a person in 3 rooms, a
    # second person in one), a 5th join is not.
    joiner = unique("guest")
    for code, name in [*((code, joiner) for code in codes), (codes[0], unique("guest"))]:
        r = HTTP.post(f"{tight.http}/api/rooms/{code}/join", headers=_as("10.0.2.3"),
                      json={"name": name, "role": "spectator"})
        assert r.status_code == 200, r.text
    r = HTTP.post(f"{tight.http}/api/rooms/{codes[1]}/join", headers=_as("10.0.2.3"),
                  json={"name": unique("guest"), "role": "spectator"})
    assert r.status_code == 429, r.text
    info = HTTP.get(f"{tight.http}/api/rooms/{codes[1]}", headers=_as("10.0.2.4")).json()
    assert len(info["spectators"]) == 1, info  # the refused join changed nothing


def test_a_message_flood_is_refused_per_person(tight: Server) -> None:
    room = create_room(tight, unique("host"), variant="jingzhou", **FAST)

    async def go() -> None:
        c = Client(tight, room["code"], room["token"], "host")
        await c.connect()
        for seq in range(1, 31):
            await c.send_raw(json.dumps({"op": "ping", "seq": seq}))
        answers = [await c.answer() for _ in range(30)]
        acked = [a["seq"] for a in answers if a["op"] == "ack"]
        refused = [a for a in answers if a["op"] == "error"]
        assert 5 <= len(acked) < 15, answers  # the burst, and what 2/s refilled
        assert refused and all(a["error"]["code"] == "rate_limited" for a in refused)
        assert {a["seq"] for a in refused} | set(acked) == set(range(1, 31))
        # The allowance comes back: a ping is answered again after a while.
        for _ in polls(10):
            await c.send_raw(json.dumps({"op": "ping", "seq": 99}))
            if (await c.answer())["op"] == "ack":
                break
        # An entropy string past the rate stores nothing.
        before = len(stored_lines(tight.db_url, room["code"]))
        for seq in range(100, 120):
            await c.send_raw(json.dumps({"op": "entropy", "seq": seq, "value": "ab" * 8}))
        answers = [await c.answer() for _ in range(20)]
        assert sum(a["op"] == "error" and a["error"]["code"] == "rate_limited"
                   for a in answers) >= 10, answers
        assert len(stored_lines(tight.db_url, room["code"])) - before <= 4

    asyncio.run(go())


# --------------------------------------------------------------------------- connections

SHORT = {"LAIZI_HEADER_TIMEOUT": "1", "LAIZI_HELLO_TIMEOUT": "1", "LAIZI_WS_PER_ADDRESS": "8",
         "LAIZI_TRUSTED_PROXIES": "127.0.0.1"}  # "another address": X-Forwarded-For


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "short", env=SHORT) as srv:
        yield srv


def _closed_by_server(sock: socket.socket, timeout: float) -> bool:
    """Whether the server closes ``sock`` (EOF or reset) within ``timeout`` seconds."""
    sock.settimeout(timeout)
    try:
        while sock.recv(1024):  # what is left of an earlier answer
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_a_connection_that_sends_no_request_head_is_closed(short: Server) -> None:
    silent = socket.create_connection(("127.0.0.1", short.port))
    slow = socket.create_connection(("127.0.0.1", short.port))
    slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never the blank line
    second = socket.create_connection(("127.0.0.1", short.port))
    second.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert second.recv(4096).startswith(b"HTTP/1.1 200")
    second.sendall(b"GET /healthz HTTP/1.1\r\n")  # a keep-alive's next head, never done
    try:
        start = time.monotonic()
        assert all(_closed_by_server(s, 10) for s in (silent, slow, second))
        assert time.monotonic() - start < 5
    finally:
        for s in (silent, slow, second):
            s.close()
    assert short.health()["ok"]  # a request sent in time is answered


def test_the_token_goes_in_the_first_message(short: Server) -> None:
    room = create_room(short, unique("host"), variant="jingzhou", **FAST)
    url = f"{short.ws}/ws/{room['code']}?version=0"

    async def go() -> None:
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"op": "hello", "token": room["token"]}))
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert frame["op"] == "state", frame
        async with websockets.connect(url) as ws:  # a first message that is no hello
            await ws.send(json.dumps({"op": "ping", "seq": 1}))
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert frame["op"] == "error" and frame["error"]["code"] == "malformed"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == CLOSE_NO_TOKEN
        async with websockets.connect(url) as ws:  # nothing at all: closed after 1 s
            frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert frame["error"]["code"] == "malformed"
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code == CLOSE_NO_TOKEN
        r = HTTP.get(f"{short.http}/api/rooms/{room['code']}/me",
                     headers={"X-Laizi-Token": room["token"]})
        assert r.status_code == 200 and r.json()["host"], r.text

    asyncio.run(go())


def test_websockets_per_address_are_capped(short: Server) -> None:
    room = create_room(short, unique("host"), variant="jingzhou", **FAST)
    url = f"{short.ws}/ws/{room['code']}?token={room['token']}"

    async def go() -> None:
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(8):
                ws = await stack.enter_async_context(websockets.connect(url))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["op"] == "state"
            async with websockets.connect(url) as extra:
                frame = json.loads(await asyncio.wait_for(extra.recv(), 10))
                assert frame["error"]["code"] == "rate_limited", frame
                with pytest.raises(websockets.ConnectionClosed):
                    await asyncio.wait_for(extra.recv(), 10)
                assert extra.close_code == CLOSE_TOO_MANY
            async with websockets.connect(url, additional_headers=_as("10.0.3.1")) as other:
                assert json.loads(await asyncio.wait_for(other.recv(), 10))["op"] == "state"
        # Closed ones free their places.
        async with websockets.connect(url) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["op"] == "state"

    asyncio.run(go())
