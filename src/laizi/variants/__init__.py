"""The variant registry: ``laizi.variants.get("jingzhou")``.

A built-in variant ``<id>`` lives in the module ``laizi.variants.<id>``, which defines
``VARIANT`` (an instance of :class:`laizi.engine.variant.Variant`); it is imported the first
time it is asked for. Other variants (plug-ins, tests) call :func:`register`.
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


def get(variant_id: str) -> Variant:
    """The variant registered as ``variant_id``; :class:`KeyError` naming the known ids."""
    v = _REGISTRY.get(variant_id)
    if v is not None:
        return v
    if variant_id in BUILTIN:
        try:
            module = importlib.import_module(f"laizi.variants.{variant_id}")
        except ModuleNotFoundError as exc:
            if exc.name != f"laizi.variants.{variant_id}":
                raise
        else:
            found = getattr(module, "VARIANT", None)
            if isinstance(found, Variant):
                return register(found)
    raise KeyError(f"unknown variant {variant_id!r}; known: {', '.join(ids()) or 'none'}")


def ids() -> list[str]:
    """Ids of every variant that can be loaded now."""
    out = set(_REGISTRY)
    for vid in BUILTIN:
        if vid not in out:
            try:
                get(vid)
            except KeyError:
                continue
            out.add(vid)
    return sorted(out)
