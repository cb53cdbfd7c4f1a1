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
* :func:`redis_for_tests` gives a Redis for the hall of several processes
  (``LAIZI_TEST_REDIS_URL``, else a private ``redis-server``, else a skip; in CI a
  failure); :func:`redis_command` sends it one command (``FLUSHDB`` between tests).
* :class:`RoamingClient` is a :class:`Client` that comes back by itself, with its last
  version, to any of a list of servers when its websocket closes (a killed or stopped
  process, a room that moved), and records every action it sent and what became of it.
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
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def in_ci() -> bool:
    """CI (``CI=true``): a missing service or dependency fails a test instead of skipping
    it."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


if not in_ci():  # elsewhere a hall's test module is skipped without the server extras
    for _module in ("httpx", "websockets", "uvicorn", "starlette", "sqlalchemy", "aiosqlite"):
        pytest.importorskip(_module)

import httpx  # noqa: E402
import websockets  # noqa: E402

from laizi.errors import ErrorCode  # noqa: E402

LAIZI = Path(sys.executable).with_name("laizi")
class _PerThreadClient:
    """An ``httpx.Client`` for each thread: a client's connection pool is not safe across
    threads, and the tests call from several (servers started together, takeovers
    watched side by side); a new client per request would cost ~50 ms."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _client(self) -> httpx.Client:
        client: httpx.Client | None = getattr(self._local, "client", None)
        if client is None:
            client = self._local.client = httpx.Client(timeout=10)
        return client

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self._client().get(url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self._client().post(url, **kwargs)


HTTP = _PerThreadClient()
"""The tests' HTTP client (one connection pool per thread)."""
ERROR_CODES = frozenset(c.value for c in ErrorCode)
FAST = {"clock": None, "claim_min": 0, "bot_delay": 0, "between": 0, "grace": 600}
"""Room settings of a quick test match: no clock, no pauses; a disconnected person's seat
waits (no 托管 by grace) so a hand waits for its person."""


POLL = 0.05
"""Seconds between two looks at a condition a test waits for (:func:`polls`)."""


def polls(timeout: float) -> Iterator[None]:
    """Wait for a condition that another process makes true: one turn now, then one
    every :data:`POLL` seconds until ``timeout`` has passed (the caller stops as soon
    as its condition holds, and says what failed when the turns run out). The one
    place these helpers wait on what they cannot be told of (a process starting, the
    rows of another process's database)."""
    deadline = time.monotonic() + timeout
    while True:
        yield
        if time.monotonic() >= deadline:
            return
        time.sleep(POLL)


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


GENEROUS_LIMITS = {"LAIZI_RATE_CREATE": "100000/minute", "LAIZI_RATE_JOIN": "100000/minute",
                   "LAIZI_RATE_GUESS": "100000/minute", "LAIZI_RATE_MESSAGES": "10000/10000",
                   "LAIZI_RATE_IDENTITY": "100000/minute",
                   "LAIZI_WS_PER_ADDRESS": "100000"}
"""Limits the tests' servers get unless a test sets its own (``Server(env=...)``)."""


class Server:
    """``laizi serve --port P --db URL`` in a subprocess (``--redis URL`` and any
    ``extra_args``, e.g. ``("--workers", "2")``, when given; ``env``: more environment
    variables, e.g. ``{"LAIZI_HALL_LEASE": "2"}``)."""

    def __init__(self, db_url: str, log_dir: Path, *, port: int | None = None,
                 redis_url: str | None = None, extra_args: Sequence[str] = (),
                 env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.log_dir = log_dir
        self.port = port or free_port()
        self.redis_url = redis_url
        self.extra_args = tuple(extra_args)
        # The hall's request and message limits (laizi.server.ratelimit) are for
        # strangers: the tests of other features create rooms, join and play from
        # 127.0.0.1 as fast as they can, so they get limits no test reaches unless
        # it asks for tighter ones in ``env`` (tests/test_attack.py does).
        self.env = {**GENEROUS_LIMITS, **(env or {})}
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
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with open(self.stderr_path, "wb") as err:
            # A session of its own: kill() ends uvicorn's workers (--workers) and the
            # search bots' pool with it, as a machine that dies would.
            self.proc = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL,
                                         stderr=err, env=env, start_new_session=True)
        for _ in polls(timeout):
            if self.proc.poll() is not None:
                raise RuntimeError(f"laizi serve exited ({self.proc.returncode}):\n"
                                   f"{self.stderr()}")
            try:
                if HTTP.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
        self.kill()
        raise RuntimeError(f"laizi serve did not answer in {timeout} s:\n{self.stderr()}")

    def command(self) -> list[str]:
        cmd = [str(LAIZI), "serve", "--port", str(self.port), "--db", self.db_url]
        if self.redis_url is not None:
            cmd += ["--redis", self.redis_url]
        return [*cmd, *self.extra_args]

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stderr(self) -> str:
        return "".join(p.read_text("utf-8", "replace")
                       for p in sorted(self.log_dir.glob(f"server-{self.port}-*.stderr")))

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed that was not already committed (the
        server's whole process group: its workers and bot processes too)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        else:  # the server is gone; children it left (workers) go too
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)

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


def check_clean(server: Server) -> None:
    """The server reported no error of its own (bot, clock or storage failures)."""
    if server.alive:
        assert server.health()["errors"] == 0, server.stderr()
    assert "Traceback" not in server.stderr(), server.stderr()


@contextlib.contextmanager
def sqlite_hall(tmp_path_factory: Any, name: str, **options: Any) -> Iterator[Server]:
    """A test module's hall on its own SQLite file (``options``: :class:`Server`'s), found
    clean (:func:`check_clean`) when the module is done with it."""
    directory = tmp_path_factory.mktemp(name)
    server = Server(sqlite_url(directory / "hall.db"), directory, **options).start()
    try:
        yield server
        check_clean(server)
    finally:
        server.kill()


@contextlib.contextmanager
def running(db_url: str, log_dir: Path) -> Iterator[Server]:
    server = Server(db_url, log_dir).start()
    try:
        yield server
    finally:
        server.kill()


PERSON = "X-Laizi-Person"
"""The header of a person's credential (laizi.server.people)."""


def new_person(server: Server, name: str) -> str:
    """A new identity's credential (``POST /api/me``), for :data:`PERSON`."""
    r = HTTP.post(f"{server.http}/api/me", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return str(r.json()["credential"])


def my_history(server: Server, credential: str) -> list[dict[str, Any]]:
    """The rooms of a person's 战绩 (``GET /api/me/history``)."""
    r = HTTP.get(f"{server.http}/api/me/history", headers={PERSON: credential}, timeout=10)
    assert r.status_code == 200, r.text
    rooms: list[dict[str, Any]] = r.json()["rooms"]
    return rooms


def create_room(server: Server, name: str, *, person: str | None = None,
                **settings: Any) -> dict[str, Any]:
    """A room made by ``name`` (as the person of credential ``person``, else a guest)."""
    r = HTTP.post(f"{server.http}/api/rooms", json={"name": name, "settings": settings},
                  headers={PERSON: person} if person else None, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(server: Server, code: str, name: str, role: str = "player", *,
         person: str | None = None) -> dict[str, Any]:
    r = HTTP.post(f"{server.http}/api/rooms/{code}/join", json={"name": name, "role": role},
                  headers={PERSON: person} if person else None, timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def room_info(server: Server, code: str) -> dict[str, Any]:
    r = HTTP.get(f"{server.http}/api/rooms/{code}", timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for_info(server: Server, code: str, ok: Callable[[dict[str, Any]], bool],
                  timeout: float = 30.0) -> dict[str, Any]:
    """The room's public facts (:func:`room_info`) once ``ok`` holds of them."""
    info: dict[str, Any] = {}
    for _ in polls(timeout):
        info = room_info(server, code)
        if ok(info):
            return info
    raise AssertionError(info)


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


def stored_secret(db_url: str, code: str) -> str:
    """The room's table secret (hex), as storage holds it."""
    room = _sync(stored_room(db_url, code))
    assert room is not None
    return str(room.secret)


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
    for _ in polls(timeout):
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


BACKENDS = ["sqlite", "postgresql"]
"""The hall's storage back-ends the ``db`` fixture runs a test on."""


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for the module that uses it (``LAIZI_TEST_PG_URL``;
    CI sets it, and fails without it)."""
    with fresh_pg("PostgreSQL storage tests") as url:
        yield url


@contextlib.contextmanager
def fresh_pg(why: str) -> Iterator[str]:
    """A new PostgreSQL database on the server of ``LAIZI_TEST_PG_URL``, dropped
    afterwards; without that variable the test fails in CI (which must test the hall on
    PostgreSQL) and is skipped elsewhere, saying ``why`` it needs one."""
    base = os.environ.get("LAIZI_TEST_PG_URL")
    if not base:
        if in_ci():
            pytest.fail(f"CI must run the {why} on PostgreSQL: set LAIZI_TEST_PG_URL "
                        "(.ci/run starts one)")
        pytest.skip(f"LAIZI_TEST_PG_URL is not set ({why})")
    if not in_ci():
        pytest.importorskip("asyncpg")
    manager = pg_database(base)
    loop = asyncio.new_event_loop()
    try:
        yield loop.run_until_complete(manager.__aenter__())
    finally:
        loop.run_until_complete(manager.__aexit__(None, None, None))
        loop.close()


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A hall database URL on each back-end: a new SQLite file, or the module's
    PostgreSQL database (:func:`pg_url`)."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return sqlite_url(tmp_path / "hall.db")


# --------------------------------------------------------------------------- Redis


REDIS_SERVER = ("redis-server", "/usr/bin/redis-server")


def _resp(*args: str) -> bytes:
    out = [f"*{len(args)}\r\n".encode()]
    for a in args:
        b = a.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


def redis_command(url: str, *args: str, timeout: float = 5.0) -> str:
    """One command to the Redis at ``url`` (``redis://host:port/db``); its answer as text
    (a simple string, an error raises). Plain RESP over a socket: the tests need no
    Redis client library of their own."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    db = (parts.path or "/0").lstrip("/") or "0"
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379),
                                  timeout=timeout) as sock:
        commands = [_resp("AUTH", *([parts.username] if parts.username else []),
                          parts.password)] if parts.password else []
        commands += [_resp("SELECT", db), _resp(*args)]
        sock.sendall(b"".join(commands))
        reader = sock.makefile("rb")
        answer = ""
        for _ in commands:
            line = reader.readline().decode("utf-8", "replace").rstrip("\r\n")
            if not line or line[0] == "-":
                raise RuntimeError(f"redis {args[0]}: {line or 'no answer'}")
            if line[0] == "$":  # a bulk string
                size = int(line[1:])
                answer = "" if size < 0 else reader.read(size + 2)[:-2].decode()
            else:
                answer = line[1:]
        return answer


def _redis_binary() -> str | None:
    import shutil

    for name in REDIS_SERVER:
        found = shutil.which(name)
        if found:
            return found
    return None


@contextlib.contextmanager
def private_redis(log_dir: Path, timeout: float = 10.0) -> Iterator[str]:
    """A ``redis-server`` of our own on a free loopback port (no persistence), stopped
    at the end; its URL."""
    binary = _redis_binary()
    if binary is None:
        raise FileNotFoundError("redis-server")
    port = free_port()
    log = log_dir / f"redis-{port}.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(log_dir)],
            stdout=out, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        started = False
        for _ in polls(timeout):
            try:
                started = redis_command(url, "PING", timeout=1) == "PONG"
            except OSError:
                started = False
            if started or proc.poll() is not None:
                break
        if not started:
            raise RuntimeError(f"redis-server did not start:\n{log.read_text()}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextlib.contextmanager
def redis_for_tests(log_dir: Path) -> Iterator[str]:
    """Redis for the tests of several processes: ``LAIZI_TEST_REDIS_URL`` when set, else
    a private ``redis-server`` when the binary is installed, else the test is skipped —
    in CI (``CI=true``) a missing Redis fails instead (as PostgreSQL's tests do)."""
    url = os.environ.get("LAIZI_TEST_REDIS_URL")
    if url:
        try:
            redis_command(url, "PING")
        except (OSError, RuntimeError) as exc:
            pytest.fail(f"LAIZI_TEST_REDIS_URL={url} does not answer: {exc}")
        yield url
        return
    if _redis_binary() is None:
        if in_ci():
            pytest.fail("CI must test the hall of several processes on Redis: set "
                        "LAIZI_TEST_REDIS_URL or install redis-server (.ci/run does)")
        pytest.skip("no Redis (LAIZI_TEST_REDIS_URL unset, redis-server not installed)")
    with private_redis(log_dir) as private:
        yield private


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
        self.hints: list[dict[str, Any]] = []
        self.phrases: list[dict[str, Any]] = []
        """Every quick phrase received (``phrase`` frames: no answer, no state)."""
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
                elif frame["op"] == "hints":
                    # 听牌提示: to a seated player only, for the version of the state
                    # frame just before it (empty lists: nothing is ready).
                    assert not self.spectator and self.seat is not None, frame
                    assert self.latest is not None and frame["version"] == self.version, frame
                    assert set(frame["hints"]) == {"discards", "waits"}, frame
                    self.hints.append(frame)
                elif frame["op"] == "phrase":
                    assert set(frame) == {"op", "who", "id"}, frame
                    self.phrases.append(frame)
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


# --------------------------------------------------------------------------- roaming clients


class Disconnected(Exception):
    """The websocket closed before the answer to a message came."""


@dataclass
class Sent:
    """One action a client sent, and what became of it: ``acked``, ``refused:CODE`` (an
    error answer: nothing was applied), or ``unanswered`` (the connection closed first:
    it may or may not have been stored)."""

    seq: int
    action: dict[str, Any]
    version: int
    port: int
    outcome: str = "unanswered"


class RoamingClient(Client):
    """A member's client that reconnects by itself, as the browser client does: when its
    websocket closes (the server process died or stopped, the room moved: code 1012) it
    connects again with the last version it saw — to the server it was on if that still
    answers, else the next one of ``servers`` — with a jittered backoff from 0.05 s
    doubling to 1 s. Frames are checked across connections as on one (consecutive events
    after the version it came back with)."""

    def __init__(self, servers: Sequence[Server], code: str, token: str, name: str, *,
                 spectator: bool = False, seed: int = 0, first: int = 0) -> None:
        super().__init__(servers[first % len(servers)], code, token, name,
                         spectator=spectator, seed=seed)
        self.servers = list(servers)
        self.home = self.server
        """The server of its first connection."""
        self.sent: list[Sent] = []
        self.connections = 0
        """Websockets opened (1 + reconnections)."""
        self.close_codes: list[int | None] = []
        """The close code of every websocket that closed under it (None: dropped)."""
        self.closed_at: list[tuple[int, bool, float]] = []
        """(version, over, time.monotonic()) at each close it reconnected after."""
        self.attempts: list[str] = []
        """Failed connection attempts (what went wrong), while reconnecting."""
        self.gaps: list[float] = []
        """Seconds from a close to the first frame of the next connection."""

    async def connect(self, version: int | str | None = None) -> dict[str, Any]:
        self.answers = asyncio.Queue()  # answers of an older connection never come
        frame = await super().connect(version)
        self.connections += 1
        return frame

    async def _forget_connection(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 2)
        self.raise_failure()

    async def reconnect(self, deadline: float) -> None:
        """Connect again (after a close) with the last version; to any server."""
        started = time.monotonic()
        self.close_codes.append(getattr(self.ws, "close_code", None))
        self.closed_at.append((self.version, self.over, time.monotonic()))
        await self._forget_connection()
        start = self.servers.index(self.server) if self.server in self.servers else 0
        delay = 0.05
        attempt = 0
        while True:
            server = self.servers[(start + attempt) % len(self.servers)]
            attempt += 1
            self.server = server
            try:
                await self.connect(version=self.version)
                self.gaps.append(time.monotonic() - started)
                return
            except (OSError, TimeoutError, AssertionError,
                    websockets.WebSocketException) as exc:
                self.raise_failure()  # a failed frame check is the test's failure
                self.attempts.append(f"{server.port}: {exc!r}"[:200])
                await self._forget_connection()
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: no server took me back "
                                   f"({self.attempts[-3:]})")
            if attempt % len(self.servers) == 0:
                await asyncio.sleep(delay * (0.5 + self.rng.random()))
                delay = min(1.0, delay * 2)

    async def answer(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next answer, or :class:`Disconnected` when the websocket closes first."""
        if not self.answers.empty():
            return self.answers.get_nowait()
        get = asyncio.ensure_future(self.answers.get())
        closed = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({get, closed}, timeout=timeout,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
            if not get.done():
                get.cancel()
        if get.done() and not get.cancelled():
            return get.result()
        self.raise_failure()
        if not self.answers.empty():
            return self.answers.get_nowait()
        if self.closed.is_set():
            raise Disconnected(self.name)
        raise TimeoutError(f"{self.name}: no answer in {timeout} s ({self.describe()})")

    async def act(self, action: dict[str, Any], version: int) -> dict[str, Any] | None:  # type: ignore[override]
        """Send an action; its answer, or ``None`` when the connection closed first."""
        sent = Sent(self.seq + 1, action, version, self.server.port)
        self.sent.append(sent)
        try:
            answer = await self.request("act", action=action, version=version)
        except (Disconnected, websockets.ConnectionClosed):
            return None
        if answer["op"] == "ack":
            sent.outcome = "acked"
            self.acked.append((answer["seq"], action, version))
        else:
            sent.outcome = f"refused:{answer['error']['code']}"
        return answer

    async def roam(self, until: Callable[[Client], bool] | None = None,
                   timeout: float = 60.0,
                   refusals: tuple[str, ...] = ("stale_version",)) -> None:
        """:meth:`Client.play` across reconnections: answer the latest state frame
        whenever it has legal actions, until ``until`` (default: the match is over);
        a closed websocket is reconnected. Refusals other than ``refusals`` fail."""
        done: Callable[[Client], bool] = until or (lambda c: c.over)
        answered = -1
        deadline = time.monotonic() + timeout
        while not done(self):
            self.raise_failure()
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: roam did not finish in {timeout} s "
                                   f"({self.describe()})")
            if self.closed.is_set():
                if self.over and until is None:
                    return
                await self.reconnect(deadline)
                answered = -1  # an unanswered action may not have been stored
                continue
            frame = self.latest
            if frame is not None and frame["legal"] and frame["version"] != answered \
                    and not frame["room"]["paused"]:
                answered = frame["version"]
                answer = await self.act(self.choose(frame["legal"]), frame["version"])
                if answer is not None and answer["op"] == "error":
                    assert answer["error"]["code"] in refusals, answer
                continue
            if self.over and until is not None:
                raise AssertionError(f"{self.name}: the match ended first "
                                     f"({self.describe()})")
            seen = len(self.frames)
            self._new.clear()
            if len(self.frames) == seen and not self.closed.is_set() and not done(self):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._new.wait(), 0.5)

    async def hold(self, timeout: float = 30.0) -> None:
        """Keep the connection (reconnecting) without playing, until the match is over."""
        deadline = time.monotonic() + timeout
        while not self.over:
            self.raise_failure()
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: the match did not end in {timeout} s "
                                   f"({self.describe()})")
            if self.closed.is_set():
                await self.reconnect(deadline)
                continue
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), 0.5)

    async def close(self) -> None:
        if self.ws is not None and not self.closed.is_set():
            await self.ws.close()
        await self._forget_connection()


# --------------------------------------------------------------------------- against the log


def pass_only_answers(lines: Sequence[str], secret: str | None = None) -> set[int]:
    """The indexes of the stored log lines that answer ``pass`` in a window where ``pass``
    was the seat's only legal answer: the server plays those for people too (issue 38),
    nobody is asked. ``secret`` (hex) for a log that does not reveal it yet."""
    from laizi.table import deals
    from laizi.table.table import Table

    key = None if secret is None else deals.parse_secret(secret)
    out: set[int] = set()
    for n, table in Table.replay(lines, secret=key):
        if n < len(lines):
            e = json.loads(lines[n])
            if e["type"] == "action":
                legal = table.legal_actions(e["action"]["seat"])
                if len(legal) == 1 and legal[0].type == "pass":
                    out.add(n)
    return out


def person_actions(lines: Sequence[str], person: str, skip: Collection[int] = ()
                   ) -> list[dict[str, Any]]:
    """The actions of ``person``'s seat in a stored table log, in order (the seat of each
    hand from its ``hand`` line), but for the lines in ``skip`` (e.g. the server's
    answers, :func:`pass_only_answers`)."""
    out: list[dict[str, Any]] = []
    seat: int | None = None
    for i, line in enumerate(lines):
        e = json.loads(line)
        if e["type"] == "hand":
            seats = e["seats"]
            seat = seats.index(person) if person in seats else None
        elif e["type"] == "action" and seat is not None and e["action"]["seat"] == seat \
                and i not in skip:
            out.append(e["action"])
    return out


def check_sent_against_log(sent: Sequence[Sent], logged: Sequence[dict[str, Any]],
                           who: str = "") -> None:
    """What a client sent explains its seat's stored actions exactly: every acknowledged
    action is stored once, in order; no refused one is; an unanswered one (the process
    died or the room moved before the answer) is stored once or not at all; nothing
    else of that seat is stored."""
    refused = [s for s in sent if s.outcome.startswith("refused")]
    candidates = [s for s in sent if s not in refused]
    n, m = len(candidates), len(logged)
    # can[i][j]: candidates[i:] explain logged[j:]
    can = [[False] * (m + 1) for _ in range(n + 1)]
    can[n][m] = True
    for i in range(n - 1, -1, -1):
        s = candidates[i]
        for j in range(m, -1, -1):
            ok = False
            if j < m and s.action == logged[j] and can[i + 1][j + 1]:
                ok = True
            if s.outcome == "unanswered" and can[i + 1][j]:
                ok = True
            can[i][j] = ok
    if can[0][0]:
        return
    # Say where it goes wrong: the first acknowledged action the log does not follow.
    acked = [s.action for s in sent if s.outcome == "acked"]
    i = next((k for k, (a, b) in enumerate(zip(acked, logged, strict=False)) if a != b),
             min(len(acked), len(logged)))
    raise AssertionError(
        f"{who}: {len(acked)} acknowledged / {sum(s.outcome == 'unanswered' for s in sent)} "
        f"unanswered / {len(refused)} refused actions do not explain the {len(logged)} "
        f"stored ones; first difference at {i}: acked {acked[i:i + 2]} vs stored "
        f"{list(logged[i:i + 2])}")


def check_frames_against_log(c: Client, table: Any) -> int:
    """Every event ``c`` was shown, over all its connections, is the event with that
    number in the person's stream of ``table`` (rebuilt from the stored log); without a
    snapshot they cover the whole stream; its last view is the table's. The number of
    snapshots."""
    person = None if c.spectator else c.name
    expected = table.events(person)
    final = len(expected)
    seen: set[int] = set()
    snapshots = 0
    for f in c.frames:
        if f["snapshot"]:
            snapshots += 1
            assert f["version"] <= final, f"{c.name}: a snapshot at {f['version']} > {final}"
            continue
        for e in f["events"]:
            v = e["v"]
            assert 1 <= v <= final, f"{c.name}: shown event {v}, the log has {final}"
            assert e == expected[v - 1], f"{c.name}: event {v} {e} != stored {expected[v - 1]}"
            seen.add(v)
    if not snapshots:
        missing = sorted(set(range(1, final + 1)) - seen)
        assert not missing, f"{c.name}: never shown events {missing[:10]}"
    assert c.latest is not None and c.latest["version"] == final, \
        f"{c.name}: last frame at version {c.latest and c.latest['version']}, log {final}"
    assert c.latest["view"] == table.view_for(person), f"{c.name}: last view differs"
    return snapshots
