"""The variants: ``laizi.variants.get("jingzhou")``.

A built-in variant ``<id>`` lives in the module ``laizi.variants.<id>``, which defines
``VARIANT`` (an instance of :class:`laizi.engine.variant.Variant`); it is imported the first
time it is asked for. Other variants (plug-ins, tests) call :func:`register`. The registry
itself is :mod:`laizi.engine.registry` (below the engine's game, which looks variants up
by id); its functions are offered here under their usual names.
"""

from __future__ import annotations

from laizi.engine.registry import BUILTIN, get, ids, register

__all__ = ["BUILTIN", "get", "ids", "register"]
