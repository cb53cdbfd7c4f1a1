"""Websockets and calls that cross Redis between the hall's processes (docs/deploy.md).

A websocket for a room owned elsewhere is a **proxy**: the client's messages go, as they
came, to the owner's channel ``laizi:own:{id}``; the owner answers them and sends the
frames of that connection (computed by the owner for that person alone, exactly as for
a local connection) to the gateway's channel ``laizi:gw:{id}``; the gateway passes them
on untouched. Joining a room and the room's public facts are a **call** to the owner,
answered on the caller's channel.

The messages on the owner's channel: ``o {json}`` a connection opens, ``m {cid}\\n{text}``
a client's message, ``c {cid}`` it closes, ``r {json}`` a call; on the gateway's:
``f {cid}\\n{frame}`` a frame, ``x {cid} {code}`` close the websocket, ``a {json}`` the
answer to a call (:class:`Wire`).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.server.bus import OnNobody
from laizi.server.leases import (
    Unavailable,
    dumps,
    gateway_channel,
    owner_channel,
)
from laizi.server.rooms import Connection, Member, Room
from laizi.server.serving import (
    CLOSE_KICKED,
    CLOSE_UNKNOWN,
    SERVICE_RESTART,
    Incoming,
    error_frame,
    serve_messages,
)

__all__ = ["CALL_END", "CALL_INFO", "CALL_JOIN", "Forwarding", "OwnerHall", "Wire"]

CALL_JOIN = "join"
"""A call: a new member of the room (``name``, ``role``)."""
CALL_INFO = "info"
"""A call: the room's public facts."""
CALL_END = "end"
"""A call: end the room's match (the admin page's End, laizi.server.admin)."""
CALL_TIMEOUT = 10.0
"""Seconds a call waits for the owner's answer."""


class Wire(StrEnum):
    """The kind of a message between processes (its first letter)."""

    OPEN = "o"
    MESSAGE = "m"
    CLOSE = "c"
    CALL = "r"
    FRAME = "f"
    EXIT = "x"
    ANSWER = "a"


class OwnerHall(Protocol):
    """What the owner side needs of the hall (:class:`laizi.server.hall.Hall`)."""

    rooms: dict[str, Room]

    def report(self, room: Room | None, exc: BaseException) -> None: ...

    async def join_here(self, room: Room, name: object, role: object
                        ) -> tuple[Room, Member]: ...

    async def end_here(self, room: Room) -> None: ...


Publish = Callable[[str, str, OnNobody | None], None]


@dataclass(frozen=True, slots=True)
class Opening:
    """``o``: a gateway opened a websocket of ``room`` (connection ``conn``)."""

    room: str
    conn: str
    gw: str
    token: str
    version: int

    @classmethod
    def from_json(cls, text: str) -> Opening:
        req = json.loads(text)
        return cls(str(req["room"]), str(req["conn"]), str(req["gw"]), str(req["token"]),
                   int(req["version"]))


@dataclass(frozen=True, slots=True)
class CallRequest:
    """``r``: a call to the owner of ``room`` (``op``: :data:`CALL_JOIN` with ``name``
    and ``role``, or :data:`CALL_INFO`), answered on the channel of gateway ``gw``."""

    id: str
    gw: str
    room: str
    op: str
    name: object = None
    role: object = None

    @classmethod
    def from_json(cls, text: str) -> CallRequest:
        req = json.loads(text)
        return cls(str(req["id"]), str(req["gw"]), str(req["room"]), str(req["op"]),
                   req.get("name"), req.get("role"))


@dataclass(eq=False)
class Remote:
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
class Proxy:
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


