"""The frames a room sends (docs/protocol.md, "The hall's websocket"): each connection is
sent what its person may see — the events after the version it knows, the current view,
its legal actions and its clock — and nothing when it would learn nothing new."""

from __future__ import annotations

import asyncio
import logging

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action
from laizi.engine.hints import HintWork
from laizi.errors import ErrorCode, MalformedActionError, TableError
from laizi.server.room_connection import Connection, Member, dumps
from laizi.server.room_state import RoomState, pass_only
from laizi.table.table import Entry
from laizi.vocab import ServerOp

__all__ = ["SNAPSHOT_GAP", "RoomFrames"]

log = logging.getLogger(__name__)

SNAPSHOT_GAP = 400
"""A client more than this many events behind gets a fresh view instead of the events."""


class RoomFrames(RoomState):
    """The room's frames."""

    def _seat_of(self, member: Member | None) -> tuple[str | None, int | None]:
        """Whose view a member's frame shows (``None``: a spectator's) and the seat it
        answers for (``None`` between hands or for a person not at the table)."""
        t = self.table
        person = None if member is None or member.role == "spectator" else member.name
        if person is not None and person not in t.ledger:
            person = None  # a player who joined during a hand watches it until it ends
        seat = None
        if person is not None and t.in_hand and person in t.seats:
            seat = t.seats.index(person)
        return person, seat

    def _frame(self, member: Member | None, conn: Connection, *, info: str | None = None,
               changed_only: bool = False) -> str | None:
        """The ``state`` frame for one connection, as JSON text (``None`` with
        ``changed_only`` when the person would learn nothing new: another seat's hidden
        answer sends nothing, so not even a frame's arrival shows that somebody
        answered). ``info``: the room's public facts, encoded once for everybody."""
        t = self.table
        person, seat = self._seat_of(member)
        now = t.version(person)
        if info is None:
            info = dumps(self.info())
        actions: tuple[Action, ...] = ()
        if seat is not None:
            actions = tuple(t.legal_actions(seat))
            if pass_only(actions):
                actions = ()  # the server answers it: no prompt, no clock
        key = (info, actions)
        if changed_only and now == conn.version and key == conn.last:
            return None
        conn.last = key
        if conn.version > now or now - conn.version > SNAPSHOT_GAP:
            events: list[Entry] = []
            snapshot = True
        else:
            events = t.events(person, after=conn.version)
            snapshot = False
        conn.version = now
        view = t.view_for(person)
        if seat is not None:
            self._views_shown[seat] = (now, view)  # for this version's hints (_hints)
        deadline = None
        if actions and seat in self._deadlines:
            deadline = max(0.0, round(self._deadlines[seat] - self.clock.monotonic(), 2))
        legal = [a.to_json() for a in actions]
        body = dumps({"op": ServerOp.STATE, "version": now, "snapshot": snapshot,
                      "events": events, "view": view, "legal": legal, "deadline": deadline})
        return f"{body[:-1]},\"room\":{info}}}"

    async def _hints(self, seat: int, person: str) -> tuple[int, JSON | None] | None:
        """The 听牌 hints of ``seat`` (its ``person``'s version and the hints; ``None``
        when the hand moved on while they were worked out), once per seat and version
        (:mod:`laizi.engine.hints`). Worked out a discard at a time, the event loop
        running between the steps: a turn's hints take milliseconds, and nobody's
        action waits that long for them."""
        t = self.table
        g = t.game
        version = t.version(person)
        cached = self._hint_cache.get(seat)
        if cached is not None and cached[0] == version:
            return cached
        value: JSON | None = None
        if g is not None and not g.over:
            shown = self._views_shown.get(seat)
            # The view the state frame of this version built; a view of its own only when
            # the hand moved on after the last frame (the next frame's hints are due then).
            view = shown[1] if shown is not None and shown[0] == version else g.view(seat)
            try:
                work = HintWork(g, t.variant, seat, view, eager=self.hint_budget)
                while not work.done:
                    work.step()
                    await asyncio.sleep(0)
                    if t.game is not g or t.version(person) != version or self.gone:
                        return None  # stale: the next round works out the new hand's
                # Sent empty too: the client then knows this version's hints are in (none),
                # rather than still being worked out.
                value = work.result().to_json()
                self._hint_work[seat] = (version, work)
            except Exception:  # a rules bug must not stop the room: no hints, logged
                log.exception("hints failed for seat %s at version %s", seat, version)
        cached = self._hint_cache[seat] = (version, value)
        return cached

    def _hint_waits(self, member: Member, tile: object, version: object) -> list[JSON]:
        """The waits of ready discard ``tile`` in the hints of ``version`` (those its
        ``hints`` frame left out, ``waits: null``, or any other), for the member's seat:
        worked out now on the blind copy those hints were worked out on, once (asked
        again, the same answer is sent). Refused, and nothing worked out, when the room
        has no hints, the member holds no seat, the hints are not of the seat's current
        version, or ``tile`` is no ready discard of them."""
        if not self.settings.hints:
            raise TableError("this room shows no 听牌 hints", code=ErrorCode.TABLE_RULE)
        if type(tile) is not int or type(version) is not int:
            raise MalformedActionError("hint_waits takes a tile and a version, both ints")
        person, seat = self._seat_of(member)
        if seat is None or person is None:
            raise TableError("only a player seated in the hand has hints",
                             code=ErrorCode.NOT_YOUR_SEAT)
        got = self._hint_work.get(seat)
        if got is None or got[0] != version or version != self.table.version(person):
            raise TableError("those hints are not of the hand as it is now",
                             code=ErrorCode.STALE_VERSION)
        waits = got[1].waits_of(tile)
        if waits is None:
            raise TableError(f"tile {tile} is no ready discard of those hints",
                             code=ErrorCode.ILLEGAL)
        return [w.to_json() for w in waits]

    async def _send_hints(self) -> None:
        """Send each seated player's connections the hints of the version their last
        state frame showed, if they have not had them, until nothing is left to send.
        Started once the state frames are queued (:meth:`_hints_later`), so no frame
        waits while hints are worked out: the work grows with the waits of every seat's
        hand, which a frame's timing would otherwise show the other seats."""
        while self._hints_due and not self.gone:
            self._hints_due = False
            if not self.settings.hints:
                return
            for m in list(self.members.values()):
                person, seat = self._seat_of(m)
                if seat is None or person is None:
                    continue
                if all(c.hints_version == c.version for c in m.connections):
                    continue
                got = await self._hints(seat, person)
                if got is None:
                    self._hints_due = True  # moved on: look again
                    continue
                version, found = got
                for conn in m.connections:
                    if conn.version != version or conn.hints_version == version:
                        continue
                    conn.hints_version = version
                    if found is not None:
                        conn.put(dumps({"op": ServerOp.HINTS, "version": version,
                                        "hints": found}))

    def _hints_later(self) -> None:
        """Have the hints sent once this turn of the event loop is over
        (:meth:`_send_hints`): a task, started unless one is running (which then looks
        again before it ends)."""
        if not self.settings.hints:
            return
        self._hints_due = True
        task = self._hints_task
        if task is not None and not task.done():
            return
        try:
            self._hints_task = asyncio.get_running_loop().create_task(self._send_hints())
        except RuntimeError:  # no loop running (a synchronous caller): none sent
            self._hints_due = False

    def broadcast(self) -> None:
        info = dumps(self.info())
        for m in self.members.values():
            for conn in m.connections:
                frame = self._frame(m, conn, info=info, changed_only=True)
                if frame is not None:
                    conn.put(frame)
        self._hints_later()
