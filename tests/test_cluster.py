"""The hall past one process: ``laizi serve --redis URL`` processes side by side on one
PostgreSQL database (a fresh one per test, from ``LAIZI_TEST_PG_URL``) and one Redis
(``LAIZI_TEST_REDIS_URL``, else a private ``redis-server``; flushed between tests). In CI
a missing PostgreSQL or Redis fails these tests instead of skipping them.

Each room has one owner process (the holder of its Redis lease); any process serves any
websocket and HTTP request by forwarding to the owner. Clients are
:class:`server_helpers.RoamingClient`\\ s: they check every frame, and come back by
themselves with their last version, to any process, when their websocket closes. The
tests:

* SIGKILL of one of two processes mid-hand, with actions in flight: the survivor takes
  the rooms over from PostgreSQL (those whose clients come back at once, and an idle one
  by its sweep alone), every room finishes; against the stored log, every acknowledged
  action is stored exactly once, every event each client was shown (over all its
  connections) is the log's, and the ledgers agree;
* a graceful stop (SIGTERM) moves the stopping process's rooms to the other within a bound;
* HTTP across processes: a room created on one process is joined, shown, played and its
  records fetched through the other;
* the pure forwarding path: rooms played to their end by people (and a spectator) who are
  all on the process that does not own the room, no frame showing anything hidden;
* two processes started at the same moment on a fresh database, and ``--workers 2``;
* in one event loop: the sweep from an old list of live rooms, a forwarded connection
  that opens during the owner's check (kept), and a lost Redis subscription (the
  forwarded websockets are sent back to reconnect).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import json
import os
import random
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

if os.environ.get("CI", "").lower() not in ("1", "true", "yes"):  # in CI: import errors fail
    for _module in ("httpx", "websockets", "uvicorn", "starlette", "sqlalchemy", "asyncpg",
                    "redis"):
        pytest.importorskip(_module)

import httpx

if TYPE_CHECKING:
    from laizi.server.hall import Hall

from conditions import POLL, until, until_sync
from laizi.commands.verify import verify_text
from server_helpers import (
    FAST,
    HTTP,
    Client,
    RoamingClient,
    Server,
    check_frames_against_log,
    check_sent_against_log,
    create_room,
    fresh_pg,
    join,
    my_history,
    new_person,
    pass_only_answers,
    person_actions,
    redis_command,
    redis_for_tests,
    room_info,
    stored_lines,
    stored_room,
    stored_table,
    unique,
)

LEASE_KEY = "laizi:lease:{}"
"""A room's lease in Redis; its value is the owner's process id (``/healthz`` ``process``;
src/laizi/server/cluster.py)."""
TAKEOVER_BOUND = 10.0
"""Seconds within which a surviving process must own the rooms of one that stopped."""


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_for_tests(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def redis(redis_url: str) -> Iterator[str]:
    """The Redis URL, its database empty (no lease or channel of an earlier test)."""
    redis_command(redis_url, "FLUSHDB")
    yield redis_url
    redis_command(redis_url, "FLUSHDB")


@pytest.fixture
def db() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (several processes need PostgreSQL)."""
    with fresh_pg("hall of several processes") as url:
        yield url


def start_together(servers: Sequence[Server]) -> None:
    """Start the servers at the same moment; each answers ``/healthz``."""
    with concurrent.futures.ThreadPoolExecutor(len(servers)) as pool:
        for f in [pool.submit(s.start) for s in servers]:
            f.result()


@contextlib.contextmanager
def cluster(db: str, redis: str, log_dir: Path, n: int = 2,
            together: bool = False, env: dict[str, str] | None = None
            ) -> Iterator[list[Server]]:
    """``n`` processes side by side on one database and one Redis, killed at the end.
    The first migrates the database, then the others start (``together``: all at the
    same moment, as ``--workers`` or a deployment does; test_start_together). ``env``:
    more variables for every process."""
    servers = [Server(db, log_dir, redis_url=redis, env=env) for _ in range(n)]
    try:
        if together:
            start_together(servers)
        else:
            servers[0].start()
            start_together(servers[1:])
        yield servers
    except BaseException:
        for s in servers:  # shown with the failure
            print(f"--- laizi serve on port {s.port} (stderr) ---\n{s.stderr()[-6000:]}")
        raise
    finally:
        for s in servers:
            s.kill()


def check_clean(server: Server) -> None:
    """A running process reported no error of its own (bots, clocks, storage, Redis)."""
    if server.alive:
        health = server.health()
        assert health["errors"] == 0, server.stderr()
    assert "Traceback" not in server.stderr(), server.stderr()


def owners(redis: str, codes: Sequence[str], servers: Sequence[Server]
           ) -> dict[str, Server | None]:
    """Each room's owner, from its lease (None: nobody holds it)."""
    by_id = {s.health()["process"]: s for s in servers if s.alive}
    out: dict[str, Server | None] = {}
    for code in codes:
        holder = redis_command(redis, "GET", LEASE_KEY.format(code))
        out[code] = by_id.get(holder)
    return out


def watch_takeover(db: str, redis: str, codes: Sequence[str], server: Server,
                   timeout: float) -> float:
    """When (``time.monotonic()``) ``server`` has held the lease of every room of
    ``codes`` (a room that finished meanwhile, owned by nobody, counts as taken)."""
    process = server.health()["process"]
    left = set(codes)

    def taken() -> bool:
        for code in sorted(left):
            holder = redis_command(redis, "GET", LEASE_KEY.format(code))
            if holder == process or (
                    not holder and asyncio.run(stored_room(db, code)).status == "over"):
                left.discard(code)
        return not left

    try:
        until_sync(taken, f"process {process} holds every room", timeout)
    except AssertionError:
        holders = {c: redis_command(redis, "GET", LEASE_KEY.format(c)) for c in left}
        raise AssertionError(f"after {timeout} s process {process} does not hold "
                             f"{holders}:\n{server.stderr()[-3000:]}") from None
    return time.monotonic()


