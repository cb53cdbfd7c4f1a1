"""The events of one hand's log (牌局记录), typed: one class per entry, one codec.

A hand's log (:attr:`laizi.engine.state.HandState.log`) is a list of JSON objects tagged
by ``type`` (:class:`~laizi.vocab.GameEventType`). Each tag has its class here;
``event.to_json()`` is the entry the engine writes and :func:`game_event_from_json` reads
one back (``from_json(e.to_json()) == e``, and ``to_json(from_json(d)) == d`` for every
entry the engine writes, the redacted forms a seat is shown included: a dealt hand or a
drawn tile hidden as ``None``, a ``start`` without its seed and wall). The hand record
and the payments of the ``end`` event stay their own JSON (:mod:`laizi.core.records`,
:mod:`laizi.settlement` read them). See docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from laizi.copying import rebuild_from_fields
from laizi.core.jsondata import JSON
from laizi.core.melds import Meld
from laizi.engine.actions import LOGGED_TYPES, Action
from laizi.errors import LogError
from laizi.vocab import GameEventType

__all__ = ["RULES_VERSION", "ActionEvent", "ClaimEvent", "DealEvent", "DrawEvent", "EndEvent",
           "FlowerEvent", "GameEvent", "IndicatorEvent", "RevealedEvent", "StartEvent",
           "game_event_from_json"]

RULES_VERSION: Final = 3
"""The version of the rules a log was written under: raise it whenever a change of the
rules or of the engine would replay an old log differently. 1 is every log before the
field existed (claim windows that asked only the seats with an option); 2 asks every seat
in every window; 3 scores golden (黄金麻将) hands with the 明暗杠 option and 和绝张 read for
the golden tile's stand-in (docs/rules/golden.md, decision 16)."""

# The tags the hot encoders write, read from C statics when compiled.
_FLOWER: Final = GameEventType.FLOWER
_DRAW: Final = GameEventType.DRAW
_ACTION: Final = GameEventType.ACTION
_CLAIM: Final = GameEventType.CLAIM


@dataclass(frozen=True, slots=True)
class StartEvent:
    """Everything needed to recreate the hand: rules version, variant, options, dealer,
    scores, and the seed or the wall (left out of what seats are shown)."""

    TAG: ClassVar[GameEventType] = GameEventType.START
    rules: int
    variant: str
    options: JSON
    dealer: int
    scores: list[int]
    seed: int | None = None
    wall: list[int] | None = None
    streams: bool = False
    uniform: bool = True
    context: JSON | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.TAG, "rules": self.rules, "variant": self.variant,
                     "options": self.options, "dealer": self.dealer, "scores": self.scores}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.wall is not None:
            out["wall"] = self.wall
        if self.streams:
            out["streams"] = True
        if not self.uniform:
            out["uniform"] = False
        if self.context:
            out["context"] = self.context
        return out


@dataclass(frozen=True, slots=True)
class DealEvent:
    """The dealt hands (发牌), sorted tile ids per seat; another seat's are ``None``s in
    what a seat is shown."""

    TAG: ClassVar[GameEventType] = GameEventType.DEAL
    hands: list[list[int | None]]

    def to_json(self) -> JSON:
        return {"type": self.TAG, "hands": self.hands}


@dataclass(frozen=True, slots=True)
class IndicatorEvent:
    """The indicators turned up after the deal and the wildcard they give (翻赖子)."""

    TAG: ClassVar[GameEventType] = GameEventType.INDICATOR
    tiles: list[int]
    wildcard: int | None

    def to_json(self) -> JSON:
        return {"type": self.TAG, "tiles": self.tiles, "wildcard": self.wildcard}


@dataclass(frozen=True, slots=True)
class FlowerEvent:
    """A flower set aside by ``seat`` (补花), or moved to it from ``source`` (七抢一)."""

    TAG: ClassVar[GameEventType] = GameEventType.FLOWER
    seat: int
    tile: int
    source: int | None = None

    def to_json(self) -> JSON:
        return FlowerEvent.json(self.seat, self.tile, self.source)

    @staticmethod
    def json(seat: int, tile: int, source: int | None = None) -> JSON:
        """``FlowerEvent(seat, tile, source).to_json()`` without making the event (the
        engine writes one per flower)."""
        out: JSON = {"type": _FLOWER, "seat": seat, "tile": tile}
        if source is not None:
            out["from"] = source
        return out


@dataclass(frozen=True, slots=True)
class DrawEvent:
    """A draw (摸牌), ``replacement`` from the tail after a kong or a flower; the tile is
    ``None`` in what other seats are shown."""

    TAG: ClassVar[GameEventType] = GameEventType.DRAW
    seat: int
    tile: int | None
    replacement: bool

    def to_json(self) -> JSON:
        return DrawEvent.json(self.seat, self.tile, self.replacement)

    @staticmethod
    def json(seat: int, tile: int | None, replacement: bool) -> JSON:
        """``DrawEvent(...).to_json()`` without making the event (one per draw)."""
        return {"type": _DRAW, "seat": seat, "tile": tile, "replacement": replacement}


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """A seat's decision; ``answer``: an answer in a window, secret until it closes."""

    TAG: ClassVar[GameEventType] = GameEventType.ACTION
    action: Action
    answer: bool = False

    def to_json(self) -> JSON:
        return ActionEvent.json(self.action, self.answer)

    @staticmethod
    def json(action: Action, answer: bool = False) -> JSON:
        """``ActionEvent(...).to_json()`` without making the event (one per action)."""
        if answer:
            return {"type": _ACTION, "action": action.to_json(), "answer": True}
        return {"type": _ACTION, "action": action.to_json()}


