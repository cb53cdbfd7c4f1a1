"""The variants' descriptors (玩法说明) collected for clients: ``GET /api/variants``
(``laizi.server.variants_api``), the score-keeper's form.

Each variant describes itself (:meth:`laizi.engine.variant.Variant.descriptor`, from what
the variant knows and its own ``presentation``, declared in its module); the data types
are in :mod:`laizi.core.descriptors`.
"""

from __future__ import annotations

from laizi.core.descriptors import Descriptor, Fact, Wildcard
from laizi.engine.variant import Variant

__all__ = ["Descriptor", "Fact", "Wildcard", "describe", "descriptor_json"]


def describe(variant: Variant) -> Descriptor:
    """The descriptor of ``variant`` (its own :meth:`~Variant.descriptor`)."""
    return variant.descriptor()


def descriptor_json(variant: Variant) -> dict[str, object]:
    """The descriptor as JSON (``GET /api/variants``' ``describe`` field)."""
    return variant.descriptor().to_json()