def check_room(db: str, code: str, clients: Sequence[RoamingClient], via: Server,
               variant: str, hands: int) -> None:
    """The finished room against its stored log: the log replays (``Table.from_log``),
    each person's stored actions are exactly what they sent and had acknowledged (plus,
    at most once each, actions whose answer a closed connection lost), each client's
    events over all its connections are the log's, the ledgers agree; its hands and log
    as the other process publishes them."""
    lines = stored_lines(db, code)
    table = stored_table(db, code)
    assert table.closed and table.number == hands, (code, table.number)
    server = pass_only_answers(lines)  # 过 the server answered: nobody was asked
    for name in {c.name for c in clients if not c.spectator}:
        sent = [s for c in clients if c.name == name for s in c.sent]  # one of them plays
        check_sent_against_log(sent, person_actions(lines, name, server),
                               f"room {code} ({variant}) {name}")
    for c in clients:
        check_frames_against_log(c, table)
        assert c.latest is not None
        # (as shown: without the bots who gave their seats up before the first hand)
        assert c.latest["room"]["ledger"] == table.standing, (code, c.name)
    assert sum(table.ledger.values()) == 0, table.ledger
    published = HTTP.get(f"{via.http}/api/rooms/{code}/hands").json()
    assert [h["number"] for h in published] == list(range(hands))
    assert published[-1]["ledger"] == table.standing  # (as shown, like the room's)
    log = HTTP.get(f"{via.http}/api/rooms/{code}/log")
    assert log.status_code == 200, log.text
    assert log.text == "".join(line + "\n" for line in lines)
    verdict = verify_text(log.text)
    assert verdict.startswith(f"ok: {variant}, {hands} hand(s)"), verdict


def describe(clients: Sequence[RoamingClient]) -> str:
    return "; ".join(f"{c.name}@{c.server.port}: {c.connections} connection(s), closes "
                     f"{c.close_codes} at (version, over) {[x[:2] for x in c.closed_at]}, "
                     f"last version {c.version}, gaps {[round(g, 2) for g in c.gaps]}, "
                     f"{len(c.acked)} acked, "
                     f"{sum(s.outcome == 'unanswered' for s in c.sent)} unanswered"
                     for c in clients)


async def seat_people(rooms: Sequence[tuple[str, dict[str, Any], list[tuple[str, str]]]],
                      servers: Sequence[Server], rng: random.Random
                      ) -> dict[str, list[RoamingClient]]:
    """Clients for every member (``(code, created, [(name, token)])``), each on a server
    chosen at random, connected."""
    out: dict[str, list[RoamingClient]] = {}
    for code, _, members in rooms:
        out[code] = [RoamingClient(servers, code, token, name, seed=rng.randrange(10**6),
                                   first=rng.randrange(len(servers)))
                     for name, token in members]
    await asyncio.gather(*(c.connect() for cs in out.values() for c in cs))
    return out


async def play_a_little(clients: dict[str, list[RoamingClient]], actions: int = 4) -> None:
    """Everybody plays until their room has ``actions`` acknowledged actions (mid-hand:
    a hand is longer), then stops: everyone of a room stops on the same condition, so
    none waits for one who stopped first."""

    def enough(code: str) -> Callable[[Client], bool]:
        return lambda _: sum(len(c.acked) for c in clients[code]) >= actions

    await asyncio.gather(*(c.roam(until=enough(code), timeout=40)
                           for code, cs in clients.items() for c in cs))


# --------------------------------------------------------------------------- SIGKILL


KILL_ROOMS = [("jingzhou", True), ("taiwan", False), ("golden", True), ("jingzhou", False),
              ("mcr", True), ("huanghuang", False)]
"""Six rooms: (variant, a second person joins through the other process's HTTP API)."""


