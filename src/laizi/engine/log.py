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
from typing import Any

from laizi.engine.actions import CHOW, KONG, PASS, PUNG, WIN, Action
from laizi.engine.game import Game

_ANSWERS = frozenset({PASS, CHOW, PUNG, KONG, WIN})

__all__ = ["ReplayError", "dumps", "loads", "redact", "replay", "state_json"]


class ReplayError(ValueError):
    """The log does not describe a game the engine can rebuild identically."""


def dumps(log: Iterable[dict[str, Any]]) -> str:
    """JSON lines, one event per line (keys sorted, no spaces)."""
    return "".join(json.dumps(e, ensure_ascii=False, sort_keys=True,
                              separators=(",", ":")) + "\n" for e in log)


def loads(text: str) -> list[dict[str, Any]]:
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ReplayError(f"line {no}: not JSON ({exc.msg})") from None
    return out


def state_json(game: Game) -> str:
    """Canonical serialisation of the full state (for equality checks)."""
    return json.dumps(game.to_json(), sort_keys=True, separators=(",", ":"))


def replay(log: Sequence[dict[str, Any]], *, verify: bool = True) -> Game:
    """Rebuild the game from its log. With ``verify`` the rebuilt log must equal ``log``
    event for event (else :class:`ReplayError` names the first difference)."""
    if not log or log[0].get("type") != "start":
        raise ReplayError("a log starts with a 'start' event")
    from laizi.variants import get

    head = log[0]
    variant = get(str(head["variant"]))
    game = Game(variant, variant.options_from_json(head.get("options")),
                seed=head["seed"], dealer=int(head.get("dealer", 0)), scores=head.get("scores"),
                wall=head.get("wall"), context=head.get("context"),
                streams=bool(head.get("streams", False)))
    for ev in log[1:]:
        if ev.get("type") == "action":
            game.apply(Action.from_json(ev["action"]))
    if verify:
        new = json.loads(json.dumps(game.log))
        old = json.loads(json.dumps(list(log)))
        for i, (a, b) in enumerate(zip(new, old, strict=False)):
            if a != b:
                raise ReplayError(f"event {i} differs on replay: {b!r} became {a!r}")
        if len(new) != len(old):
            raise ReplayError(f"replay gives {len(new)} events, the log has {len(old)}")
    return game


def redact(event: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The event as ``seat`` may see it (``None``: not shown to that seat at all).

    Other seats' dealt hands and drawn tiles are hidden (tile ``None``). Other seats'
    answers to a discard or an added kong (pass, chow, pung, kong, win) are dropped: they
    are simultaneous and secret until resolved, and the resolution is public (a ``claim``
    event, or the ``end`` event for a win). The end of the hand reveals everything.
    """
    kind = event.get("type")
    if kind == "deal":
        hands = event["hands"]
        return {"type": "deal", "hands": [h if i == seat else [None] * len(h)
                                          for i, h in enumerate(hands)]}
    if kind == "draw" and event["seat"] != seat:
        return {**event, "tile": None}
    if kind == "action" and event["action"]["seat"] != seat \
            and event["action"]["type"] in _ANSWERS:
        return None
    if kind == "start":
        return {k: v for k, v in event.items() if k not in ("seed", "wall")}
    return event
