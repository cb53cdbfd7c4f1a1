"""What a room is (its table, its members, what is happening), and what every part of it
may ask of it. The parts (:mod:`~laizi.server.room_frames`,
:mod:`~laizi.server.room_storage`, :mod:`~laizi.server.room_driver`,
:mod:`~laizi.server.room_members`, :mod:`~laizi.server.room_dispatch`) each add one job
to :class:`RoomState`; :class:`laizi.server.rooms.Room` is all of them together. A part
calls another through the methods declared here, so none imports another."""

from __future__ import annotations

import asyncio
import os
from typing import TypedDict

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action
from laizi.engine.hints import EAGER_WAITS, HintWork
from laizi.errors import ErrorCode, TableError
from laizi.server.ratelimit import TokenBucket
from laizi.server.room_clock import Clock
from laizi.server.room_connection import Connection, Member
from laizi.server.room_messages import HandOver, Kick, Lock
from laizi.server.room_ports import RoomPorts
from laizi.server.room_settings import BOT_PREFIX, RoomSettings
from laizi.table.decisions import pass_only
from laizi.table.table import Table
from laizi.vocab import TableEventType

__all__ = ["RoomInfo", "RoomState", "TaskKey", "Vote", "hint_budget", "pass_only"]

TaskKey = tuple[int, int, int]
"""What a bot's move or a clock answers: (hand number, seat, the seat's version)."""



def hint_budget() -> int:
    """The hall's budget for a turn's 听牌 hints: ``LAIZI_HINT_BUDGET`` (waits posed; an
    operator may trade the server's work for the moment a player waits for a discard's
    waits: 0 sends every discard's waits on asking) or :data:`EAGER_WAITS`."""
    raw = os.environ.get("LAIZI_HINT_BUDGET", "").strip()
    return int(raw) if raw.isdigit() else EAGER_WAITS

class Vote(TypedDict):
    """A dismiss vote under way (解散)."""

    agree: list[str]
    against: list[str]
    seconds: float


class RoomInfo(TypedDict):
    """The room as everybody may see it (a state frame's ``room``, ``GET
    /api/rooms/CODE``; docs/hall.md)."""

    code: str
    settings: dict[str, object]
    host: str | None
    seats: list[str | None]
    waiting: list[str]
    ledger: dict[str, int]
    hands: int
    started: bool
    paused: bool
    over: bool
    in_hand: bool
    auto: list[str]
    kicked: list[str]
    online: list[str]
    spectators: list[str]
    vote: Vote | None
    ready: list[str]
    idle: bool
    locked: bool


