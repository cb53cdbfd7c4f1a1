"""An attack on a hall, from loopback, while a room plays on (issue 42, "Done when").

One ``laizi serve`` (SQLite) with its default limits, except shorter timeouts so the test
is bounded (a request head and a websocket's ``hello`` due within 2 s instead of 10) and
a guess limit of 10 a minute. A person plays a room with three bots in a thread of its
own for the whole module, and each test is one attack:

* guessing room codes gets 429 after a few tries;
* a 1 MiB websocket frame closes the socket, a 50 MB body gets 413, and neither grows
  the hall's memory (its RSS, from /proc) by more than a few MiB;
* a foreign ``Origin`` is refused, on a POST and on a websocket;
* 2,000 idle connections (fewer where the file limit is lower) are shed;
* the bot-name trick and an entropy flood are refused;

and the last test checks that the person's actions were acknowledged meanwhile with a p99
under 50 ms. The guessing comes last of the attacks: it shuts 127.0.0.1, the address
every other client of this test uses, out of every room code for a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_helpers import in_ci  # skips this module without the server extras (not in CI)

if not in_ci():
    pytest.importorskip("alembic")

import websockets

from laizi.server.limits import CLOSE_NO_TOKEN, CLOSE_TOO_MANY
from server_helpers import (
    FAST,
    HTTP,
    Client,
    Server,
    create_room,
    join,
    polls,
    sqlite_hall,
    stored_lines,
    unique,
)

MIB = 1024 * 1024
ATTACK = {"LAIZI_HEADER_TIMEOUT": "2", "LAIZI_HELLO_TIMEOUT": "2", "LAIZI_RATE_GUESS": "10/minute",
          "LAIZI_RATE_CREATE": "off", "LAIZI_RATE_JOIN": "off",
          "LAIZI_RATE_MESSAGES": "100/200", "LAIZI_WS_PER_ADDRESS": "64"}
"""The defaults of laizi.server.ratelimit / limits, but 2 s timeouts (bounded test),
creation and joins not limited (the test creates a few rooms; their limits have tests of
their own in test_limits.py), and 100 messages a second (bursts of 200) for the player,
who answers as fast as the bots play, far faster than a person's 20 a second."""
IDLE = 2000