def test_sigkill_failover(db: str, redis: str, tmp_path: Path) -> None:
    """Two processes, six rooms created on both, people on either process (not the
    owner's necessarily). Mid-hand, with actions in flight, one process is SIGKILLed: the
    other takes its rooms over from PostgreSQL, the clients come back by themselves with
    their last version, and every room plays to its end with nothing lost, nothing
    doubled, nothing shown that the log does not hold."""
    hands = 2
    rng = random.Random(2323)
    with cluster(db, redis, tmp_path) as servers:
        a, b = servers
        rooms: list[tuple[str, dict[str, Any], list[tuple[str, str]]]] = []
        for i, (variant, second) in enumerate(KILL_ROOMS):
            made_on, other = (a, b) if i % 2 == 0 else (b, a)
            host = unique("ann")
            room = create_room(made_on, host, variant=variant, hands=hands, **FAST)
            members = [(host, room["token"])]
            if second:
                name = unique("bob")
                j = join(other, room["code"], name)
                assert j["role"] == "player"
                members.append((name, j["token"]))
            rooms.append((room["code"], room, members))
        codes = [code for code, _, _ in rooms]
        variants = dict(zip(codes, [v for v, _ in KILL_ROOMS], strict=True))
        held = owners(redis, codes, servers)
        assert all(held[c] is not None for c in codes), held
        victim = a if sum(held[c] is a for c in codes) >= sum(held[c] is b for c in codes) \
            else b
        survivor = b if victim is a else a
        victims_rooms = [c for c in codes if held[c] is victim]
        assert victims_rooms, "the victim owns no room: the test would prove nothing"
        # One more room of the victim's whose person (on the survivor) stays idle until
        # the survivor has the room: taken by the sweep alone, no client asking for it.
        host = unique("ida")
        quiet = create_room(victim, host, variant="jingzhou", hands=hands, **FAST)
        idle = quiet["code"]
        assert owners(redis, [idle], servers)[idle] is victim
        codes.append(idle)
        variants[idle] = "jingzhou"

        async def go() -> tuple[dict[str, list[RoamingClient]], float, float, float]:
            clients = await seat_people(rooms, servers, rng)
            clients[idle] = [RoamingClient(servers, idle, quiet["token"], host, seed=9,
                                           first=servers.index(survivor))]
            await clients[idle][0].connect()
            everyone = [c for cs in clients.values() for c in cs]
            for cs in clients.values():
                assert (await cs[0].request("start"))["op"] == "ack"
            await play_a_little(clients)  # acknowledged actions in every room; then on
            playing = [code for code in codes if code != idle]
            sent = {code: sum(len(c.sent) for c in clients[code]) for code in playing}
            tasks = [asyncio.create_task(c.roam(timeout=70)) for c in everyone
                     if c.code != idle]
            await until(lambda: all(sum(len(c.sent) for c in clients[code]) > sent[code]
                                    for code in playing),
                        "every room played on", 30)  # actions in flight in every room
            for code in codes:
                assert not clients[code][0].over, f"room {code} finished before the kill"
            killed_at = time.monotonic()
            victim.kill()
            swept, taken = await asyncio.gather(
                asyncio.to_thread(watch_takeover, db, redis, [idle], survivor,
                                  TAKEOVER_BOUND),
                asyncio.to_thread(watch_takeover, db, redis, victims_rooms, survivor,
                                  TAKEOVER_BOUND))
            tasks.append(asyncio.create_task(clients[idle][0].roam(timeout=70)))
            await asyncio.gather(*tasks)
            return (clients, swept - killed_at, taken - killed_at,
                    time.monotonic() - killed_at)

        clients, swept, takeover, finished = run(go())
        victims_rooms.append(idle)
        everyone = [c for cs in clients.values() for c in cs]
        for code in victims_rooms:  # their clients were sent away and came back
            assert all(c.connections >= 2 for c in clients[code]), describe(clients[code])
        for c in everyone:  # and so was everybody whose websocket the victim held
            if c.home is victim:
                assert c.connections >= 2 and c.server is survivor, describe([c])
        for code in codes:
            assert room_info(survivor, code)["over"] is True
            check_room(db, code, clients[code], survivor, variants[code], hands)
        moved = sum(c.connections > 1 for c in everyone)
        print(f"SIGKILL: {len(victims_rooms)}/{len(codes)} rooms taken over in "
              f"{takeover:.2f} s (the idle one by the sweep in {swept:.2f} s), {moved}/"
              f"{len(everyone)} clients reconnected, all rooms "
              f"finished {finished:.1f} s after the kill; {describe(everyone)}")
        check_clean(survivor)


# --------------------------------------------------------------------------- SIGTERM


def test_graceful_stop_moves_rooms(db: str, redis: str, tmp_path: Path) -> None:
    """SIGTERM to one of two processes mid-match: it gives its leases up, the other owns
    its rooms within :data:`TAKEOVER_BOUND` seconds (measured from the signal), the
    clients come back by themselves and every room finishes."""
    hands = 2
    rng = random.Random(77)
    with cluster(db, redis, tmp_path) as servers:
        a, b = servers
        rooms = []
        for i in range(4):
            made_on = servers[i % 2]
            host = unique("ann")
            room = create_room(made_on, host, variant="jingzhou", hands=hands, **FAST)
            rooms.append((room["code"], room, [(host, room["token"])]))
        codes = [code for code, _, _ in rooms]
        held = owners(redis, codes, servers)
        assert all(held[c] is not None for c in codes), held
        stopping = a if sum(held[c] is a for c in codes) >= 1 else b
        other = b if stopping is a else a
        moving = [c for c in codes if held[c] is stopping]
        assert other.health()["owned"] + stopping.health()["owned"] == len(codes)
        stopping_id = stopping.health()["process"]

        async def go() -> tuple[dict[str, list[RoamingClient]], float, float]:
            clients = await seat_people(rooms, servers, rng)
            everyone = [c for cs in clients.values() for c in cs]
            for cs in clients.values():
                assert (await cs[0].request("start"))["op"] == "ack"
            await play_a_little(clients)  # mid-hand: then the stop
            signalled = time.monotonic()
            stop = asyncio.create_task(asyncio.to_thread(stopping.stop))
            taken = await asyncio.to_thread(watch_takeover, db, redis, moving, other,
                                            TAKEOVER_BOUND) - signalled
            await stop
            stopped = time.monotonic() - signalled
            # A graceful exit (uvicorn re-raises the SIGTERM it handled: -15), its
            # leases given up.
            assert stopping.proc is not None and stopping.proc.returncode in (0, -15), \
                stopping.stderr()
            leases = [redis_command(redis, "GET", LEASE_KEY.format(c)) for c in codes]
            assert stopping_id not in leases, leases

            def owns_every_live_room() -> bool:
                # a room that already ended owns no lease; the survivor counts a room it
                # took once it has loaded it, just after the lease shows in Redis
                live = sum(1 for c in codes if not room_info(other, c)["over"])
                return other.health()["owned"] == live

            await until(owns_every_live_room, "the survivor owns every live room",
                        TAKEOVER_BOUND)
            await asyncio.gather(*(c.roam(timeout=60) for c in everyone))
            return clients, taken, stopped

        clients, taken, stopped = run(go())
        everyone = [c for cs in clients.values() for c in cs]
        assert taken < TAKEOVER_BOUND
        for code in moving:
            for c in clients[code]:
                assert c.connections >= 2, describe([c])
                assert c.close_codes[0] in (1001, 1012), describe([c])
        for c in everyone:
            if c.home is stopping:
                assert c.connections >= 2 and c.server is other, describe([c])
        for code in codes:
            check_room(db, code, clients[code], other, "jingzhou", hands)
        print(f"SIGTERM: {len(moving)}/{len(codes)} rooms owned by the other process "
              f"{taken:.2f} s after the signal (the process exited after {stopped:.2f} s); "
              f"{describe(everyone)}")
        check_clean(other)
        assert "Traceback" not in stopping.stderr(), stopping.stderr()


