"""The frames a room sends (docs/protocol.md, "The hall's websocket"): each connection is
sent what its person may see — the events after the version it knows, the current view,
its legal actions and its clock — and nothing when it would learn nothing new."""

from __future__ import annotations

from laizi.engine.actions import Action
from laizi.server.room_connection import Connection, Member, dumps
from laizi.server.room_state import RoomState, pass_only
from laizi.table.table import Entry
from laizi.vocab import ServerOp

__all__ = ["SNAPSHOT_GAP", "RoomFrames"]

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
        deadline = None
        if actions and seat in self._deadlines:
            deadline = max(0.0, round(self._deadlines[seat] - self.clock.monotonic(), 2))
        legal = [a.to_json() for a in actions]
        body = dumps({"op": ServerOp.STATE, "version": now, "snapshot": snapshot,
                      "events": events, "view": view, "legal": legal, "deadline": deadline})
        return f"{body[:-1]},\"room\":{info}}}"

    def broadcast(self) -> None:
        info = dumps(self.info())
        for m in self.members.values():
            for conn in m.connections:
                frame = self._frame(m, conn, info=info, changed_only=True)
                if frame is not None:
                    conn.put(frame)
