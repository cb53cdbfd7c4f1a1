"""The hall under load: rooms of bot clients over loopback websockets.

    python benchmarks/bench_server.py --rooms 300 --seconds 60
    python benchmarks/bench_server.py --url http://127.0.0.1:8765 --rooms 50 --seconds 20 --json

Starts ``laizi serve`` on a free port with a fresh SQLite file (or uses ``--url``), creates
``--rooms`` rooms (Jingzhou by default: three seats, every seat a websocket client that
answers its latest prompt with a seeded random choice, at once or after ``--think``; no
clocks, no server-side delays) and
runs them for ``--seconds``. Then every room is ended and its log fetched, to count the
acknowledged actions that are missing from it (``lost``) or in it twice.

Prints accepted actions per second, p50 / p99 latency from an action sent to its ack and to
the last seat's update (turn actions: every seat sees them), errors, lost, and the server's
CPU per accepted action (from /proc, when the server is ours). ``--json`` puts one JSON
object on the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: int = 0
    stale: int = 0
    acked: dict[str, int] = field(default_factory=dict)


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
            task.cancel()


async def _room(url: str, http: httpx.AsyncClient, variant: str, i: int, stats: Stats,
                stop: asyncio.Event, think: float) -> tuple[str, str]:
    r = await http.post(f"{url}/api/rooms", json={"name": f"host{i}", "settings": {
        "variant": variant, "clock": None, "claim_min": 0, "bot_delay": 0, "between": 0,
        "grace": 600}})
    r.raise_for_status()
    code, host = r.json()["code"], r.json()["token"]
    tokens = [host]
    seats = int(r.json().get("seats", 0)) or {"jingzhou": 3}.get(variant, 4)
    for k in range(1, seats):
        j = await http.post(f"{url}/api/rooms/{code}/join",
                            json={"name": f"p{i}-{k}", "role": "player"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    sent: dict[int, float] = {}
    seen: dict[int, set[int]] = {}
    clients = [asyncio.create_task(_client(url, code, t, k, stats, sent, seen, seats, stop,
                                           random.Random(i * 10 + k), think))
               for k, t in enumerate(tokens)]
    await asyncio.sleep(0.05)
    async with websockets.connect(url.replace("http", "ws", 1) +
                                  f"/ws/{code}?token={host}") as ws:
        await ws.recv()
        await ws.send(json.dumps({"op": "start", "seq": 1}))
        await ws.recv()
    await stop.wait()
    for c in clients:
        if c.done() and c.exception() is not None:
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


async def run(url: str, rooms: int, seconds: float, variant: str,
              pid: int | None, think: float = 0.0) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        tasks = []
        for i in range(rooms):
            tasks.append(asyncio.create_task(_room(url, http, variant, i, stats, stop,
                                                   think)))
            if i % 20 == 19:
                await asyncio.sleep(0.2)
        await asyncio.sleep(2.0)  # every room seated and started
        cpu0 = _cpu_seconds(pid) if pid else None
        accepted0, t0 = stats.accepted, time.perf_counter()
        stats.acks.clear()
        stats.updates.clear()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        accepted = stats.accepted - accepted0
        cpu = (_cpu_seconds(pid) - cpu0) if pid and cpu0 is not None else None
        acks, updates = sorted(stats.acks), sorted(stats.updates)
        stop.set()
        made = await asyncio.gather(*tasks, return_exceptions=True)
        lost = 0
        twice = 0
        for m in made:
            if isinstance(m, BaseException):
                stats.errors += 1
                continue
            code, host = m
            await _end(url, code, host)
            log = (await http.get(f"{url}/api/rooms/{code}/log")).text.splitlines()
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
        "median_update_ms": round(1000 * statistics.median(updates), 2) if updates else 0.0,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", default=None, help="a running hall (default: start one)")
    p.add_argument("--rooms", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--variant", default="jingzhou")
    p.add_argument("--think", type=float, default=0.0,
                   help="each client waits 0.5-1.5 x THINK seconds before it answers (a "
                        "person's pace); 0: at once (the server saturates)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    proc = None
    url = args.url
    if url is None:
        port = _free_port()
        db = Path(tempfile.mkdtemp()) / "bench.db"
        laizi = Path(sys.executable).with_name("laizi")
        proc = subprocess.Popen([str(laizi), "serve", "--port", str(port), "--db",
                                 f"sqlite+aiosqlite:///{db}"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        proc.stdout.readline()
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(f"{url}/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    try:
        out = asyncio.run(run(url.rstrip("/"), args.rooms, args.seconds, args.variant,
                              proc.pid if proc else None, args.think))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(10)
    if not args.json:
        for k, v in out.items():
            print(f"{k:28} {v}")
    print(json.dumps(out) if args.json else "")
    return 0 if out["errors"] == 0 and out["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
