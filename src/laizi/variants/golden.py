"""赖子麻将 · 黄金麻将 (``golden``): 144 tiles, an indicator and a wild golden tile
(黄金牌), the 81-fan table, 8 fan to win, payments doubled for opened hands and kongs.

See ``docs/rules/golden.md``; the shared machinery is in :mod:`laizi.variants._gb_variant`.
"""

from __future__ import annotations

from laizi.variants._gb_common import GBOptions
from laizi.variants._gb_variant import GBVariant

__all__ = ["VARIANT", "Golden", "GoldenOptions"]

GoldenOptions = GBOptions


class Golden(GBVariant):
    """赖子麻将 · 黄金麻将."""

    id = "golden"
    name = "赖子麻将 · 黄金麻将"
    golden = True


VARIANT = Golden()
