"""Several hall processes on Redis and PostgreSQL: who owns a room, forwarding, fail-over.

``laizi serve --redis URL`` (docs/deploy.md). Each live room has one **owner** process at a
time: the holder of the Redis key ``laizi:lease:{code}`` (``SET NX PX``), which the owner
renews every third of the lease. Only the owner plays the room (its table, clocks and
bots, as in a single process). Any process accepts any websocket and any HTTP request:

* a websocket for a room owned elsewhere is a **proxy**, and joining a room and the
  room's public facts are a **call** to the owner: both cross Redis
  (:mod:`laizi.server.forwarding`). One publisher connection a process keeps every
  channel in order (:mod:`laizi.server.bus`); the keys, channels and lease scripts are in
  :mod:`laizi.server.leases`.

**Fail-over.** One elected process (the holder of ``laizi:sweeper``) sweeps once a second:
a live room (``status != 'over'`` in
the database, listed every :data:`LIVE_REFRESH` seconds) whose lease has expired, or whose
owner no longer listens on its channel (a killed process's subscription ends with its
socket), is taken: the lease is set to the sweeper atomically, and the room is rebuilt
from its stored log (``Table.from_log``), as after a restart. Gateways close the proxied
websockets of a room whose owner changed with code 1012 (service restart) and clients
reconnect with their version, to any process. A graceful stop gives up its leases first,
so the others take its rooms at their next sweep. Only one process sweeps (elected:
:meth:`Cluster.elect`), so the sweep's cost does not grow with the processes.

**Affinity.** With ``LAIZI_HALL_AFFINE=1`` and a proxy that routes every request naming a
room to one process by its code (docs/deploy.md), a new room is parked
(:meth:`Cluster.created`) and taken by the first process asked for it: the one all its
websockets reach, so none of them is forwarded. Forwarding stays the fallback.

**Fence.** The database, not the lease, is what makes a stale owner harmless: log lines are
keyed by (room, line number), so two owners can never both store line *n*; the loser's
write fails, nothing of it was shown, and it rebuilds from storage (``Room._store``). An
owner that cannot renew its leases for most of a lease drops its rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from laizi.errors import ErrorCode, TableError
from laizi.server.bus import Bus, OnNobody
from laizi.server.forwarding import Forwarding, OwnerHall, Proxy
from laizi.server.leases import (
    ELECT,
    PARKED,
    RELEASE,
    RENEW,
    STEAL,
    SWEEPER,
    Unavailable,
    affine,
    gateway_channel,
    lease_key,
    lease_seconds,
    numsub,
    owner_channel,
    positions,
    values,
)
from laizi.server.rooms import Room
from laizi.server.serving import SERVICE_RESTART, Incoming
from laizi.server.storage import Store, StoredRoom

if TYPE_CHECKING:
    import redis.asyncio as aioredis

__all__ = ["SERVICE_RESTART", "Cluster", "HallPort", "Unavailable", "lease_seconds"]

UNLOADABLE_RETRY = 60.0
"""Seconds before the sweep tries again a room it could not rebuild."""
LIVE_REFRESH = 5.0
"""Seconds the sweep keeps its list of live rooms before it asks the database again.
Between two lists it asks Redis only. A process found gone lists them again at once (it
may have made rooms since), so only the rooms of a process that the sweep never met, and
that died within this time of starting, wait up to this long."""
PARK_SECONDS = 30.0
"""How long a new room stays parked (:data:`laizi.server.leases.PARKED`) for the process
the proxy sends its first request to; after that the sweep takes it like any room."""
STATUS_OVER = "over"
"""A stored room's status once its match is over (nobody owns it any more)."""


class HallPort(OwnerHall, Protocol):
    """What the cluster needs of the hall (:class:`laizi.server.hall.Hall`)."""

    store: Store

    async def load(self, code: str, stored: StoredRoom | None = None) -> Room: ...


