"""Bots by name: ``make_bot("greedy", seed=3)`` or with parameters
``make_bot("search:rollouts=32:budget_ms=0", seed=3)``.

Names: ``random``, ``simple`` (the engine's reference bot, :mod:`laizi.bots.simple`, when
present), ``greedy``, ``search``. A spec is ``NAME`` or ``NAME:KEY=VALUE:KEY=VALUE``; values
are read as int, float or true/false. Every bot gets its own seed; a game is reproducible
when every bot is deterministic given its seed (``search`` is when ``budget_ms=0``).
"""

from __future__ import annotations

import importlib
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

from laizi.bots.protocol import Bot

__all__ = ["BotSpecError", "bot_names", "make_bot", "parse_spec"]


class BotSpecError(ValueError):
    """An unknown bot name or a bad parameter."""


def _random(seed: int, **kw: Any) -> Bot:
    from laizi.bots.random_bot import RandomBot

    return RandomBot(seed, **kw)


def _greedy(seed: int, **kw: Any) -> Bot:
    from laizi.bots.greedy import GreedyBot

    return GreedyBot(seed, **kw)


def _search(seed: int, **kw: Any) -> Bot:
    from laizi.bots.search import SearchBot

    return SearchBot(seed, **kw)


def _simple(seed: int, **kw: Any) -> Bot:
    try:
        module = importlib.import_module("laizi.bots.simple")
    except ModuleNotFoundError as exc:
        raise BotSpecError("bot 'simple' is not available (laizi.bots.simple)") from exc
    for attr in ("SimpleBot", "Simple", "Bot"):
        cls = getattr(module, attr, None)
        if cls is not None:
            try:
                return cls(seed=seed, **kw)  # type: ignore[no-any-return]
            except TypeError:
                return cls(**kw)  # type: ignore[no-any-return]
    raise BotSpecError("laizi.bots.simple defines no SimpleBot")


_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": _random,
    "simple": _simple,
    "greedy": _greedy,
    "search": _search,
}


def bot_names() -> list[str]:
    return list(_FACTORIES)


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


_CLASSES = {"random": ("laizi.bots.random_bot", "RandomBot"),
            "greedy": ("laizi.bots.greedy", "GreedyBot"),
            "search": ("laizi.bots.search", "SearchBot")}
"""The classes whose keyword parameters a spec may set (checked against their types)."""

_NAMES = {bool: "true or false", int: "a whole number", float: "a number"}


def _accepts(kind: Any, value: Any) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is str:
        return isinstance(value, str)
    return False


def _describe(kind: Any) -> str:
    options = [k for k in typing.get_args(kind) if k is not type(None)] \
        if typing.get_origin(kind) in (typing.Union, types.UnionType) else [kind]
    return " or ".join(_NAMES.get(k, getattr(k, "__name__", str(k))) for k in options)


def _check_params(name: str, spec: str, kw: dict[str, Any]) -> None:
    """Refuse what the bot's constructor would not take, naming the parameter: a spec is
    read long before the bot plays (in another process, for a simulation), so a wrong
    value must be caught here rather than as a crash in the middle of a run."""
    where = _CLASSES.get(name)
    if where is None:
        return
    cls = getattr(importlib.import_module(where[0]), where[1])
    keywords = [p for p in inspect.signature(cls).parameters.values()
                if p.kind is inspect.Parameter.KEYWORD_ONLY]
    params = {p.name for p in keywords}
    # A compiled class (docs/build.md) keeps its signature but not its annotations: the
    # types are then those of the defaults.
    hints = typing.get_type_hints(cls.__init__) or {
        p.name: type(p.default) for p in keywords if p.default not in (None, p.empty)}
    for key, value in kw.items():
        if key not in params:
            raise BotSpecError(f"bot {name!r} has no parameter {key!r} (in {spec!r}); "
                               f"known: {', '.join(sorted(params)) or 'none'}")
        kind = hints.get(key)
        kinds = typing.get_args(kind) if typing.get_origin(kind) in (
            typing.Union, types.UnionType) else (kind,)
        if value == "none" and type(None) in kinds:
            kw[key] = None
        elif bool in kinds and value in (0, 1) and not isinstance(value, bool):
            kw[key] = bool(value)  # 1 / 0 as --option reads them
        elif not any(_accepts(k, value) for k in kinds):
            raise BotSpecError(f"bot {name!r} parameter {key}: expected {_describe(kind)}, "
                               f"got {value!r} (in {spec!r})")


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search:rollouts=8"`` → ``("search", {"rollouts": 8})``; :class:`BotSpecError`
    for an unknown bot, an unknown parameter or a value of the wrong type."""
    name, *params = spec.strip().split(":")
    if name not in _FACTORIES:
        raise BotSpecError(f"unknown bot {name!r}; known: {', '.join(_FACTORIES)}")
    kw: dict[str, Any] = {}
    for p in params:
        key, sep, val = p.partition("=")
        if not sep or not key.isidentifier():
            raise BotSpecError(f"bad bot parameter {p!r} in {spec!r}: expected KEY=VALUE")
        kw[key] = _value(val)
    _check_params(name, spec, kw)
    return name, kw


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A fresh bot from its spec."""
    name, kw = parse_spec(spec)
    try:
        return _FACTORIES[name](seed, **kw)
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None
