"""A room's membership: people joining (a player takes a bot's seat between hands, or
waits), their connections coming and going (a disconnected person's seat waits ``grace``
seconds before a bot plays it), the dismiss vote (解散) and the room's end."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

from laizi.errors import ErrorCode, MalformedActionError, TableError
from laizi.server.room_connection import Connection, Member
from laizi.server.room_settings import BOT_PREFIX
from laizi.server.room_state import RoomState

__all__ = ["VOTE_SECONDS", "RoomMembers"]

VOTE_SECONDS = 60.0
"""How long a dismiss vote stays open."""


class RoomMembers(RoomState):
    """Who is in the room, who is connected, and how the room ends."""

    async def add_member(self, name: str, role: str) -> Member:
        """A new member (under the lock): a player takes a bot's seat or waits (晃晃), or
        watches when the table is full. Refused in a locked room, and to a name the host
        kicked (:mod:`room_host`)."""
        if name in self.kicked.values():
            raise TableError(f"the host removed {name!r} from this room",
                             code=ErrorCode.KICKED)
        if self.locked:
            raise TableError("the host has locked this room: nobody new may join",
                             code=ErrorCode.ROOM_LOCKED)
        if any(m.name == name for m in self.members.values()):
            raise TableError(f"{name!r} is already in the room")
        token = secrets.token_urlsafe(18)
        member = Member(token, name, role)
        if role == "player" and not self._has_room_for_player():
            member.role = "spectator"
        self.members[token] = member
        await self.ports.store.add_member(token, self.code, name, member.role)
        if member.role == "player" and not self.table.in_hand:
            await self._seat_player(member)
        return member

    def _has_room_for_player(self) -> bool:
        t = self.table
        players = sum(1 for m in self.members.values() if m.role == "player")
        return players < t.session.max_people and (
            any(p is None or p.startswith(BOT_PREFIX) for p in t.seats)
            or len(t.people) < t.session.max_people)

    async def _seat_player(self, member: Member) -> None:
        """Between hands, put a player at the table: into a bot's seat, or the queue."""
        t = self.table
        if t.in_hand or member.name in t.people or member.role != "player":
            return
        bot = next((p for p in t.seats if p is not None and p.startswith(BOT_PREFIX)), None)
        if bot is not None and not t.waiting:
            t.leave(bot)
        t.join(member.name)
        await self._store()

    def _seat_waiting_players(self) -> bool:
        """Players who joined during a hand sit down now; whether anyone did."""
        before = len(self.table.log)
        for m in self.members.values():
            if m.role == "player" and m.name not in self.table.people:
                t = self.table
                bot = next((p for p in t.seats if p is not None
                            and p.startswith(BOT_PREFIX)), None)
                if bot is not None and not t.waiting:
                    t.leave(bot)
                if len(t.people) < t.session.max_people or None in t.seats:
                    t.join(m.name)
        return len(self.table.log) != before

    # ------------------------------------------------------------------ connections

    async def attach(self, member: Member, conn: Connection) -> None:
        """A new connection of a member: it is sent the state first."""
        async with self.lock:
            waiting = self.waits_for_people()
            member.connections.add(conn)
            self.connected(member)
            # Back between hands (an idle room resumes, or the next hand is coming): the
            # person plays the next hand, not 托管 (during a hand they tap 我回来了).
            back = not self.table.in_hand and member.name in self.auto
            if back:
                self.auto.discard(member.name)
            first = self._frame(member, conn)
            assert first is not None
            conn.put(first)
            self._hints_later()
            if waiting and not self.waits_for_people():
                await self.advance()  # a player is back: the room plays on
            elif back:
                self.broadcast()

    async def detach(self, member: Member, conn: Connection) -> None:
        member.connections.discard(conn)
        self.disconnected(member)
        await conn.stop()

    def connected(self, member: Member) -> None:
        task = self._graces.pop(member.name, None)
        if task is not None:
            task.cancel()

    def disconnected(self, member: Member) -> None:
        if member.connections or member.role != "player" or self.closed or self.gone:
            return
        self._graces[member.name] = asyncio.create_task(self._grace(member))
        if self.waits_for_people():
            # The last player left between hands (a next hand coming, or the host's
            # pause): no next hand, and everybody still here (spectators) is told now
            # that the room waits for people, not when the hand would have been dealt.
            # One task at a time, never cancelled here (it may be storing under the
            # lock): a task still under way makes one more pass.
            self._emptied_again = True
            if self._emptied is None or self._emptied.done():
                self._emptied = asyncio.create_task(self._after_emptied())

    async def _after_emptied(self) -> None:
        try:
            while self._emptied_again:
                self._emptied_again = False
                async with self.lock:
                    if self.waits_for_people():
                        await self.advance()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.ports.reporter.report(self, exc)

    async def _grace(self, member: Member) -> None:
        try:
            await self.clock.sleep(self.settings.grace)
            async with self.lock:
                if not member.connections and member.name in self.table.seats:
                    self.auto.add(member.name)
                    await self.advance()
                    self.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.ports.reporter.report(self, exc)

    # ------------------------------------------------------------------ ending

    async def _dismiss(self, member: Member, agree: object) -> None:
        if not isinstance(agree, bool):
            raise MalformedActionError("agree must be true or false")
        if member.name not in self.table.seats:
            raise TableError("only seated players vote", code=ErrorCode.NOT_YOUR_SEAT)
        if self.vote is None:
            if not agree:
                return
            self.vote = {}
            self.vote_until = self.clock.monotonic() + VOTE_SECONDS
            self._vote_task = asyncio.create_task(self._vote_timeout())
        self.vote[member.name] = agree
        humans = self.persons_seated()
        if not agree:
            self.vote = None
            if self._vote_task is not None:
                self._vote_task.cancel()
        elif all(self.vote.get(p) for p in humans):
            await self._close()

    async def _vote_timeout(self) -> None:
        await self.clock.sleep(VOTE_SECONDS)
        async with self.lock:
            self.vote = None
            self.broadcast()

    async def _close(self) -> None:
        if self.closed:
            return
        self._cancel_tasks()
        if self._next_hand is not None:
            self._next_hand.cancel()
            self._next_hand = None
        self.table.close()
        self.closed = True
        await self._store(status="over")
        self.broadcast()
        if self.ports.finished is not None:
            await self.ports.finished(self.code)

    async def stop(self, close_code: int | None = None) -> None:
        """The server stops, or the room moves to another process: cancel every timer
        (the room resumes from storage); with ``close_code``, close the connections so
        their clients reconnect."""
        self.gone = True  # nothing more happens here, whoever holds the lock next
        self._cancel_tasks()
        for task in [self._next_hand, self._vote_task, self._emptied, self._hints_task,
                     *self._graces.values()]:
            if task is not None:
                task.cancel()
        for m in self.members.values():
            for conn in list(m.connections):
                await conn.stop()
                if close_code is not None and conn.close is not None:
                    with contextlib.suppress(Exception):
                        await conn.close(close_code)
