"""Shared pieces of ``golden`` (赖子麻将 · 黄金麻将) and ``mcr`` (国标麻将): tiles, options,
winds, the golden tile and the match schedule.

Both variants use all 144 tiles (8 flowers, 补花), the 81-fan table and a minimum of
8 fan (flowers excluded). ``golden`` adds an indicator and a wild golden tile and doubles
the payments for opened hands and kongs. See ``docs/rules/golden.md``.
"""

from __future__ import annotations

from laizi import tiles as T
from laizi.variants.rule_options import PRIORITIES, WIND_LETTERS, GBOptions

__all__ = [
    "FLOWER_SET",
    "HANDS_PER_ROUND",
    "MATCH_HANDS",
    "PRIORITIES",
    "TILE_SET",
    "WIND_LETTERS",
    "GBOptions",
    "golden_for",
    "schedule",
    "seat_wind",
    "wind_tile",
]

TILE_SET: tuple[int, ...] = tuple(
    [t for t in range(T.NUM_KINDS) for _ in range(4)] + list(T.FLOWERS))
"""136 suited and honour tiles (four of each) + 8 flowers = 144."""
FLOWER_SET = frozenset(T.FLOWERS)

# 东 → 南 → 西 → 北 → 发 → 白 → 东, and 中 → 发: the seed's order 东南西北中发白 with 中 skipped
# as a golden tile ("翻出北，跳过红中，发财是黄金牌"). 中 is never golden.
_HONOUR_NEXT = {T.EAST: T.SOUTH, T.SOUTH: T.WEST, T.WEST: T.NORTH, T.NORTH: T.GREEN,
                T.GREEN: T.WHITE, T.WHITE: T.EAST, T.RED: T.GREEN}


HANDS_PER_ROUND = 4
MATCH_HANDS = 16
"""A match: 4 rounds (圈: 东 南 西 北) of 4 hands; the deal passes every hand."""


def golden_for(indicator: int) -> int:
    """The golden tile (黄金牌) an indicator gives: n → n+1 in its suit (9 → 1); honours
    东 → 南 → 西 → 北 → 发 → 白 → 东, and 中 → 发. 中 is never golden.

    >>> [T.name(golden_for(t), "mpsz") for t in T.parse("5m9p1z4z5z6z7z", "mpsz")]
    ['6m', '1p', '2z', '6z', '1z', '5z', '6z']
    """
    if not isinstance(indicator, int) or not 0 <= indicator < T.NUM_KINDS:
        raise ValueError(f"an indicator is a tile id 0-33 (no flower), got {indicator!r}")
    if T.is_suited(indicator):
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    return _HONOUR_NEXT[indicator]


def wind_tile(letter: str) -> int:
    """``"E"`` → 东 (27) … ``"N"`` → 北 (30)."""
    return T.EAST + WIND_LETTERS.index(letter)


def seat_wind(seat: int, dealer: int) -> int:
    """门风: the dealer is 东, the next seat 南, then 西, 北."""
    return T.EAST + (seat - dealer) % 4


def schedule(hand_no: int, first_dealer: int = 0) -> tuple[int, str]:
    """``(dealer, prevalent wind letter)`` of hand ``hand_no`` (0-15) of a match: the deal
    passes to the next seat every hand, the prevalent wind (圈风) moves on every 4 hands."""
    if not 0 <= hand_no < MATCH_HANDS:
        raise ValueError(f"a match has hands 0-{MATCH_HANDS - 1}, got {hand_no}")
    return (first_dealer + hand_no) % 4, WIND_LETTERS[hand_no // HANDS_PER_ROUND]
