"""What one seat can count from its view alone: the tiles it sees and those it cannot.

Every function reads only the JSON view (:meth:`laizi.engine.game.Game.view`) and public
variant data (the tile set), never a game: what they give cannot depend on another seat's
concealed tiles or on the wall. The bots (:mod:`laizi.bots.knowledge`) and the 听牌
hints (:mod:`laizi.engine.hints`) count with them.
"""

from __future__ import annotations

import json
from functools import lru_cache

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.engine.registry import get as get_variant

__all__ = ["tile_set_counts", "unseen_counts", "visible_counts"]


@lru_cache(maxsize=64)
def _tile_set(variant_id: str, options_key: str) -> tuple[int, ...]:
    v = get_variant(variant_id)
    options = v.options_from_json(json.loads(options_key))
    counts = [0] * T.NUM_TILE_IDS
    for t in v.tile_set(options):
        counts[t] += 1
    return tuple(counts)


def tile_set_counts(view: JSON) -> tuple[int, ...]:
    """Copies of each tile id (0-41) in the variant's wall (public knowledge)."""
    return _tile_set(view["variant"], json.dumps(view["options"], sort_keys=True))


def visible_counts(view: JSON) -> list[int]:
    """Copies of each tile id the seat can see: its hand, every meld, the discard pools,
    the flowers and the indicators."""
    seen = [0] * T.NUM_TILE_IDS
    for t in view["hand"]:
        seen[t] += 1
    for melds in view["melds"]:
        for m in melds:
            for t in m["tiles"]:
                seen[t] += 1
    for pool in view["discards"]:
        for t in pool:
            seen[t] += 1
    for fl in view["flowers"]:
        for t in fl:
            seen[t] += 1
    for t in view["indicators"]:
        seen[t] += 1
    return seen


def unseen_counts(view: JSON) -> list[int]:
    """Copies of each tile id (0-41) the seat cannot see: in other hands or the wall."""
    total = tile_set_counts(view)
    seen = visible_counts(view)
    return [max(0, a - b) for a, b in zip(total, seen, strict=True)]
