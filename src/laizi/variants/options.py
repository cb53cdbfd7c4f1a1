"""One parser for table options given as ``KEY=VALUE`` text (``--option`` of every command).

``parse_options(variant, ["cap=200", "kou_kou_fan=yes"])`` returns the variant's options
object; :func:`parse_option_values` the same options as JSON values (what a hand task, a
log or ``options_from_json`` takes). Keys are the fields of the variant's options
dataclass (plus the extra JSON keys it declares, e.g. Taiwan's ``preset``); each value is
read by the field's annotation:

* ``int``: a whole number (``200``, ``-5``); ``bool``: ``true``/``false``, ``yes``/``no``,
  ``1``/``0``, ``on``/``off`` (any case); ``str``: the text as given;
* a tuple of values (``tuple[int, ...]``): a comma-separated list (``horses=0,5``, empty
  for none) or a JSON list (``horses=[0,5]``);
* a tuple of pairs (``tuple[tuple[str, int], ...]``): ``key:value`` items separated by
  commas (``tai=full_flush:8,heavenly_win:24``) or a JSON object; written as a JSON object.

A key given twice is refused, except for tuples, whose items add up. Ranges and allowed
values are the variant's own options validation. Every refusal is an
:class:`~laizi.errors.OptionsError` (code ``bad_option``) whose message names the key:
an unknown key lists the valid ones.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

from laizi.core.jsondata import JSON
from laizi.engine.variant import Variant
from laizi.errors import OptionsError

__all__ = ["format_option", "option_keys", "option_pairs", "parse_option_values",
           "parse_options"]

_TRUE = frozenset({"true", "yes", "1", "on"})
_FALSE = frozenset({"false", "no", "0", "off"})
_INT = re.compile(r"[+-]?[0-9]+")


def _variant(variant: Variant | str) -> Variant:
    if isinstance(variant, Variant):
        return variant
    from laizi.variants import get

    try:
        return get(variant)
    except KeyError as exc:
        raise OptionsError(str(exc.args[0])) from None


_FIELDS: dict[type[Any], dict[str, object]] = {}


def _fields(options_type: type[Any]) -> dict[str, object]:
    """Option key → its annotation (resolved), the extra JSON keys as ``str``."""
    got = _FIELDS.get(options_type)
    if got is None:
        hints = typing.get_type_hints(options_type)
        got = {f.name: hints[f.name] for f in dataclasses.fields(options_type)}
        for key in getattr(options_type, "EXTRA_JSON_KEYS", ()):
            got.setdefault(key, str)
        _FIELDS[options_type] = got
    return got


def option_keys(variant: Variant | str) -> list[str]:
    """The keys ``--option`` accepts for ``variant``, sorted."""
    return sorted(_fields(_variant(variant).options_type))


def _pair_types(kind: object) -> tuple[object, object] | None:
    """``(K, V)`` for ``tuple[tuple[K, V], ...]``, else ``None``."""
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis and typing.get_origin(args[0]) is tuple:
            inner = typing.get_args(args[0])
            if len(inner) == 2 and Ellipsis not in inner:
                return inner[0], inner[1]
    return None


def _item_type(kind: object) -> object | None:
    """``T`` for ``tuple[T, ...]`` of scalars, else ``None``."""
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis and typing.get_origin(args[0]) is not tuple:
            item: object = args[0]
            return item
    return None


def _describe(kind: object) -> str:
    if kind is bool:
        return "true or false (yes/no, 1/0, on/off)"
    if kind is int:
        return "a whole number"
    if kind is float:
        return "a number"
    if kind is str:
        return "text"
    if typing.get_origin(kind) is typing.Literal:
        return "one of " + ", ".join(map(str, typing.get_args(kind)))
    return "a JSON value"


def _scalar(key: str, text: str, kind: object) -> object:
    """One scalar value of type ``kind`` from ``text``."""
    s = text.strip()
    if kind is bool:
        low = s.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    elif kind is int:
        if _INT.fullmatch(s):
            return int(s)
    elif kind is float:
        try:
            value = float(s)
        except ValueError:
            pass
        else:
            if value == value and value not in (float("inf"), float("-inf")):
                return value
    elif kind is str:
        return s
    elif typing.get_origin(kind) is typing.Literal:
        for choice in typing.get_args(kind):
            if str(choice) == s:
                return choice
    else:
        if typing.get_origin(kind) in (typing.Union, types.UnionType) and \
                type(None) in typing.get_args(kind) and s.lower() in ("none", "null", ""):
            return None
        try:
            return json.loads(s)
        except json.JSONDecodeError:
            return s
    raise OptionsError(f"option {key}: expected {_describe(kind)}, got {text!r}")


def _json_scalar(key: str, value: object, kind: object) -> object:
    """An element of a JSON list / object checked against ``kind``."""
    checks: dict[object, Callable[[object], bool]] = {
        bool: lambda v: isinstance(v, bool),
        int: lambda v: isinstance(v, int) and not isinstance(v, bool),
        str: lambda v: isinstance(v, str),
          float: lambda v: isinstance(v, int | float) and not isinstance(v, bool)}
    ok = checks.get(kind)
    if ok is not None and not ok(value):
        raise OptionsError(f"option {key}: expected items that are {_describe(kind)}, "
                           f"got {value!r}")
    return value


def _value(key: str, text: str, kind: object) -> object:
    """The JSON value of one ``key=text``, by the annotation ``kind``."""
    s = text.strip()
    pair = _pair_types(kind)
    if pair is not None:
        k_type, v_type = pair
        if s.startswith("{"):
            try:
                data = json.loads(s)
            except json.JSONDecodeError as exc:
                raise OptionsError(f"option {key}: not a JSON object ({exc.msg})") from None
            if not isinstance(data, dict):
                raise OptionsError(f"option {key}: expected a JSON object, got {text!r}")
            return {_json_scalar(key, k, k_type): _json_scalar(key, v, v_type)
                    for k, v in data.items()}
        out: dict[object, object] = {}
        for item in (i for i in s.split(",") if i.strip()):
            k, sep, v = item.replace("=", ":", 1).partition(":")
            if not sep:
                raise OptionsError(f"option {key}: expected KEY:VALUE items separated by "
                                   f"commas, got {item.strip()!r}")
            out[_scalar(key, k, k_type)] = _scalar(key, v, v_type)
        return out
    item_type = _item_type(kind)
    if item_type is not None:
        if s.startswith("["):
            try:
                data = json.loads(s)
            except json.JSONDecodeError as exc:
                raise OptionsError(f"option {key}: not a JSON list ({exc.msg})") from None
            if not isinstance(data, list):
                raise OptionsError(f"option {key}: expected a JSON list, got {text!r}")
            return [_json_scalar(key, v, item_type) for v in data]
        return [_scalar(key, v, item_type) for v in s.split(",") if v.strip()]
    return _scalar(key, text, kind)


def parse_option_values(variant: Variant | str, pairs: Iterable[str]) -> JSON:
    """The options ``KEY=VALUE`` as JSON values (only the keys given), checked by the
    variant's own validation; :class:`~laizi.errors.OptionsError` names what is wrong."""
    v = _variant(variant)
    fields = _fields(v.options_type)
    out: JSON = {}
    for pair in pairs:
        name, sep, text = str(pair).partition("=")
        key = name.strip()
        if not sep or not key:
            raise OptionsError(f"--option {pair!r}: expected NAME=VALUE")
        if key not in fields:
            raise OptionsError(f"unknown {v.id} option {key!r}; valid options: "
                               f"{', '.join(sorted(fields))}")
        value = _value(key, text, fields[key])
        if key in out:
            if isinstance(value, list):
                value = [*out[key], *value]
            elif isinstance(value, dict):
                value = {**out[key], **value}
            else:
                raise OptionsError(f"option {key} given twice")
        out[key] = value
    try:
        v.options_from_json(dict(out))
    except OptionsError:
        raise
    except (ValueError, TypeError, KeyError) as exc:
        raise OptionsError(f"bad {v.id} option: {exc}") from None
    return out


def parse_options(variant: Variant | str, pairs: Iterable[str]) -> Any:
    """The variant's options object from ``KEY=VALUE`` texts (the defaults for the keys
    not given): ``parse_options("jingzhou", ["cap=200"]).cap == 200``."""
    v = _variant(variant)
    return v.options_from_json(parse_option_values(v, pairs))


def format_option(value: object) -> str:
    """The ``VALUE`` text :func:`parse_options` reads back as ``value``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(f"{format_option(x[0])}:{format_option(x[1])}"
                        if isinstance(x, tuple | list) else format_option(x) for x in value)
    if isinstance(value, dict):
        return ",".join(f"{format_option(k)}:{format_option(x)}" for k, x in value.items())
    return str(value)


def option_pairs(variant: Variant | str, options: object) -> list[str]:
    """Every field of ``options`` as ``KEY=VALUE``: ``parse_options(variant,
    option_pairs(variant, options)) == options``."""
    v = _variant(variant)
    return [f"{f.name}={format_option(getattr(options, f.name))}"
            for f in dataclasses.fields(v.options_type)]