@dataclass(frozen=True, slots=True)
class ClaimEvent:
    """The claim that won a window: ``seat`` made ``meld`` from the discard."""

    TAG: ClassVar[GameEventType] = GameEventType.CLAIM
    seat: int
    meld: Meld

    def to_json(self) -> JSON:
        return ClaimEvent.json(self.seat, self.meld)

    @staticmethod
    def json(seat: int, meld: Meld) -> JSON:
        """``ClaimEvent(...).to_json()`` without making the event (one per claim)."""
        return {"type": _CLAIM, "seat": seat, "meld": meld.to_json()}


@dataclass(frozen=True, slots=True)
class RevealedEvent:
    """The declarations of a closed decision window, made public (e.g. Taiwan's 天听)."""

    TAG: ClassVar[GameEventType] = GameEventType.REVEALED
    actions: list[Action]

    def to_json(self) -> JSON:
        return {"type": self.TAG, "actions": [a.to_json() for a in self.actions]}


@dataclass(frozen=True, slots=True)
class EndEvent:
    """The hand's result (结算): its record, payments and net per seat."""

    TAG: ClassVar[GameEventType] = GameEventType.END
    record: JSON
    payments: list[JSON]
    net: list[int]

    def to_json(self) -> JSON:
        return {"type": self.TAG, "record": self.record, "payments": self.payments,
                "net": self.net}


rebuild_from_fields(StartEvent, DealEvent, IndicatorEvent, FlowerEvent, DrawEvent, ActionEvent,
                    ClaimEvent, RevealedEvent, EndEvent)  # copy and pickle, compiled too

GameEvent = (StartEvent | DealEvent | IndicatorEvent | FlowerEvent | DrawEvent | ActionEvent
             | ClaimEvent | RevealedEvent | EndEvent)
"""One entry of a hand's log."""


_TAGS: frozenset[str] = frozenset(GameEventType)


def game_event_from_json(data: object, *, types: frozenset[str] = frozenset()) -> GameEvent:
    """The event a log entry describes; :class:`~laizi.errors.LogError` if it is not one.

    ``types``: action types beyond the built-in ones (a plug-in variant's own)."""
    if not isinstance(data, dict):
        raise LogError(f"an event is a JSON object, not {type(data).__name__}")
    tag = data.get("type")
    if not isinstance(tag, str) or tag not in _TAGS:
        raise LogError(f"not an event of a hand's log: type {tag!r}")
    kind = GameEventType(tag)
    try:
        return _read(kind, data, types)
    except LogError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LogError(f"a {kind} event with a missing or bad field: {exc!r}") from None


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an int, not {value!r}")
    return value


def _ints(value: object) -> list[int]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {value!r}")
    return [_int(x) for x in value]


def _object(value: object) -> JSON:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, not {value!r}")
    return value


def _read(kind: GameEventType, d: JSON, types: frozenset[str]) -> GameEvent:
    match kind:
        case GameEventType.START:
            context = d.get("context")
            return StartEvent(
                _int(d["rules"]), str(d["variant"]), _object(d["options"]), _int(d["dealer"]),
                _ints(d["scores"]), None if d.get("seed") is None else _int(d["seed"]),
                None if d.get("wall") is None else _ints(d["wall"]),
                bool(d.get("streams", False)), bool(d.get("uniform", True)),
                None if context is None else _object(context))
        case GameEventType.DEAL:
            return DealEvent([[None if t is None else _int(t) for t in h]
                              for h in d["hands"]])
        case GameEventType.INDICATOR:
            wildcard = d["wildcard"]
            return IndicatorEvent(_ints(d["tiles"]), None if wildcard is None else _int(wildcard))
        case GameEventType.FLOWER:
            source = d.get("from")
            return FlowerEvent(_int(d["seat"]), _int(d["tile"]),
                               None if source is None else _int(source))
        case GameEventType.DRAW:
            tile = d["tile"]
            return DrawEvent(_int(d["seat"]), None if tile is None else _int(tile),
                             bool(d["replacement"]))
        case GameEventType.ACTION:
            return ActionEvent(Action.from_json(d["action"], types=types | LOGGED_TYPES),
                               bool(d.get("answer", False)))
        case GameEventType.CLAIM:
            return ClaimEvent(_int(d["seat"]), Meld.from_json(_object(d["meld"])))
        case GameEventType.REVEALED:
            return RevealedEvent([Action.from_json(a, types=types) for a in d["actions"]])
        case GameEventType.END:
            return EndEvent(_object(d["record"]), [_object(p) for p in d["payments"]],
                            _ints(d["net"]))
    raise LogError(f"no reader for {kind}")  # pragma: no cover (every tag is matched)
