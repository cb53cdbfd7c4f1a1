"""Several hall processes on Redis and PostgreSQL: who owns a room, forwarding, fail-over.

``laizi serve --redis URL`` (docs/deploy.md). Each live room has one **owner** process at a
time: the holder of the Redis key ``laizi:lease:{code}`` (``SET NX PX``), which the owner
renews every third of the lease. Only the owner plays the room (its table, clocks and
bots, as in a single process). Any process accepts any websocket and any HTTP request:

* a websocket for a room owned elsewhere is a **proxy**: the client's messages go, as
  they came, to the owner's channel ``laizi:own:{id}``; the owner answers them and sends
  the frames of that connection (computed by the owner for that person alone, exactly as
  for a local connection) to the gateway's channel ``laizi:gw:{id}``; the gateway passes
  them on untouched. One publisher connection a process keeps every channel in order.
* joining a room and the room's public facts are a call to the owner, answered on the
  caller's channel.

**Fail-over.** Every process sweeps once a second: a live room (``status != 'over'`` in
the database, listed every :data:`LIVE_REFRESH` seconds) whose lease has expired, or whose
owner no longer listens on its channel (a killed process's subscription ends with its
socket), is taken: the lease is set to the sweeper atomically, and the room is rebuilt
from its stored log (``Table.from_log``), as after a restart. Gateways close the proxied
websockets of a room whose owner changed with code 1012 (service restart) and clients
reconnect with their version, to any process. A graceful stop gives up its leases first,
so the others take its rooms at their next sweep.

**Fence.** The database, not the lease, is what makes a stale owner harmless: log lines are
keyed by (room, line number), so two owners can never both store line *n*; the loser's
write fails, nothing of it was shown, and it rebuilds from storage (``Room._store``). An
owner that cannot renew its leases for most of a lease drops its rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server.bus import Bus
from laizi.server.rooms import Connection, Member, Room, parse_client_text

if TYPE_CHECKING:
    from laizi.server.hall import Hall

__all__ = ["Cluster", "lease_seconds"]

PREFIX = "laizi:"
SERVICE_RESTART = 1012
"""The websocket close code that tells a client to reconnect (the room moved)."""

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""
_RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""
_STEAL = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""


UNLOADABLE_RETRY = 60.0
"""Seconds before the sweep tries again a room it could not rebuild."""
LIVE_REFRESH = 5.0
"""Seconds the sweep keeps its list of live rooms before it asks the database again.
Between two lists it asks Redis only. A process found gone lists them again at once (it
may have made rooms since), so only the rooms of a process that the sweep never met, and
that died within this time of starting, wait up to this long."""


def lease_seconds() -> float:
    """The lease length: ``LAIZI_HALL_LEASE`` seconds (default 3)."""
    raw = os.environ.get("LAIZI_HALL_LEASE", "3")
    try:
        value = float(raw)
    except ValueError:
        value = 3.0
    return min(60.0, max(0.5, value))


def _lease(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def _owner_channel(process: str) -> str:
    return f"{PREFIX}own:{process}"


def _gateway_channel(process: str) -> str:
    return f"{PREFIX}gw:{process}"


def _numsub(reply: list[Any]) -> dict[str, int]:
    """``PUBSUB NUMSUB``'s answer (channel, count, channel, count, ...) as a dict."""
    return {str(reply[i]): int(reply[i + 1]) for i in range(0, len(reply), 2)}


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class Unavailable(LaiziError):
    """The room's owner did not answer (it is moving to another process): try again."""

    default_code = ErrorCode.STORAGE


@dataclass(eq=False)
class _Remote:
    """Owner side: one websocket held by another process (the gateway). Its messages
    wait in ``inbox`` from the moment it opens, so none is lost while the room loads."""

    code: str
    gateway: str
    inbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    room: Room | None = None
    member: Member | None = None
    conn: Connection | None = None
    task: asyncio.Task[None] | None = None


