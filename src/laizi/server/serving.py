"""The websocket loop, written once: a local websocket (:mod:`laizi.server.app`) and one
held by another process (:mod:`laizi.server.forwarding`, owner side) are served by
:func:`serve_messages`."""

from __future__ import annotations

import weakref
from collections.abc import Awaitable, Callable

from laizi.errors import ErrorCode, LaiziError
from laizi.server import metrics
from laizi.server.ratelimit import TokenBucket, message_rate_from_env
from laizi.server.rooms import CLOSE_KICKED, Connection, Member, Room, parse_client_text
from laizi.vocab import ServerOp

__all__ = ["CLOSE_KICKED", "CLOSE_UNKNOWN", "SERVICE_RESTART", "Incoming", "error_frame",
           "refusal_close", "serve_messages"]

CLOSE_UNKNOWN = 4404
"""The websocket close code of an unknown room or token (final: the client stops)."""
SERVICE_RESTART = 1012
"""The websocket close code that tells a client to reconnect (the room moved, or the
hall cannot serve it now)."""

Incoming = str | dict[str, object] | None
"""What a websocket gave: a message's text, the error frame that answers a message that
could not be read (too large, not text), or ``None``: the client has gone."""


def refusal_close(exc: LaiziError) -> int:
    """The close code of a websocket refused on connecting: final for an unknown room or
    token (4404) and a person the host removed (4410), else 1012 (come back later)."""
    if exc.code == ErrorCode.KICKED:
        return CLOSE_KICKED
    if exc.code in (ErrorCode.UNKNOWN_ROOM, ErrorCode.UNKNOWN_TOKEN):
        return CLOSE_UNKNOWN
    return SERVICE_RESTART


def error_frame(exc: LaiziError) -> dict[str, object]:
    """The frame refusing a connection (unknown room or token, the hall unavailable)."""
    return {"op": ServerOp.ERROR, "seq": None, "error": dict(exc.to_json())}


_buckets: weakref.WeakKeyDictionary[Member, TokenBucket] = weakref.WeakKeyDictionary()
"""Each person's message allowance, shared by all their connections (a second tab, a
forwarded websocket) and gone with the member."""
REFUSALS_QUEUED = 64
"""A flooding client that does not read its refusals gets no more once this many frames
wait to be sent to it: the flood costs its own frames, never a growing queue."""


def bucket(member: Member) -> TokenBucket:
    """The member's :class:`~laizi.server.ratelimit.TokenBucket` (``LAIZI_RATE_MESSAGES``)."""
    found = _buckets.get(member)
    if found is None:
        rate, burst = message_rate_from_env()
        found = _buckets[member] = TokenBucket(rate, burst)
    return found


def _too_fast(msg: object) -> dict[str, object]:
    seq = msg.get("seq") if isinstance(msg, dict) else None
    return {"op": ServerOp.ERROR, "seq": seq if type(seq) is int else None, "error": {
        "code": ErrorCode.RATE_LIMITED.value, "seat": None, "phase": None,
        "message": "too many messages: this one was not read; slow down"}}


async def serve_messages(room: Room, member: Member, conn: Connection,
                         receive: Callable[[], Awaitable[Incoming]]) -> None:
    """Answer a member's messages in order until ``receive`` gives ``None``: each is
    parsed, handled by the room, and its answer (if any) put on the connection; one past
    the person's message rate (:func:`bucket`) is answered ``rate_limited`` unread."""
    while True:
        text = await receive()
        if text is None:
            return
        if isinstance(text, dict):
            conn.put(text)
            continue
        msg, error = parse_client_text(text)
        if error is not None:
            metrics.observe_answer(None, error, 0.0)
            conn.put(error)
            continue
        if not bucket(member).take():  # over the person's rate: changes nothing
            refusal = _too_fast(msg)
            metrics.observe_answer(None, refusal, 0.0)
            if conn.deliver is not None or conn.queue.qsize() < REFUSALS_QUEUED:
                conn.put(refusal)
            continue
        started = metrics.now()
        answer = await room.handle(member, msg)
        metrics.observe_answer(msg.get("op") if isinstance(msg, dict) else None, answer,
                               metrics.now() - started)
        if answer is not None:
            conn.put(answer)
