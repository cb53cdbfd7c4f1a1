"""The variant registry: ``get("jingzhou")``, below the engine's game.

A built-in variant ``<id>`` lives in the module ``laizi.variants.<id>``, which defines
``VARIANT`` (an instance of :class:`laizi.engine.variant.Variant`); it is loaded by name
the first time it is asked for, so the engine and the records reach every variant without
importing the variants' modules. Other variants (plug-ins, tests) call :func:`register`.
``laizi.variants`` offers the same functions.
"""

from __future__ import annotations

import importlib

from laizi.engine.variant import Variant

__all__ = ["BUILTIN", "get", "ids", "register"]

BUILTIN = ("jingzhou", "huanghuang", "golden", "mcr", "taiwan")
"""Ids of the variants shipped with laizi (a module each, ``laizi.variants.<id>``)."""

_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Make ``variant`` available by its id (replacing any earlier one of that id)."""
    _REGISTRY[variant.id] = variant
    return variant


def _load(variant_id: str) -> Variant | None:
    v = _REGISTRY.get(variant_id)
    if v is not None or variant_id not in BUILTIN:
        return v
    try:
        module = importlib.import_module(f"laizi.variants.{variant_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"laizi.variants.{variant_id}":
            raise
        return None
    found = getattr(module, "VARIANT", None)
    return register(found) if isinstance(found, Variant) else None


def get(variant_id: str) -> Variant:
    """The variant registered as ``variant_id``; :class:`KeyError` naming the known ids."""
    v = _load(variant_id)
    if v is None:
        raise KeyError(f"unknown variant {variant_id!r}; known: {', '.join(ids()) or 'none'}")
    return v


def ids() -> list[str]:
    """Ids of every variant that can be loaded now."""
    return sorted(set(_REGISTRY) | {vid for vid in BUILTIN if _load(vid) is not None})
