"""The hall: every room of one server process, its storage and its bots.

Rooms live in memory while they are played and are rebuilt from storage (their table log
and members) when the server starts again, mid-hand included. With Redis
(:mod:`laizi.server.cluster`) several processes share the rooms: each room is played by the
one process that holds its lease, and the others forward to it. Bots decide off the event
loop when they think hard: the search bot runs in a process pool, so one thinking bot
never delays another room; greedy and random bots are quick and run inline.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
import traceback
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Protocol, TypedDict

from laizi.bots.base import Bot
from laizi.bots.levels import resolve_level
from laizi.bots.registry import make_bot
from laizi.engine.actions import Action
from laizi.errors import ErrorCode, TableError
from laizi.server.room_clock import AsyncioClock, Clock
from laizi.server.room_ports import BotRoom, RoomPorts, RoomRef
from laizi.server.rooms import BOT_PREFIX, Member, Room, RoomSettings
from laizi.server.storage import Store, StoredRoom
from laizi.table import deals
from laizi.table.events import canonical
from laizi.table.table import Entry, Table

__all__ = ["BotPool", "ClusterFactory", "Hall", "HallCluster", "check_name",
           "name_skeleton"]

_NAME_MAX = 24


_BOT_MARK = BOT_PREFIX.strip()
_UNSEEN = frozenset(("Cc", "Cf", "Cn", "Co", "Cs", "Mn", "Mc", "Me", "Zl", "Zp", "Zs"))
"""Unicode categories a reader does not see as a character of their own: controls,
format characters (U+200B, U+2060, tags), marks (U+FE0F variation selectors, combining
accents) and spaces."""


def name_skeleton(name: str) -> str:
    """What a reader sees of a name: NFKC, without the characters of :data:`_UNSEEN` (so
    ``" \ufe0f🤖 7"`` is ``"🤖7"``)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", name)
                   if unicodedata.category(ch) not in _UNSEEN and not ch.isspace())


def check_name(name: object) -> str:
    """A person's name, trimmed: 1-24 printable characters, something visible among them,
    and no bot's 🤖 anywhere once normalised (:func:`name_skeleton`), so nobody sits as
    a bot or passes for one."""
    if not isinstance(name, str) or not name.strip() or len(name) > _NAME_MAX \
            or not name.isprintable():
        raise TableError(f"a name is 1-{_NAME_MAX} printable characters (not a bot's), "
                         f"got {name!r}", code=ErrorCode.MALFORMED)
    seen = name_skeleton(name)
    if not seen or _BOT_MARK in seen:
        raise TableError(f"a name has a visible character and is not a bot's ({_BOT_MARK}), "
                         f"got {name!r}", code=ErrorCode.MALFORMED)
    return name.strip()


def _search_worker_init() -> None:
    os.environ["LAIZI_SEARCH_PROCS"] = "1"  # one process per pool worker, no nested pools


_WORKER_BOTS: dict[tuple[str, str], Bot] = {}


def _decide(spec: str, key: str, view: Entry, legal: list[Entry]) -> Entry:
    """In a pool worker: one bot decision (the bot is kept per room and seat)."""
    bot = _WORKER_BOTS.get((spec, key))
    if bot is None:
        if len(_WORKER_BOTS) > 256:
            _WORKER_BOTS.clear()
        bot = _WORKER_BOTS[(spec, key)] = make_bot(spec, seed=hash(key) & 0xFFFF)
    acts = [Action.from_json(a) for a in legal]
    return dict(bot.choose(view, acts).to_json())


