"""The event log: JSON lines, replay, and per-seat redaction.

The first event is ``{"type": "start", ...}`` with everything needed to recreate the hand
(variant, options, seed, dealer, scores); every decision is an ``{"type": "action", ...}``
event. :func:`replay` re-applies the actions to a fresh game: since a game is a pure
function of (variant, options, seed, dealer, decisions), the result is identical — the
same state JSON and the same log, which :func:`replay` checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Final

from laizi.core.jsondata import JSON
from laizi.engine.actions import short_repr
from laizi.engine.game import Game
from laizi.engine.replay import ReplayError, start_from
from laizi.vocab import GameEventType

__all__ = ["ReplayError", "answer_seat", "dumps", "loads", "redact", "replay", "start",
           "state_json"]

# The event types redact reads, as plain constants: it runs for every event and every
# person who sees it, and looking a member up on the enum class costs more than the rest
# of the function.
_DEAL: Final[str] = GameEventType.DEAL
_DRAW: Final[str] = GameEventType.DRAW
_ACTION: Final[str] = GameEventType.ACTION
_START: Final[str] = GameEventType.START


def dumps(log: Iterable[JSON]) -> str:
    """JSON lines, one event per line (keys sorted, no spaces)."""
    return "".join(json.dumps(e, ensure_ascii=False, sort_keys=True,
                              separators=(",", ":")) + "\n" for e in log)


def loads(text: str) -> list[JSON]:
    """The events of JSON-lines text (blank lines skipped); :class:`ReplayError` if a line
    is not one JSON object."""
    if not isinstance(text, str):
        raise ReplayError(f"a log is text, not {short_repr(text)}")
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                event = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ReplayError(f"line {no}: not JSON ({exc.msg})") from None
            except (ValueError, RecursionError) as exc:  # 5000-digit ints, deep nesting
                raise ReplayError(f"line {no}: not JSON the engine reads ({exc})") from None
            if not isinstance(event, dict):
                raise ReplayError(f"line {no}: an event is a JSON object, not "
                                  f"{short_repr(event)}")
            out.append(event)
    return out


def state_json(game: Game) -> str:
    """Canonical serialisation of the full state (for equality checks)."""
    return json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"))


def replay(log: Sequence[JSON], *, verify: bool = True) -> Game:
    """Rebuild the game from its log (:meth:`Game.from_log
    <laizi.engine.game.Game.from_log>`): with ``verify`` the rebuilt log must equal
    ``log`` event for event; the only exception is :class:`ReplayError`."""
    return Game.from_log(log, verify=verify)


def start(head: JSON) -> Game:
    """The fresh game a ``start`` event describes, its fields checked strictly
    (:class:`ReplayError` if it describes none)."""
    return start_from(Game, head)


def answer_seat(event: JSON) -> int | None:
    """The seat whose secret answer ``event`` is (an ``action`` line with ``answer``: a
    pass, chow, pung, kong or win declared in a window), which only that seat sees
    (:func:`redact`); ``None`` for an event every seat sees in some form."""
    if event.get("type") == _ACTION and event.get("answer"):
        seat: int = event["action"]["seat"]
        return seat
    return None


def redact(event: JSON, seat: int | None) -> JSON | None:
    """The event as ``seat`` may see it (``None``: not shown to that seat at all).

    Other seats' dealt hands and drawn tiles are hidden (tile ``None``). Other seats'
    answers to a discard or an added kong (pass, chow, pung, kong, win) are dropped: they
    are simultaneous and secret until resolved, and the resolution is public (a ``claim``
    event, or the ``end`` event for a win). The end of the hand reveals everything.
    """
    kind = event.get("type")
    if kind == _DEAL:
        hands = event["hands"]
        return {"type": _DEAL, "hands": [h if i == seat else [None] * len(h)
                                         for i, h in enumerate(hands)]}
    if kind == _DRAW and event["seat"] != seat:
        return {**event, "tile": None}
    if kind == _ACTION and event.get("answer") and event["action"]["seat"] != seat:
        return None
    if kind == _START:
        return {k: v for k, v in event.items() if k not in ("seed", "wall")}
    return event
