"""台湾十六张: hand shapes, readiness and the facts a win is scored from (pure functions).

Shared by live play (:mod:`laizi.variants.taiwan`) and the settlement of hand records. A
finished hand is 17 tiles (kongs counting three): five melds and a pair (the standard shape
of :mod:`laizi.analysis`, no wildcards), or 八对半 when the ``eight_pairs`` option is on.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi import tiles as T
from laizi.analysis import is_win
from laizi.scoring.taiwan.shapes import RULES, eight_pairs_splits

__all__ = [
    "FLOWERS",
    "RESERVE",
    "TILE_SET",
    "WIND_NAMES",
    "complete",
    "ready_waits",
    "seat_wind",
]

RESERVE = 16
"""The last 16 tiles (8 墩) are never drawn (seed 25: 残牌固定保留8墩)."""
FLOWERS = frozenset(T.FLOWERS)
TILE_SET: tuple[int, ...] = tuple(
    [t for t in range(T.NUM_KINDS) for _ in range(4)] + list(T.FLOWERS))
"""All 144 tiles: 4 × 34 kinds + the 8 flowers."""
WIND_NAMES = "东南西北"

_WIN_CACHE: dict[tuple[tuple[int, ...], bool], bool] = {}
_CACHE_LIMIT = 1 << 18


def seat_wind(seat: int, dealer: int) -> int:
    """开门序: the dealer is 东 (0), then 南 西 北 in play order."""
    return (seat - dealer) % 4


def complete(counts: Sequence[int], eight_pairs: bool) -> bool:
    """The concealed tiles (3n + 2, winning tile included) finish the hand: n melds and a
    pair, or (``eight_pairs``, 17 concealed tiles) seven pairs and a pung."""
    key = (tuple(counts), eight_pairs)
    got = _WIN_CACHE.get(key)
    if got is None:
        got = (_may_be_standard(counts) and is_win(counts, 0, RULES)) or (
            eight_pairs and bool(eight_pairs_splits(counts)))
        if len(_WIN_CACHE) > _CACHE_LIMIT:
            _WIN_CACHE.clear()
        _WIN_CACHE[key] = got
    return got


def _may_be_standard(counts: Sequence[int]) -> bool:
    """A cheap necessary condition for melds + one pair (most hands fail it): every
    honour count is 0, 2 or 3, and exactly one suit or honour pair carries the pair
    (suit sums ≡ 0 or 2 mod 3)."""
    pairs = 0
    for t in range(27, 34):
        c = counts[t]
        if c == 1 or c == 4:
            return False
        if c == 2:
            pairs += 1
    for lo in (0, 9, 18):
        r = sum(counts[lo:lo + 9]) % 3
        if r == 1:
            return False
        if r == 2:
            pairs += 1
    return pairs == 1


def ready_waits(counts: Sequence[int], eight_pairs: bool) -> frozenset[int]:
    """Tile kinds completing a 3n + 1 concealed hand (听牌); empty if not ready."""
    found = set()
    after = list(counts)
    for t in range(T.NUM_KINDS):
        # a wait is a held tile or a suited neighbour of one (or any tile for 八对半)
        near = counts[t] or (t < 27 and ((t % 9 > 0 and counts[t - 1])
                                         or (t % 9 < 8 and counts[t + 1])))
        if not near:
            continue
        after[t] += 1
        if complete(after, eight_pairs and sum(counts) == 16):
            found.add(t)
        after[t] -= 1
    return frozenset(found)