def test_a_room_waiting_for_people_still_waits_on_another_process(
        db: str, redis: str, tmp_path: Path) -> None:
    """A room everybody left (``pause_empty``) finishes its hand and waits; when its
    process stops, the other process takes it over and it still waits — no hand dealt,
    nothing stored, the ledger where it was — until a player's connection comes back,
    through either process (issue 38)."""
    with cluster(db, redis, tmp_path) as servers:
        a, _ = servers
        host = unique("ann")
        room = create_room(a, host, variant="jingzhou", **{**FAST, "grace": 0})
        code = room["code"]
        held = owners(redis, [code], servers)[code]
        assert held is not None
        other = next(s for s in servers if s is not held)

        async def first() -> None:
            c = Client(a, code, room["token"], host, seed=9)
            await c.connect()
            assert (await c.request("start"))["op"] == "ack"
            await c.play(until=lambda c: len(c.acked) >= 2)
            await c.close()

        run(first())
        until_sync(lambda: room_info(a, code)["idle"], "the room waits for people", 30)
        info = room_info(a, code)
        left = info["hands"]  # 1, or more when a bot won before the host's answers were in
        assert left >= 1 and not info["in_hand"]
        lines = stored_lines(db, code)
        held.stop()  # its leases given up: the other process takes the room
        watch_takeover(db, redis, [code], other, TAKEOVER_BOUND)
        info = room_info(other, code)
        assert info["idle"] and info["hands"] == left
        # its ledger and log as the first owner left them (that an idle room deals nothing
        # while time passes is test_room_parts's, on a clock the test drives)
        assert not info["in_hand"] and stored_lines(db, code) == lines
        assert room_info(other, code)["ledger"] == info["ledger"]

        async def back() -> None:
            c = Client(other, code, room["token"], host, seed=10)
            await c.connect()
            await c.wait(lambda: bool(c.latest and c.latest["room"]["hands"] > left))
            assert (await c.request("end"))["op"] == "ack"
            await c.wait(lambda: c.over)
            await c.close()

        run(back())
        check_clean(other)


# --------------------------------------------------------------------------- HTTP