@dataclass(eq=False)
class _Proxy:
    """Gateway side: one client's websocket whose room is owned by another process."""

    code: str
    owner: str
    send_text: Callable[[str], Awaitable[None]]
    close: Callable[[int], Awaitable[None]]
    out: asyncio.Queue[str | int] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None

    async def _write(self) -> None:
        while True:
            item = await self.out.get()
            try:
                if isinstance(item, int):
                    await self.close(item)
                    return
                await self.send_text(item)
            except Exception:
                return


class Cluster:
    """This process's part in a hall of several processes."""

    def __init__(self, url: str, hall: Hall, *, lease: float | None = None) -> None:
        self.url = url
        self.hall = hall
        self.id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.lease = lease if lease is not None else lease_seconds()
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.owned: set[str] = set()
        """Codes of the rooms whose lease this process holds."""
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._remote: dict[str, _Remote] = {}
        self._proxies: dict[str, _Proxy] = {}
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()
        self.bus = Bus(url, (_owner_channel(self.id), _gateway_channel(self.id)),
                       self._received, self._report, name=f"laizi:{self.id}",
                       on_resubscribed=self._resubscribed)
        self._last_renewal = time.monotonic()
        self._stopping = False
        self._unloadable: dict[str, float] = {}
        """Rooms whose load failed here: when the sweep may try each again."""
        self._live: set[str] = set()
        """The live rooms (of every process) as the database listed them last."""
        self._live_due = 0.0
        self._peers: set[str] = set()
        """The other processes met (holding a lease at a sweep, or owning a room asked
        for here), watched by the sweep until they stop listening."""

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        await self.redis.ping()
        await self.bus.start()
        self._tasks = [asyncio.create_task(self._keep()),
                       asyncio.create_task(self._sweep())]

    async def stop(self) -> None:
        """A graceful stop: give every room up (its clients reconnect elsewhere)."""
        self._stopping = True
        codes = list(self.owned)
        for code in codes:  # nothing more is stored here once the leases are given up
            room = self.hall.rooms.get(code)
            if room is not None:
                room.gone = True
                room._cancel_tasks()
        if codes:
            with contextlib.suppress(Exception):
                await self.redis.eval(_RELEASE, len(codes), *map(_lease, codes), self.id)
        for code in codes:
            await self._drop(code, released=True)
        for proxy in list(self._proxies.values()):
            proxy.out.put_nowait(SERVICE_RESTART)
        await self.bus.drain()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.bus.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def _report(self, exc: BaseException) -> None:
        self.hall.report(None, exc)

    # ------------------------------------------------------------------ leases

    async def claim(self, code: str) -> bool:
        """Take the lease of a room nobody holds."""
        if self._stopping:
            return False
        ok = await self.redis.set(_lease(code), self.id, nx=True,
                                  px=int(self.lease * 1000))
        if ok:
            self.owned.add(code)
        return bool(ok)

    async def owner(self, code: str) -> str | None:
        value = await self.redis.get(_lease(code))
        return None if value is None else str(value)

    async def locate(self, code: str) -> Room | str:
        """The room if this process owns it (taking it when nobody does), else its
        owner's id; :class:`Unavailable` while Redis cannot be reached."""
        try:
            return await self._locate(code)
        except aioredis.RedisError as exc:
            raise Unavailable(f"the hall cannot reach Redis ({type(exc).__name__}); "
                              "try again") from None

    async def _locate(self, code: str) -> Room | str:
        for _ in range(3):
            loading = self._loading.get(code)
            if loading is not None:
                return await asyncio.shield(loading)
            room = self.hall.rooms.get(code)
            if room is not None:
                return room
            owner = await self.owner(code)
            if owner is not None and owner != self.id:
                self._peers.add(owner)  # the sweep watches it from now on
            if owner == self.id:
                # A lease of ours without the room: taken by the sweeper a moment ago.
                await asyncio.sleep(0.05)
                continue
            if owner is not None and await self._listening(owner):
                return owner
            stored = await self.hall.store.room(code)
            if stored is None:
                raise TableError(f"no room {code!r}", code=ErrorCode.UNKNOWN_ROOM)
            if stored.status == "over":
                return await self.hall.load(code, stored)  # finished: nobody owns it
            if owner is not None:
                taken = await self._steal(code, owner)
            else:
                taken = await self.claim(code)
            if taken:
                return await self._take(code)
        raise Unavailable(f"room {code} is moving between processes; try again")

    async def _listening(self, process: str) -> bool:
        counts = await self.redis.pubsub_numsub(_owner_channel(process))
        return bool(counts and int(counts[0][1]) > 0)

    async def _steal(self, code: str, dead: str) -> bool:
        """The lease of an owner that no longer listens (a killed process)."""
        if self._stopping:
            return False
        ok = await self.redis.eval(_STEAL, 1, _lease(code), dead, self.id,
                                   int(self.lease * 1000))
        if ok:
            self.owned.add(code)
            # Its other rooms may have been made after the sweep's list: list again.
            self._live_due = 0.0
        return bool(ok)

    async def _take(self, code: str) -> Room:
        """Load a room whose lease this process has just taken."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Room] = loop.create_future()
        self._loading[code] = future
        try:
            room = await self.hall.load(code)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            await self._give_up(code)
            raise
        finally:
            self._loading.pop(code, None)
        future.set_result(room)
        return room

    async def finished(self, code: str) -> None:
        """A room is over: nobody needs to own it any more (it never changes again)."""
        await self._give_up(code)

    async def _give_up(self, code: str) -> None:
        self.owned.discard(code)
        with contextlib.suppress(Exception):
            await self.redis.eval(_RELEASE, 1, _lease(code), self.id)

    async def _drop(self, code: str, *, released: bool = False) -> None:
        """This process no longer owns the room: stop it and send its clients away."""
        self.owned.discard(code)
        room = self.hall.rooms.pop(code, None)
        if room is not None:
            await room.stop(close_code=SERVICE_RESTART)
        for cid, remote in list(self._remote.items()):
            if remote.code == code:
                self._end_remote(cid)
        if not released:
            print(f"laizi hall: room {code} lost its lease; another process has it",
                  file=sys.stderr)

    async def _keep(self) -> None:
        """Renew the leases; close the proxies whose owner changed; forget the
        connections of gateways that are gone."""
        period = self.lease / 3
        while True:
            await asyncio.sleep(period)
            try:
                await self._keep_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._report(exc)
                if time.monotonic() - self._last_renewal > self.lease * 0.8:
                    for code in list(self.owned):
                        await self._drop(code)

    async def _keep_once(self) -> None:
        """One round trip to Redis: the renewal of every lease held here, the owners of
        the rooms proxied here, and whether their owners and the gateways of the remote
        connections still listen. A hall at rest pays this and the sweep every second
        per process, so it is one write and one read, not a call a room."""
        codes = list(self.owned)
        by_room: dict[str, list[_Proxy]] = {}
        for proxy in self._proxies.values():
            by_room.setdefault(proxy.code, []).append(proxy)
        rooms = list(by_room)
        # Only the connections open now are judged by the answer: one opened during the
        # round trip, from a gateway not asked about, is not one whose gateway is gone.
        remotes = list(self._remote.items())
        channels = sorted({_owner_channel(p.owner) for p in self._proxies.values()}
                          | {_gateway_channel(r.gateway) for _, r in remotes})
        commands: list[tuple[str, ...]] = []
        if codes:
            commands.append(("EVAL", _RENEW, str(len(codes)), *map(_lease, codes), self.id,
                             str(int(self.lease * 1000))))
        if rooms:
            commands.append(("MGET", *map(_lease, rooms)))
        if channels:
            commands.append(("PUBSUB", "NUMSUB", *channels))
        # A Redis that does not answer is an error like a lost connection (so the
        # rooms are dropped once most of a lease has passed without a renewal).
        replies = await asyncio.wait_for(self.bus.ask(*commands), self.lease / 2) \
            if commands else []
        if codes:
            for i in replies.pop(0):
                await self._drop(codes[int(i) - 1])
        self._last_renewal = time.monotonic()
        owners: list[str | None] = replies.pop(0) if rooms else []
        listeners = _numsub(replies.pop(0)) if channels else {}
        for code, owner in zip(rooms, owners, strict=True):
            for proxy in by_room[code]:
                if owner != proxy.owner or not listeners.get(_owner_channel(proxy.owner)):
                    proxy.out.put_nowait(SERVICE_RESTART)
        for cid, remote in remotes:
            channel = _gateway_channel(remote.gateway)
            if self._remote.get(cid) is remote and not listeners.get(channel):
                # Told anyway: a gateway that was only subscribing again (a lost Redis
                # connection) closes the websocket, and its client comes back.
                self._send_back(cid)

    async def _sweep(self) -> None:
        """Take the live rooms that nobody holds, or whose holder is gone."""
        while True:
            try:
                await self._sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._report(exc)
            await asyncio.sleep(random.uniform(0.7, 1.3))

    async def _list_live(self) -> None:
        self._live = set(await self.hall.store.live_rooms())
        self._live_due = time.monotonic() + LIVE_REFRESH

    async def _orphans(self) -> tuple[list[tuple[str, str | None]], set[str]]:
        """The listed live rooms that no listening process holds, with their lease's
        holder (``None``: nobody's), and the processes seen before that no longer
        listen. One ``MGET`` and one ``PUBSUB NUMSUB``."""
        now = time.monotonic()
        codes = [c for c in self._live
                 if c not in self.hall.rooms and c not in self._loading
                 and self._unloadable.get(c, 0.0) <= now]
        values: list[str | None] = []
        if codes:
            (values,) = await self.bus.ask(("MGET", *map(_lease, codes)))
        peers = sorted(self._peers | {str(v) for v in values if v is not None} - {self.id})
        listeners: dict[str, int] = {}
        if peers:
            (counts,) = await self.bus.ask(("PUBSUB", "NUMSUB",
                                            *map(_owner_channel, peers)))
            listeners = _numsub(counts)
        gone = {p for p in peers if not listeners.get(_owner_channel(p))}
        self._peers = set(peers) - gone
        orphans = [(code, None if value is None else str(value))
                   for code, value in zip(codes, values, strict=True)
                   if value is None or str(value) in gone]
        return orphans, gone

    async def _sweep_once(self) -> None:
        if self._stopping:
            return
        listed = time.monotonic() >= self._live_due
        if listed:
            await self._list_live()
        orphans, gone = await self._orphans()
        if (orphans or gone) and not listed:
            # A process is gone or gave its rooms up: it may have had rooms created
            # since the list was made, so the list is made again before taking any.
            await self._list_live()
            orphans, _ = await self._orphans()
        for code, owner in orphans:
            # Nobody plays it. The list of live rooms may be a few seconds old, so the
            # database says first whether it is still live.
            stored = await self.hall.store.room(code)
            if stored is None or stored.status == "over":
                self._live.discard(code)
                continue
            taken = await (self.claim(code) if owner is None else self._steal(code, owner))
            if taken:
                try:
                    await self._take(code)
                except Exception as exc:
                    # A room this process cannot rebuild (its log is of another rules
                    # version, its data is damaged) is tried again a minute later, not at
                    # every sweep: a newer process may be able to play it, so it is left
                    # as it is, and reported once a try.
                    self._unloadable[code] = time.monotonic() + UNLOADABLE_RETRY
                    self._report(exc)
                else:
                    self._unloadable.pop(code, None)

    # ------------------------------------------------------------------ messages

    def _publish(self, channel: str, data: str,
                 on_nobody: Callable[[], None] | None = None) -> None:
        """Send a message (in order with the others; ``on_nobody``: called when no
        process listened)."""
        self.bus.publish(channel, data, on_nobody)

    def _resubscribed(self) -> None:
        """This process listens again after its Redis connection was lost: what was
        published to it meanwhile (clients' messages, frames) is gone. Every websocket
        whose messages cross Redis is closed with 1012 (service restart); its client
        comes back with its version and gets exactly the events it missed, and an action
        whose answer was lost shows in them as applied or not."""
        for proxy in list(self._proxies.values()):
            proxy.out.put_nowait(SERVICE_RESTART)
        for cid in list(self._remote):
            self._send_back(cid)

    def _received(self, channel: str, data: str) -> None:
        if channel == _owner_channel(self.id):
            self._to_owner(data)
        elif channel == _gateway_channel(self.id):
            self._to_gateway(data)

    # owner side: "o {json}" open, "m {cid}\n{text}" a client's message, "c {cid}" close,
    # "r {json}" a call.

    def _to_owner(self, data: str) -> None:
        kind, _, rest = data.partition(" ")
        if kind == "m":
            cid, _, text = rest.partition("\n")
            remote = self._remote.get(cid)
            if remote is not None:
                remote.inbox.put_nowait(text)
        elif kind == "o":
            req = json.loads(rest)
            remote = _Remote(str(req["room"]), str(req["gw"]))
            self._remote[str(req["conn"])] = remote
            remote.task = self._spawn(self._serve_remote(str(req["conn"]), remote, req))
        elif kind == "c":
            self._end_remote(rest)
        elif kind == "r":
            self._spawn(self._answer_call(json.loads(rest)))

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _open(self, cid: str, remote: _Remote, req: dict[str, Any]) -> bool:
        """Attach a remote connection to its room; whether it is served."""
        code, channel = remote.code, _gateway_channel(remote.gateway)
        loading = self._loading.get(code)
        room = await asyncio.shield(loading) if loading is not None else \
            self.hall.rooms.get(code)
        if room is None or code not in self.owned or room.gone:
            self._publish(channel, f"x {cid} {SERVICE_RESTART}")
            return False
        try:
            member = room.member(str(req["token"]))
        except LaiziError as exc:
            self._publish(channel, f"f {cid}\n" + _dumps(
                {"op": "error", "seq": None, "error": dict(exc.to_json())}))
            self._publish(channel, f"x {cid} 4404")
            return False

        def deliver(frame: str) -> None:
            # Not told when nobody listened: a gateway that is gone is found by the
            # check of :meth:`_keep` within a third of a lease, and reading the answer
            # to every frame cost more than the rest of publishing it.
            self._publish(channel, f"f {cid}\n{frame}")

        async def close(code_: int) -> None:
            self._publish(channel, f"x {cid} {code_}")

        conn = Connection(version=int(req["version"]), close=close, deliver=deliver)
        remote.room, remote.member, remote.conn = room, member, conn
        conn.start()
        await room.attach(member, conn)
        return True

    async def _serve_remote(self, cid: str, remote: _Remote, req: dict[str, Any]) -> None:
        """A remote connection: attach it, then its messages in order (as the gateway
        received them), until it closes."""
        try:
            if not await self._open(cid, remote, req):
                self._remote.pop(cid, None)
                return
            room, member, conn = remote.room, remote.member, remote.conn
            assert room is not None and member is not None and conn is not None
            while True:
                text = await remote.inbox.get()
                if text is None:
                    break
                msg, error = parse_client_text(text)
                if error is not None:
                    conn.put(error)
                    continue
                answer = await room.handle(member, msg)
                if answer is not None:
                    conn.put(answer)
            await room.detach(member, conn)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._report(exc)

    def _end_remote(self, cid: str) -> None:
        remote = self._remote.pop(cid, None)
        if remote is not None:
            remote.inbox.put_nowait(None)

    def _send_back(self, cid: str) -> None:
        """End a remote connection and tell its gateway to close the websocket (1012),
        so that its client comes back with its version."""
        remote = self._remote.get(cid)
        if remote is not None:
            self._end_remote(cid)
            self._publish(_gateway_channel(remote.gateway), f"x {cid} {SERVICE_RESTART}")

    async def _answer_call(self, req: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"id": req["id"]}
        try:
            code = str(req["room"])
            room = self.hall.rooms.get(code)
            if room is None or code not in self.owned:
                raise Unavailable(f"room {code} is moving between processes; try again")
            if req["op"] == "join":
                _, member = await self.hall.join_here(room, req["name"], req["role"])
                answer["ok"] = {"code": room.code, "token": member.token,
                                "role": member.role}
            else:
                answer["ok"] = room.info()
        except LaiziError as exc:
            answer["error"] = dict(exc.to_json())
        except Exception as exc:
            self._report(exc)
            answer["error"] = dict(Unavailable(f"{type(exc).__name__}").to_json())
        self._publish(_gateway_channel(str(req["gw"])), "a " + _dumps(answer))

    # gateway side: "f {cid}\n{frame}" a frame, "x {cid} {code}" close, "a {json}" answer.

    def _to_gateway(self, data: str) -> None:
        kind, _, rest = data.partition(" ")
        if kind == "f":
            cid, _, frame = rest.partition("\n")
            proxy = self._proxies.get(cid)
            if proxy is not None:
                proxy.out.put_nowait(frame)
        elif kind == "x":
            cid, _, code = rest.partition(" ")
            proxy = self._proxies.get(cid)
            if proxy is not None:
                proxy.out.put_nowait(int(code))
        elif kind == "a":
            answer = json.loads(rest)
            future = self._calls.pop(str(answer["id"]), None)
            if future is not None and not future.done():
                future.set_result(answer)

    async def call(self, owner: str, code: str, op: str, **fields: Any) -> dict[str, Any]:
        """Ask the owner of a room (``join``, ``info``); its answer or its typed error."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[rid] = future

        def nobody() -> None:
            if not future.done():
                future.set_exception(Unavailable(
                    f"room {code} is moving between processes; try again"))

        self._publish(_owner_channel(owner), "r " + _dumps(
            {"id": rid, "gw": self.id, "room": code, "op": op, **fields}), on_nobody=nobody)
        try:
            answer = await asyncio.wait_for(future, 10.0)
        except TimeoutError:
            raise Unavailable(f"room {code}: its process did not answer") from None
        finally:
            self._calls.pop(rid, None)
        if "error" in answer:
            err = answer["error"]
            raise TableError(str(err.get("message", "")),
                             code=ErrorCode(err.get("code", "storage")))
        result: dict[str, Any] = answer["ok"]
        return result

    async def proxy(self, owner: str, code: str, token: str, version: int,
                    receive: Callable[[], Awaitable[str | dict[str, Any] | None]],
                    send_text: Callable[[str], Awaitable[None]],
                    close: Callable[[int], Awaitable[None]]) -> None:
        """Serve one client's websocket for a room owned elsewhere until it closes.
        ``receive`` gives a message's text, an error frame to send back (a message too
        large or not text), or ``None`` when the client has gone."""
        cid = secrets.token_hex(8)
        proxy = _Proxy(code, owner, send_text, close)
        self._proxies[cid] = proxy
        proxy.writer = asyncio.create_task(proxy._write())
        channel = _owner_channel(owner)

        def moved() -> None:
            proxy.out.put_nowait(SERVICE_RESTART)

        self._publish(channel, "o " + _dumps({"room": code, "conn": cid, "gw": self.id,
                                              "token": token, "version": version}),
                      on_nobody=moved)
        try:
            while not proxy.writer.done():
                text = await receive()
                if text is None:
                    break
                if isinstance(text, dict):
                    proxy.out.put_nowait(_dumps(text))
                    continue
                self._publish(channel, f"m {cid}\n{text}")
        finally:
            self._proxies.pop(cid, None)
            self._publish(channel, f"c {cid}")
            if not proxy.writer.done():
                proxy.writer.cancel()
