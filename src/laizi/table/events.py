"""The lines of a table's log, typed: one class per entry, one codec.

A table log (:attr:`laizi.table.table.Table.log`) is a list of JSON objects tagged by
``type`` (:class:`~laizi.vocab.TableEventType`): the table opened, people joining and
leaving, entropy, horse bets, each hand's deal, its actions and its settlement, the close.
Each tag has its class here; ``entry.to_json()`` is the line the table writes and
:func:`table_event_from_json` reads one back (``to_json(from_json(d)) == d`` for every line
the table writes, and for the public forms of its stream: the ``table`` line without its
seed, ``hand_end`` without the wall).

A person's stream interleaves these lines with the hand's own events
(:mod:`laizi.engine.events`); there every ``action`` is the hand's (the table's own
``action`` lines stay in its log): :func:`stream_event_from_json` reads either kind.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from laizi.core.jsondata import JSON
from laizi.engine.actions import LOGGED_TYPES, Action
from laizi.engine.events import GameEvent, game_event_from_json
from laizi.errors import LogError
from laizi.vocab import GameEventType, TableEventType

__all__ = [
    "CloseEntry",
    "EntropyEntry",
    "HandEndEntry",
    "HandEntry",
    "HorseEntry",
    "JoinEntry",
    "LeaveEntry",
    "TableActionEntry",
    "TableEntry",
    "TableEvent",
    "canonical",
    "expect_line",
    "read_line",
    "stream_event_from_json",
    "table_event_from_json",
]


@dataclass(frozen=True, slots=True)
class TableEntry:
    """The first line: the log's format and rules, the variant, options, people, dealer
    and length; the public ``seed`` or the ``commitment`` to the secret deals."""

    TAG: ClassVar[TableEventType] = TableEventType.TABLE
    format: int
    rules: int
    variant: str
    options: JSON
    people: list[str]
    dealer: int
    max_hands: int | None
    streams: bool = False
    seed: int | None = None
    commitment: str | None = None
    walls: list[list[int]] | None = None
    """Given walls, one per hand (an imported match, e.g. ``laizi import-botzone``): the
    deals come from them, not from the seed; public like the seed."""

    def to_json(self) -> JSON:
        out: JSON = {"type": self.TAG, "format": self.format, "rules": self.rules,
                     "variant": self.variant, "options": self.options,
                     "people": self.people, "dealer": self.dealer,
                     "max_hands": self.max_hands}
        if self.streams:
            out["streams"] = True
        if self.seed is not None:
            out["seed"] = self.seed
        if self.commitment is not None:
            out["commitment"] = self.commitment
        if self.walls is not None:
            out["walls"] = self.walls
        return out


@dataclass(frozen=True, slots=True)
class JoinEntry:
    """``person`` comes to the table (上桌)."""

    TAG: ClassVar[TableEventType] = TableEventType.JOIN
    person: str

    def to_json(self) -> JSON:
        return {"type": self.TAG, "person": self.person}


@dataclass(frozen=True, slots=True)
class LeaveEntry:
    """``person`` leaves the table (下桌)."""

    TAG: ClassVar[TableEventType] = TableEventType.LEAVE
    person: str

    def to_json(self) -> JSON:
        return {"type": self.TAG, "person": self.person}


@dataclass(frozen=True, slots=True)
class HorseEntry:
    """Whether ``person`` buys a horse (买马) from the next hand on."""

    TAG: ClassVar[TableEventType] = TableEventType.HORSE
    person: str
    buy: bool

    def to_json(self) -> JSON:
        return {"type": self.TAG, "person": self.person, "buy": self.buy}


@dataclass(frozen=True, slots=True)
class EntropyEntry:
    """``person``'s randomness, mixed into every later deal."""

    TAG: ClassVar[TableEventType] = TableEventType.ENTROPY
    person: str
    value: str

    def to_json(self) -> JSON:
        return {"type": self.TAG, "person": self.person, "value": self.value}


