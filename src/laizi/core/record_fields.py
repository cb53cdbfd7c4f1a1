"""The checks of a hand record's JSON values, one field at a time.

Each reader returns the value or raises :class:`~laizi.core.records.RecordError` with
``where`` (the field's path, e.g. ``seats[1].melds[0].tiles``) and what was expected; the
variant sections' shapes (:data:`SECTIONS`) are checked with them before any variant reads
a section. :mod:`laizi.records` reads whole records with these.
"""

from __future__ import annotations

import difflib
import json
import types
import typing
from collections.abc import Callable, Iterable
from typing import TypeGuard

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.records import RecordError

__all__ = ["SECTIONS", "check_section", "is_int", "json_object", "json_type_ok", "need",
           "only", "read_bool", "read_seat_no", "read_text", "read_tile", "read_tiles",
           "show"]


def is_int(value: object) -> TypeGuard[int]:
    # JSON true/false are Python ints: never a number in a record.
    return isinstance(value, int) and not isinstance(value, bool)


def show(value: object) -> str:
    """A value for a one-line message: JSON spelling, long values cut."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def read_tiles(value: object, where: str) -> tuple[int, ...]:
    if isinstance(value, list):
        out = []
        for i, v in enumerate(value):
            if isinstance(v, str):
                out.append(read_tile(v, f"{where}[{i}]"))
            elif is_int(v) and 0 <= v < T.NUM_TILE_IDS:
                out.append(v)
            else:
                raise RecordError(f"{where}[{i}]: expected an MPSZ tile like \"5p\" or a tile "
                                  f"id 0-{T.NUM_TILE_IDS - 1}, got {show(v)}")
        return tuple(out)
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected MPSZ tiles like \"234p 55s\", got {show(value)}")
    try:
        return tuple(T.parse(value, "mpsz"))
    except T.NotationError as exc:
        raise RecordError(f"{where}: {exc}") from None


def read_tile(value: object, where: str) -> int:
    if is_int(value):
        ts = read_tiles([value], where)
    elif isinstance(value, str):
        ts = read_tiles(value, where)
    else:
        raise RecordError(f"{where}: expected one tile like \"5p\", got {show(value)}")
    if len(ts) != 1:
        raise RecordError(f"{where}: expected one tile, got {len(ts)}")
    return ts[0]


def need(data: JSON, key: str, where: str) -> object:
    if key not in data:
        raise RecordError(f"{where}: missing field {key!r}")
    return data[key]


def read_seat_no(value: object, where: str, seats: int) -> int:
    if not is_int(value) or not 0 <= value < seats:
        raise RecordError(f"{where}: expected a seat number 0-{seats - 1}, got {show(value)}")
    return int(value)


def read_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{where}: expected true or false, got {show(value)}")
    return value


def read_text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a string, got {show(value)}")
    return value


def json_object(value: object, where: str) -> JSON:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected an object, got {show(value)}")
    return value


def only(data: JSON, known: Iterable[str], where: str,
          what: str = "field(s)") -> None:
    """Refuse keys not in ``known``: a misspelt fact (``after_kng``) must not be settled
    as if it were absent."""
    allowed = sorted(known)
    unknown = sorted(str(k) for k in data if k not in allowed)
    if not unknown:
        return
    hints = [f"{k!r} (did you mean {close[0]!r}?)" if close else repr(k)
             for k in unknown for close in [difflib.get_close_matches(k, allowed, 1, 0.75)]]
    raise RecordError(f"{where}: unknown {what} {', '.join(hints)}; known: "
                      f"{', '.join(allowed)}")


def json_type_ok(value: object, kind: object) -> bool | None:
    """Whether ``value`` (JSON) fits the annotation ``kind``; ``None`` when the annotation
    is not one a record's options use (the options' own checks then decide)."""
    origin = typing.get_origin(kind)
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return is_int(value)
    if kind is float:
        return is_int(value) or isinstance(value, float)
    if kind is str:
        return isinstance(value, str)
    if origin is typing.Literal:
        return any(value == c and type(value) is type(c) for c in typing.get_args(kind))
    if origin in (typing.Union, types.UnionType):
        verdicts = [json_type_ok(value, k) for k in typing.get_args(kind)]
        return None if None in verdicts else any(verdicts)
    if kind is type(None):
        return value is None
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if typing.get_origin(item) is tuple and len(typing.get_args(item)) == 2:
                k_type, v_type = typing.get_args(item)
                # Pairs are written as a JSON object (record_to_json does), nothing else.
                if not isinstance(value, dict):
                    return False
                pairs = list(value.items())
                checks = [(json_type_ok(a, k_type), json_type_ok(b, v_type)) for a, b in pairs]
                return None if any(None in c for c in checks) else all(a and b
                                                                       for a, b in checks)
            if not isinstance(value, list):
                return False
            verdicts = [json_type_ok(x, item) for x in value]
            return None if None in verdicts else all(verdicts)
    return None


# --------------------------------------------------------------------- variant sections

_Check = Callable[[object, str, int], None]
"""A JSON value's check: ``check(value, where, seats)`` raises :class:`RecordError`."""


