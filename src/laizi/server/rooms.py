"""Rooms of the hall: one :class:`~laizi.table.Table` each, played by people and bots.

A room is authoritative and serial: every change (an action, a bot's move, a clock running
out, a person coming or going, the host's commands) happens under the room's lock, in
order. An accepted action is stored (a ``log_lines`` row) before it is acknowledged or
shown to anybody; then every connection is sent what its person may see: the events
after the version it knows and the current view (:meth:`Table.events`,
:meth:`Table.view_for`).

Claim windows follow the uniform rule of docs/protocol.md: every seat is asked; a seat
whose only legal answer is ``pass`` (a person's or a bot's) is answered by the server and
its person is never prompted; bots' answers and those passes are held until the window's
minimum length (``claim_min``) has passed when a person sits at the table, so a quick
answer shows nothing. A person who lets a real prompt run out passes; only a missed turn
puts them on 托管.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from laizi.engine.actions import Action
from laizi.errors import ErrorCode, LaiziError, MalformedActionError, TableError
from laizi.table import deals
from laizi.table.events import canonical
from laizi.table.table import Entry, Table

if TYPE_CHECKING:
    from laizi.server.hall import Hall

__all__ = ["BOT_PREFIX", "MAX_MESSAGE", "Connection", "Member", "Room", "RoomSettings",
           "dumps", "parse_client_text", "pass_only"]

BOT_PREFIX = "🤖 "
"""Bots' names start with this (a person's name may not)."""

BOT_LEVELS = ("greedy", "search", "random")
MAX_MESSAGE = 16 * 1024
"""The largest websocket message a client may send (characters; a longer one within the
frame limit, :data:`laizi.server.limits.MAX_FRAME`, is answered ``malformed``)."""
ENTROPY_PER_HAND = 4
"""The most entropy strings one person adds between two hands (before the first hand, or
after a hand's end): one more is refused ``rate_limited`` (docs/deals.md)."""
SNAPSHOT_GAP = 400
"""A client more than this many events behind gets a fresh view instead of the events."""


def _number(data: dict[str, Any], key: str, default: float | None, lo: float, hi: float,
            *, optional: bool = False) -> float | None:
    value = data.get(key, default)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise TableError(f"{key} must be a number {lo}-{hi}, got {value!r}",
                         code=ErrorCode.MALFORMED)
    return float(value)


def _refusal(message: str) -> dict[str, Any]:
    return {"op": "error", "seq": None, "error": {
        "code": "malformed", "message": message, "seat": None, "phase": None}}


def pass_only(actions: Sequence[Action]) -> bool:
    """Whether ``pass`` is the only legal answer (a window the server answers itself)."""
    return len(actions) == 1 and actions[0].type == "pass"


def _entropy_since_hand(log: Sequence[Entry], person: str) -> int:
    """How many entropy lines ``person`` added since the last hand started or ended (or
    the table began): the log read back to that line only."""
    n = 0
    for entry in reversed(log):
        kind = entry.get("type")
        if kind in ("hand", "hand_end", "table"):
            break
        if kind == "entropy" and entry.get("person") == person:
            n += 1
    return n


def parse_client_text(text: str | None) -> tuple[object, dict[str, Any] | None]:
    """A client's websocket message: the decoded JSON, or the error frame that answers
    it (not text, too large, not JSON)."""
    if text is None or len(text) > MAX_MESSAGE:
        return None, _refusal(f"a message is JSON text, at most {MAX_MESSAGE} bytes")
    try:
        return json.loads(text), None
    except (ValueError, RecursionError):  # 5000-digit ints, deep nesting too
        return None, _refusal("not JSON")


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the host chose (stored with the room).

    ``clock``: seconds a person has for each decision (``None``: no clock), then on a
    turn the default action and 托管, in a claim window 过; ``claim_min``: the shortest
    claim window when a person sits; ``bot_delay``: a bot's pause on its turn, so people
    can follow; ``between``: seconds between hands (everyone ready skips it); ``grace``:
    seconds a disconnected person's seat waits before a bot plays it; ``pause_empty``:
    no new hand is dealt while no player of the room has a connection open (the room
    waits for people, and its ledger stays where it is).
    """

    variant: str
    options: dict[str, Any] = field(default_factory=dict)
    bots: str = "greedy"
    clock: float | None = 20.0
    claim_min: float = 0.8
    bot_delay: float = 0.5
    between: float = 8.0
    grace: float = 5.0
    hands: int | None = None
    name: str = ""
    pause_empty: bool = True

    @classmethod
    def from_json(cls, data: object) -> RoomSettings:
        if not isinstance(data, dict):
            raise TableError("room settings are a JSON object", code=ErrorCode.MALFORMED)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise TableError(f"unknown room setting(s) {', '.join(unknown)}; known: "
                             f"{', '.join(sorted(known))}", code=ErrorCode.MALFORMED)
        variant = data.get("variant")
        from laizi.variants import ids

        if not isinstance(variant, str) or variant not in ids():
            raise TableError(f"variant must be one of {', '.join(ids())}, got {variant!r}",
                             code=ErrorCode.MALFORMED)
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise TableError("options are a JSON object", code=ErrorCode.MALFORMED)
        bots = data.get("bots", "greedy")
        if bots not in BOT_LEVELS:
            raise TableError(f"bots must be one of {', '.join(BOT_LEVELS)}, got {bots!r}",
                             code=ErrorCode.MALFORMED)
        hands = data.get("hands")
        if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int)
                                  or not 1 <= hands <= 1000):
            raise TableError(f"hands must be 1-1000, got {hands!r}", code=ErrorCode.MALFORMED)
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 64 or not name.isprintable():
            raise TableError("a room name is up to 64 printable characters",
                             code=ErrorCode.MALFORMED)
        pause_empty = data.get("pause_empty", True)
        if not isinstance(pause_empty, bool):
            raise TableError(f"pause_empty must be true or false, got {pause_empty!r}",
                             code=ErrorCode.MALFORMED)
        settings = cls(
            variant=variant, options=dict(options), bots=str(bots),
            clock=_number(data, "clock", 20.0, 1, 600, optional=True),
            claim_min=_number(data, "claim_min", 0.8, 0, 10) or 0.0,
            bot_delay=_number(data, "bot_delay", 0.5, 0, 10) or 0.0,
            between=_number(data, "between", 8.0, 0, 120) or 0.0,
            grace=_number(data, "grace", 5.0, 0, 600) or 0.0,
            hands=hands, name=name, pause_empty=pause_empty,
        )
        Table(variant, settings.options)  # the options must make a table
        return settings

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


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
    queue: asyncio.Queue[str | dict[str, Any] | None] = field(
        default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    close: Callable[[int], Awaitable[None]] | None = None
    """Closes the transport with a websocket close code (the room moved away)."""
    deliver: Callable[[str], None] | None = None

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

    def put(self, frame: str | dict[str, Any]) -> None:
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
    answers: dict[int, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    """Recent answers by the client's sequence number (with the message): the same
    message sent again is answered again, never applied twice."""


class Room:
    """One room of the hall."""

    def __init__(self, hall: Hall, code: str, settings: RoomSettings, table: Table,
                 secret: str, host: str) -> None:
        self.hall = hall
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
        self.started = any(e["type"] == "hand" for e in table.log)
        self.paused = False
        self.auto: set[str] = set()
        """People whose seat a bot plays (托管) until they say they are back (``back``),
        or connect between hands (:meth:`attach`)."""
        self.ready: set[str] = set()
        self.vote: dict[str, bool] | None = None
        self.vote_until = 0.0
        self._bots: dict[str, Any] = {}
        self._tasks: dict[int, tuple[tuple[int, int, int], asyncio.Task[None]]] = {}
        self._deadlines: dict[int, float] = {}
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

    # ------------------------------------------------------------------ who is here

    def member(self, token: str) -> Member:
        m = self.members.get(token)
        if m is None:
            raise TableError("unknown seat token", code=ErrorCode.UNKNOWN_TOKEN)
        return m

    def by_name(self, name: str) -> Member | None:
        return next((m for m in self.members.values() if m.name == name), None)

    def persons_seated(self) -> list[str]:
        return [p for p in self.table.seats if p is not None and not p.startswith(BOT_PREFIX)]

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

    def info(self) -> dict[str, Any]:
        """The room as everybody may see it."""
        t = self.table
        return {
            "code": self.code, "settings": self._settings_json,
            "host": self.members[self.host].name if self.host in self.members else None,
            "seats": list(t.seats), "waiting": list(t.waiting), "ledger": t.standing,
            "hands": t.number, "started": self.started, "paused": self.paused,
            "over": self.closed, "in_hand": t.in_hand, "auto": sorted(self.auto),
            "online": sorted(m.name for m in self.members.values() if m.connections),
            "spectators": sorted(m.name for m in self.members.values()
                                 if m.role == "spectator"),
            "vote": None if self.vote is None else {
                "agree": sorted(p for p, a in self.vote.items() if a),
                "against": sorted(p for p, a in self.vote.items() if not a),
                "seconds": max(0.0, round(self.vote_until - time.monotonic(), 1))},
            "ready": sorted(self.ready),
            "idle": self.waits_for_people(),
        }

    # ------------------------------------------------------------------ frames

    def _frame(self, member: Member | None, conn: Connection, *, info: str | None = None,
               changed_only: bool = False) -> str | None:
        """The ``state`` frame for one connection, as JSON text (``None`` with
        ``changed_only`` when the person would learn nothing new: another seat's hidden
        answer sends nothing, so not even a frame's arrival shows that somebody
        answered). ``info``: the room's public facts, encoded once for everybody."""
        t = self.table
        person = None if member is None or member.role == "spectator" else member.name
        if person is not None and person not in t.ledger:
            person = None  # a player who joined during a hand watches it until it ends
        now = t.version(person)
        if info is None:
            info = dumps(self.info())
        seat = None
        if person is not None and t.in_hand and person in t.seats:
            seat = t.seats.index(person)
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
            deadline = max(0.0, round(self._deadlines[seat] - time.monotonic(), 2))
        legal = [a.to_json() for a in actions]
        body = dumps({"op": "state", "version": now, "snapshot": snapshot, "events": events,
                      "view": view, "legal": legal, "deadline": deadline})
        return f"{body[:-1]},\"room\":{info}}}"

    def broadcast(self) -> None:
        info = dumps(self.info())
        for m in self.members.values():
            for conn in m.connections:
                frame = self._frame(m, conn, info=info, changed_only=True)
                if frame is not None:
                    conn.put(frame)

    # ------------------------------------------------------------------ storage

    async def _store(self, status: str | None = None, *, settings: bool = False) -> None:
        """Store every log line not stored yet (before anything is shown), and the
        room's status or settings when they changed."""
        t = self.table
        first = self.stored
        new = t.log[first:]
        if not new and status is None and not settings:
            return
        if status == self._status:
            status = None
        elif status is not None:
            self._status = status
        lines = [canonical(e) for e in new]
        hands = [(int(e["number"]), canonical({k: v for k, v in e.items() if k != "wall"}))
                 for e in new if e["type"] == "hand_end"]
        try:
            await self.hall.store.append(
                self.code, first, lines, hands, status=status,
                settings=self._stored_settings() if settings else None)
        except Exception as exc:
            # Nothing unstored may stand: rebuild the table from what storage holds.
            await self._reload()
            raise LaiziError(f"the action could not be stored ({type(exc).__name__}); "
                             "nothing was applied", code=ErrorCode.STORAGE) from None
        self.stored = len(t.log)

    def _stored_settings(self) -> dict[str, Any]:
        return {**self.settings.to_json(), "host": self.host, "paused": self.paused}

    async def _reload(self) -> None:
        stored = await self.hall.store.room(self.code)
        assert stored is not None
        self.table = Table.from_log(stored.lines, secret=deals.parse_secret(stored.secret))
        self.stored = len(self.table.log)
        self._cancel_tasks()
        # Under the caller's lock: once it is free, bots and clocks start again from what
        # storage holds (a line another process stored first shows up here too).
        self._resume = asyncio.create_task(self._after_reload())

    async def _after_reload(self) -> None:
        try:
            async with self.lock:
                await self.advance()
                self.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.hall.report(self, exc)

    # ------------------------------------------------------------------ what a client asks

    async def handle(self, member: Member, msg: object) -> dict[str, Any] | None:
        """One message of a client; the answer frame (an ack or a typed error). Never
        raises: anything wrong is an error frame, and a refused message changes nothing."""
        seq: int | None = None
        said: str | None = None  # the message in one form, to know a resent one
        try:
            if not isinstance(msg, dict):
                raise MalformedActionError("a message is a JSON object")
            seq = msg.get("seq")
            if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)
                                    or not 0 <= seq < 2**53):
                seq = None
                raise MalformedActionError("seq must be an int")
            said = json.dumps(msg, sort_keys=True)
            if seq is not None and seq in member.answers and member.answers[seq][0] == said:
                return member.answers[seq][1]
            op = msg.get("op")
            async with self.lock:
                result = await self._handle(member, op, msg)
            answer: dict[str, Any] = {"op": "ack", "seq": seq, **(result or {})}
        except LaiziError as exc:
            answer = {"op": "error", "seq": seq, "error": dict(exc.to_json())}
        except Exception as exc:  # a server never crashes on a message
            answer = {"op": "error", "seq": seq, "error": {
                "code": ErrorCode.MALFORMED.value, "message": f"bad message ({exc!r})",
                "seat": None, "phase": None}}
        if seq is not None and isinstance(msg, dict):
            member.answers[seq] = (said if said is not None
                                   else json.dumps(msg, sort_keys=True), answer)
            if len(member.answers) > 64:
                member.answers.pop(next(iter(member.answers)))
        return answer

    async def _handle(self, member: Member, op: object, msg: dict[str, Any]
                      ) -> dict[str, Any] | None:
        if self.gone:
            raise LaiziError("the room has moved to another server process; reconnect",
                             code=ErrorCode.STORAGE)
        if self.closed and op not in ("ping",):
            raise TableError("the room is over", code=ErrorCode.TABLE_OVER)
        t = self.table
        allowed: dict[str, set[str]] = {
            "act": {"op", "seq", "action", "version"}, "start": {"op", "seq"},
            "pause": {"op", "seq"}, "resume": {"op", "seq"}, "end": {"op", "seq"},
            "dismiss": {"op", "seq", "agree"}, "back": {"op", "seq"},
            "horse": {"op", "seq", "buy"}, "entropy": {"op", "seq", "value"},
            "ready": {"op", "seq"}, "ping": {"op", "seq"}, "sit": {"op", "seq"},
        }
        if not isinstance(op, str) or op not in allowed:
            raise MalformedActionError(f"unknown op {op!r}; ops: {', '.join(allowed)}")
        extra = sorted(set(msg) - allowed[op])
        if extra:
            raise MalformedActionError(f"unknown field(s) {', '.join(extra)} for {op!r}")
        if op == "ping":
            return {"pong": True}
        if op in ("start", "pause", "resume", "end") and member.token != self.host:
            raise TableError(f"only the host may {op}", code=ErrorCode.NOT_HOST)
        if op == "act":
            return await self._act(member, msg.get("action"), msg.get("version"))
        if op == "start":
            if self.started:
                raise TableError("the match has already started", code=ErrorCode.TABLE_RULE)
            self.started = True
            await self._store(status="playing")
        elif op == "pause":
            self.paused = True
            self._cancel_tasks()
            await self._store(settings=True)
        elif op == "resume":
            self.paused = False
            await self._store(settings=True)
        elif op == "end":
            await self._close()
            return None
        elif op == "back":
            self.auto.discard(member.name)
        elif op == "ready":
            self.ready.add(member.name)
        elif op == "sit":
            await self._seat_player(member)
        elif op == "horse":
            t.buy_horse(member.name, msg.get("buy"))  # type: ignore[arg-type]
            await self._store()
        elif op == "entropy":
            if _entropy_since_hand(t.log, member.name) >= ENTROPY_PER_HAND:
                raise TableError(f"at most {ENTROPY_PER_HAND} entropy strings a person "
                                 "between two hands", code=ErrorCode.RATE_LIMITED)
            t.add_entropy(member.name, msg.get("value"))  # type: ignore[arg-type]
            await self._store()
        elif op == "dismiss":
            await self._dismiss(member, msg.get("agree", True))
            if self.closed:
                return None
        await self.advance()
        if t.in_hand and op in ("back", "dismiss", "ready", "resume"):
            self.broadcast()  # the room changed for everybody; advance shows nothing
            # during a hand
        return None

    async def _act(self, member: Member, action: object, version: object
                   ) -> dict[str, Any]:
        t = self.table
        if self.paused:
            raise TableError("the match is paused", code=ErrorCode.PAUSED)
        if not isinstance(action, dict):
            raise MalformedActionError("action must be a JSON object")
        parsed = Action.from_json(action)
        g = t.game
        phase = None if g is None else g.phase
        if member.role != "player" or not t.in_hand or parsed.seat >= len(t.seats) or \
                t.seats[parsed.seat] != member.name:
            raise TableError(f"seat {parsed.seat} is not yours", code=ErrorCode.NOT_YOUR_SEAT,
                             seat=parsed.seat, phase=phase)
        if version is None:
            raise MalformedActionError("an action says which version it answers",
                                       seat=parsed.seat, phase=phase)
        await self._apply(parsed, version)  # type: ignore[arg-type]
        return {"version": t.version(member.name)}

    async def _apply(self, action: Action, version: int | None) -> None:
        """Apply, store, show: the one way an action enters the room."""
        t = self.table
        t.act(action, version=version)
        self._mark_window()
        await self._store(status="over" if t.over and not t.in_hand else None)
        await self.advance()  # first, so the frames carry the clocks it sets
        self.broadcast()

    # ------------------------------------------------------------------ the room moves on

    async def advance(self) -> None:
        """After any change: start what must happen next (bots, clocks, the next hand)."""
        t = self.table
        if self.closed or self.gone:
            return
        if not self.started or self.paused:
            self.broadcast()
            return
        if not t.in_hand:
            self._cancel_tasks()
            if t.over:
                await self._close()
                return
            if self._seat_waiting_players():
                await self._store()
            if self.waits_for_people():
                if self._next_hand is not None:
                    self._next_hand.cancel()
                    self._next_hand = None
                self.broadcast()
                return
            if self._next_hand is None:
                humans = self.persons_seated()
                wait = 0.0 if t.number == 0 or not humans else self.settings.between
                if humans and set(humans) <= self.ready:
                    wait = 0.0
                self._next_hand = asyncio.create_task(self._deal_after(wait))
            elif set(self.persons_seated()) <= self.ready:
                self._next_hand.cancel()
                self._next_hand = asyncio.create_task(self._deal_after(0.0))
            self.broadcast()
            return
        pending = set(t.to_act())
        for seat in list(self._tasks):
            if seat not in pending:
                self._tasks.pop(seat)[1].cancel()
                self._deadlines.pop(seat, None)
        for seat in pending:
            person = t.person_at(seat)
            key = (t.number, seat, t.version(person))
            held = self._tasks.get(seat)
            if held is not None and held[0] == key:
                continue
            if held is not None:
                held[1].cancel()
            if person.startswith(BOT_PREFIX) or person in self.auto \
                    or pass_only(t.legal_actions(seat)):
                # A bot, 托管, or a seat with nothing to answer but pass (answered by the
                # server, held like a bot's answer to the window's minimum length).
                task = asyncio.create_task(self._bot_move(seat, key))
                self._deadlines.pop(seat, None)
            elif self.settings.clock is not None:
                self._deadlines[seat] = time.monotonic() + self.settings.clock
                task = asyncio.create_task(self._clock(seat, key, self.settings.clock))
            else:
                continue
            self._tasks[seat] = (key, task)

    def _mark_window(self) -> None:
        """A window with no answer yet has just opened: its minimum length counts from
        now."""
        g = self.table.game
        if g is not None and g.phase in ("claim", "rob", "decide") and not g.responses:
            self._window_open = time.monotonic()

    def _cancel_tasks(self) -> None:
        for _, task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._deadlines.clear()

    async def _deal_after(self, wait: float) -> None:
        try:
            if wait:
                await asyncio.sleep(wait)
            async with self.lock:
                self._next_hand = None
                t = self.table
                if self.closed or self.gone or self.paused or t.in_hand or t.over:
                    return
                if self.waits_for_people():  # everybody left during the pause
                    self.broadcast()
                    return
                self.ready.clear()
                t.start_hand()
                self._mark_window()
                await self._store(status="playing")
                await self.advance()  # first, so the frames carry the clocks it sets
                self.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.hall.report(self, exc)

    def _still(self, seat: int, key: tuple[int, int, int]) -> bool:
        t = self.table
        return (not self.closed and not self.gone and not self.paused and t.in_hand
                and seat in t.to_act() and (t.number, seat, t.version(t.person_at(seat))) == key)

    async def _bot_move(self, seat: int, key: tuple[int, int, int]) -> None:
        try:
            t = self.table
            g = t.game
            assert g is not None
            person = t.person_at(seat)
            legal = t.legal_actions(seat)
            if len(legal) == 1:
                choice = legal[0]
            else:
                try:
                    choice = await self.hall.bots.choose(self, person, t.view(seat), legal)
                except Exception as exc:  # a bot's bug is reported, and never stalls a room
                    self.hall.report(self, exc)
                    choice = t.default_action(seat)
            if self.people_present():
                # Hold a bot's answer to the window's minimum length; pause on its turn.
                if g.phase == "turn":
                    await asyncio.sleep(self.settings.bot_delay)
                else:
                    rest = self._window_open + self.settings.claim_min - time.monotonic()
                    if rest > 0:
                        await asyncio.sleep(rest)
            async with self.lock:
                if self._still(seat, key):
                    self._tasks.pop(seat, None)
                    await self._apply(choice, None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.hall.report(self, exc)

    async def _clock(self, seat: int, key: tuple[int, int, int], seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            async with self.lock:
                if self._still(seat, key):
                    t = self.table
                    g = t.game
                    assert g is not None
                    passes = [a for a in t.legal_actions(seat) if a.type == "pass"]
                    if g.phase != "turn" and passes:
                        choice = passes[0]  # a claim prompt ran out: simply 过
                    else:
                        self.auto.add(t.person_at(seat))  # a missed turn: 托管 until back
                        choice = t.default_action(seat)
                    self._tasks.pop(seat, None)
                    self._deadlines.pop(seat, None)
                    await self._apply(choice, None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.hall.report(self, exc)

    # ------------------------------------------------------------------ people

    async def add_member(self, name: str, role: str) -> Member:
        """A new member (under the lock): a player takes a bot's seat or waits (晃晃), or
        watches when the table is full."""
        if any(m.name == name for m in self.members.values()):
            raise TableError(f"{name!r} is already in the room")
        token = secrets.token_urlsafe(18)
        member = Member(token, name, role)
        if role == "player" and not self._has_room_for_player():
            member.role = "spectator"
        self.members[token] = member
        await self.hall.store.add_member(token, self.code, name, member.role)
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
            self.hall.report(self, exc)

    async def _grace(self, member: Member) -> None:
        try:
            await asyncio.sleep(self.settings.grace)
            async with self.lock:
                if not member.connections and member.name in self.table.seats:
                    self.auto.add(member.name)
                    await self.advance()
                    self.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.hall.report(self, exc)

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
            self.vote_until = time.monotonic() + 60
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
        try:
            await asyncio.sleep(60)
            async with self.lock:
                self.vote = None
                self.broadcast()
        except asyncio.CancelledError:
            raise

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
        if self.hall.cluster is not None:
            await self.hall.cluster.finished(self.code)

    async def stop(self, close_code: int | None = None) -> None:
        """The server stops, or the room moves to another process: cancel every timer
        (the room resumes from storage); with ``close_code``, close the connections so
        their clients reconnect."""
        self.gone = True  # nothing more happens here, whoever holds the lock next
        self._cancel_tasks()
        for task in [self._next_hand, self._vote_task, self._emptied,
                     *self._graces.values()]:
            if task is not None:
                task.cancel()
        for m in self.members.values():
            for conn in list(m.connections):
                await conn.stop()
                if close_code is not None and conn.close is not None:
                    with contextlib.suppress(Exception):
                        await conn.close(close_code)