class Forwarding:
    """This process's websockets and calls that cross Redis, as owner and as gateway.

    ``owned`` and ``loading`` are the cluster's own (the rooms whose lease is held here,
    the rooms being loaded), read here, never changed."""

    def __init__(self, process: str, hall: OwnerHall, publish: Publish,
                 owned: set[str], loading: dict[str, asyncio.Future[Room]]) -> None:
        self.id = process
        self.hall = hall
        self.publish = publish
        self.owned = owned
        self.loading = loading
        self.remote: dict[str, Remote] = {}
        self.proxies: dict[str, Proxy] = {}
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._background: set[asyncio.Task[None]] = set()

    def _publish(self, channel: str, data: str, on_nobody: OnNobody | None = None) -> None:
        self.publish(channel, data, on_nobody)

    def received(self, channel: str, data: str) -> None:
        if channel == owner_channel(self.id):
            self.to_owner(data)
        elif channel == gateway_channel(self.id):
            self.to_gateway(data)

    def restart_all(self) -> None:
        """Close every websocket whose messages cross Redis with 1012 (service restart)."""
        for proxy in list(self.proxies.values()):
            proxy.out.put_nowait(SERVICE_RESTART)
        for cid in list(self.remote):
            self.send_back(cid)

    def end_room(self, code: str) -> None:
        """Forget the remote connections of a room that is no longer owned here."""
        for cid, remote in list(self.remote.items()):
            if remote.code == code:
                self.end_remote(cid)

    # ------------------------------------------------------------------ owner side

    def to_owner(self, data: str) -> None:
        kind, _, rest = data.partition(" ")
        match kind:
            case Wire.MESSAGE:
                cid, _, text = rest.partition("\n")
                remote = self.remote.get(cid)
                if remote is not None:
                    remote.inbox.put_nowait(text)
            case Wire.OPEN:
                opening = Opening.from_json(rest)
                remote = Remote(opening.room, opening.gw)
                self.remote[opening.conn] = remote
                remote.task = self._spawn(self._serve_remote(remote, opening))
            case Wire.CLOSE:
                self.end_remote(rest)
            case Wire.CALL:
                self._spawn(self._answer_call(CallRequest.from_json(rest)))

    def _spawn(self, coro: Coroutine[object, object, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _open(self, remote: Remote, opening: Opening) -> bool:
        """Attach a remote connection to its room; whether it is served."""
        cid, code, channel = opening.conn, remote.code, gateway_channel(remote.gateway)
        loading = self.loading.get(code)
        room = await asyncio.shield(loading) if loading is not None else \
            self.hall.rooms.get(code)
        if room is None or code not in self.owned or room.gone:
            self._publish(channel, f"{Wire.EXIT} {cid} {SERVICE_RESTART}")
            return False
        try:
            member = room.member(opening.token)
        except LaiziError as exc:
            self._publish(channel, f"{Wire.FRAME} {cid}\n" + dumps(error_frame(exc)))
            close_code = CLOSE_KICKED if exc.code == ErrorCode.KICKED else CLOSE_UNKNOWN
            self._publish(channel, f"{Wire.EXIT} {cid} {close_code}")
            return False

        def deliver(frame: str) -> None:
            # Not told when nobody listened: a gateway that is gone is found by the
            # cluster's keep-alive check within a third of a lease, and reading the
            # answer to every frame cost more than the rest of publishing it.
            self._publish(channel, f"{Wire.FRAME} {cid}\n{frame}")

        async def close(code_: int) -> None:
            self._publish(channel, f"{Wire.EXIT} {cid} {code_}")

        conn = Connection(version=opening.version, close=close, deliver=deliver)
        remote.room, remote.member, remote.conn = room, member, conn
        conn.start()
        await room.attach(member, conn)
        return True

    async def _serve_remote(self, remote: Remote, opening: Opening) -> None:
        """A remote connection: attach it, then its messages in order (as the gateway
        received them), until it closes."""
        try:
            if not await self._open(remote, opening):
                self.remote.pop(opening.conn, None)
                return
            room, member, conn = remote.room, remote.member, remote.conn
            assert room is not None and member is not None and conn is not None
            await serve_messages(room, member, conn, remote.inbox.get)
            await room.detach(member, conn)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.hall.report(None, exc)

    def end_remote(self, cid: str) -> None:
        remote = self.remote.pop(cid, None)
        if remote is not None:
            remote.inbox.put_nowait(None)

    def send_back(self, cid: str) -> None:
        """End a remote connection and tell its gateway to close the websocket (1012),
        so that its client comes back with its version."""
        remote = self.remote.get(cid)
        if remote is not None:
            self.end_remote(cid)
            self._publish(gateway_channel(remote.gateway),
                          f"{Wire.EXIT} {cid} {SERVICE_RESTART}")

    async def _answer_call(self, req: CallRequest) -> None:
        answer: dict[str, object] = {"id": req.id}
        try:
            code = req.room
            room = self.hall.rooms.get(code)
            if room is None or code not in self.owned:
                raise Unavailable(f"room {code} is moving between processes; try again")
            if req.op == CALL_JOIN:
                _, member = await self.hall.join_here(room, req.name, req.role)
                answer["ok"] = {"code": room.code, "token": member.token,
                                "role": member.role}
            elif req.op == CALL_END:
                await self.hall.end_here(room)
                answer["ok"] = {"code": room.code, "over": True}
            else:
                answer["ok"] = room.info()
        except LaiziError as exc:
            answer["error"] = dict(exc.to_json())
        except Exception as exc:
            self.hall.report(None, exc)
            answer["error"] = dict(Unavailable(f"{type(exc).__name__}").to_json())
        self._publish(gateway_channel(req.gw), f"{Wire.ANSWER} " + dumps(answer))

    # ------------------------------------------------------------------ gateway side

    def to_gateway(self, data: str) -> None:
        kind, _, rest = data.partition(" ")
        match kind:
            case Wire.FRAME:
                cid, _, frame = rest.partition("\n")
                proxy = self.proxies.get(cid)
                if proxy is not None:
                    proxy.out.put_nowait(frame)
            case Wire.EXIT:
                cid, _, code = rest.partition(" ")
                proxy = self.proxies.get(cid)
                if proxy is not None:
                    proxy.out.put_nowait(int(code))
            case Wire.ANSWER:
                answer = json.loads(rest)
                future = self._calls.pop(str(answer["id"]), None)
                if future is not None and not future.done():
                    future.set_result(answer)

    async def call(self, owner: str, code: str, op: str, **fields: object
                   ) -> dict[str, Any]:
        """Ask the owner of a room (:data:`CALL_JOIN`, :data:`CALL_INFO`,
        :data:`CALL_END`); its answer or its typed error."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[rid] = future

        def nobody() -> None:
            if not future.done():
                future.set_exception(Unavailable(
                    f"room {code} is moving between processes; try again"))

        self._publish(owner_channel(owner), f"{Wire.CALL} " + dumps(
            {"id": rid, "gw": self.id, "room": code, "op": op, **fields}), nobody)
        try:
            answer = await asyncio.wait_for(future, CALL_TIMEOUT)
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
                    receive: Callable[[], Awaitable[Incoming]],
                    send_text: Callable[[str], Awaitable[None]],
                    close: Callable[[int], Awaitable[None]]) -> None:
        """Serve one client's websocket for a room owned elsewhere until it closes.
        ``receive`` gives a message's text, an error frame to send back (a message too
        large or not text), or ``None`` when the client has gone."""
        cid = secrets.token_hex(8)
        proxy = Proxy(code, owner, send_text, close)
        self.proxies[cid] = proxy
        proxy.writer = asyncio.create_task(proxy._write())
        channel = owner_channel(owner)

        def moved() -> None:
            proxy.out.put_nowait(SERVICE_RESTART)

        self._publish(channel, f"{Wire.OPEN} " + dumps(
            {"room": code, "conn": cid, "gw": self.id, "token": token, "version": version}),
            moved)
        try:
            while not proxy.writer.done():
                text = await receive()
                if text is None:
                    break
                if isinstance(text, dict):
                    proxy.out.put_nowait(dumps(text))
                    continue
                self._publish(channel, f"{Wire.MESSAGE} {cid}\n{text}")
        finally:
            self.proxies.pop(cid, None)
            self._publish(channel, f"{Wire.CLOSE} {cid}")
            if not proxy.writer.done():
                proxy.writer.cancel()
