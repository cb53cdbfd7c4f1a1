"""台湾十六张: hand shapes, readiness and the facts a win is scored from (pure functions).

Shared by live play (:mod:`laizi.variants.taiwan`) and the settlement of hand records. A
finished hand is 17 tiles (kongs counting three): five melds and a pair (the standard shape
of :mod:`laizi.analysis`, no wildcards), or 八对半 when the ``eight_pairs`` option is on.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi import tiles as T
from laizi.analysis import is_win, shanten, waits
from laizi.scoring.taiwan.shapes import RULES, eight_pairs_splits

__all__ = [
    "FLOWERS",
    "RESERVE",
    "TILE_SET",
    "WIND_NAMES",
    "complete",
    "hand_waits",
    "ready_after_some_discard",
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


def seat_wind(seat: int, dealer: int) -> int:
    """开门序: the dealer is 东 (0), then 南 西 北 in play order."""
    return (seat - dealer) % 4


def complete(counts: Sequence[int], eight_pairs: bool) -> bool:
    """The concealed tiles (3n + 2, winning tile included) finish the hand: n melds and a
    pair, or (``eight_pairs``, 17 concealed tiles) seven pairs and a pung."""
    # is_win is four table lookups; 八对半 is only read when the option is on
    return is_win(counts, 0, RULES) or (eight_pairs and bool(eight_pairs_splits(counts)))


def ready_waits(counts: Sequence[int], eight_pairs: bool) -> frozenset[int]:
    """Tile kinds completing a 3n + 1 concealed hand (听牌); empty if not ready.

    A kind held four times is listed when a fifth copy would complete the shape (空听), as
    :func:`laizi.analysis.waits` does; 八对半 waits count only for 16 concealed tiles."""
    total = sum(counts)
    if total % 3 != 1:
        return frozenset()
    if not (eight_pairs and total == 16):
        return frozenset(waits(counts, 0, RULES))
    found = set(waits(counts, 0, RULES))
    after = list(counts)
    for t in range(T.NUM_KINDS):
        # a 八对半 wait is always a held tile: an unheld one would stay a single
        if counts[t] and t not in found:
            after[t] += 1
            if eight_pairs_splits(after):
                found.add(t)
            after[t] -= 1
    return frozenset(found)


_WAITS: dict[tuple[bytes, bool], frozenset[int]] = {}
_WAITS_LIMIT = 1 << 16


def hand_waits(counts: Sequence[int], eight_pairs: bool) -> frozenset[int]:
    """:func:`ready_waits`, memoised: a seat's hand is asked once per discard by the other
    seats while it stays unchanged between its own turns."""
    key = (bytes(counts), eight_pairs)
    got = _WAITS.get(key)
    if got is None:
        got = ready_waits(counts, eight_pairs)
        if len(_WAITS) >= _WAITS_LIMIT:
            _WAITS.clear()
        _WAITS[key] = got
    return got


def ready_after_some_discard(counts: Sequence[int], eight_pairs: bool) -> bool:
    """Some discard from the 3n + 2 concealed tiles leaves the hand ready (地听 offer)."""
    if shanten(counts, 0, RULES) <= 0:
        # a physically possible target one tile away: discarding the misfit makes it ready
        return True
    # shanten > 0 may still hide a hand ready only on a fifth copy (空听), or on 八对半
    rest = list(counts)
    for t in range(T.NUM_KINDS):
        if rest[t]:
            rest[t] -= 1
            ready = bool(waits(rest, 0, RULES)) if not eight_pairs else bool(
                ready_waits(rest, eight_pairs))
            rest[t] += 1
            if ready:
                return True
    return False
