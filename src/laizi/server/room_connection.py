"""A room's people and their connections: who a member is, and the writer that sends one
websocket its frames in order."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

import orjson

from laizi.engine.actions import Action
from laizi.server.room_messages import Answer

__all__ = ["Connection", "Frame", "Member", "dumps"]

Frame = str | Mapping[str, object]
"""A frame to send: JSON text already encoded (a state frame) or a JSON object (an
answer, an error)."""


def dumps(data: object) -> str:
    """Compact JSON text of a frame (UTF-8, no spaces). orjson, because encoding the
    frames was a fifth of the hall's time with the standard library's encoder."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(eq=False)
class Connection:
    """One open websocket of a member; frames go out through a queue, in order, as
    JSON text (a state frame is put already encoded: its shared parts are encoded once
    for every connection of the room).

    Either ``send`` (a local websocket: a writer task awaits each send in turn) or
    ``deliver`` (a websocket held by another process: each frame is handed on at once,
    in order, to a publisher that never waits; no queue and no task per frame)."""

    send: Callable[[str], Awaitable[None]] | None = None
    version: int = 0
    last: tuple[str, tuple[Action, ...]] | None = None
    """What the last frame said beyond the events (room and legal actions)."""
    queue: asyncio.Queue[Frame | None] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    close: Callable[[int], Awaitable[None]] | None = None
    """Closes the transport with a websocket close code (the room moved away)."""
    deliver: Callable[[str], None] | None = None
    hints_version: int = -1
    """The version whose 听牌 hints this connection was last sent (:mod:`room_frames`)."""

    def start(self) -> None:
        if self.deliver is None:
            self.writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        assert self.send is not None
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            try:
                await self.send(frame if isinstance(frame, str) else dumps(frame))
            except Exception:
                return

    def put(self, frame: Frame) -> None:
        if self.deliver is not None:
            self.deliver(frame if isinstance(frame, str) else dumps(frame))
        else:
            self.queue.put_nowait(frame)

    async def stop(self) -> None:
        self.queue.put_nowait(None)
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await self.writer


@dataclass(eq=False)
class Member:
    """A person of a room: a player (seated or waiting) or a spectator."""

    token: str
    name: str
    role: str
    connections: set[Connection] = field(default_factory=set)
    answers: dict[int, tuple[str, Answer]] = field(default_factory=dict)
    """Recent answers by the client's sequence number (with the message): the same
    message sent again is answered again, never applied twice."""
