"""Helpers of the hall's tests (tests/test_server.py): a real server on loopback, a
websocket client that checks every frame it is sent, and PostgreSQL for the storage tests.

* :class:`Server` runs ``laizi serve`` as a subprocess on a free loopback port (its
  stderr goes to a file, shown when a test fails); :meth:`Server.kill` is SIGKILL.
* :class:`Client` is one websocket of one member. A reader task keeps the latest ``state``
  frame and queues the answers (``ack`` / ``error``, one per message sent, in order).
  Every state frame is checked as it arrives (:func:`check_frame`): consecutive event
  numbers, versions that agree, and nothing the member may not see — another seat's
  concealed tiles (``view.hand``, ``deal`` and ``draw`` events), another seat's secret
  claim answers, a ``seed``, a ``secret`` or a wall list before the match is over.
* :func:`pg_database` makes a fresh PostgreSQL database for a test session (from
  ``LAIZI_TEST_PG_URL``) and drops it afterwards.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

from laizi.errors import ErrorCode

LAIZI = Path(sys.executable).with_name("laizi")
HTTP = httpx.Client(timeout=10)
"""One HTTP client for every request of the tests (a new one per request costs ~50 ms)."""
ERROR_CODES = frozenset(c.value for c in ErrorCode)
FAST = {"clock": None, "claim_min": 0, "bot_delay": 0, "between": 0, "grace": 600}
"""Room settings of a quick test match: no clock, no pauses; a disconnected person's seat
waits (no 托管 by grace) so a hand waits for its person."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path.resolve()}"


def unique(prefix: str) -> str:
    """A person's name nobody used before (the PostgreSQL database outlives a test)."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


# --------------------------------------------------------------------------- the server


class Server:
    """``laizi serve --port P --db URL`` in a subprocess."""

    def __init__(self, db_url: str, log_dir: Path, *, port: int | None = None) -> None:
        self.db_url = db_url
        self.log_dir = log_dir
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def stderr_path(self) -> Path:
        return self.log_dir / f"server-{self.port}-{self.starts}.stderr"

    def start(self, timeout: float = 30.0) -> Server:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(
                [str(LAIZI), "serve", "--port", str(self.port), "--db", self.db_url],
                stdout=subprocess.DEVNULL, stderr=err, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"laizi serve exited ({self.proc.returncode}):\n"
                                   f"{self.stderr()}")
            try:
                if HTTP.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"laizi serve did not answer in {timeout} s:\n{self.stderr()}")

    def stderr(self) -> str:
        return "".join(p.read_text("utf-8", "replace")
                       for p in sorted(self.log_dir.glob(f"server-{self.port}-*.stderr")))

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed that was not already committed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """A graceful stop (SIGTERM: uvicorn's shutdown, the lifespan's ``hall.stop``)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def health(self) -> dict[str, Any]:
        r = HTTP.get(f"{self.http}/healthz", timeout=5)
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data


@contextlib.contextmanager
def running(db_url: str, log_dir: Path) -> Iterator[Server]:
    server = Server(db_url, log_dir).start()
    try:
        yield server
    finally:
        server.kill()


