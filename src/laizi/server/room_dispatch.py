"""What a client asks a room: each message is parsed once into a typed message
(:mod:`laizi.server.room_messages`) and dispatched on its type, under the room's lock;
its answer is an ``ack`` or a typed ``error``, kept by ``seq`` so a message sent again is
answered again and never applied twice."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypedDict

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action
from laizi.errors import ErrorCode, LaiziError, MalformedActionError, TableError
from laizi.server.ratelimit import TokenBucket
from laizi.server.room_connection import Member
from laizi.server.room_messages import (
    Act,
    Answer,
    Back,
    ClientMessage,
    Dismiss,
    End,
    Entropy,
    Envelope,
    HandOver,
    HintWaits,
    Horse,
    HostMessage,
    Kick,
    Lock,
    Pause,
    Phrase,
    Ping,
    Ready,
    Refused,
    Resume,
    Sit,
    Start,
    parse_message,
)
from laizi.server.room_state import RoomState
from laizi.table.table import Entry
from laizi.vocab import ClientOp, ServerOp, TableEventType

__all__ = ["ENTROPY_PER_HAND", "PHRASE_BURST", "PHRASE_EVERY", "RoomDispatch"]

ENTROPY_PER_HAND = 4
"""The most entropy strings one person adds between two hands (before the first hand, or
after a hand's end): one more is refused ``rate_limited`` (docs/deals.md)."""

PHRASE_EVERY = 3.0
"""Seconds per quick phrase a person may send, sustained (快捷语: a table, not a chat)."""
PHRASE_BURST = 3.0
"""Quick phrases a person may send at once before :data:`PHRASE_EVERY` applies."""

_HAND_BOUNDS = (TableEventType.HAND, TableEventType.HAND_END, TableEventType.TABLE)



class AckFields(TypedDict, total=False):
    """What an op adds to its ``ack``."""

    pong: bool
    version: int
    waits: list[JSON]


Result = AckFields | None


def _entropy_since_hand(log: Sequence[Entry], person: str) -> int:
    """How many entropy lines ``person`` added since the last hand started or ended (or
    the table began): the log read back to that line only."""
    n = 0
    for entry in reversed(log):
        kind = entry.get("type")
        if kind in _HAND_BOUNDS:
            break
        if kind == TableEventType.ENTROPY and entry.get("person") == person:
            n += 1
    return n


def _ack(seq: int | None, result: Result) -> Answer:
    answer: Answer = {"op": ServerOp.ACK, "seq": seq}
    if result is not None:
        if "pong" in result:
            answer["pong"] = result["pong"]
        if "version" in result:
            answer["version"] = result["version"]
        if "waits" in result:
            answer["waits"] = result["waits"]
    return answer


class RoomDispatch(RoomState):
    """A client's messages."""

    async def handle(self, member: Member, msg: object) -> Answer | None:
        """One message of a client; the answer frame (an ack or a typed error). Never
        raises: anything wrong is an error frame, and a refused message changes nothing."""
        seq: int | None = None
        envelope: Envelope | None = None
        try:
            envelope = parse_message(msg)
            seq = envelope.seq
            kept = member.answers.get(seq) if seq is not None else None
            if kept is not None and kept[0] == envelope.said:
                return kept[1]
            async with self.lock:
                answer = _ack(seq, await self._dispatch(member, envelope))
        except LaiziError as exc:
            answer = {"op": ServerOp.ERROR, "seq": seq, "error": exc.to_json()}
        except Exception as exc:  # a server never crashes on a message
            answer = {"op": ServerOp.ERROR, "seq": seq, "error": {
                "code": ErrorCode.MALFORMED.value, "message": f"bad message ({exc!r})",
                "seat": None, "phase": None}}
        if seq is not None and isinstance(msg, dict):
            said = envelope.said if envelope is not None else json.dumps(msg, sort_keys=True)
            member.answers[seq] = (said, answer)
            if len(member.answers) > 64:
                member.answers.pop(next(iter(member.answers)))
        return answer

    async def _dispatch(self, member: Member, envelope: Envelope) -> Result:
        if self.gone:
            raise LaiziError("the room has moved to another server process; reconnect",
                             code=ErrorCode.STORAGE)
        if member.token not in self.members:  # kicked (its socket is being closed)
            self.member(member.token)
        if self.closed and envelope.op != ClientOp.PING:
            raise TableError("the room is over", code=ErrorCode.TABLE_OVER)
        message = envelope.message
        match message:
            case Refused(error=error):
                raise error
            case Ping():
                return {"pong": True}
            case Phrase(id=phrase):
                self._phrase(member, phrase)
                return None
            case HintWaits(tile=tile, version=version):
                return {"waits": self._hint_waits(member, tile, version)}
            case Act(action=action, version=version):
                return await self._act(member, action, version)
            case Start() | Pause() | Resume() | End() | Kick() | HandOver() | Lock():
                if member.token != self.host:
                    raise TableError(f"only the host may {message.op}",
                                     code=ErrorCode.NOT_HOST)
                if not await self._host_command(member, message):
                    return None
            case _:
                if not await self._person_command(member, message):
                    return None
        await self.advance()
        if self.table.in_hand and isinstance(message, Back | Dismiss | Ready | Resume | Kick
                                             | HandOver | Lock):
            self.broadcast()  # the room changed for everybody; advance shows nothing
            # during a hand
        return None

    def _phrase(self, member: Member, phrase: str) -> None:
        """Send a quick phrase to everybody in the room, players and spectators (not a game
        action: no log, no state frame), unless its person is over their rate
        (``rate_limited``, nothing sent)."""
        bucket = self.phrase_buckets.get(member.name)
        if bucket is None:
            bucket = self.phrase_buckets[member.name] = TokenBucket(
                1 / PHRASE_EVERY, PHRASE_BURST, self.clock.monotonic)
        if not bucket.take():
            raise TableError(f"at most one quick phrase every {PHRASE_EVERY:g} s "
                             f"(bursts of {PHRASE_BURST:g})", code=ErrorCode.RATE_LIMITED)
        frame = {"op": ServerOp.PHRASE, "who": member.name, "id": phrase}
        for m in self.members.values():
            for conn in m.connections:
                conn.put(frame)

    async def _host_command(self, host: Member, message: HostMessage) -> bool:
        """The host's ``start``, ``pause``, ``resume``, ``end``, ``kick``, ``host``,
        ``lock``; whether the room moves on after it (not once it is over)."""
        match message:
            case Kick() | HandOver() | Lock():
                await self._host_power(host, message)
            case Start():
                if self.started:
                    raise TableError("the match has already started",
                                     code=ErrorCode.TABLE_RULE)
                self.started = True
                await self._store(status="playing")
            case Pause():
                self.paused = True
                self._cancel_tasks()
                await self._store(settings=True)
            case Resume():
                self.paused = False
                await self._store(settings=True)
            case End():
                await self._close()
                return False
        return True

    async def _person_command(self, member: Member, message: ClientMessage) -> bool:
        """A member's own ``back``, ``ready``, ``sit``, ``horse``, ``entropy`` or
        ``dismiss``; whether the room moves on after it (not once it is over)."""
        t = self.table
        match message:
            case Back():
                self.auto.discard(member.name)
            case Ready():
                self.ready.add(member.name)
            case Sit():
                await self._seat_player(member)
            case Horse(buy=buy):
                t.buy_horse(member.name, buy)  # type: ignore[arg-type]  # the table checks it
                await self._store()
            case Entropy(value=value):
                if _entropy_since_hand(t.log, member.name) >= ENTROPY_PER_HAND:
                    raise TableError(f"at most {ENTROPY_PER_HAND} entropy strings a person "
                                     "between two hands", code=ErrorCode.RATE_LIMITED)
                t.add_entropy(member.name, value)  # type: ignore[arg-type]  # the table checks it
                await self._store()
            case Dismiss(agree=agree):
                await self._dismiss(member, agree)
                if self.closed:
                    return False
        return True

    async def _act(self, member: Member, action: object, version: object) -> Result:
        t = self.table
        if self.paused:
            raise TableError("the match is paused", code=ErrorCode.PAUSED)
        if not isinstance(action, dict):
            raise MalformedActionError("action must be a JSON object")
        # Only the types a person may be offered: a 错和 (wrong_win), which a table of MCR
        # profile=botzone takes from a Botzone program, is refused here as unknown_type.
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
        await self._apply(parsed, version)  # type: ignore[arg-type]  # the table checks it
        return {"version": t.version(member.name)}
