"""What a seat can work out from its view alone: unseen tiles, threats, tile danger.

Everything here reads only the JSON view (``Game.view(seat)``) and public variant data
(the tile set), never a ``Game``. The counts of seen and unseen tiles are the engine's
(:mod:`laizi.engine.seen`), shared with the 听牌 hints.
"""

from __future__ import annotations

from laizi import tiles as T
from laizi.bots.protocol import View
from laizi.engine.seen import tile_set_counts, unseen_counts, visible_counts

__all__ = [
    "OPEN_KINDS",
    "danger",
    "hand_counts",
    "is_open",
    "threats",
    "tile_set_counts",
    "unseen_counts",
    "visible_counts",
]

OPEN_KINDS = frozenset({"chow", "pung", "kong", "added_kong"})
"""Meld kinds built on a claimed discard (开口)."""


def hand_counts(view: View) -> list[int]:
    """The seat's concealed tiles as a 34-count vector."""
    counts = [0] * T.NUM_KINDS
    for t in view["hand"]:
        counts[t] += 1
    return counts


def is_open(melds: list[dict[str, object]]) -> bool:
    return any(m["kind"] in OPEN_KINDS for m in melds)


def threats(view: View) -> list[float]:
    """How ready each seat looks (0 = harmless, about 1 = probably 听牌), from public
    facts only: exposed melds, concealed tiles left, and how late the hand is."""
    seats = int(view["seats"])
    me = int(view["seat"])
    total = sum(tile_set_counts(view))
    late = 1.0 - min(1.0, view["wall"] / max(1.0, total * 0.55))
    out = [0.0] * seats
    for s in range(seats):
        if s == me:
            continue
        n_open = sum(1 for m in view["melds"][s] if m["kind"] in OPEN_KINDS)
        size = view["hand_sizes"][s]
        t = {0: 0.05, 1: 0.15, 2: 0.4, 3: 0.75}.get(n_open, 0.95)
        if size <= 4:
            t = max(t, 0.9)
        t += 0.45 * late * late
        out[s] = min(1.0, t)
    return out


def danger(view: View, tile: int, unseen: list[int], seat: int) -> float:
    """Rough chance weight that ``tile`` completes ``seat``'s hand (0 safe - 1 risky).

    Safe: a tile the seat discarded itself (it would have won on it then; 过水 keeps it
    safe for now), a tile with no copy left unseen. Honours and terminals with few copies
    left are safer than middle tiles.
    """
    if tile in view["discards"][seat]:
        return 0.05
    left = unseen[tile]
    if left == 0:
        return 0.0
    if T.is_honour(tile):
        return {1: 0.15, 2: 0.45}.get(left, 0.6)
    r = T.rank(tile)
    base = 0.6 if r in (1, 9) else (0.8 if r in (2, 8) else 1.0)
    return base * (0.5 if left == 1 else 1.0)
