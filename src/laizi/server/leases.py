"""The names and scripts of the hall's Redis keys and channels (docs/deploy.md).

A room's owner holds ``laizi:lease:{code}`` (``SET NX PX``, renewed every third of the
lease by :data:`RENEW`, given up by :data:`RELEASE`, taken from a process that no
longer listens by :data:`STEAL`); a process listens on ``laizi:own:{id}`` as an owner
and on ``laizi:gw:{id}`` as a gateway (:mod:`laizi.server.forwarding`).
"""

from __future__ import annotations

import json
import os

from laizi.errors import ErrorCode, LaiziError
from laizi.server.bus import Reply

__all__ = ["ELECT", "PARKED", "RELEASE", "RENEW", "STEAL", "SWEEPER", "Unavailable",
           "affine", "dumps", "gateway_channel", "lease_key", "lease_seconds", "numsub",
           "owner_channel", "positions", "values"]

PREFIX = "laizi:"
SWEEPER = f"{PREFIX}sweeper"
"""The id of the one process that sweeps (:data:`ELECT`), with a time to live."""
PARKED = "parked"
"""The value of a new room's lease between its creation and the first request for it
(:func:`affine`): the process that asks first takes it, the sweep leaves it alone."""

RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""
RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""
ELECT = """
local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
return v
"""
STEAL = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""


def lease_seconds() -> float:
    """The lease length: ``LAIZI_HALL_LEASE`` seconds (default 3)."""
    raw = os.environ.get("LAIZI_HALL_LEASE", "3")
    try:
        value = float(raw)
    except ValueError:
        value = 3.0
    return min(60.0, max(0.5, value))


def affine() -> bool:
    """``LAIZI_HALL_AFFINE=1``: a proxy sends every request naming a room to one process
    chosen by the room's code (docs/deploy.md), so a new room is parked (:data:`PARKED`)
    for the process the proxy picks instead of being kept by the one that made it."""
    return os.environ.get("LAIZI_HALL_AFFINE", "").strip().lower() in ("1", "true", "yes")


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def owner_channel(process: str) -> str:
    return f"{PREFIX}own:{process}"


def gateway_channel(process: str) -> str:
    return f"{PREFIX}gw:{process}"


def _items(reply: Reply) -> list[Reply]:
    if not isinstance(reply, list):
        raise TypeError(f"Redis answered {reply!r}, not a list")
    return reply


def numsub(reply: Reply) -> dict[str, int]:
    """``PUBSUB NUMSUB``'s answer (channel, count, channel, count, ...) as a dict."""
    items = _items(reply)
    return {str(items[i]): int(str(items[i + 1])) for i in range(0, len(items), 2)}


def values(reply: Reply) -> list[str | None]:
    """``MGET``'s answer: each key's value (None: no such key)."""
    return [None if v is None else str(v) for v in _items(reply)]


def positions(reply: Reply) -> list[int]:
    """:data:`RENEW`'s answer: the (1-based) positions of the keys no longer held."""
    return [int(str(i)) for i in _items(reply)]


def dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class Unavailable(LaiziError):
    """The room's owner did not answer (it is moving to another process): try again."""

    default_code = ErrorCode.STORAGE