def _bool_value(value: object, where: str, n: int) -> None:
    read_bool(value, where)


def _seat_value(value: object, where: str, n: int) -> None:
    read_seat_no(value, where, n)


def _count_value(value: object, where: str, n: int) -> None:
    if not is_int(value) or value < 0:
        raise RecordError(f"{where}: expected a whole number >= 0, got {show(value)}")


def _tile_value(value: object, where: str, n: int) -> None:
    read_tile(value, where)


def _text_value(value: object, where: str, n: int) -> None:
    read_text(value, where)


def _wind_value(value: object, where: str, n: int) -> None:
    if not (is_int(value) or isinstance(value, str)):
        raise RecordError(f"{where}: expected a wind like \"东\" (or 0-3), got {show(value)}")


def _party_value(value: object, where: str, n: int) -> None:
    if not is_int(value) or value < 0:
        raise RecordError(f"{where}: expected a party number, got {show(value)}")


def _names_value(value: object, where: str, n: int) -> None:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RecordError(f"{where}: expected a list of names, got {show(value)}")


def _object_of(schema: dict[str, _Check], required: tuple[str, ...] = ()) -> _Check:
    def check(value: object, where: str, n: int) -> None:
        obj = json_object(value, where)
        only(obj, schema, where)
        for key in required:
            need(obj, key, where)
        for key, item in obj.items():
            schema[key](item, f"{where}.{key}", n)
    return check


def _list_of(item: _Check) -> _Check:
    def check(value: object, where: str, n: int) -> None:
        if not isinstance(value, list):
            raise RecordError(f"{where}: expected a list, got {show(value)}")
        for i, x in enumerate(value):
            item(x, f"{where}[{i}]", n)
    return check


_GB_SECTION: dict[str, _Check] = {"last_tile": _bool_value, "last_copy": _bool_value}
SECTIONS: dict[str, dict[str, _Check]] = {
    "jingzhou": {"discarder_ready": _bool_value, "qingyise_feeder": _seat_value},
    "huanghuang": {"laizi_discarded": _count_value, "people": _names_value,
                   "horses": _list_of(_object_of({"holder": _party_value, "tile": _tile_value},
                                                 ("holder", "tile")))},
    "golden": _GB_SECTION,
    "mcr": _GB_SECTION,
    "taiwan": {
        "prevalent_wind": _wind_value, "dealer_streak": _count_value,
        "declaration": _text_value,
        "passed_win_since_declaring": _bool_value, "first_draw": _bool_value,
        "discarders_first_discard": _bool_value,
        "first_go_round_after_declaration": _bool_value, "last_tile": _bool_value,
        "flower_replacement": _bool_value,
        "flower_win": _object_of({"kind": _text_value, "robbed": _seat_value,
                                  "robbed_drew_eighth": _bool_value, "on_deal": _bool_value},
                                 ("kind",)),
        "dead_hand": _object_of({"seat": _seat_value, "draws_since_penalty": _count_value},
                                ("seat", "draws_since_penalty")),
        "false_win": _object_of({"offender": _seat_value, "tile": _tile_value,
                                 "exempt": _bool_value}, ("offender", "tile")),
    },
}
"""The JSON shape of each built-in variant's section: its keys and their types. The
variant's ``validate_record`` then judges the values; checking the shape here first
means no variant ever meets a value of the wrong type (a list where a tile was due), which
would otherwise end in a traceback instead of a one-line refusal. A plug-in variant with
no entry here validates its section alone."""


def check_section(vid: str, extra: JSON, n: int) -> None:
    schema = SECTIONS.get(vid)
    if schema is not None:
        _object_of(schema)(extra, vid, n)
