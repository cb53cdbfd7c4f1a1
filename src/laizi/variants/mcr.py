"""国标麻将 (``mcr``, Chinese Official): 144 tiles, the 81-fan table, 8 fan to win,
standard MCR settlement (8 + V from the discarder, 8 from the others).

It is ``golden`` without the indicator and the golden tile; see ``docs/rules/golden.md``.
"""

from __future__ import annotations

from laizi.core.descriptors import Presentation
from laizi.variants._gb_common import GBOptions
from laizi.variants._gb_variant import GB_FACTS, GBVariant

__all__ = ["MCR", "VARIANT", "MCROptions"]

MCROptions = GBOptions


class MCR(GBVariant):
    """国标麻将 (Mahjong Competition Rules)."""

    id = "mcr"
    name = "国标麻将"
    golden = False
    presentation = Presentation(order=4, facts=GB_FACTS)


VARIANT = MCR()
