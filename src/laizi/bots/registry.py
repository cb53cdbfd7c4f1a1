"""Bots by name: ``make_bot("greedy", seed=3)`` or with parameters
``make_bot("search:rollouts=32:budget_ms=0", seed=3)``.

Names: ``random``, ``simple`` (the engine's reference bot, :mod:`laizi.bots.simple`, when
present), ``greedy``, ``search``, ``botzone`` (an outside Botzone-protocol program,
:mod:`laizi.bots.botzone`: ``botzone:keep=1:cmd=python3 bot.py``, ``cmd`` last), ``model``
(a network trained by ``laizi train``, :mod:`laizi.bots.model`: ``model:PATH``, the rest
of the spec being the file); the hall's strength levels ``novice`` / ``practised`` /
``expert`` (新手 / 熟手 / 高手, :mod:`laizi.bots.levels`) stand for their specs, and
parameters after a level's name override the level's own (``expert:budget_ms=0``).
A spec is ``NAME`` or ``NAME:KEY=VALUE:KEY=VALUE``; values are read as int, float or
true/false. Every bot gets its own seed; a game is reproducible when every bot is
deterministic given its seed (``search`` is when ``budget_ms=0``).
"""

from __future__ import annotations

import importlib
import inspect
import types
import typing
from collections.abc import Callable

from laizi.bots.levels import LEVELS, resolve_level
from laizi.bots.protocol import Bot

__all__ = ["BotSpecError", "bot_names", "check_variant", "make_bot", "parse_spec"]


class BotSpecError(ValueError):
    """An unknown bot name or a bad parameter."""


Param = bool | int | float | str | None
"""A bot parameter's value, as a spec gives it (``none`` only where the parameter may be
``None``)."""

_CLASSES = {"random": ("laizi.bots.random_bot", "RandomBot"),
            "greedy": ("laizi.bots.greedy", "GreedyBot"),
            "search": ("laizi.bots.search", "SearchBot"),
            "botzone": ("laizi.bots.botzone", "BotzoneBot"),
            "model": ("laizi.bots.model", "ModelBot")}
"""The classes whose keyword parameters a spec may set (checked against their types);
each is built as ``cls(seed, **params)``."""

_BOTS = ("random", "simple", "greedy", "search", "botzone", "model")
"""Every bot name, in the order ``bot_names`` gives them."""


def _simple(seed: int, kw: dict[str, Param]) -> Bot:
    try:
        module = importlib.import_module("laizi.bots.simple")
    except ModuleNotFoundError as exc:
        raise BotSpecError("bot 'simple' is not available (laizi.bots.simple)") from exc
    for attr in ("SimpleBot", "Simple", "Bot"):
        cls: Callable[..., Bot] | None = getattr(module, attr, None)
        if cls is not None:
            try:
                return cls(seed=seed, **kw)
            except TypeError:
                return cls(**kw)
    raise BotSpecError("laizi.bots.simple defines no SimpleBot")


def bot_names() -> list[str]:
    """Every bot name, then the strength levels (:mod:`laizi.bots.levels`)."""
    return [*_BOTS, *LEVELS]


def _value(text: str) -> Param:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


_NAMES: dict[object, str] = {bool: "true or false", int: "a whole number", float: "a number"}


def _accepts(kind: object, value: Param) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is str:
        return isinstance(value, str)
    return False


def _describe(kind: object) -> str:
    options = [k for k in typing.get_args(kind) if k is not type(None)] \
        if typing.get_origin(kind) in (typing.Union, types.UnionType) else [kind]
    return " or ".join(_NAMES.get(k) or str(getattr(k, "__name__", k)) for k in options)


def _check_params(name: str, spec: str, kw: dict[str, Param]) -> None:
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
    # types are then those of the defaults, and a ``None`` default stands for a number
    # or none (the only such parameter of a compiled bot is greedy's ``fold``).
    hints = typing.get_type_hints(cls.__init__) or {
        p.name: float | None if p.default is None else type(p.default)
        for p in keywords if p.default is not p.empty}
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


def parse_spec(spec: str) -> tuple[str, dict[str, Param]]:
    """``"search:rollouts=8"`` → ``("search", {"rollouts": 8})``; :class:`BotSpecError`
    for an unknown bot, an unknown parameter or a value of the wrong type. A strength
    level (``expert:budget_ms=0``) is read as the spec it stands for, its parameters
    after the level's own."""
    spec = resolve_level(spec)
    name, _, rest = spec.strip().partition(":")
    if name not in _BOTS:
        raise BotSpecError(f"unknown bot {name!r}; known: {', '.join(_BOTS)}")
    params = rest.split(":") if rest else []
    if name == "botzone":  # its cmd= takes the rest of the spec, colons included
        from laizi.bots.botzone import split_params

        params = split_params(rest)
    elif name == "model":  # its file takes the rest of the spec, colons included
        params = [rest if rest.startswith("path=") else f"path={rest}"] if rest else []
    kw: dict[str, Param] = {}
    for p in params:
        key, sep, val = p.partition("=")
        if not sep or not key.isidentifier():
            raise BotSpecError(f"bad bot parameter {p!r} in {spec!r}: expected KEY=VALUE")
        kw[key] = val if key in ("cmd", "path") else _value(val)
    _check_params(name, spec, kw)
    return name, kw


def check_variant(spec: str, variant: str) -> None:
    """:class:`BotSpecError` if the bot of ``spec`` cannot play ``variant`` (the Botzone
    bridge plays MCR only; a model, the variant it was trained for)."""
    spec = resolve_level(spec)
    name, _, rest = spec.strip().partition(":")
    if name == "model":
        # by name, as make_bot finds it: laizi.bots.model imports this module
        load_model = importlib.import_module("laizi.bots.model").load_model
        load_model(str(parse_spec(spec)[1].get("path") or rest), variant)
        return
    if name == "botzone":
        from laizi.bots.botzone import VARIANTS

        if variant not in VARIANTS:
            raise BotSpecError(f"bot 'botzone' plays only {', '.join(VARIANTS)} (the "
                               f"Botzone protocol is MCR's), not {variant!r}")


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A fresh bot from its spec."""
    name, kw = parse_spec(spec)
    try:
        if name == "simple":
            return _simple(seed, kw)
        cls: Callable[..., Bot] = getattr(importlib.import_module(_CLASSES[name][0]),
                                          _CLASSES[name][1])
        return cls(seed, **kw)
    except BotSpecError:
        raise  # a ModelFileError keeps its type
    except (TypeError, ValueError) as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None
