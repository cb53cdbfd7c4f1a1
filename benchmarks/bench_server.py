"""The hall under load: rooms of bot clients over loopback websockets.

    python benchmarks/bench_server.py --rooms 300 --seconds 60
    python benchmarks/bench_server.py --url http://127.0.0.1:8765 --rooms 50 --seconds 20 --json
    python benchmarks/bench_server.py --processes 2 --db postgresql+asyncpg://laizi@127.0.0.1/bench
    python benchmarks/bench_server.py --workers 2 --db postgresql+asyncpg://laizi@127.0.0.1/bench

Starts ``laizi serve`` on a free port with a fresh SQLite file (or uses ``--url``), creates
``--rooms`` rooms (Jingzhou by default: three seats, every seat a websocket client that
answers its latest prompt with a seeded random choice after a think time: 0.5-1.5 ×
``--think`` seconds, default 1, a quick person's pace; ``--think 0`` answers at once and
saturates the server, so latency is then queueing; no clocks, no server-side delays) and
runs them for ``--seconds``, counted from when every room is seated and playing (room
creation is not measured). Then every room is ended and its log fetched, to count the
acknowledged actions that are missing from it (``lost``) or in it twice.

Prints accepted actions per second, p50 / p99 latency from an action sent to its ack and to
the last seat's update (turn actions: every seat sees them), errors, lost, and the server's
CPU per accepted action (from /proc, when the server is ours), and the clients' own CPU per
action: a control, since they do the same work in every set-up (on a machine they share
with the servers, a rise in theirs is contention, not the server). ``--json`` puts one
JSON object on the last line.

Several processes (docs/deploy.md): ``--processes N`` starts N ``laizi serve --redis``
side by side, one port each, and spreads the rooms and every client's websocket over them
round-robin (so most clients are not on their room's owner: their messages are forwarded;
``--direct`` puts each room's websockets on its owner instead, to tell the hop's cost from
what several processes cost without it);
``--workers N`` starts one ``laizi serve --workers N`` (N processes on one port). Both use
``--redis URL``, or a private ``redis-server`` on a free port; ``--db`` is the database
(default a fresh SQLite file; for several processes a PostgreSQL database is
recommended: ``postgresql+asyncpg://…``). ``--url`` takes a comma-separated list of a
running hall's processes. The server CPU per action is then the sum over every server
process and its children (uvicorn's workers, found under /proc), and Redis's CPU per
action (its ``INFO cpu``) is printed apart, and so is the load each process carries
(``actions_per_s_per_process``): one process's CPU per action falls as its load rises, so
N processes are compared with one both at the same ``--rooms`` and at N times them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench_procs import (  # the script's directory is on sys.path
    _cpu_between,
    _private_redis,
    _redis_commands,
    _redis_cpu,
    _rss,
    _servers,
    _switches,
    _tree_cpu,
)


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: int = 0
    stale: int = 0
    acked: dict[str, int] = field(default_factory=dict)
    started: int = 0


async def _client(url: str, code: str, token: str, seat_hint: int, stats: Stats,
                  room_sent: dict[int, float], seen: dict[int, set[int]], seats: int,
                  stop: asyncio.Event, rng: random.Random, think: float) -> None:
    """One seat: reads every frame, answers only the newest state (as a real client)."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/{code}?token={token}"
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        waiting: dict[int, float] = {}
        latest: list[dict[str, Any]] = []
        fresh = asyncio.Event()

        async def reader() -> None:
            async for raw in ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                op = frame.get("op")
                if op == "ack" and frame.get("seq") in waiting:
                    stats.acks.append(now - waiting.pop(frame["seq"]))
                    stats.accepted += 1
                    stats.acked[code] = stats.acked.get(code, 0) + 1
                elif op == "error":
                    waiting.pop(frame.get("seq"), None)
                    if frame["error"]["code"] == "stale_version":
                        stats.stale += 1
                    else:
                        stats.errors += 1
                elif op == "state":
                    for key, t0 in list(room_sent.items()):
                        got = seen.setdefault(key, set())
                        if seat_hint not in got and now >= t0:
                            got.add(seat_hint)
                            if len(got) == seats:
                                stats.updates.append(now - t0)
                                room_sent.pop(key, None)
                                seen.pop(key, None)
                    latest[:] = [frame]
                    fresh.set()

        task = asyncio.create_task(reader())
        seq = 0
        answered = -1
        try:
            while not stop.is_set() and not task.done():
                try:
                    await asyncio.wait_for(fresh.wait(), timeout=0.5)
                except TimeoutError:
                    continue
                fresh.clear()
                frame = latest[0]
                if frame["room"]["over"]:
                    return
                if not frame["legal"] or frame["version"] == answered:
                    continue
                if think:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    if latest[0] is not frame:
                        continue  # something newer came meanwhile
                legal = frame["legal"]
                wins = [a for a in legal if a["type"] == "win"]
                action = wins[0] if wins else rng.choice(legal)
                seq += 1
                answered = frame["version"]
                t0 = time.perf_counter()
                waiting[seq] = t0
                if frame["view"]["phase"] == "turn":
                    room_sent[seq * 16 + seat_hint] = t0
                await ws.send(json.dumps({"op": "act", "seq": seq, "action": action,
                                          "version": frame["version"]}))
        finally:
            # Read the answers still on their way, so that every action the server
            # acknowledged is counted (else it shows up as in the log but never acked).
            deadline = time.monotonic() + 10
            while waiting and not task.done() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            task.cancel()