class TimedClient(Client):
    """A player that times each action from its send to its acknowledgement."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.latencies: list[float] = []

    async def act(self, action: dict[str, Any], version: int) -> dict[str, Any]:
        start = time.perf_counter()
        answer = await super().act(action, version)
        if answer["op"] == "ack":
            self.latencies.append(time.perf_counter() - start)
        return answer


class Player:
    """A person playing a room of bots in a thread, until stopped."""

    def __init__(self, server: Server) -> None:
        name = unique("player")
        room = create_room(server, name, variant="jingzhou", **FAST)
        self.client = TimedClient(server, room["code"], room["token"], name)
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.started.wait(30), self.error

    def _run(self) -> None:
        async def go() -> None:
            c = self.client
            await c.connect()
            assert (await c.request("start"))["op"] == "ack"
            self.started.set()
            await c.play(until=lambda _: self.stop.is_set(), timeout=600)
            await c.close()

        try:
            asyncio.run(go())
        except BaseException as exc:
            self.error = exc
            self.started.set()

    def wait_for(self, acts: int, timeout: float = 30) -> None:
        for _ in polls(timeout):
            assert self.error is None, self.error
            if len(self.client.latencies) >= acts:
                return
        raise AssertionError(f"{len(self.client.latencies)} actions, not {acts}")


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "attack", env=ATTACK) as srv:
        yield srv


@pytest.fixture(scope="module")
def player(hall: Server) -> Iterator[Player]:
    p = Player(hall)
    yield p
    p.stop.set()
    # the player's loop wakes on the next frame; the bots keep sending them
    p.thread.join(30)
    assert not p.thread.is_alive()


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


def _pid(hall: Server) -> int:
    assert hall.proc is not None
    return hall.proc.pid


async def _frames_until_closed(ws: Any, timeout: float = 10) -> list[dict[str, Any]]:
    frames = []
    with contextlib.suppress(websockets.ConnectionClosed):
        while True:
            frames.append(json.loads(await asyncio.wait_for(ws.recv(), timeout)))
    return frames


def test_oversized_frames_and_bodies_cost_no_memory(hall: Server, player: Player) -> None:
    guest = join(hall, player.client.code, unique("guest"), "spectator")
    before = _rss_mib(_pid(hall))

    async def frames() -> None:
        url = f"{hall.ws}/ws/{player.client.code}?token={guest['token']}"
        for _ in range(10):
            async with websockets.connect(url, max_size=None) as ws:
                await ws.recv()
                with pytest.raises(websockets.ConnectionClosed) as info:
                    await ws.send("x" * MIB)
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                assert info.value.rcvd is not None and info.value.rcvd.code == 1009

    asyncio.run(frames())
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", hall.port), timeout=10) as sock:
            sock.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         b"application/json\r\nContent-Length: 52428800\r\n\r\n"
                         + b"[" * MIB)
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 413"), answer
    grown = _rss_mib(_pid(hall)) - before
    print(f"the hall's RSS: {before:.1f} MiB before, grown by {grown:.2f} MiB")
    assert grown < 4, f"the hall grew by {grown:.1f} MiB"


def test_a_foreign_origin_is_refused(hall: Server, player: Player) -> None:
    evil = {"Origin": "https://evil.example"}
    r = HTTP.post(f"{hall.http}/api/rooms", headers=evil,
                  json={"name": "x", "settings": {"variant": "jingzhou"}})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden_origin"

    async def ws() -> None:
        url = f"{hall.ws}/ws/{player.client.code}?token={player.client.token}"
        async with websockets.connect(url, additional_headers=evil) as sock:
            frames = await _frames_until_closed(sock)
            assert frames[0]["error"]["code"] == "forbidden_origin", frames
            assert sock.close_code == 4403

    asyncio.run(ws())


def test_idle_connections_are_shed(hall: Server, player: Player) -> None:
    # 2,000 idle TCP connections, or as many as this process's file limit leaves room
    # for (each is a file here and in the hall, which inherits the same limit).
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    count = min(IDLE, soft - 200)
    assert count >= 500, f"a file limit of {soft} is too low for this test"
    socks = []
    try:
        for _ in range(count):
            socks.append(socket.create_connection(("127.0.0.1", hall.port), timeout=10))
        assert HTTP.get(f"{hall.http}/healthz").status_code == 200  # still served
        open_ = list(socks)
        for _ in polls(20):  # the hall closes them after LAIZI_HEADER_TIMEOUT (2 s)
            still = []
            for s in open_:
                s.setblocking(False)
                try:
                    data = s.recv(1)
                except BlockingIOError:
                    still.append(s)
                    continue
                except ConnectionResetError:
                    continue
                assert data == b""
            open_ = still
            if not open_:
                break
        assert not open_, f"{len(open_)} of {count} idle connections still open"
    finally:
        for s in socks:
            s.close()

    # Websockets without a token: 64 an address; those let in are closed after 2 s.
    async def sockets() -> list[int | None]:
        url = f"{hall.ws}/ws/{player.client.code}?version=0"
        conns = []
        for _ in range(80):
            with contextlib.suppress(Exception):
                conns.append(await websockets.connect(url))
        codes = []
        for ws in conns:
            await _frames_until_closed(ws)
            codes.append(ws.close_code)
        return codes

    codes = asyncio.run(sockets())
    assert set(codes) == {CLOSE_NO_TOKEN, CLOSE_TOO_MANY}, codes
    assert codes.count(CLOSE_NO_TOKEN) <= 63  # the player holds one place


def test_bot_names_and_entropy_floods_are_refused(hall: Server, player: Player) -> None:
    for name in (" 🤖 7", "🤖\ufe0f 1", "\u3000🤖 2"):
        r = HTTP.post(f"{hall.http}/api/rooms/{player.client.code}/join",
                      json={"name": name, "role": "player"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    name = unique("flooder")
    room = {**create_room(hall, name, variant="jingzhou", **FAST), "name": name}

    async def flood() -> None:
        c = Client(hall, room["code"], room["token"], room["name"])
        await c.connect()
        for seq in range(1, 1001):
            await c.send_raw(json.dumps({"op": "entropy", "seq": seq, "value": f"{seq:032x}"}))
        # Then a ping now and then until one is read (acknowledged): the allowance is
        # back, and every answer to the flood has come before it.
        answers: list[dict[str, Any]] = []
        for n, _ in enumerate(polls(15)):
            await c.send_raw(json.dumps({"op": "ping", "seq": 1000 + n}))
            with contextlib.suppress(TimeoutError):
                while not answers or answers[-1]["seq"] != 1000 + n:
                    answers.append(await c.answer(timeout=0.5))
            if answers and answers[-1]["op"] == "ack" and answers[-1]["seq"] >= 1000:
                break
        answers = [a for a in answers if a["seq"] is not None and a["seq"] < 1000]
        # At most 4 taken (ENTROPY_PER_HAND); the others refused, rate_limited: past
        # the per-hand cap, or past the person's message rate, unread (the refusals of
        # those dropped once 64 frames wait to be sent: a flood costs only its frames).
        acked = [a for a in answers if a["op"] == "ack"]
        assert len(acked) <= 4, acked
        assert all(a["op"] == "ack" or a["error"]["code"] == "rate_limited"
                   for a in answers), answers
        await c.close()

    asyncio.run(flood())
    entropy = [line for line in stored_lines(hall.db_url, room["code"]) if "entropy" in line]
    assert len(entropy) <= 4, entropy


def test_code_guessing_is_throttled(hall: Server, player: Player) -> None:
    statuses = [HTTP.get(f"{hall.http}/api/rooms/{n:06d}").status_code
                for n in range(100000, 100030)]
    assert statuses[:10] == [404] * 10 and set(statuses[10:]) == {429}, statuses
    r = HTTP.get(f"{hall.http}/api/rooms/{player.client.code}")
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_the_room_played_on_quickly_throughout(hall: Server, player: Player) -> None:
    player.wait_for(200)
    lat = sorted(player.client.latencies)
    p99 = lat[int(len(lat) * 0.99)]
    print(f"actions acknowledged during the attacks: {len(lat)}, median "
          f"{lat[len(lat) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")
    assert p99 < 0.050, f"p99 {p99 * 1000:.1f} ms over {len(lat)} actions"
    assert player.error is None, player.error
    assert hall.health()["ok"]
