"""The host's powers over people (房主): kick a member (踢出), hand the host role over
(转让房主), lock the room to newcomers (锁定房间) — docs/hall.md, "Host powers".

A kicked person is barred from the room for good: their token is refused (``kicked``,
HTTP 403, a websocket closed with :data:`CLOSE_KICKED`) and their name may not join it
again, locked or not. Their seat is played by a bot at once: during a hand the table
does not change (the seat's person stays in the hand's log; a bot answers for it, as
for 托管); between hands, and when the hand in play ends, they leave the table
(``leave``), and the front of 晃晃's waiting list, a player who joined during the hand,
or a new bot sits down (``join``): ordinary table lines, so the log replays
(``Table.from_log``) as any other. Their score stays in the ledger.

What is stored goes with the room's settings (``locked``, and ``kicked`` as token → name),
so a restart, or another process taking the room over, keeps it.
"""

from __future__ import annotations

import asyncio
import contextlib

from laizi.errors import ErrorCode, MalformedActionError, TableError
from laizi.server.room_connection import Connection, Member
from laizi.server.room_messages import HandOver, Kick, Lock
from laizi.server.room_settings import BOT_PREFIX
from laizi.server.room_state import RoomState
from laizi.vocab import ServerOp

__all__ = ["CLOSE_KICKED", "RoomHost"]

CLOSE_KICKED = 4410
"""The websocket close code of a person the host removed (final: the client stops and
says so)."""

_send_offs: set[asyncio.Task[None]] = set()
"""The kicked connections being told and closed (kept until done)."""


def _named(person: object) -> str:
    if not isinstance(person, str) or not person:
        raise MalformedActionError(f"person is a member's name, got {person!r}")
    return person


class RoomHost(RoomState):
    """Kick, hand over, lock."""

    def _target(self, person: object, me: Member) -> Member:
        """The member a host command names (never the host)."""
        name = _named(person)
        target = self.by_name(name)
        if target is None:
            raise TableError(f"nobody named {name!r} is in the room",
                             code=ErrorCode.TABLE_RULE)
        if target is me:
            raise TableError("that is you, the host", code=ErrorCode.TABLE_RULE)
        return target

    async def _host_power(self, host: Member, message: Kick | HandOver | Lock) -> None:
        """A host's ``kick``, ``host`` or ``lock`` (the caller checked the host)."""
        match message:
            case Kick(person=person):
                await self._kick(self._target(person, host))
            case HandOver(person=person):
                target = self._target(person, host)
                if target.role != "player":
                    raise TableError("the host role goes to a player, not a spectator",
                                     code=ErrorCode.TABLE_RULE)
                self.host = target.token
                await self._store(settings=True)
            case Lock(locked=locked):
                if not isinstance(locked, bool):
                    raise MalformedActionError("locked must be true or false")
                self.locked = locked
                await self._store(settings=True)

    async def _kick(self, member: Member) -> None:
        """Remove a member: barred for good, their seat played by a bot from now on."""
        name = member.name
        self.kicked[member.token] = name
        del self.members[member.token]
        t = self.table
        if t.in_hand and name in t.seats:
            # A bot answers for the seat from now on: the seat's pending clock goes, so
            # the driver's next pass gives it a bot's move.
            seat = t.seats.index(name)
            held = self._tasks.pop(seat, None)
            if held is not None:
                held[1].cancel()
            self._deadlines.pop(seat, None)
        elif not t.in_hand:
            self._reseat()
        try:
            await self._store(settings=True)
        except Exception:
            # Not stored: the kick did not happen (the table was rebuilt from storage).
            del self.kicked[member.token]
            self.members[member.token] = member
            raise
        role = member.role
        member.role = "kicked"  # its connections' last steps start no 托管 grace
        self.auto.discard(name)
        self.ready.discard(name)
        if self.vote is not None:
            self.vote.pop(name, None)  # a dismiss vote waits no more for their answer
        grace = self._graces.pop(name, None)
        if grace is not None:
            grace.cancel()
        task = asyncio.create_task(self._send_off(list(member.connections), role))
        _send_offs.add(task)
        task.add_done_callback(_send_offs.discard)
        seated = self.persons_seated()
        if self.vote is not None and seated and all(self.vote.get(p) for p in seated):
            await self._close()  # everybody left at the table had agreed to dismiss

    async def _send_off(self, conns: list[Connection], role: str) -> None:
        """Tell a kicked person's connections why, then close them (outside the room's
        lock: a slow client delays nobody)."""
        frame = {"op": ServerOp.ERROR, "seq": None, "error": {
            "code": ErrorCode.KICKED.value, "seat": None, "phase": None,
            "message": f"the host removed you ({role}) from room {self.code}"}}
        for conn in conns:
            conn.put(frame)
            await conn.stop()  # the frame is sent before the socket closes
            if conn.close is not None:
                with contextlib.suppress(Exception):
                    await conn.close(CLOSE_KICKED)

    def _fresh_bot(self) -> str:
        """A bot's name new to the table (a bot that left keeps its own score)."""
        t = self.table
        known = set(t.people) | set(t.ledger)
        i = 1
        while f"{BOT_PREFIX}{i}" in known:
            i += 1
        return f"{BOT_PREFIX}{i}"

    def _reseat(self) -> bool:
        """Between hands: kicked people still at the table leave it (晃晃's waiting list
        moves up), players who joined during the hand sit down, and a bot takes each seat
        still empty; whether the table changed."""
        t = self.table
        before = len(t.log)
        for name in sorted(set(self.kicked.values()) & set(t.people)):
            t.leave(name)
        self._seat_waiting_players()
        while None in t.seats:
            t.join(self._fresh_bot())
        return len(t.log) != before