async def _room(urls: list[str], spread: Iterator[int], http: httpx.AsyncClient,
                variant: str, i: int, stats: Stats, stop: asyncio.Event, think: float,
                direct: bool = False, affine: bool = False) -> tuple[str, str]:
    """One room: created on process ``i`` (round-robin: the creator owns it, so the rooms
    are spread evenly), each seat's websocket on the next process of ``spread`` (the
    clients round-robin over ``urls``), or with ``direct`` on the creator. ``affine``:
    every request naming the room after its creation goes to the process its code hashes
    to, as a proxy's ``hash $laizi_room consistent`` does (docs/deploy.md)."""
    url = urls[i % len(urls)]
    r = await http.post(f"{url}/api/rooms", json={"name": f"host{i}", "settings": {
        "variant": variant, "clock": None, "claim_min": 0, "bot_delay": 0, "between": 0,
        "grace": 600}})
    r.raise_for_status()
    code, host = r.json()["code"], r.json()["token"]
    if affine:
        url = urls[zlib.crc32(code.encode()) % len(urls)]
        direct = True
    tokens = [host]
    seats = int(r.json().get("seats", 0)) or {"jingzhou": 3}.get(variant, 4)
    for k in range(1, seats):
        j = await http.post(f"{url}/api/rooms/{code}/join",
                            json={"name": f"p{i}-{k}", "role": "player"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    sent: dict[int, float] = {}
    seen: dict[int, set[int]] = {}
    clients = [asyncio.create_task(_client(url if direct else urls[next(spread) % len(urls)],
                                           code, t, k, stats,
                                           sent, seen, seats, stop,
                                           random.Random(i * 10 + k), think))
               for k, t in enumerate(tokens)]
    await asyncio.sleep(0.05)
    async with websockets.connect(url.replace("http", "ws", 1) +
                                  f"/ws/{code}?token={host}") as ws:
        await ws.recv()
        await ws.send(json.dumps({"op": "start", "seq": 1}))
        await ws.recv()
    stats.started += 1
    await stop.wait()
    await asyncio.wait(clients, timeout=12)  # each reads its last answers (see _client)
    for c in clients:
        if c.done() and not c.cancelled() and c.exception() is not None:
            print(f"client failed: {c.exception()!r}", file=sys.stderr)
            stats.errors += 1
        c.cancel()
    await asyncio.gather(*clients, return_exceptions=True)
    return code, host


async def _end(url: str, code: str, host: str) -> None:
    async with websockets.connect(url.replace("http", "ws", 1) +
                                  f"/ws/{code}?token={host}") as ws:
        await ws.recv()
        await ws.send(json.dumps({"op": "end", "seq": 1}))
        while True:
            frame = json.loads(await ws.recv())
            if frame.get("op") in ("ack", "error"):
                return


async def run(url: str | list[str], rooms: int, seconds: float, variant: str,
              pid: int | list[int] | None, think: float = 0.0,
              redis_url: str | None = None, direct: bool = False,
              affine: bool = False) -> dict[str, Any]:
    """Measure a hall: ``url`` one process or several (rooms and websockets spread over
    them round-robin; ``direct``: each room's websockets on its owner), ``pid`` the server
    process(es) whose CPU to count (with their children), ``redis_url`` the Redis whose
    CPU to count apart."""
    urls = [url] if isinstance(url, str) else list(url)
    pids = [] if pid is None else [pid] if isinstance(pid, int) else list(pid)
    spread = itertools.count()
    stats = Stats()
    stop = asyncio.Event()
    rss0 = _rss(pids)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        tasks = []
        began = time.perf_counter()
        for i in range(rooms):
            tasks.append(asyncio.create_task(_room(urls, spread, http, variant, i, stats,
                                                   stop, think, direct, affine)))
            if i % 20 == 19:
                await asyncio.sleep(0.2)
        # Measure play, not the set-up: every room created, seated and started (or
        # failed), then a second more for the first deals.
        while stats.started + sum(t.done() for t in tasks) < rooms:
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        print(f"bench_server: {stats.started} rooms started in "
              f"{time.perf_counter() - began:.1f} s; measuring for {seconds:g} s",
              file=sys.stderr, flush=True)
        cpu0 = _tree_cpu(pids) if pids else None
        switches0 = _switches(pids)
        redis0 = _redis_cpu(redis_url)
        commands0 = _redis_commands(redis_url)
        accepted0, t0, client0 = stats.accepted, time.perf_counter(), time.process_time()
        stats.acks.clear()
        stats.updates.clear()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        client_cpu = time.process_time() - client0
        accepted = stats.accepted - accepted0
        rss1 = _rss(pids)
        commands1 = _redis_commands(redis_url)
        cpu = _cpu_between(cpu0, _tree_cpu(pids)) if cpu0 is not None else None
        switches = _switches(pids) - switches0
        redis1 = _redis_cpu(redis_url)
        redis_cpu = redis1 - redis0 if redis0 is not None and redis1 is not None else None
        acks, updates = sorted(stats.acks), sorted(stats.updates)
        stop.set()
        made = await asyncio.gather(*tasks, return_exceptions=True)
        lost = 0
        twice = 0
        for k, m in enumerate(made):
            if isinstance(m, BaseException):
                stats.errors += 1
                continue
            code, host = m
            any_url = urls[k % len(urls)]
            await _end(any_url, code, host)
            log = (await http.get(f"{any_url}/api/rooms/{code}/log")).text.splitlines()
            actions = sum(1 for line in log if '"type":"action"' in line)
            acked = stats.acked.get(code, 0)
            lost += max(0, acked - actions)
            twice += max(0, actions - acked)

    def q(xs: list[float], p: float) -> float:
        return round(1000 * xs[min(len(xs) - 1, int(p * len(xs)))], 2) if xs else 0.0

    return {
        "rooms": rooms, "seconds": round(elapsed, 1), "variant": variant, "think_s": think,
        "actions_per_s": round(accepted / elapsed, 1),
        "p50_ms": q(updates, 0.5), "p99_ms": q(updates, 0.99),
        "ack_p50_ms": q(acks, 0.5), "ack_p99_ms": q(acks, 0.99),
        "errors": stats.errors, "stale": stats.stale, "lost": lost,
        "unacked_in_log": twice,
        "server_cpu_ms_per_action": round(1000 * cpu / accepted, 3) if cpu and accepted
        else None,
        # What the servers spend whatever the load (leases, sweeps): the share of a core
        # they use, idle rooms included.
        "server_cpu_percent": round(100 * cpu / elapsed, 1) if cpu is not None else None,
        "server_switches_per_action": round(switches / accepted, 2) if pids and accepted
        else None,
        # The servers' memory grown by the rooms (RSS, /proc), a room's share of it.
        "server_mib_per_room": round((rss1 - rss0) / 2**20 / rooms, 3) if pids else None,
        # Everything Redis did (INFO commandstats' total), a second of play, from setup
        # during the measure: leases, sweeps, messages.
        "redis_commands_per_s": round((commands1 - commands0) / elapsed, 1)
        if commands0 is not None and commands1 is not None else None,
        "median_update_ms": round(1000 * statistics.median(updates), 2) if updates else 0.0,
        # The clients do the same work per action in every set-up: a change in theirs
        # is the machine's (contention, clock), not the server's.
        "client_cpu_ms_per_action": round(1000 * client_cpu / accepted, 3) if accepted
        else None,
    } | ({} if len(urls) == 1 and len(pids) <= 1 and redis_url is None else {
        "processes": len(urls),
        "server_processes": len(_tree_cpu(pids)) if pids else None,
        "redis_cpu_ms_per_action": round(1000 * redis_cpu / accepted, 3)
        if redis_cpu is not None and accepted else None,
    })



def _measure(args: argparse.Namespace, processes: int, affine: bool,
             redis_url: str | None) -> dict[str, Any]:
    """One run of ``--compare``: ``processes`` servers on ``--db`` (with Redis when
    more than one), ``--rooms`` rooms."""
    several = processes > 1
    with _servers(args.db, processes, 1, redis_url if several else None,
                  affine) as (urls, pids):
        return asyncio.run(run(urls if several else urls[0], args.rooms, args.seconds,
                               args.variant, pids, args.think,
                               redis_url if several else None, False, affine))


def compare(args: argparse.Namespace, redis_url: str) -> dict[str, Any]:
    """``--compare N``: N interleaved rounds of one process and of two processes with
    room-affine routing (``--affine``) at the same total load (``--rooms``); the
    medians of server CPU per action, their ratio, and what 10,000 rooms need."""
    one: list[dict[str, Any]] = []
    two: list[dict[str, Any]] = []
    for k in range(args.compare):
        one.append(_measure(args, 1, False, None))
        two.append(_measure(args, 2, True, redis_url))
        print(f"bench_server: round {k + 1}: 1 process "
              f"{one[-1]['server_cpu_ms_per_action']} ms/action, 2 processes "
              f"{two[-1]['server_cpu_ms_per_action']} ms/action", file=sys.stderr)

    def median(runs: list[dict[str, Any]], key: str) -> float:
        return float(statistics.median(float(r[key] or 0) for r in runs))

    cpu1, cpu2 = median(one, "server_cpu_ms_per_action"), median(two, "server_cpu_ms_per_action")
    per_room = median(two, "actions_per_s") / args.rooms  # actions a second a room plays
    rooms = 10_000
    return {
        "rounds": args.compare, "rooms": args.rooms, "seconds": args.seconds,
        "one_cpu_ms_per_action": [r["server_cpu_ms_per_action"] for r in one],
        "two_cpu_ms_per_action": [r["server_cpu_ms_per_action"] for r in two],
        "one_median": cpu1, "two_median": cpu2,
        "ratio": round(cpu2 / cpu1, 3) if cpu1 else None,
        "round_ratios": [round(b["server_cpu_ms_per_action"] / a["server_cpu_ms_per_action"], 3)
                         for a, b in zip(one, two, strict=True)
                         if a["server_cpu_ms_per_action"] and b["server_cpu_ms_per_action"]],
        "redis_cpu_ms_per_action": median(two, "redis_cpu_ms_per_action"),
        "two_switches_per_action": median(two, "server_switches_per_action"),
        "one_switches_per_action": median(one, "server_switches_per_action"),
        "client_cpu_ms_per_action_median": median(one + two, "client_cpu_ms_per_action"),
        "errors": sum(r["errors"] for r in one + two),
        "lost": sum(r["lost"] for r in one + two),
        "actions_per_s_per_room": round(per_room, 3),
        "server_mib_per_room": median(two, "server_mib_per_room"),
        "redis_commands_per_s_per_room": round(
            median(two, "redis_commands_per_s") / args.rooms, 3),
        # 10,000 rooms at the same pace: the cores of two-process CPU per action (the
        # processes at this load; fuller processes cost less), their memory, Redis.
        "estimate_10k_rooms": {
            "actions_per_s": round(rooms * per_room),
            "cores": round(rooms * per_room * cpu2 / 1000, 2),
            "memory_gib": round(rooms * median(two, "server_mib_per_room") / 1024, 2),
            # Redis counts the commands inside scripts: most are the GET and PEXPIRE
            # of each lease's renewal (one EVAL a process a third of a lease).
            "redis_ops_per_s": round(rooms * median(two, "redis_commands_per_s")
                                     / args.rooms),
            "redis_cores": round(rooms * per_room * median(two, "redis_cpu_ms_per_action")
                                 / 1000, 2),
        },
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", default=None,
                   help="a running hall (default: start one); several processes of one "
                        "hall: their URLs, comma-separated")
    p.add_argument("--rooms", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--variant", default="jingzhou")
    p.add_argument("--think", type=float, default=1.0,
                   help="each client waits 0.5-1.5 x THINK seconds before it answers (a "
                        "person's pace); 0: at once (the server saturates)")
    p.add_argument("--processes", type=int, default=1,
                   help="laizi serve processes side by side, one port each (clients "
                        "spread round-robin over them; needs Redis)")
    p.add_argument("--direct", action="store_true",
                   help="with --processes: every websocket on its room's owner, nothing "
                        "forwarded (what several processes cost without the hop)")
    p.add_argument("--affine", action="store_true",
                   help="with --processes: the servers park new rooms "
                        "(LAIZI_HALL_AFFINE=1) and every request naming a room goes to "
                        "the process its code hashes to, as a hashing proxy does")
    p.add_argument("--compare", type=int, default=0, metavar="ROUNDS",
                   help="interleaved rounds of 1 process and of 2 processes --affine at "
                        "the same --rooms (needs --db): medians, their ratio, and an "
                        "estimate for 10,000 rooms")
    p.add_argument("--workers", type=int, default=1,
                   help="laizi serve --workers N: N processes on one port (needs Redis)")
    p.add_argument("--redis", default=None,
                   help="Redis URL for several processes (default: a private "
                        "redis-server on a free port)")
    p.add_argument("--db", default=None,
                   help="the hall's database (default: a fresh SQLite file; for several "
                        "processes PostgreSQL is recommended, postgresql+asyncpg://…)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.processes < 1 or args.workers < 1:
        p.error("--processes and --workers are at least 1")
    several = args.processes > 1 or args.workers > 1
    if args.compare:
        if args.db is None:
            p.error("--compare needs --db (PostgreSQL)")
        with contextlib.ExitStack() as stack:
            redis_url = args.redis or stack.enter_context(_private_redis())[0]
            out = compare(args, redis_url)
        for k, v in out.items():
            print(f"{k:32} {v}")
        print(json.dumps(out) if args.json else "")
        return 0 if out["errors"] == 0 and out["lost"] == 0 else 1
    with contextlib.ExitStack() as stack:
        redis_url = args.redis
        redis_pid = None
        if redis_url is None and several and args.url is None:
            redis_url, redis_pid = stack.enter_context(_private_redis())
        if args.url is not None:
            urls = [u.strip().rstrip("/") for u in args.url.split(",") if u.strip()]
            pids: list[int] = []
        else:
            db = args.db
            if db is None:
                db = f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
            if several and db.startswith("sqlite"):
                print("bench_server: several processes on one SQLite file (their writes "
                      "take turns); --db postgresql+asyncpg://… is recommended",
                      file=sys.stderr)
            urls, pids = stack.enter_context(_servers(db, args.processes, args.workers,
                                                      redis_url if several else None,
                                                      args.affine))
        out = asyncio.run(run(urls if len(urls) > 1 else urls[0], args.rooms, args.seconds,
                              args.variant, pids or None, args.think,
                              redis_url if several or args.redis else None, args.direct,
                              args.affine))
        if several:
            # A process's CPU per action falls as its own load rises (its event loop
            # wakes for several events at once): compare set-ups at the same load per
            # process as well as at the same total load (docs/deploy.md).
            out["actions_per_s_per_process"] = round(
                out["actions_per_s"] / (args.processes * args.workers), 1)
            out["workers"] = args.workers
            out["direct"] = args.direct
            out["affine"] = args.affine
            out["redis_private"] = redis_pid is not None
    if not args.json:
        for k, v in out.items():
            print(f"{k:28} {v}")
    print(json.dumps(out) if args.json else "")
    return 0 if out["errors"] == 0 and out["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
