"""What a client sends a room, parsed once at the room's edge into typed messages (one
frozen dataclass per :class:`~laizi.vocab.ClientOp`), and the answers it gets
(docs/protocol.md, "The hall's websocket").

A message's values are kept as the JSON they came as: the table checks them where its rule
lives (an action's form, a version, a horse bet, an entropy string), so a refusal says
the same thing, in the same order, as when the table is played any other way. The parse
refuses what no room would take: a message that is not an object, a bad ``seq``, an
unknown op, an unknown field.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import ClassVar, NotRequired, TypedDict, get_args, get_type_hints

from laizi.core.jsondata import JSON
from laizi.errors import ErrorCode, ErrorJSON, MalformedActionError
from laizi.vocab import ClientOp, QuickPhrase, ServerOp

__all__ = ["MAX_MESSAGE", "Act", "Answer", "Back", "ClientMessage", "Dismiss", "End",
           "Entropy", "Envelope", "HandOver", "HintWaits", "Horse", "HostMessage", "Kick",
           "Lock", "Pause", "Phrase", "Ping", "Ready", "Refused", "Resume", "Sit", "Start",
           "parse_client_text", "parse_message", "refusal"]

MAX_MESSAGE = 16 * 1024
"""The largest websocket message a client may send (characters; a longer one within the
frame limit, :data:`laizi.server.limits.MAX_FRAME`, is answered ``malformed``)."""


class Answer(TypedDict):
    """A room's answer to one message: ``ack`` (with what the op returns) or ``error``."""

    op: str
    seq: int | None
    pong: NotRequired[bool]
    version: NotRequired[int]
    waits: NotRequired[list[JSON]]
    error: NotRequired[ErrorJSON]


@dataclass(frozen=True, slots=True)
class Act:
    """A decision at the table: ``action`` and the ``version`` of the view it answers."""

    op: ClassVar[ClientOp] = ClientOp.ACT
    action: object = None
    version: object = None


@dataclass(frozen=True, slots=True)
class Start:
    """The host starts the match."""

    op: ClassVar[ClientOp] = ClientOp.START


@dataclass(frozen=True, slots=True)
class Pause:
    """The host pauses the match."""

    op: ClassVar[ClientOp] = ClientOp.PAUSE


@dataclass(frozen=True, slots=True)
class Resume:
    """The host resumes the match."""

    op: ClassVar[ClientOp] = ClientOp.RESUME


@dataclass(frozen=True, slots=True)
class End:
    """The host ends the match."""

    op: ClassVar[ClientOp] = ClientOp.END


@dataclass(frozen=True, slots=True)
class Dismiss:
    """A seated person's vote to dismiss the room (解散)."""

    op: ClassVar[ClientOp] = ClientOp.DISMISS
    agree: object = True


@dataclass(frozen=True, slots=True)
class Back:
    """Back from 托管."""

    op: ClassVar[ClientOp] = ClientOp.BACK


@dataclass(frozen=True, slots=True)
class Horse:
    """Whether to buy horses (买马) from the next hand on."""

    op: ClassVar[ClientOp] = ClientOp.HORSE
    buy: object = None


@dataclass(frozen=True, slots=True)
class Entropy:
    """A contribution to the next hands' secret."""

    op: ClassVar[ClientOp] = ClientOp.ENTROPY
    value: object = None


