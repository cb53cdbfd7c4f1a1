"""Rebuilding a hand from its log, strictly (for :meth:`laizi.engine.game.Game.from_log`).

A game is a pure function of its ``start`` event and its decisions: the actions are applied
again to a fresh game and, with ``verify``, the rebuilt log must be the log, event for
event. Whatever the log holds, the only exception is :class:`ReplayError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action, short_repr
from laizi.engine.events import RULES_VERSION
from laizi.engine.registry import get
from laizi.engine.state import HandState
from laizi.errors import ErrorCode, LaiziError, LogError
from laizi.vocab import GameEventType

__all__ = ["ReplayError", "replay_into", "start_from"]

S = TypeVar("S", bound=HandState)



class ReplayError(LogError):
    """The log does not describe a game the engine can rebuild identically (a
    :class:`~laizi.errors.LogError`: code ``bad_log``, or ``rules_version``)."""


def replay_into(make: Callable[..., S], log: Sequence[JSON], *,
                verify: bool = True) -> S:
    """Rebuild the game from its log (``make`` builds a game: its class). With ``verify``
    the rebuilt log must equal ``log`` event for event (else :class:`ReplayError` names
    the first difference).

    Whatever ``log`` holds, the only exception is :class:`ReplayError` (a
    :class:`~laizi.errors.LogError`): a malformed event, a field of the wrong type, an
    action the rules refuse (the refusal's seat and phase are kept)."""
    if isinstance(log, (str, bytes)) or not isinstance(log, Sequence) or not log \
            or not isinstance(log[0], dict) or log[0].get("type") != GameEventType.START:
        raise ReplayError("a log starts with a 'start' event")
    head = log[0]
    rules = head.get("rules", 1)
    if rules != RULES_VERSION:
        raise ReplayError(f"the log was written under rules version {short_repr(rules)}; "
                          f"this laizi plays rules version {RULES_VERSION} and would rebuild "
                          "it differently (see docs/protocol.md, 'Rules versions')",
                          code=ErrorCode.RULES_VERSION)
    game = start_from(make, head)
    types = game.action_types()
    for i, ev in enumerate(log[1:], 1):
        if not isinstance(ev, dict):
            raise ReplayError(f"event {i}: an event is a JSON object, not {short_repr(ev)}")
        if ev.get("type") == GameEventType.ACTION:
            try:
                game.apply(Action.from_json(ev.get("action"), types=types))
            except LaiziError as exc:
                raise ReplayError(f"event {i}: {exc.message}", seat=exc.seat,
                                  phase=exc.phase) from None
            except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
                # A legal action the start event's data (context, options) cannot carry.
                raise ReplayError(f"event {i}: the hand the start event describes cannot be "
                                  f"played on ({type(exc).__name__}: {exc})") from None
    if verify:
        new = json.loads(json.dumps(game.log))
        try:
            old = json.loads(json.dumps(list(log)))
        except (TypeError, ValueError, RecursionError) as exc:
            raise ReplayError(f"the log is not JSON data ({exc})") from None
        for i, (a, b) in enumerate(zip(new, old, strict=False)):
            if a != b:
                raise ReplayError(f"event {i} differs on replay: {b!r} became {a!r}")
        if len(new) != len(old):
            raise ReplayError(f"replay gives {len(new)} events, the log has {len(old)}")
    return game


def start_from(make: Callable[..., S], head: JSON) -> S:
    """The fresh game a ``start`` event describes, its fields checked strictly."""
    def bad(field: str, what: str) -> ReplayError:
        return ReplayError(f"start event: {field} must be {what}, not "
                           f"{short_repr(head.get(field))}")

    def is_int(x: object) -> bool:
        return type(x) is int

    vid = head.get("variant")
    if type(vid) is not str:
        raise bad("variant", "a variant id")
    try:
        variant = get(vid)
    except KeyError as exc:
        raise ReplayError(f"start event: {exc.args[0]}") from None
    options = head.get("options")
    if options is not None and not isinstance(options, dict):
        raise bad("options", "an object")
    seed = head.get("seed")
    if seed is not None and not is_int(seed):
        raise bad("seed", "an int")
    dealer = head.get("dealer", 0)
    if not is_int(dealer) or not 0 <= dealer < variant.seats:
        raise bad("dealer", f"a seat 0-{variant.seats - 1}")
    scores = head.get("scores")
    if scores is not None and (not isinstance(scores, list) or len(scores) != variant.seats
                               or not all(is_int(x) for x in scores)):
        raise bad("scores", f"a list of {variant.seats} ints")
    wall = head.get("wall")
    if wall is not None and (not isinstance(wall, list) or not all(is_int(x) for x in wall)):
        raise bad("wall", "a list of tile ids")
    context = head.get("context")
    if context is not None and not isinstance(context, dict):
        raise bad("context", "an object")
    streams, uniform = head.get("streams", False), head.get("uniform", True)
    if type(streams) is not bool:
        raise bad("streams", "a bool")
    if type(uniform) is not bool:
        raise bad("uniform", "a bool")
    try:
        return make(variant, variant.options_from_json(options), seed=seed, dealer=dealer,
                    scores=scores, wall=wall, context=context, streams=streams,
                    uniform=uniform)
    except LaiziError as exc:
        raise ReplayError(f"start event: {exc.message}") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise ReplayError(f"start event: not a {vid} hand ({exc})") from None