@dataclass(frozen=True, slots=True)
class HandEntry:
    """Hand ``number`` is dealt: its dealer, who sits where, who waits, its options,
    its context (the session's facts for the variant) and the scores."""

    TAG: ClassVar[TableEventType] = TableEventType.HAND
    number: int
    dealer: int
    seats: list[str]
    waiting: list[str]
    options: JSON
    context: JSON
    scores: list[int]

    def to_json(self) -> JSON:
        return {"type": self.TAG, "number": self.number, "dealer": self.dealer,
                "seats": self.seats, "waiting": self.waiting, "options": self.options,
                "context": self.context, "scores": self.scores}


@dataclass(frozen=True, slots=True)
class TableActionEntry:
    """A decision in the current hand (the table's log keeps every one)."""

    TAG: ClassVar[TableEventType] = TableEventType.ACTION
    action: Action

    def to_json(self) -> JSON:
        return {"type": self.TAG, "action": self.action.to_json()}


@dataclass(frozen=True, slots=True)
class HandEndEntry:
    """Hand ``number`` booked between people: its record, the payments by person, each
    person's net, the ledger after it, the next dealer, who left and who took a seat,
    the horses, and the hand's wall (left out of the stream)."""

    TAG: ClassVar[TableEventType] = TableEventType.HAND_END
    number: int
    record: JSON
    payments: list[JSON]
    net: dict[str, int]
    ledger: dict[str, int]
    dealer: int
    left: list[list[object]]
    entered: list[list[object]]
    horses: list[JSON]
    wall: list[int] | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.TAG, "number": self.number, "record": self.record,
                     "payments": self.payments, "net": self.net, "ledger": self.ledger,
                     "dealer": self.dealer, "left": self.left, "entered": self.entered,
                     "horses": self.horses}
        if self.wall is not None:
            out["wall"] = self.wall
        return out

    def public(self) -> JSON:
        """The line as the stream shows it: without the wall."""
        out = self.to_json()
        out.pop("wall", None)
        return out


@dataclass(frozen=True, slots=True)
class CloseEntry:
    """The table ends: the hand ``abandoned`` in play, if any, and the revealed
    ``secret`` (absent for a public seed)."""

    TAG: ClassVar[TableEventType] = TableEventType.CLOSE
    abandoned: int | None = None
    secret: str | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.TAG}
        if self.abandoned is not None:
            out["abandoned"] = self.abandoned
        if self.secret is not None:
            out["secret"] = self.secret
        return out


TableEvent = (TableEntry | JoinEntry | LeaveEntry | HorseEntry | EntropyEntry | HandEntry
              | TableActionEntry | HandEndEntry | CloseEntry)
"""One line of a table's log."""


def _int(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an int, not {value!r}")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, not {value!r}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, not {value!r}")
    return value


def _object(value: object) -> JSON:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, not {value!r}")
    return value


def _opt_int(d: JSON, key: str) -> int | None:
    return None if d.get(key) is None else _int(d[key])


def _read_table(d: JSON) -> TableEvent:
    commitment = d.get("commitment")
    return TableEntry(
        _int(d["format"]), _int(d["rules"]), _str(d["variant"]),
        _object(d["options"]), [_str(p) for p in _list(d["people"])],
        _int(d["dealer"]), _opt_int(d, "max_hands"), bool(d.get("streams", False)),
        _opt_int(d, "seed"), None if commitment is None else _str(commitment),
        None if d.get("walls") is None
        else [[_int(t) for t in _list(w)] for w in _list(d["walls"])])


def _read_horse(d: JSON) -> TableEvent:
    buy = d["buy"]
    if not isinstance(buy, bool):
        raise TypeError(f"buy: expected true or false, not {buy!r}")
    return HorseEntry(_str(d["person"]), buy)


def _read_hand(d: JSON) -> TableEvent:
    return HandEntry(_int(d["number"]), _int(d["dealer"]),
                     [_str(p) for p in _list(d["seats"])],
                     [_str(p) for p in _list(d["waiting"])], _object(d["options"]),
                     _object(d["context"]), [_int(x) for x in _list(d["scores"])])


def _read_action(d: JSON) -> TableEvent:
    # A log may hold a 错和 (LOGGED_TYPES); replaying asks the game about it.
    return TableActionEntry(Action.from_json(d["action"], types=LOGGED_TYPES))