class BotPool:
    """Bot decisions for every room: greedy / random / simple inline, search (the 高手
    level's included) in processes."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or max(1, min(2, os.cpu_count() or 1))
        self._pool: ProcessPoolExecutor | None = None
        self._bots: dict[tuple[str, str], Bot] = {}

    async def choose(self, room: BotRoom, person: str, view: Entry,
                     legal: Sequence[Action]) -> Action:
        """The bot's own answer, legal or not: the room checks it (an illegal one is a
        reported error, and the table's default action is played)."""
        level = room.settings.bots
        key = f"{room.code}/{person}"
        if resolve_level(level).partition(":")[0] == "search":  # 高手 too: in the pool
            if self._pool is None:
                import multiprocessing

                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_search_worker_init)
            loop = asyncio.get_running_loop()
            data = await loop.run_in_executor(self._pool, _decide, level, key, view,
                                              [a.to_json() for a in legal])
            choice = Action.from_json(data)
        else:
            bot = self._bots.get((level, key))
            if bot is None:
                bot = self._bots[(level, key)] = make_bot(level, seed=len(self._bots))
            choice = bot.choose(view, legal)
        return choice

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Health(TypedDict):
    """``GET /healthz``: the rooms of this process, the errors it reported, and its id in
    a cluster."""

    ok: bool
    rooms: int
    owned: int
    errors: int
    process: str | None


class HallCluster(Protocol):
    """What the hall asks of the processes it shares its rooms with
    (:class:`laizi.server.cluster.Cluster`)."""

    @property
    def id(self) -> str: ...

    @property
    def owned(self) -> set[str]: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def ping(self) -> None: ...

    async def claim(self, code: str) -> bool: ...

    async def finished(self, code: str) -> None: ...

    async def created(self, code: str) -> None: ...

    async def locate(self, code: str) -> Room | str: ...

    async def call(self, owner: str, code: str, op: str, **fields: object
                   ) -> Mapping[str, object]: ...

    async def proxy(self, owner: str, code: str, token: str, version: int,
                    receive: Callable[[], Awaitable[str | dict[str, object] | None]],
                    send_text: Callable[[str], Awaitable[None]],
                    close: Callable[[int], Awaitable[None]]) -> None: ...


ClusterFactory = Callable[["Hall"], HallCluster]
"""Makes the hall's part in a cluster (``functools.partial(Cluster, redis_url)``)."""


