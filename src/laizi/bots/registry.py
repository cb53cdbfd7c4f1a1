"""Bots by name: ``make_bot("greedy", seed=3)`` or with parameters
``make_bot("search:rollouts=32:budget_ms=0", seed=3)``.

Names: ``random``, ``simple`` (the engine's reference bot, :mod:`laizi.bots.simple`, when
present), ``greedy``, ``search``. A spec is ``NAME`` or ``NAME:KEY=VALUE:KEY=VALUE``; values
are read as int, float or true/false. Every bot gets its own seed; a game is reproducible
when every bot is deterministic given its seed (``search`` is when ``budget_ms=0``).
"""

from __future__ import annotations

import importlib
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


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search:rollouts=8"`` → ``("search", {"rollouts": 8})``."""
    name, *params = spec.strip().split(":")
    if name not in _FACTORIES:
        raise BotSpecError(f"unknown bot {name!r}; known: {', '.join(_FACTORIES)}")
    kw: dict[str, Any] = {}
    for p in params:
        key, sep, val = p.partition("=")
        if not sep or not key.isidentifier():
            raise BotSpecError(f"bad bot parameter {p!r} in {spec!r}: expected KEY=VALUE")
        kw[key] = _value(val)
    return name, kw


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A fresh bot from its spec."""
    name, kw = parse_spec(spec)
    try:
        return _FACTORIES[name](seed, **kw)
    except TypeError as exc:
        raise BotSpecError(f"bad parameters for bot {name!r}: {exc}") from None
