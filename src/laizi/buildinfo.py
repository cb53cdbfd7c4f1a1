"""Which build of laizi runs: the pure-Python package, or the compiled build (mypyc).

The compiled build (``LAIZI_COMPILE=1 pip install .``, see ``docs/build.md``) compiles
the hot modules named in :data:`COMPILED_MODULES` with mypyc, from the same typed source;
everything else, and above all the slow references the fast paths are tested against
(``laizi.scoring.mcr.reference`` and ``reference_fans``, the test suite's
``reference.py``), stays plain Python.
The pure package is the fallback and the reference: the test suite runs on both.

This module imports nothing of laizi, so the build script reads the list from it.

>>> build() in ("pure", "compiled", "partial")
True
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import Literal

__all__ = ["COMPILED_MODULES", "build", "compiled_modules"]

COMPILED_MODULES: tuple[str, ...] = (
    "laizi.tiles",
    # analysis: variant-free hand analysis (shanten, waits, the win check)
    "laizi.analysis._group",
    "laizi.analysis._special",
    "laizi.analysis._tables",
    "laizi.analysis.compiled_rules",
    "laizi.analysis.core",
    "laizi.analysis.knitted",
    "laizi.analysis.readings",
    "laizi.analysis.types",
    "laizi.analysis.waiting",
    # core: the hand's data below the engine and the variants
    "laizi.core.melds",
    # engine: one hand
    "laizi.engine.dealing",
    "laizi.engine.events",
    "laizi.engine.game",
    "laizi.engine.refusals",
    "laizi.engine.reports",
    "laizi.engine.state",
    "laizi.engine.variant",
    "laizi.engine.walls",
    "laizi.engine.windows",
    # variants: the rules' play hooks and scoring
    "laizi.variants._gb_common",
    "laizi.variants._gb_scoring",
    "laizi.variants._gb_variant",
    "laizi.variants.golden",
    "laizi.variants.huanghuang",
    "laizi.variants.huanghuang_scoring",
    "laizi.variants.jingzhou",
    "laizi.variants.jingzhou_rules",
    "laizi.variants.jingzhou_scoring",
    "laizi.variants.mcr",
    "laizi.variants.taiwan",
    "laizi.variants.taiwan_bot",
    "laizi.variants.taiwan_rules",
    # bots: the greedy bot and the search's sample worlds and playouts
    "laizi.bots.determinize",
    "laizi.bots.greedy",
    "laizi.bots.knowledge",
    "laizi.bots.reading",
    "laizi.bots.rollout",
    # scoring: the 81-fan calculator and the 台 table
    "laizi.scoring.mcr.api",
    "laizi.scoring.mcr.bound",
    "laizi.scoring.mcr.cache",
    "laizi.scoring.mcr.calculator",
    "laizi.scoring.mcr.combos",
    "laizi.scoring.mcr.combos_fast",
    "laizi.scoring.mcr.common",
    "laizi.scoring.mcr.exclusions",
    "laizi.scoring.mcr.fans",
    "laizi.scoring.mcr.golden",
    "laizi.scoring.mcr.groups",
    "laizi.scoring.mcr.inputs",
    "laizi.scoring.mcr.masks",
    "laizi.scoring.mcr.prepared",
    "laizi.scoring.mcr.result",
    "laizi.scoring.mcr.shapes",
    "laizi.scoring.mcr.specials",
    "laizi.scoring.taiwan.calculator",
    "laizi.scoring.taiwan.items",
    "laizi.scoring.taiwan.shapes",
)
"""The modules the compiled build compiles (dotted names). Left out on purpose:

* the slow references, and modules that are not hot (records, payments, penalties);
* the classes that check untrusted values of any type when made, whose own check must see
  a wrong type to name it, where a compiled class refuses it first with a bare
  ``TypeError``: :class:`~laizi.engine.actions.Action`, the options
  (``laizi.variants.rule_options``, ``laizi.scoring.taiwan.options``), the Taiwan hand
  (``laizi.scoring.taiwan.hand``), the 81-fan calculator's input and result types
  (``laizi.scoring.mcr.hand``: its results are also built faster as plain Python
  objects, see there), and the log's reader (``laizi.engine.log``);
* ``laizi.scoring.taiwan.facts``, whose lazily computed properties need a ``__dict__``.
"""


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` this interpreter loads from a compiled
    extension rather than from Python source."""
    out = []
    for name in COMPILED_MODULES:
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is not None and not origin.endswith(".py"):
            out.append(name)
    return out


def build() -> Literal["pure", "compiled", "partial"]:
    """``"compiled"`` when every module of :data:`COMPILED_MODULES` is compiled,
    ``"pure"`` when none is, ``"partial"`` otherwise (a broken install)."""
    n = len(compiled_modules())
    return "pure" if n == 0 else "compiled" if n == len(COMPILED_MODULES) else "partial"