class Cluster:
    """This process's part in a hall of several processes."""

    def __init__(self, url: str, hall: HallPort, *, lease: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.hall = hall
        self.id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.lease = lease if lease is not None else lease_seconds()
        self.clock = clock
        """Seconds, only ever compared with each other (lease renewals, the sweep's
        lists, its retries): tests give their own."""
        # Imported here, not at the top: a hall without --redis never loads redis-py
        # (about 45 ms of every start, tests/test_cli_startup.py).
        import redis.asyncio as aioredis

        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.owned: set[str] = set()
        """Codes of the rooms whose lease this process holds."""
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self.forward = Forwarding(self.id, hall, self._publish, self.owned, self._loading)
        self._tasks: list[asyncio.Task[None]] = []
        self.bus = Bus(url, (owner_channel(self.id), gateway_channel(self.id)),
                       self.forward.received, self._report, name=f"laizi:{self.id}",
                       on_resubscribed=self._resubscribed)
        self._last_renewal = clock()
        self._stopping = False
        self._unloadable: dict[str, float] = {}
        """Rooms whose load failed here: when the sweep may try each again."""
        self._live: set[str] = set()
        """The live rooms (of every process) as the database listed them last."""
        self._live_due = 0.0
        self.affine = affine()
        """New rooms are parked for the process the proxy picks (``LAIZI_HALL_AFFINE``)."""
        self.sweeping = False
        """Whether this process was the elected sweeper at its last sweep."""
        self.candidate = True
        """Whether this process stands for sweeper (tests choose which one sweeps)."""
        self._peers: set[str] = set()
        """The other processes met (holding a lease at a sweep, or owning a room asked
        for here), watched by the sweep until they stop listening."""

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        await self.redis.ping()
        await self.bus.start()
        self._tasks = [asyncio.create_task(self._keep()),
                       asyncio.create_task(self._sweep())]

    async def ping(self) -> None:
        """Raises unless Redis answers (``/readyz``)."""
        await self.redis.ping()

    async def stop(self) -> None:
        """A graceful stop: give every room up (its clients reconnect elsewhere)."""
        self._stopping = True
        codes = list(self.owned)
        for code in codes:  # nothing more is stored here once the leases are given up
            room = self.hall.rooms.get(code)
            if room is not None:
                room.gone = True
                room._cancel_tasks()
        keys = [*map(lease_key, codes), SWEEPER]  # the next sweeper is elected at once
        with contextlib.suppress(Exception):
            await self.redis.eval(RELEASE, len(keys), *keys, self.id)
        for code in codes:
            await self._drop(code, released=True)
        for proxy in list(self.forward.proxies.values()):
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
        ok = await self.redis.set(lease_key(code), self.id, nx=True,
                                  px=int(self.lease * 1000))
        if ok:
            self.owned.add(code)
        return bool(ok)

    async def owner(self, code: str) -> str | None:
        value = await self.redis.get(lease_key(code))
        return None if value is None else str(value)

    async def locate(self, code: str) -> Room | str:
        """The room if this process owns it (taking it when nobody does), else its
        owner's id; :class:`Unavailable` while Redis cannot be reached."""
        from redis.exceptions import RedisError  # loaded with the client (__init__)

        try:
            return await self._locate(code)
        except RedisError as exc:
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
            if owner is not None and owner not in (self.id, PARKED):
                self._peers.add(owner)  # the sweep watches it from now on
            if owner == self.id:
                # A lease of ours without the room: taken by the sweeper a moment ago.
                await asyncio.sleep(0.05)
                continue
            if owner not in (None, PARKED) and await self._listening(owner):
                return owner
            stored = await self.hall.store.room(code)
            if stored is None:
                raise TableError(f"no room {code!r}", code=ErrorCode.UNKNOWN_ROOM)
            if stored.status == STATUS_OVER:
                return await self.hall.load(code, stored)  # finished: nobody owns it
            if owner is not None:
                taken = await self._steal(code, owner)
            else:
                taken = await self.claim(code)
            if taken:
                return await self._take(code)
        raise Unavailable(f"room {code} is moving between processes; try again")

    async def _listening(self, process: str) -> bool:
        counts = await self.redis.pubsub_numsub(owner_channel(process))
        return bool(counts and int(counts[0][1]) > 0)

    async def _steal(self, code: str, dead: str) -> bool:
        """The lease of an owner that no longer listens (a killed process)."""
        if self._stopping:
            return False
        ok = await self.redis.eval(STEAL, 1, lease_key(code), dead, self.id,
                                   int(self.lease * 1000))
        if ok:
            self.owned.add(code)
            if dead != PARKED:
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

    async def created(self, code: str) -> None:
        """A room was just made here (stored, its host seated). With ``LAIZI_HALL_AFFINE``
        it is parked: put away and its lease handed to nobody for :data:`PARK_SECONDS`,
        so the process the proxy sends the room's requests to (by its code) takes it at
        the first one and plays it without a hop through Redis."""
        if not self.affine or self._stopping:
            return
        room = self.hall.rooms.get(code)
        if room is None or code not in self.owned:
            return
        parked = await self.redis.eval(STEAL, 1, lease_key(code), self.id, PARKED,
                                       int(PARK_SECONDS * 1000))
        if not parked:
            return
        self.owned.discard(code)
        if self.hall.rooms.get(code) is room:
            del self.hall.rooms[code]
        await room.stop(close_code=SERVICE_RESTART)

    async def finished(self, code: str) -> None:
        """A room is over: nobody needs to own it any more (it never changes again)."""
        await self._give_up(code)

    async def _give_up(self, code: str) -> None:
        self.owned.discard(code)
        with contextlib.suppress(Exception):
            await self.redis.eval(RELEASE, 1, lease_key(code), self.id)

    async def _drop(self, code: str, *, released: bool = False) -> None:
        """This process no longer owns the room: stop it and send its clients away."""
        self.owned.discard(code)
        room = self.hall.rooms.pop(code, None)
        if room is not None:
            await room.stop(close_code=SERVICE_RESTART)
        self.forward.end_room(code)
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
                await self.keep_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._report(exc)
                if self.clock() - self._last_renewal > self.lease * 0.8:
                    for code in list(self.owned):
                        await self._drop(code)

    async def keep_once(self) -> None:
        """One round trip to Redis: the renewal of every lease held here, the owners of
        the rooms proxied here, and whether their owners and the gateways of the remote
        connections still listen. A hall at rest pays this and the sweep every second
        per process, so it is one write and one read, not a call a room."""
        codes = list(self.owned)
        by_room: dict[str, list[Proxy]] = {}
        for proxy in self.forward.proxies.values():
            by_room.setdefault(proxy.code, []).append(proxy)
        rooms = list(by_room)
        # Only the connections open now are judged by the answer: one opened during the
        # round trip, from a gateway not asked about, is not one whose gateway is gone.
        remotes = list(self.forward.remote.items())
        channels = sorted({owner_channel(p.owner) for p in self.forward.proxies.values()}
                          | {gateway_channel(r.gateway) for _, r in remotes})
        commands: list[tuple[str, ...]] = []
        if codes:
            commands.append(("EVAL", RENEW, str(len(codes)), *map(lease_key, codes), self.id,
                             str(int(self.lease * 1000))))
        if rooms:
            commands.append(("MGET", *map(lease_key, rooms)))
        if channels:
            commands.append(("PUBSUB", "NUMSUB", *channels))
        # A Redis that does not answer is an error like a lost connection (so the
        # rooms are dropped once most of a lease has passed without a renewal).
        replies = await asyncio.wait_for(self.bus.ask(*commands), self.lease / 2) \
            if commands else []
        if codes:
            for i in positions(replies.pop(0)):
                await self._drop(codes[i - 1])
        self._last_renewal = self.clock()
        owners = values(replies.pop(0)) if rooms else []
        listeners = numsub(replies.pop(0)) if channels else {}
        for code, owner in zip(rooms, owners, strict=True):
            for proxy in by_room[code]:
                if owner != proxy.owner or not listeners.get(owner_channel(proxy.owner)):
                    proxy.out.put_nowait(SERVICE_RESTART)
        for cid, remote in remotes:
            channel = gateway_channel(remote.gateway)
            if self.forward.remote.get(cid) is remote and not listeners.get(channel):
                # Told anyway: a gateway that was only subscribing again (a lost Redis
                # connection) closes the websocket, and its client comes back.
                self.forward.send_back(cid)

    async def _sweep(self) -> None:
        """Take the live rooms that nobody holds, or whose holder is gone."""
        while True:
            try:
                await self.sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._report(exc)
            await asyncio.sleep(random.uniform(0.7, 1.3))

    async def _list_live(self) -> None:
        self._live = set(await self.hall.store.live_rooms())
        self._live_due = self.clock() + LIVE_REFRESH

    async def _orphans(self) -> tuple[list[tuple[str, str | None]], set[str]]:
        """The listed live rooms that no listening process holds, with their lease's
        holder (``None``: nobody's), and the processes seen before that no longer
        listen. One ``MGET`` and one ``PUBSUB NUMSUB``."""
        now = self.clock()
        codes = [c for c in self._live
                 if c not in self.hall.rooms and c not in self._loading
                 and self._unloadable.get(c, 0.0) <= now]
        held: list[str | None] = []
        if codes:
            (reply,) = await self.bus.ask(("MGET", *map(lease_key, codes)))
            held = values(reply)
        peers = sorted(self._peers | {v for v in held if v is not None}
                       - {self.id, PARKED})
        listeners: dict[str, int] = {}
        if peers:
            (counts,) = await self.bus.ask(("PUBSUB", "NUMSUB",
                                            *map(owner_channel, peers)))
            listeners = numsub(counts)
        gone = {p for p in peers if not listeners.get(owner_channel(p))}
        self._peers = set(peers) - gone
        orphans = [(code, None if value is None else str(value))
                   for code, value in zip(codes, held, strict=True)
                   if value is None or str(value) in gone]
        return orphans, gone

    async def elect(self) -> bool:
        """Whether this process is the sweeper: the holder of :data:`SWEEPER` (taken
        when nobody holds it, or from a holder that no longer listens, renewed at every
        sweep). One round trip, two when another holds it: so a process that does not
        sweep costs Redis the same whatever the number of rooms, and PostgreSQL nothing."""
        if not self.candidate:
            self.sweeping = False
            return False
        px = str(int(self.lease * 1000))
        (holder,) = await self.bus.ask(("EVAL", ELECT, "1", SWEEPER, self.id, px))
        if holder != self.id and not await self._listening(str(holder)):
            (holder,) = await self.bus.ask(("EVAL", STEAL, "1", SWEEPER, str(holder),
                                            self.id, px))
            holder = self.id if holder == 1 else None
        if holder != self.id:
            # Its list would be old by the time it sweeps again: made afresh then.
            self._live_due = 0.0
            self._peers.clear()
        self.sweeping = holder == self.id
        return self.sweeping

    async def sweep_once(self) -> None:
        """One sweep, by the elected sweeper only (:meth:`elect`): the others' rooms
        are watched once, not once a process."""
        if self._stopping or not await self.elect():
            return
        listed = self.clock() >= self._live_due
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
            if stored is None or stored.status == STATUS_OVER:
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
                    self._unloadable[code] = self.clock() + UNLOADABLE_RETRY
                    self._report(exc)
                else:
                    self._unloadable.pop(code, None)

    # ------------------------------------------------------------------ messages

    def _publish(self, channel: str, data: str, on_nobody: OnNobody | None = None) -> None:
        """Send a message (in order with the others; ``on_nobody``: called when no
        process listened)."""
        self.bus.publish(channel, data, on_nobody)

    def _resubscribed(self) -> None:
        """This process listens again after its Redis connection was lost: what was
        published to it meanwhile (clients' messages, frames) is gone. Every websocket
        whose messages cross Redis is closed with 1012 (service restart); its client
        comes back with its version and gets exactly the events it missed, and an action
        whose answer was lost shows in them as applied or not."""
        self.forward.restart_all()

    async def call(self, owner: str, code: str, op: str, **fields: object
                   ) -> dict[str, Any]:
        """Ask the owner of a room (``join``, ``info``); its answer or its typed error."""
        return await self.forward.call(owner, code, op, **fields)

    async def proxy(self, owner: str, code: str, token: str, version: int,
                    receive: Callable[[], Awaitable[Incoming]],
                    send_text: Callable[[str], Awaitable[None]],
                    close: Callable[[int], Awaitable[None]]) -> None:
        """Serve one client's websocket for a room owned elsewhere until it closes
        (:meth:`Forwarding.proxy`)."""
        await self.forward.proxy(owner, code, token, version, receive, send_text, close)