def create_room(server: Server, name: str, **settings: Any) -> dict[str, Any]:
    r = HTTP.post(f"{server.http}/api/rooms", json={"name": name, "settings": settings},
                   timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(server: Server, code: str, name: str, role: str = "player") -> dict[str, Any]:
    r = HTTP.post(f"{server.http}/api/rooms/{code}/join", json={"name": name, "role": role},
                   timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def room_info(server: Server, code: str) -> dict[str, Any]:
    r = HTTP.get(f"{server.http}/api/rooms/{code}", timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


# --------------------------------------------------------------------------- storage


async def stored_room(db_url: str, code: str) -> Any:
    """The room as the database holds it (``StoredRoom``: lines, secret, members)."""
    from laizi.server.storage import Store

    store = Store(db_url)
    try:
        return await store.room(code)
    finally:
        await store.close()


def _sync(coro: Any) -> Any:
    """Run ``coro`` to its end, from plain code or from inside a running event loop (in
    a thread of its own, so the loop's clients simply wait)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def stored_lines(db_url: str, code: str) -> tuple[str, ...]:
    room = _sync(stored_room(db_url, code))
    assert room is not None
    return tuple(room.lines)


def stored_table(db_url: str, code: str) -> Any:
    """The room's table rebuilt from storage alone (its log and secret)."""
    from laizi.table import deals
    from laizi.table.table import Table

    room = _sync(stored_room(db_url, code))
    assert room is not None
    return Table.from_log(room.lines, secret=deals.parse_secret(room.secret))


def settle(db_url: str, code: str, quiet: float = 0.3, timeout: float = 10.0
           ) -> tuple[str, ...]:
    """The room's stored log once it has not grown for ``quiet`` seconds."""
    lines = stored_lines(db_url, code)
    since = time.monotonic()
    deadline = since + timeout
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = stored_lines(db_url, code)
        if now != lines:
            lines, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return lines
    raise AssertionError(f"room {code}'s log kept growing for {timeout} s")


@contextlib.asynccontextmanager
async def pg_database(base_url: str) -> AsyncIterator[str]:
    """A fresh database next to the one of ``base_url`` (dropped afterwards), or
    ``base_url`` itself when the user may not create databases."""
    import asyncpg
    from sqlalchemy.engine import make_url

    url = make_url(base_url)
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"laizi_test_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    except asyncpg.PostgresError:
        await conn.close()
        yield base_url
        return
    await conn.close()
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


# --------------------------------------------------------------------------- frames


class Leak(AssertionError):
    """A frame showed a member something they may not see."""


def _keys(obj: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", k, v
            yield from _keys(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _keys(v, f"{path}[{i}]")


def check_frame(frame: dict[str, Any], name: str, spectator: bool, last_v: int,
                seat: int | None) -> tuple[int, int | None, bool]:
    """Check one ``state`` frame sent to ``name`` (who knows version ``last_v`` and sat at
    ``seat`` in the hand of its last event); the new ``(version, seat, over)``."""
    where = f"frame to {name!r} at version {frame.get('version')}"
    assert frame["op"] == "state", where
    assert set(frame) == {"op", "version", "snapshot", "events", "view", "legal",
                          "deadline", "room"}, f"{where}: keys {sorted(frame)}"
    version = frame["version"]
    view = frame["view"]
    events = frame["events"]
    assert isinstance(version, int) and view["version"] == version, where
    over = bool(frame["room"]["over"]) or any(e.get("type") == "close" for e in events)
    # The events: consecutive numbers after what the connection knew, up to the version.
    if frame["snapshot"]:
        assert events == [], f"{where}: a snapshot carries no events"
    else:
        vs = [e["v"] for e in events]
        assert vs == list(range(last_v + 1, last_v + 1 + len(vs))), \
            f"{where}: event numbers {vs[:5]}… after {last_v}"
        assert version == last_v + len(vs), f"{where}: version {version} after {last_v}+{len(vs)}"
    # Nothing secret before the match is over: no seed, no secret, no wall list.
    if not over:
        for path, key, value in _keys(frame):
            if key in ("seed", "secret") or (key == "wall" and isinstance(value, list)):
                raise Leak(f"{where}: {path} = {str(value)[:80]}")
    # Events: another seat's dealt and drawn tiles hidden, its claim answers dropped.
    for e in events:
        kind = e.get("type")
        if kind == "hand":
            seat = e["seats"].index(name) if (not spectator and name in e["seats"]) else None
        elif kind == "deal":
            for i, hand in enumerate(e["hands"]):
                if i != seat and any(t is not None for t in hand):
                    raise Leak(f"{where}: event {e['v']} deals seat {i}'s tiles {hand}")
                if i == seat and any(t is None for t in hand):
                    raise AssertionError(f"{where}: my own deal is hidden: {hand}")
        elif kind == "draw":
            if e["seat"] != seat and e.get("tile") is not None:
                raise Leak(f"{where}: event {e['v']} shows seat {e['seat']}'s draw")
        elif kind == "action" and e.get("answer"):
            if e["action"]["seat"] != seat:
                raise Leak(f"{where}: event {e['v']} shows seat {e['action']['seat']}'s "
                           "secret claim answer")
        elif kind == "start":
            assert "seed" not in e and "wall" not in e, where
    # The view: one's own hand, or (spectators, people without a seat) nobody's.
    vseat = view.get("seat")
    if "hand" in view:
        if vseat is None:
            if view["hand"] != [] or view.get("drawn") is not None:
                raise Leak(f"{where}: a public view shows tiles {view['hand']}")
            assert frame["legal"] == [], where
        else:
            assert not spectator, f"{where}: a spectator has seat {vseat}"
            if view["table"]["in_hand"]:  # (after a hand: its seat; 晃晃 may have rotated)
                assert view["table"]["seats"][vseat] == name, f"{where}: seat {vseat} not mine"
            assert all(isinstance(t, int) for t in view["hand"]), where
            assert len(view["hand"]) == view["hand_sizes"][vseat], where
            if seat is not None:
                assert vseat == seat, f"{where}: view seat {vseat}, the hand's {seat}"
        for a in frame["legal"]:
            assert a["seat"] == vseat, f"{where}: legal action for another seat: {a}"
    else:
        assert frame["legal"] == [], where
    return version, seat, over


# --------------------------------------------------------------------------- clients


class Client:
    """One websocket of one member of a room."""

    def __init__(self, server: Server, code: str, token: str, name: str, *,
                 spectator: bool = False, seed: int = 0) -> None:
        self.server = server
        self.code = code
        self.token = token
        self.name = name
        self.spectator = spectator
        self.rng = random.Random(seed)
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        """Every state frame received, in order."""
        self.latest: dict[str, Any] | None = None
        self.version = 0
        self.seat: int | None = None
        self.over = False
        self.answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.acked: list[tuple[int, dict[str, Any], int]] = []
        """(seq, action, version answered) of every acknowledged action."""
        self.errors: list[dict[str, Any]] = []
        self.seq = 0
        self._new = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self.failure: BaseException | None = None

    async def connect(self, version: int | str | None = None) -> dict[str, Any]:
        """Open the websocket (with the last version seen, if given); the first frame."""
        url = f"{self.server.ws}/ws/{self.code}?token={self.token}"
        if version is not None:
            url += f"&version={version}"
            if isinstance(version, int) and version <= 10**11:
                self.version = version
            else:
                self.version = 0
        else:
            self.version = 0
        self.closed.clear()
        self.ws = await websockets.connect(url, max_size=None, open_timeout=10)
        first = len(self.frames)
        self._reader = asyncio.create_task(self._read())
        await self.wait(lambda: len(self.frames) > first)
        return self.frames[first]

    async def _read(self) -> None:
        first = True
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame["op"] == "state":
                    if first and (not frame["events"] or frame["events"][0]["v"] > 1):
                        # Coming in mid-stream: the view says where this person sits (for
                        # the events before the next ``hand`` event too: in the rooms
                        # these tests reconnect to, a person keeps their seat).
                        self.seat = frame["view"].get("seat")
                    first = False
                    if frame["snapshot"]:
                        self.version = frame["version"]
                        self.seat = frame["view"].get("seat")
                    self.version, self.seat, over = check_frame(
                        frame, self.name, self.spectator, self.version, self.seat)
                    self.over = self.over or over
                    self.frames.append(frame)
                    self.latest = frame
                else:
                    assert frame["op"] in ("ack", "error"), frame
                    self.answers.put_nowait(frame)
                self._new.set()
        except websockets.ConnectionClosed:
            pass
        except BaseException as exc:  # a failed check: the test sees it
            self.failure = exc
        finally:
            self.closed.set()
            self._new.set()

    def describe(self) -> str:
        f = self.latest
        if f is None:
            return "no frame yet"
        view = f["view"]
        return (f"latest frame: version {f['version']}, phase {view.get('phase')}, turn "
                f"{view.get('turn')}, seat {view.get('seat')}, legal {f['legal'][:3]}, room "
                f"in_hand={f['room']['in_hand']} over={f['room']['over']} "
                f"paused={f['room']['paused']} hands={f['room']['hands']} "
                f"auto={f['room']['auto']}")

    def raise_failure(self) -> None:
        if self.failure is not None:
            raise self.failure

    async def wait(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            self.raise_failure()
            if self.closed.is_set() and not predicate():
                raise AssertionError(f"{self.name}: the connection closed while waiting")
            rest = deadline - time.monotonic()
            if rest <= 0:
                raise TimeoutError(f"{self.name}: waited {timeout} s "
                                   f"(version {self.version}; {self.describe()})")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), min(rest, 0.5))
        self.raise_failure()

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def answer(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next answer (ack / error) in order."""
        try:
            return await asyncio.wait_for(self.answers.get(), timeout)
        except TimeoutError:
            self.raise_failure()
            raise

    async def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one message with a new ``seq``; its answer."""
        self.seq += 1
        msg = {"op": op, "seq": self.seq, **fields}
        await self.ws.send(json.dumps(msg))
        answer = await self.answer()
        assert answer["seq"] == self.seq, (msg, answer)
        if answer["op"] == "error":
            assert answer["error"]["code"] in ERROR_CODES, answer
            self.errors.append(answer)
        return answer

    async def act(self, action: dict[str, Any], version: int) -> dict[str, Any]:
        answer = await self.request("act", action=action, version=version)
        if answer["op"] == "ack":
            self.acked.append((answer["seq"], action, version))
        return answer

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return dict(self.rng.choice(legal))

    async def play(self, until: Callable[[Client], bool] | None = None,
                   timeout: float = 60.0, max_stale: int = 1000) -> None:
        """Answer the latest state frame whenever it has legal actions, until ``until``
        (default: the match is over). Only stale-version refusals are expected."""
        done = until or (lambda c: c.over)
        answered = -1
        deadline = time.monotonic() + timeout
        while not done(self):
            frame = self.latest
            if frame is not None and frame["legal"] and frame["version"] != answered \
                    and not frame["room"]["paused"]:
                answered = frame["version"]
                answer = await self.act(self.choose(frame["legal"]), frame["version"])
                if answer["op"] == "error":
                    assert answer["error"]["code"] == "stale_version", answer
                    max_stale -= 1
                    assert max_stale >= 0, "too many stale answers"
                continue
            if self.over:
                raise AssertionError(f"{self.name}: the match ended first ({self.describe()})")
            rest = deadline - time.monotonic()
            if rest <= 0:
                raise TimeoutError(f"{self.name}: play did not finish in {timeout} s")
            seen = len(self.frames)
            await self.wait(lambda n=seen: len(self.frames) > n or done(self), rest)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            await self.closed.wait()
        if self._reader is not None:
            await self._reader
        self.raise_failure()