def test_http_across_processes(db: str, redis: str, tmp_path: Path) -> None:
    """A room created on one process is joined, shown, played over websocket and its
    hands, records and log fetched through the other; refusals are typed there too."""
    with cluster(db, redis, tmp_path) as (a, b):
        host = unique("ann")
        room = create_room(a, host, variant="jingzhou", hands=1, **FAST)
        code = room["code"]
        assert owners(redis, [code], [a, b])[code] is a, "the creating process owns it"
        assert (a.health()["owned"], b.health()["owned"]) == (1, 0)
        assert a.health()["process"] != b.health()["process"]
        # Joined and shown through B; the same room A shows.
        bob = unique("bob")
        bob_person = new_person(b, bob)  # the seat is his person's, joined through B
        j = join(b, code, bob, person=bob_person)
        assert j["role"] == "player" and j["code"] == code
        assert j["link"].startswith(b.http) and j["link"].endswith(f"/r/{code}?t={j['token']}")
        sue = unique("sue")
        s = join(b, code, sue, "spectator")
        assert s["role"] == "spectator"
        info = room_info(b, code)
        assert info == room_info(a, code)
        assert info["seats"][:2] == [host, bob] and sue in info["spectators"]
        assert info["host"] == host and info["started"] is False
        # Refusals through B: typed, with the owner's codes.
        r = HTTP.post(f"{b.http}/api/rooms/{code}/join", json={"name": bob})
        assert r.status_code == 400 and r.json()["error"]["code"], r.text
        r = HTTP.post(f"{b.http}/api/rooms/{code}/join",
                      json={"name": unique("x"), "role": "dealer"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
        for path in ("/api/rooms/999999", "/api/rooms/999999/hands", "/api/rooms/999999/log"):
            r = HTTP.get(b.http + path)
            assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_room", r.text
        r = HTTP.get(f"{b.http}/api/rooms/{code}/log")
        assert r.status_code == 409 and r.json()["error"]["code"] == "table_over", r.text
        assert HTTP.get(f"{b.http}/api/rooms/{code}/hands").json() == []
        me = HTTP.get(f"{b.http}/api/rooms/{code}/me", params={"token": j["token"]})
        assert me.status_code == 200 and me.json()["name"] == bob, me.text

        async def ws_refused(token: str) -> None:
            import websockets

            async with websockets.connect(f"{b.ws}/ws/{code}?token={token}") as ws:
                frame = json.loads(await ws.recv())
                assert frame["op"] == "error", frame
                assert frame["error"]["code"] == "unknown_token", frame
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

        run(ws_refused("forged"))

        async def play() -> list[RoamingClient]:
            h = RoamingClient([b], code, room["token"], host, seed=1)
            k = RoamingClient([b], code, j["token"], bob, seed=2)
            w = RoamingClient([b], code, s["token"], sue, spectator=True)
            for c in (h, k, w):
                await c.connect()
            assert (await h.request("start"))["op"] == "ack"
            assert b.health()["owned"] == 0 and a.health()["owned"] == 1  # forwarded
            await asyncio.gather(h.roam(timeout=60), k.roam(timeout=60), w.hold(60))
            for c in (h, k, w):
                await c.close()
            return [h, k, w]

        clients = run(play())
        assert all(c.connections == 1 for c in clients), describe(clients)
        assert all(not c.errors for c in clients), [c.errors for c in clients]
        check_room(db, code, clients, b, "jingzhou", 1)
        # Records through either process: the same.
        for path in ("hands", "log", "records"):
            via_a = HTTP.get(f"{a.http}/api/rooms/{code}/{path}")
            via_b = HTTP.get(f"{b.http}/api/rooms/{code}/{path}")
            assert via_a.status_code == via_b.status_code == 200, (path, via_b.text)
            assert via_a.content == via_b.content, path
        assert room_info(b, code)["over"] is True
        assert [h["room"] for h in my_history(a, bob_person)] == [code]
        for srv in (a, b):
            check_clean(srv)


# --------------------------------------------------------------------------- forwarding


FORWARD_ROOMS = [("jingzhou", 2), ("taiwan", 1), ("huanghuang", 4)]
"""(variant, people besides the host): 晃晃 with five people, so one waits each hand and
the seats rotate."""


def test_the_admin_ends_a_room_owned_by_another_process(
        db: str, redis: str, tmp_path: Path) -> None:
    """The admin page's End, asked of the process that does not own the room, reaches
    its owner through Redis (an ``end`` call): the match is closed and stored there,
    the room leaves every process's list; a second End is 409, an unknown code 404."""
    token = "admin-" + "t" * 26
    auth = {"Authorization": f"Bearer {token}"}
    with cluster(db, redis, tmp_path, env={"LAIZI_ADMIN_TOKEN": token}) as (a, b):
        room = create_room(a, unique("ann"), variant="jingzhou", **FAST)
        code = room["code"]
        assert owners(redis, [code], [a, b])[code] is a, "the creating process owns it"

        def listed(server: Server) -> list[str]:
            r = HTTP.get(f"{server.http}/admin/api/rooms", headers=auth)
            assert r.status_code == 200, r.text
            return [row["code"] for row in r.json()]

        assert code in listed(b)
        r = HTTP.post(f"{b.http}/admin/api/rooms/{code}/end", headers=auth, json={})
        assert r.status_code == 200 and r.json() == {"code": code, "over": True}, r.text
        assert code not in listed(a) and code not in listed(b)
        assert stored_room_status(db, code) == "over"
        r = HTTP.post(f"{b.http}/admin/api/rooms/{code}/end", headers=auth, json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "table_over", r.text
        r = HTTP.post(f"{b.http}/admin/api/rooms/999999/end", headers=auth, json={})
        assert r.status_code == 404, r.text
        for server in (a, b):
            check_clean(server)


def stored_room_status(db: str, code: str) -> str:
    stored = run(stored_room(db, code))
    assert stored is not None
    return str(stored.status)


def test_forwarding_to_the_owner(db: str, redis: str, tmp_path: Path) -> None:
    """No process dies: rooms are played to their end by people (and a spectator) whose
    websockets are all on the process that does *not* own the room — every message and
    every frame goes through Redis. Every frame passes ``check_frame`` (no concealed tile,
    secret answer, seed or wall leaks through the forwarding), and everything agrees with
    the stored log; a witness of the host on the owner saw the same events."""
    hands = 2
    with cluster(db, redis, tmp_path) as servers:
        a, b = servers
        rooms = []
        for variant, people in FORWARD_ROOMS:
            host = unique("ann")
            room = create_room(a, host, variant=variant, hands=hands, **FAST)
            members = [(host, room["token"], False)]
            for i in range(people):
                name = unique(f"p{i}")
                members.append((name, join(b, room["code"], name)["token"], False))
            name = unique("sue")
            members.append((name, join(b, room["code"], name, "spectator")["token"], True))
            rooms.append((room["code"], variant, members))
        codes = [code for code, _, _ in rooms]
        held = owners(redis, codes, servers)
        assert all(held[c] is not None for c in codes), held

        async def go() -> dict[str, tuple[list[RoamingClient], RoamingClient]]:
            out = {}
            for code, _, members in rooms:
                away = b if held[code] is a else a  # not the owner
                clients = [RoamingClient([away], code, token, name, spectator=spectator,
                                         seed=k) for k, (name, token, spectator)
                           in enumerate(members)]
                owner = held[code]
                assert owner is not None
                witness = RoamingClient([owner], code, members[0][1], members[0][0])
                out[code] = (clients, witness)
            every = [c for cs, w in out.values() for c in [*cs, w]]
            await asyncio.gather(*(c.connect() for c in every))
            for cs, _ in out.values():
                assert (await cs[0].request("start"))["op"] == "ack"
            await asyncio.gather(*(c.roam(timeout=70) if not c.spectator else c.hold(70)
                                   for cs, _ in out.values() for c in cs),
                                 *(w.hold(70) for _, w in out.values()))
            for c in every:
                await c.close()
            return out

        played = run(go())
        for code, variant, _ in rooms:
            clients, witness = played[code]
            assert all(c.connections == 1 for c in [*clients, witness]), describe(clients)
            assert all(s.outcome != "unanswered" for c in clients for s in c.sent)
            check_room(db, code, [*clients, witness], b, variant, hands)
            host = clients[0]
            assert [e for f in host.frames for e in f["events"]] == \
                [e for f in witness.frames for e in f["events"]]
            spectator = clients[-1]
            assert spectator.spectator
            assert all(f["view"].get("hand", []) == [] for f in spectator.frames)
            assert any(c.acked for c in clients[1:-1]), "the other people played"
            if variant == "huanghuang":
                waited = [c for c in clients[:-1] if any(
                    f["view"].get("seat") is None and f["room"]["in_hand"]
                    for f in c.frames)]
                assert waited, "nobody waited in a 5-person 晃晃 room"
        for srv in servers:
            check_clean(srv)


# --------------------------------------------------------------------------- the sweep


@contextlib.asynccontextmanager
async def two_halls(db: str, redis: str) -> AsyncIterator[tuple[Hall, Hall]]:
    """Two halls of several processes in one event loop (their sweeps and checks
    running, each test cancels those it drives by hand), stopped at the end."""
    from laizi.server.cluster import Cluster
    from laizi.server.hall import Hall
    from laizi.server.storage import Store

    a = Hall(Store(db), cluster=functools.partial(Cluster, redis))
    b = Hall(Store(db), cluster=functools.partial(Cluster, redis))
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        await b.stop()
        await a.stop()


async def _close_bus(closing: Hall, asking: Hall) -> None:
    """``closing`` stops listening, as a killed process does, and the call returns once
    Redis counts no subscriber on its channels: Redis notices a closed socket in its own
    time, so a check asked right after the close could still see it listening."""
    from laizi.server.leases import numsub

    assert closing.cluster is not None and asking.cluster is not None
    bus = closing.cluster.bus
    await bus.close()
    ask = asking.cluster.bus.ask
    for _ in range(250):
        (reply,) = await asyncio.wait_for(ask(("PUBSUB", "NUMSUB", *bus.channels)), 5)
        if not any(numsub(reply).values()):
            return
        await asyncio.sleep(POLL)
    raise AssertionError(f"Redis still counts {closing.cluster.id}'s subscriptions after 5 s")


async def _hand_the_sweep_to(sweeper: Hall, other: Hall, redis: str) -> None:
    """Stop both halls' own sweeps and let ``sweeper`` be elected at its next
    ``sweep_once``: ``other`` no longer stands, and its last election is answered (its
    connection keeps order) before the sweeper's key is removed."""
    assert sweeper.cluster is not None and other.cluster is not None
    for cluster in (sweeper.cluster, other.cluster):
        cluster._tasks[1].cancel()  # the sweep (the renewals keep running)
    other.cluster.candidate = False
    await other.cluster.bus.ask(("PING",))
    redis_command(redis, "DEL", "laizi:sweeper")


def test_the_sweep_works_from_an_old_list_of_live_rooms(db: str, redis: str) -> None:
    """The sweep lists the live rooms from PostgreSQL every ``LIVE_REFRESH`` seconds and
    asks Redis only in between. When a process is found gone it lists them again at
    once, so a room created after the last list is taken at the same sweep as the
    others; a room that ended after its list was made is never taken (PostgreSQL is
    asked before a room is taken). Two halls in one event loop, their sweeps driven by
    hand."""
    from laizi.server.rooms import RoomSettings

    def lease(code: str) -> str | None:
        return redis_command(redis, "GET", f"laizi:lease:{code}") or None

    async def main() -> None:
        async with two_halls(db, redis) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            await _hand_the_sweep_to(b, a, redis)  # b sweeps only when told to
            for task in b.cluster._tasks:
                task.cancel()
            settings = RoomSettings.from_json({"variant": "jingzhou", "clock": None})
            ended, host = await a.create(settings, "ann")
            moving, _ = await a.create(settings, "bob")
            b.cluster._live_due = 0.0
            await b.cluster.sweep_once()
            listed = set(b.cluster._live)
            assert {ended.code, moving.code} <= listed
            assert not b.cluster.owned, "a plays both rooms and listens"

            # A room that ends between the list and the sweep's look at it.
            await ended.handle(host, {"op": "end", "seq": 1})
            assert lease(ended.code) is None

            async def old_list() -> list[str]:
                return sorted(listed)

            store_list = b.store.live_rooms
            b.store.live_rooms = old_list  # type: ignore[method-assign]
            b.cluster._live_due = 0.0
            await b.cluster.sweep_once()
            assert ended.code not in b.cluster.owned and ended.code not in b.rooms
            assert ended.code not in b.cluster._live and lease(ended.code) is None
            b.store.live_rooms = store_list  # type: ignore[method-assign]

            # A room made after b's list; then a stops listening, as a killed process
            # does (its leases stay until they expire).
            late, _ = await a.create(settings, "cai")
            assert late.code not in b.cluster._live
            for task in a.cluster._tasks:
                task.cancel()
            await _close_bus(a, b)
            await b.cluster.sweep_once()
            for room in (moving, late):
                assert room.code in b.cluster.owned and room.code in b.rooms
                assert lease(room.code) == b.cluster.id
            assert ended.code not in b.cluster.owned and lease(ended.code) is None
            assert b.errors == 0

    run(main())


def test_one_process_sweeps_and_another_takes_over(db: str, redis: str) -> None:
    """Only the elected sweeper (``laizi:sweeper``) lists the live rooms and reads their
    leases: another process's sweep is one election and asks PostgreSQL nothing, so
    the sweep costs the same whatever the number of processes. When the sweeper stops
    listening (killed), the next process to sweep takes the election and the sweep."""

    async def main() -> None:
        async with two_halls(db, redis) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            await _hand_the_sweep_to(a, b, redis)
            await a.cluster.sweep_once()
            assert a.cluster.sweeping
            assert redis_command(redis, "GET", "laizi:sweeper") == a.cluster.id
            listed: list[str] = []
            store_list = b.store.live_rooms

            async def counted() -> list[str]:
                listed.append("b")
                return await store_list()

            b.store.live_rooms = counted  # type: ignore[method-assign]
            b.cluster._live_due = 0.0
            for _ in range(3):
                await b.cluster.sweep_once()
            assert not b.cluster.sweeping and listed == []
            await _close_bus(a, b)
            b.cluster.candidate = True
            await b.cluster.sweep_once()
            assert b.cluster.sweeping and listed == ["b"]
            assert redis_command(redis, "GET", "laizi:sweeper") == b.cluster.id

    run(main())


def test_a_new_room_is_parked_for_the_process_the_proxy_picks(db: str, redis: str) -> None:
    """With ``LAIZI_HALL_AFFINE`` a new room is parked: the process that made it puts
    it away and the first process asked for it (the one the proxy sends the room's code
    to) takes it, so its websockets need no hop; the sweep leaves a parked room alone,
    and any other process still forwards to the owner."""
    from laizi.server.rooms import Room, RoomSettings

    def lease(code: str) -> str | None:
        return redis_command(redis, "GET", f"laizi:lease:{code}") or None

    async def main() -> None:
        async with two_halls(db, redis) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            await _hand_the_sweep_to(b, a, redis)
            a.cluster.affine = True
            settings = RoomSettings.from_json({"variant": "jingzhou", "clock": None})
            room, host = await a.create(settings, "ann")
            code = room.code
            assert code not in a.rooms and code not in a.cluster.owned
            assert lease(code) == "parked"
            await b.cluster.sweep_once()
            assert b.cluster.sweeping and code not in b.rooms and lease(code) == "parked"

            where = await b.locate(code)
            assert isinstance(where, Room) and where is b.rooms[code]
            assert host.token in where.members and lease(code) == b.cluster.id
            assert await a.locate(code) == b.cluster.id  # the fallback: forwarded
            assert a.errors == 0 and b.errors == 0

            # A room parked but never asked for is taken by the sweep once its
            # parking ends (here: ended at once).
            other, _ = await a.create(settings, "bob")
            assert lease(other.code) == "parked"
            redis_command(redis, "DEL", f"laizi:lease:{other.code}")
            b.cluster._live_due = 0.0
            await b.cluster.sweep_once()
            assert other.code in b.rooms and lease(other.code) == b.cluster.id

    run(main())


def test_a_connection_opened_during_the_owners_check_is_kept(db: str, redis: str) -> None:
    """The owner's periodic check asks Redis whether the gateways of its remote
    connections still listen. A connection that opens while that question is on its way
    (its gateway not asked about) is kept, and served; one whose gateway stopped
    listening is ended at the next check. Two halls in one event loop, the owner's
    check driven by hand."""
    from laizi.server.rooms import RoomSettings

    async def main() -> None:
        async with two_halls(db, redis) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            owner, gateway = a.cluster, b.cluster.id
            for task in owner._tasks:  # a checks only when told to
                task.cancel()
            settings = RoomSettings.from_json({"variant": "jingzhou", "clock": None})
            room, host = await a.create(settings, "ann")
            cid = "c0ffee"
            real_ask = owner.bus.ask

            async def ask_while_one_opens(*commands: tuple[str, ...]) -> list[Any]:
                sent = asyncio.ensure_future(real_ask(*commands))
                await asyncio.sleep(0)  # the question is written: now the open arrives
                owner.forward.to_owner("o " + json.dumps({
                    "room": room.code, "conn": cid, "gw": gateway,
                    "token": host.token, "version": 0}))
                return await sent

            owner.bus.ask = ask_while_one_opens  # type: ignore[method-assign]
            await owner.keep_once()
            owner.bus.ask = real_ask  # type: ignore[method-assign]
            assert cid in owner.forward.remote, "a connection opened mid-check was ended"
            owner.forward.to_owner(f"m {cid}\n" + json.dumps({"op": "ready", "seq": 1}))
            await until(lambda: bool(host.answers), "the remote message was answered")
            assert 1 in host.answers, "the remote connection's message was not served"
            await owner.keep_once()
            assert cid in owner.forward.remote, "b listens: its connection stays"
            await _close_bus(b, a)
            published: list[tuple[str, str]] = []
            real_publish = owner.forward.publish

            def publish(channel: str, data: str, on_nobody: Any = None) -> None:
                published.append((channel, data))
                real_publish(channel, data, on_nobody)

            owner.forward.publish = publish
            await owner.keep_once()
            assert cid not in owner.forward.remote
            # and told to close, in case b was only subscribing again
            assert (f"laizi:gw:{gateway}", f"x {cid} 1012") in published
            assert a.errors == 0

    run(main())


def _kill_subscriber(redis: str, process: str) -> None:
    """Redis drops a process's subscriber connection (``CLIENT KILL``), as a network
    blip or a Redis fail-over does."""
    for line in redis_command(redis, "CLIENT", "LIST").splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if fields.get("name") == f"laizi:{process}:sub":
            redis_command(redis, "CLIENT", "KILL", "ID", fields["id"])
            return
    raise AssertionError(f"no subscriber connection of {process}")


def test_a_lost_subscription_sends_forwarded_websockets_back(db: str, redis: str) -> None:
    """What is published to a process while its subscriber connection is down is lost
    (a client's message, a frame). When it listens again, every websocket whose
    messages cross Redis is sent back (code 1012) to reconnect with its version: on the
    gateway when the gateway's connection was lost, and through the gateway when the
    owner's was. Two halls in one event loop, a forwarded websocket of b to a's room."""
    from laizi.server.rooms import RoomSettings

    async def main() -> None:
        async with two_halls(db, redis) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            settings = RoomSettings.from_json({"variant": "jingzhou", "clock": None})
            room, host = await a.create(settings, "ann")
            for lost in (a.cluster, b.cluster):
                frames: list[str] = []
                closed: list[int] = []
                inbox: asyncio.Queue[str | None] = asyncio.Queue()

                async def send_text(text: str, frames: list[str] = frames) -> None:
                    frames.append(text)

                async def close(code: int, closed: list[int] = closed) -> None:
                    closed.append(code)

                proxy = asyncio.create_task(b.cluster.proxy(
                    a.cluster.id, room.code, host.token, 0, inbox.get, send_text, close))
                await until(lambda f=frames: bool(f), "the forwarded websocket's first frame")
                _kill_subscriber(redis, lost.id)
                await until(lambda c=closed: bool(c), "the forwarded websocket closed")
                assert closed == [1012], (lost is a.cluster, closed)
                inbox.put_nowait(None)
                await asyncio.wait_for(proxy, 5)
                await until(lambda: not a.cluster.forward.remote,
                            "the owner forgot the remote connection")

    run(main())


# --------------------------------------------------------------------------- starting


def test_unloadable_room_is_not_retried_at_every_sweep(
        db: str, redis: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A live room no process can rebuild (damaged settings here; a log of another rules
    version in an upgrade) is reported when the sweep fails to load it, then left alone
    for a minute (``UNLOADABLE_RETRY``), not tried and reported again every second; it
    stays as stored, for a process that can play it. One hall, its sweep driven by hand
    on a clock of the test's own."""
    from laizi.server.cluster import UNLOADABLE_RETRY, Cluster
    from laizi.server.hall import Hall
    from laizi.server.storage import Store

    code = str(random.randrange(10**15, 10**16))
    now = [1000.0]

    async def main() -> None:
        hall = Hall(Store(db), cluster=functools.partial(Cluster, redis))
        assert hall.cluster is not None
        hall.cluster.clock = lambda: now[0]
        await hall.start()
        try:
            for task in hall.cluster._tasks:  # it sweeps only when told to
                task.cancel()
            await hall.store.create_room(code, "jingzhou", {"no": "variant"}, "ab" * 32,
                                         ['{"type":"table"}'])
            await hall.cluster.sweep_once()
            assert hall.errors == 1, "the sweep did not try the room"
            for _ in range(int(UNLOADABLE_RETRY) - 1):  # a sweep a second for a minute
                now[0] += 1.0
                await hall.cluster.sweep_once()
            assert hall.errors == 1, "the room was tried again within the minute"
            assert code not in hall.rooms and code not in hall.cluster.owned
            now[0] += 1.5
            await hall.cluster.sweep_once()
            assert hall.errors == 2, "the room was not tried again after a minute"
            assert code in await hall.store.live_rooms()
            assert redis_command(redis, "GET", f"laizi:lease:{code}") in ("", None)
        finally:
            await hall.stop()

    run(main())
    assert "unknown room setting" in capsys.readouterr().err


async def stored_codes(db: str) -> list[str]:
    from laizi.server.storage import Store

    store = Store(db)
    try:
        return await store.live_rooms()
    finally:
        await store.close()


def _workers(pid: int) -> set[int]:
    """The worker processes of a ``laizi serve --workers N`` (children that are not
    multiprocessing's resource tracker)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return set()
    out = set()
    for child in map(int, children):
        with contextlib.suppress(OSError):
            if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                out.add(child)
    return out


def test_start_together_and_workers(db: str, redis: str, tmp_path: Path) -> None:
    """Two processes started at the same moment on a fresh database (one migrates the
    schema, the other waits for it: no race), each with its own process id; then
    ``laizi serve --workers 2`` on the same hall: two worker processes on one port; a
    room created through it is played to its end from another process, and its SIGKILL
    leaves no worker behind."""
    with cluster(db, redis, tmp_path, together=True) as (a, b):
        assert a.health()["process"] != b.health()["process"]
        w = Server(db, tmp_path, redis_url=redis, extra_args=("--workers", "2"))
        try:
            w.start()
            assert w.proc is not None
            workers = _workers(w.proc.pid)
            assert len(workers) == 2, (workers, w.stderr())
            seen = {w.health()["process"]}
            for _ in range(60):  # a new connection each: either worker may answer
                if len(seen) == 2:
                    break
                with httpx.Client(timeout=10) as fresh:
                    seen.add(fresh.get(f"{w.http}/healthz").json()["process"])
            assert len(seen) == 2, seen
            assert seen.isdisjoint({a.health()["process"], b.health()["process"]})
            host = unique("ann")
            room = create_room(w, host, variant="jingzhou", hands=1, **FAST)
            code = room["code"]
            name = unique("bob")
            bob = join(b, code, name)

            async def play() -> list[RoamingClient]:
                h = RoamingClient([a], code, room["token"], host, seed=5)
                k = RoamingClient([w], code, bob["token"], name, seed=6)
                for c in (h, k):
                    await c.connect()
                assert (await h.request("start"))["op"] == "ack"
                await asyncio.gather(h.roam(timeout=60), k.roam(timeout=60))
                for c in (h, k):
                    await c.close()
                return [h, k]

            clients = run(play())
            check_room(db, code, clients, a, "jingzhou", 1)
            check_clean(w)
            w.kill()

            def left() -> set[int]:
                return {p for p in workers if Path(f"/proc/{p}").exists()
                        and "zombie" not in Path(f"/proc/{p}/status").read_text().lower()}

            until_sync(lambda: not left(), "the workers end with their server", 5)
            print(f"--workers 2: processes {sorted(seen)} answered /healthz; "
                  f"{describe(clients)}")
        finally:
            w.kill()
        for srv in (a, b):
            check_clean(srv)


@given(st.lists(st.text()))
def test_pack_round_trips_any_messages(messages: list[str]) -> None:
    """Several messages in one Redis message come out as they went in, in order (any
    text: newlines, colons, digits, other scripts)."""
    from laizi.server.bus import pack, unpack

    assert unpack(pack(messages)) == messages