@dataclass(frozen=True, slots=True)
class Ready:
    """Ready for the next hand (准备)."""

    op: ClassVar[ClientOp] = ClientOp.READY


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive."""

    op: ClassVar[ClientOp] = ClientOp.PING


@dataclass(frozen=True, slots=True)
class Sit:
    """A waiting person takes a free seat."""

    op: ClassVar[ClientOp] = ClientOp.SIT


@dataclass(frozen=True, slots=True)
class Phrase:
    """A quick phrase or emoji to everybody in the room (快捷语), one of
    :class:`~laizi.vocab.QuickPhrase` (checked here: no free text ever reaches a room)."""

    op: ClassVar[ClientOp] = ClientOp.PHRASE
    id: QuickPhrase = QuickPhrase.HELLO


@dataclass(frozen=True, slots=True)
class Kick:
    """The host removes a member (踢出), by name: a bot plays their seat from now on, and
    their token and name are refused by this room for good."""

    op: ClassVar[ClientOp] = ClientOp.KICK
    person: object = None


@dataclass(frozen=True, slots=True)
class HandOver:
    """The host hands the host role (转让房主) to another player, by name."""

    op: ClassVar[ClientOp] = ClientOp.HOST
    person: object = None


@dataclass(frozen=True, slots=True)
class Lock:
    """The host locks the room to newcomers (锁定房间), or unlocks it."""

    op: ClassVar[ClientOp] = ClientOp.LOCK
    locked: object = None


@dataclass(frozen=True, slots=True)
class HintWaits:
    """The 听牌 waits of one ready discard of a seat's turn (听牌提示), asked for when the
    player chooses a discard whose waits the ``hints`` frame left out (``waits: null``):
    ``tile`` and the ``version`` of the hints."""

    op: ClassVar[ClientOp] = ClientOp.HINT_WAITS
    tile: object = None
    version: object = None


HostMessage = Start | Pause | Resume | End | Kick | HandOver | Lock
"""What only the host may send (``not_host`` for anybody else)."""

ClientMessage = (Act | Start | Pause | Resume | End | Dismiss | Back | Horse | Entropy
                 | Ready | Ping | Sit | Phrase | Kick | HandOver | Lock | HintWaits)

@dataclass(frozen=True, slots=True)
class Refused:
    """A message no room takes (unknown op or field): refused once the room has checked
    that it is still here and not over, as every message is."""

    op: object
    error: MalformedActionError


@dataclass(frozen=True, slots=True)
class Envelope:
    """One client message: its ``seq``, its text in one form (a message sent again is
    known by it) and what it says."""

    seq: int | None
    said: str
    op: object
    message: ClientMessage | Refused


def _choices(cls: type) -> dict[str, type[StrEnum]]:
    """The fields of a message type that take one word of a vocabulary (a phrase's id)."""
    return {name: hint for name, hint in get_type_hints(cls).items()
            if isinstance(hint, type) and issubclass(hint, StrEnum)}


_BY_OP = {cls.op: cls for cls in get_args(ClientMessage)}
_TYPES: dict[str, Callable[..., ClientMessage]] = {op.value: _BY_OP[op] for op in ClientOp}
"""Each op's message type (every :class:`ClientOp` has one), in the vocabulary's order."""
_FIELDS = {op: tuple(f.name for f in fields(_BY_OP[ClientOp(op)])) for op in _TYPES}
"""Each op's own fields (``op`` and ``seq`` are every message's): its type's fields."""
_CHOICES = {op: _choices(_BY_OP[ClientOp(op)]) for op in _TYPES}


def _message(op: object, msg: dict[str, object]) -> ClientMessage | Refused:
    """The message of ``op`` with the fields ``msg`` has (a field it lacks takes its
    type's default); refused for an unknown op or field, or a word its vocabulary lacks."""
    if not isinstance(op, str) or op not in _TYPES:
        return Refused(op, MalformedActionError(
            f"unknown op {op!r}; ops: {', '.join(_TYPES)}"))
    extra = sorted(set(msg) - {"op", "seq", *_FIELDS[op]})
    if extra:
        return Refused(op, MalformedActionError(
            f"unknown field(s) {', '.join(extra)} for {op!r}"))
    values = {name: msg[name] for name in _FIELDS[op] if name in msg}
    for name, words in _CHOICES[op].items():
        word = msg.get(name)  # never a default: no word, no message
        if not isinstance(word, str) or word not in [w.value for w in words]:
            return Refused(op, MalformedActionError(
                f"unknown {op} {name} {word!r}; {name}s: {', '.join(words)}"))
        values[name] = words(word)
    return _TYPES[op](**values)


def parse_message(msg: object) -> Envelope:
    """A client's decoded message, typed; :class:`MalformedActionError` when it is not
    an object or its ``seq`` is not an int (then no answer is kept for it)."""
    if not isinstance(msg, dict):
        raise MalformedActionError("a message is a JSON object")
    seq = msg.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)
                            or not 0 <= seq < 2**53):
        raise MalformedActionError("seq must be an int")
    op = msg.get("op")
    return Envelope(seq, json.dumps(msg, sort_keys=True), op, _message(op, msg))


def refusal(message: str) -> dict[str, object]:
    """The error frame refusing a message before it is read (not text, too large, not
    JSON)."""
    return {"op": ServerOp.ERROR, "seq": None, "error": {
        "code": ErrorCode.MALFORMED.value, "message": message, "seat": None, "phase": None}}


def parse_client_text(text: str | None) -> tuple[object, dict[str, object] | None]:
    """A client's websocket message: the decoded JSON, or the error frame that answers
    it (not text, too large, not JSON)."""
    if text is None or len(text) > MAX_MESSAGE:
        return None, refusal(f"a message is JSON text, at most {MAX_MESSAGE} bytes")
    try:
        return json.loads(text), None
    except (ValueError, RecursionError):  # 5000-digit ints, deep nesting too
        return None, refusal("not JSON")