def _read_hand_end(d: JSON) -> TableEvent:
    wall = d.get("wall")
    return HandEndEntry(
        _int(d["number"]), _object(d["record"]),
        [_object(p) for p in _list(d["payments"])],
        {_str(k): _int(v) for k, v in _object(d["net"]).items()},
        {_str(k): _int(v) for k, v in _object(d["ledger"]).items()},
        _int(d["dealer"]), [_list(x) for x in _list(d["left"])],
        [_list(x) for x in _list(d["entered"])],
        [_object(h) for h in _list(d["horses"])],
        None if wall is None else [_int(t) for t in _list(wall)])


def _read_close(d: JSON) -> TableEvent:
    secret = d.get("secret")
    return CloseEntry(_opt_int(d, "abandoned"), None if secret is None else _str(secret))


_READERS: dict[str, Callable[[JSON], TableEvent]] = {
    TableEventType.TABLE: _read_table,
    TableEventType.JOIN: lambda d: JoinEntry(_str(d["person"])),
    TableEventType.LEAVE: lambda d: LeaveEntry(_str(d["person"])),
    TableEventType.HORSE: _read_horse,
    TableEventType.ENTROPY: lambda d: EntropyEntry(_str(d["person"]), _str(d["value"])),
    TableEventType.HAND: _read_hand,
    TableEventType.ACTION: _read_action,
    TableEventType.HAND_END: _read_hand_end,
    TableEventType.CLOSE: _read_close}
"""Each line type's reader, by its tag. A table of functions rather than a ``match``: a
long log is mostly ``action`` lines, and replaying reads every one (tests/test_table.py)."""


def table_event_from_json(data: object) -> TableEvent:
    """The line a table log's entry describes; :class:`~laizi.errors.LogError` if it is
    not one (an unknown type, a missing field, a field of the wrong type)."""
    if not isinstance(data, dict):
        raise LogError(f"a log line is a JSON object, not {type(data).__name__}")
    tag = data.get("type")
    read = _READERS.get(tag) if isinstance(tag, str) else None
    if read is None:
        raise LogError(f"unknown line type {tag!r}")
    try:
        return read(data)
    except LogError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise LogError(f"a {tag} line with a missing or bad field: {exc!r}") from None


_GAME_TAGS: frozenset[str] = frozenset(GameEventType)


def canonical(entry: Mapping[str, object]) -> str:
    """The byte-exact form of a log line: JSON, keys sorted, no spaces."""
    return json.dumps(entry, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def read_line(no: int, line: str | Mapping[str, object]) -> JSON:
    """Line ``no`` of a log, given as JSON text or already parsed, as a JSON object."""
    if isinstance(line, Mapping):
        return dict(line)
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, TypeError) as exc:
        raise LogError(f"line {no}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise LogError(f"line {no}: a log line is a JSON object")
    return data


def stream_event_from_json(data: object, *, types: frozenset[str] = frozenset()
                           ) -> TableEvent | GameEvent:
    """An event of a person's stream: a table line, or one of the hand's events (every
    ``action`` there is the hand's)."""
    if isinstance(data, dict) and isinstance(data.get("type"), str) and data["type"] in _GAME_TAGS:
        return game_event_from_json(data, types=types)
    return table_event_from_json(data)


def expect_line(log: Sequence[JSON], entries: Sequence[JSON], i: int, where: str) -> None:
    """A rebuilt table wrote line ``i`` of a log byte for byte; else a
    :class:`~laizi.errors.LogError` naming it (``where``: the hand, for the message)."""
    if len(log) <= i:
        raise LogError(f"line {i + 1}{where}: the table did not write this line: "
                       f"{canonical(entries[i])}")
    got, want = canonical(log[i]), canonical(entries[i])
    if got != want:
        what = "the deal differs from the one the secret gives" \
            if entries[i].get("type") == TableEventType.HAND_END and \
            log[i].get("wall") != entries[i].get("wall") else "differs on replay"
        raise LogError(f"line {i + 1}{where}: {what}: the log has {want}, "
                       f"the table writes {got}")