class RoomState:
    """One room of the hall: its state, and the queries every part uses."""

    def __init__(self, ports: RoomPorts, code: str, settings: RoomSettings, table: Table,
                 secret: str, host: str) -> None:
        self.ports = ports
        self.clock: Clock = ports.clock
        self.code = code
        self.settings = settings
        self._settings_json = settings.to_json()
        self.table = table
        self.secret = secret
        self.host = host
        """The host's token."""
        self.members: dict[str, Member] = {}
        self.lock = asyncio.Lock()
        self.stored = len(table.log)
        self.started = any(e["type"] == TableEventType.HAND for e in table.log)
        self.paused = False
        self.auto: set[str] = set()
        """People whose seat a bot plays (托管) until they say they are back (``back``),
        or connect between hands (:meth:`attach`)."""
        self.ready: set[str] = set()
        self.vote: dict[str, bool] | None = None
        self.vote_until = 0.0
        self._tasks: dict[int, tuple[TaskKey, asyncio.Task[None]]] = {}
        self._deadlines: dict[int, float] = {}
        self._hint_cache: dict[int, tuple[int, JSON | None]] = {}
        """Each seat's 听牌 hints and the version they are of (:mod:`room_frames`)."""
        self.hint_budget = hint_budget()
        """The waits a turn's hints work out with the turn (:class:`HintWork`'s
        ``eager``); the rest when the player asks (``hint_waits``)."""
        self._hint_work: dict[int, tuple[int, HintWork]] = {}
        """The work behind each seat's hints, and their version: it works out the waits of
        a ready discard the hints left out when the player asks (``hint_waits``)."""
        self._views_shown: dict[int, tuple[int, JSON]] = {}
        """Each seat's view as its last state frame showed it, and its version: the hints
        of that version are worked out from it (:mod:`room_frames`)."""
        self._hints_due = False
        self._hints_task: asyncio.Task[None] | None = None
        self._window_open = 0.0
        self._next_hand: asyncio.Task[None] | None = None
        self._graces: dict[str, asyncio.Task[None]] = {}
        self._vote_task: asyncio.Task[None] | None = None
        self._resume: asyncio.Task[None] | None = None
        self._emptied: asyncio.Task[None] | None = None
        self._emptied_again = False
        self.closed = False
        self.gone = False
        """Stopped here (the server stops, or another process owns the room now)."""
        self._status = "playing" if self.started else "open"
        self.phrase_buckets: dict[str, TokenBucket] = {}
        """Each person's quick phrases (快捷语) left (:mod:`room_dispatch`)."""
        self.locked = False
        """The host locked the room (锁定房间): nobody new may join (:mod:`room_host`)."""
        self.kicked: dict[str, str] = {}
        """The people the host removed (踢出), token → name: their token and their name
        are refused by this room for good (:mod:`room_host`)."""

    # ------------------------------------------------------------------ who is here

    def member(self, token: str) -> Member:
        m = self.members.get(token)
        if m is None:
            if token in self.kicked:
                raise TableError(f"the host removed you from room {self.code}",
                                 code=ErrorCode.KICKED)
            raise TableError("unknown seat token", code=ErrorCode.UNKNOWN_TOKEN)
        return m

    def by_name(self, name: str) -> Member | None:
        return next((m for m in self.members.values() if m.name == name), None)

    def persons_seated(self) -> list[str]:
        """The people at the table's seats (not a kicked person whose seat a bot plays
        until the hand ends)."""
        gone = set(self.kicked.values())
        return [p for p in self.table.seats
                if p is not None and not p.startswith(BOT_PREFIX) and p not in gone]

    def played_by_bot(self, person: str) -> bool:
        """Whether a bot plays ``person``'s seat: a bot's, 托管, or a kicked person's."""
        return (person.startswith(BOT_PREFIX) or person in self.auto
                or person in self.kicked.values())

    def people_present(self) -> bool:
        return bool(self.persons_seated())

    def connected_players(self) -> bool:
        """Whether a player of the room (seated or waiting; not a spectator) has a
        connection open."""
        return any(m.connections for m in self.members.values() if m.role == "player")

    def waits_for_people(self) -> bool:
        """No next hand while no player is connected (``pause_empty``): a room everybody
        left stops at the end of its hand, and its ledger stays where it is until a player
        comes back. Spectators alone do not keep the bots playing. Nothing is stored:
        it follows from who is connected, so a room taken over by another process (no
        connection yet) waits too."""
        return (self.settings.pause_empty and self.started and not self.closed
                and not self.table.in_hand and not self.connected_players())

    def info(self) -> RoomInfo:
        """The room as everybody may see it."""
        t = self.table
        # A kicked person's seat is theirs until the hand ends, a bot playing it.
        kicked_seated = set(self.kicked.values()) & set(t.seats)
        bot_played = self.auto | kicked_seated
        return {
            "code": self.code, "settings": self._settings_json,
            "host": self.members[self.host].name if self.host in self.members else None,
            "seats": list(t.seats), "waiting": list(t.waiting), "ledger": t.standing,
            "hands": t.number, "started": self.started, "paused": self.paused,
            "over": self.closed, "in_hand": t.in_hand, "auto": sorted(bot_played),
            "kicked": sorted(kicked_seated),
            "online": sorted(m.name for m in self.members.values() if m.connections),
            "spectators": sorted(m.name for m in self.members.values()
                                 if m.role == "spectator"),
            "vote": None if self.vote is None else {
                "agree": sorted(p for p, a in self.vote.items() if a),
                "against": sorted(p for p, a in self.vote.items() if not a),
                "seconds": max(0.0, round(self.vote_until - self.clock.monotonic(), 1))},
            "ready": sorted(self.ready),
            "idle": self.waits_for_people(),
            "locked": self.locked,
        }

    # ------------------------------------------------------------------ the parts' jobs
    # Declared here, done by one part each (the method resolution order of Room puts
    # every part before this class).

    def broadcast(self) -> None:
        """Send every connection what changed for it (:mod:`room_frames`)."""
        raise NotImplementedError

    def _frame(self, member: Member | None, conn: Connection, *, info: str | None = None,
               changed_only: bool = False) -> str | None:
        """One connection's state frame (:mod:`room_frames`)."""
        raise NotImplementedError

    def _hint_waits(self, member: Member, tile: object, version: object) -> list[JSON]:
        """The waits of a ready discard the hints left out (:mod:`room_frames`)."""
        raise NotImplementedError

    def _hints_later(self) -> None:
        """Send the seats' 听牌 hints once the state frames are out (:mod:`room_frames`)."""
        raise NotImplementedError

    async def _store(self, status: str | None = None, *, settings: bool = False) -> None:
        """Store what is not stored yet (:mod:`room_storage`)."""
        raise NotImplementedError

    def _stored_settings(self) -> dict[str, object]:
        """The settings as stored (:mod:`room_storage`)."""
        raise NotImplementedError

    async def advance(self) -> None:
        """Start what must happen next (:mod:`room_driver`)."""
        raise NotImplementedError

    async def _apply(self, action: Action, version: int | None) -> None:
        """Apply, store, show an action (:mod:`room_driver`)."""
        raise NotImplementedError

    def _cancel_tasks(self) -> None:
        """Stop every bot's move and clock (:mod:`room_driver`)."""
        raise NotImplementedError

    def _mark_window(self) -> None:
        """A claim window's minimum length counts from now (:mod:`room_driver`)."""
        raise NotImplementedError

    async def _close(self) -> None:
        """End the match (:mod:`room_members`)."""
        raise NotImplementedError

    async def _seat_player(self, member: Member) -> None:
        """Seat a player between hands (:mod:`room_members`)."""
        raise NotImplementedError

    def _seat_waiting_players(self) -> bool:
        """Seat the players who joined during a hand (:mod:`room_members`)."""
        raise NotImplementedError

    async def _host_power(self, host: Member, message: Kick | HandOver | Lock) -> None:
        """A host's ``kick``, ``host`` or ``lock`` (:mod:`room_host`)."""
        raise NotImplementedError

    def _reseat(self) -> bool:
        """Between hands: kicked people leave the table, waiting players sit, bots fill
        the seats left empty (:mod:`room_host`)."""
        raise NotImplementedError

    async def _dismiss(self, member: Member, agree: object) -> None:
        """A dismiss vote (:mod:`room_members`)."""
        raise NotImplementedError