class Hall:
    """All rooms of this process. Each room is given the hall's ports (its store, its
    bots, the hall as its reporter, the clock), never the hall itself."""

    def __init__(self, store: Store, bots: BotPool | None = None, *,
                 cluster: ClusterFactory | None = None,
                 clock: Clock | None = None) -> None:
        self.store = store
        self.bots = bots or BotPool()
        self.clock: Clock = clock or AsyncioClock()
        self.rooms: dict[str, Room] = {}
        """The rooms this process plays (with Redis: the ones it owns), and finished rooms
        it has loaded to show."""
        self.errors = 0
        self.bot_failures = 0
        """Bots that raised or answered an illegal action (counted in ``errors`` too)."""
        self._create = asyncio.Lock()
        self.draining = False
        """Set by :meth:`drain` (SIGTERM): ``/readyz`` answers 503 from then on."""
        self._drained = False
        self.cluster: HallCluster | None = cluster(self) if cluster is not None else None
        self.on_hands: Callable[[str], Awaitable[None]] | None = None
        """Told a room's code when it stored a finished hand (the clubs' ledgers)."""

    def _ports(self) -> RoomPorts:
        return RoomPorts(store=self.store, bots=self.bots, reporter=self, clock=self.clock,
                         finished=self._finished, hands_stored=self._hands_stored)

    async def _hands_stored(self, code: str) -> None:
        if self.on_hands is not None:
            try:
                await self.on_hands(code)
            except Exception as exc:  # the ledger catches up at its next read
                self.report(None, exc)

    async def _finished(self, code: str) -> None:
        if self.cluster is not None:
            await self.cluster.finished(code)

    async def start(self) -> None:
        await self.store.setup()
        if self.cluster is not None:
            await self.cluster.start()  # its sweep takes the live rooms nobody holds
            return
        for code in await self.store.live_rooms():
            try:
                await self.load(code)
            except Exception as exc:
                self.report(None, exc)

    async def drain(self, close_code: int) -> None:
        """The process is told to stop (SIGTERM): not ready any more, every room given
        up once its action under way is stored (with Redis: the leases released first, so
        another process takes the rooms over), the connections closed with
        ``close_code`` so the clients reconnect."""
        self.draining = True
        if self._drained:
            return
        self._drained = True
        if self.cluster is not None:
            await self.cluster.stop()
        rooms = list(self.rooms.values())
        for room in rooms:
            async with room.lock:  # an action being applied is stored and answered first
                await room.stop(close_code)
        print(f"laizi hall: drained: {len(rooms)} room(s) given up, their connections "
              f"closed ({close_code}: reconnect)", file=sys.stderr, flush=True)

    async def ready(self) -> bool:
        """Whether this process can take rooms: not draining, the database answers (and
        with Redis, Redis does)."""
        if self.draining:
            return False
        try:
            await self.store.ping()
            if self.cluster is not None:
                await self.cluster.ping()
        except Exception:
            return False
        return True

    async def stop(self) -> None:
        if self.cluster is not None and not self._drained:
            await self.cluster.stop()
        for room in self.rooms.values():
            await room.stop()
        self.bots.close()
        await self.store.close()

    def health(self) -> Health:
        owned = len(self.cluster.owned) if self.cluster is not None else \
            sum(1 for r in self.rooms.values() if not r.closed)
        return {"ok": True, "rooms": len(self.rooms), "owned": owned, "errors": self.errors,
                "process": self.cluster.id if self.cluster is not None else None}

    def report(self, room: RoomRef | None, exc: BaseException) -> None:
        self.errors += 1
        where = f"room {room.code}" if room is not None else "hall"
        print(f"laizi hall: {where}: {exc!r}", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)

    def bot_failed(self, room: RoomRef, seat: int, bot: str, exc: BaseException) -> None:
        """A bot raised or answered an illegal action; its room plays the table's
        default action for it."""
        self.errors += 1
        self.bot_failures += 1
        print(f"laizi hall: room {room.code}: seat {seat}, bot {bot!r}: {exc!r}; the "
              "table's default action is played", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)

    async def _new_code(self) -> str:
        while True:
            code = f"{secrets.randbelow(900000) + 100000}"
            if code not in self.rooms and await self.store.room(code) is None and (
                    self.cluster is None or await self.cluster.claim(code)):
                return code

    async def create(self, settings: RoomSettings, host_name: object) -> tuple[Room, Member]:
        """A new room: the host (a name from the network, checked here) sits at seat 0, bots
        fill the other seats."""
        host_name = check_name(host_name)
        async with self._create:
            code = await self._new_code()
            secret = deals.new_secret()
            from laizi.variants import get

            seats = get(settings.variant).seats
            people = [host_name, *[f"{BOT_PREFIX}{i}" for i in range(1, seats)]]
            table = Table(settings.variant, settings.options, people, secret=secret,
                          max_hands=settings.hands)
            room = Room(self._ports(), code, settings, table, deals.secret_hex(secret), "")
            try:
                await self.store.create_room(code, settings.variant,
                                             room._stored_settings(), room.secret,
                                             [canonical(e) for e in table.log])
            except BaseException:
                if self.cluster is not None:
                    await self.cluster.finished(code)  # the lease taken for the new code
                raise
            self.rooms[code] = room
        async with room.lock:
            member = await room.add_member(host_name, "player")
            room.host = member.token
            await room._store(settings=True)
        if self.cluster is not None:
            await self.cluster.created(code)  # parked for the proxy's pick (affinity)
        return room, member

    @staticmethod
    def _check_code(code: object) -> str:
        if not (isinstance(code, str) and code.isdigit() and len(code) <= 16):
            raise TableError(f"no room {code!r}", code=ErrorCode.UNKNOWN_ROOM)
        return code

    async def room(self, code: str) -> Room:
        """The room to read (records, replays, its log): the one played here, or, when
        another process plays it, a copy rebuilt from storage (never played)."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        self._check_code(code)
        if self.cluster is None:
            return await self.load(code)
        where = await self.cluster.locate(code)
        if isinstance(where, Room):
            return where
        stored = await self.store.room(code)
        if stored is None:
            raise TableError(f"no room {code!r}", code=ErrorCode.UNKNOWN_ROOM)
        return self._rebuild(code, stored)

    async def locate(self, code: str) -> Room | str:
        """The room if this process plays it (taking it if nobody does), else the id of
        the process that does."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        self._check_code(code)
        if self.cluster is None:
            return await self.load(code)
        return await self.cluster.locate(code)

    async def info(self, code: str) -> Mapping[str, object]:
        where = await self.locate(code)
        if isinstance(where, Room):
            return where.info()
        assert self.cluster is not None
        return await self.cluster.call(where, code, "info")

    def _rebuild(self, code: str, stored: StoredRoom) -> Room:
        data = dict(stored.settings)
        host = str(data.pop("host", ""))
        paused = bool(data.pop("paused", False))
        locked = bool(data.pop("locked", False))
        kicked = data.pop("kicked", {})
        settings = RoomSettings.from_json(data)
        table = Table.from_log(stored.lines, secret=deals.parse_secret(stored.secret))
        room = Room(self._ports(), code, settings, table, stored.secret, host)
        room.paused = paused
        room.locked = locked
        if isinstance(kicked, dict):
            room.kicked = {str(k): str(v) for k, v in kicked.items()}
        room.closed = table.closed
        room._status = stored.status
        room.started = room.started or stored.status in ("playing", "over")
        for token, name, role in stored.members:
            if token not in room.kicked:
                room.members[token] = Member(token, name, role)
        return room

    async def load(self, code: str, stored: StoredRoom | None = None) -> Room:
        """Rebuild a room from storage and play it here (after a restart, a room taken
        over from another process, or a finished room's records)."""
        if stored is None:
            stored = await self.store.room(code)
        if stored is None:
            raise TableError(f"no room {code!r}", code=ErrorCode.UNKNOWN_ROOM)
        room = self._rebuild(code, stored)
        self.rooms[code] = room
        async with room.lock:
            await room.advance()
        return room

    async def join(self, code: str, name: object, role: object) -> dict[str, str]:
        """A new member of a room (played here or elsewhere): its code, token and role."""
        where = await self.locate(code)
        if isinstance(where, Room):
            room, member = await self.join_here(where, name, role)
            return {"code": room.code, "token": member.token, "role": member.role}
        assert self.cluster is not None
        check_name(name)
        answer = await self.cluster.call(where, code, "join", name=name, role=role)
        return {k: str(answer[k]) for k in ("code", "token", "role")}

    async def end(self, code: str) -> None:
        """End a room's match (the admin page's End), on whichever process plays it:
        here, or its owner's, asked through Redis (``end`` call, laizi.server.forwarding).
        ``table_over`` when it is over already."""
        where = await self.locate(code)
        if isinstance(where, Room):
            await self.end_here(where)
            return
        assert self.cluster is not None
        await self.cluster.call(where, code, "end")

    async def end_here(self, room: Room) -> None:
        """End a room played here, as its host's ``end`` does (room_members)."""
        async with room.lock:
            if room.closed:
                raise TableError("the room is over", code=ErrorCode.TABLE_OVER)
            await room._close()

    async def join_here(self, room: Room, name: object, role: object
                        ) -> tuple[Room, Member]:
        name = check_name(name)
        if role not in ("player", "spectator"):
            raise TableError(f"role is player or spectator, got {role!r}",
                             code=ErrorCode.MALFORMED)
        async with room.lock:
            if room.closed:
                raise TableError("the room is over", code=ErrorCode.TABLE_OVER)
            member = await room.add_member(name, role)
            await room.advance()
        return room, member
