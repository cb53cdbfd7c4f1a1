"""Data types shared by every hand-analysis function (variant-free).

A hand is analysed as a 34-count vector of its *concealed* tiles plus a number of
wildcards (赖子 / 黄金牌) that stand for any tile. Exposed melds are not part of the
vector: a hand with k exposed melds needs 4 - k melds (5 - k in Taiwan) from its
concealed tiles, which follows from the tile total (3n + 2 for a complete hand).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from laizi.copying import rebuild_from_fields

__all__ = ["Decomposition", "Group", "GroupKind", "Shape", "WinRules"]

SUITED_SUITS = frozenset({0, 1, 2})


@dataclass(frozen=True, slots=True)
class WinRules:
    """Shape constraints a variant puts on a winning hand.

    * ``pair_tiles``: tiles that may form the pair (将/眼) of a standard hand; ``None``
      means any tile (e.g. Jingzhou 屁胡 allows only the 2, 5 and 8 of each suit).
    * ``chow_suits``: suits (0 万, 1 筒, 2 条) in which sequences may be formed; honours
      never form sequences.
    * ``seven_pairs``: 七对 is a winning shape (two identical pairs are allowed).
    * ``thirteen_orphans``: 十三幺.
    * ``knitted``: the MCR knitted shapes 全不靠, 七星不靠 and 组合龙 (+ a meld and a pair).
    """

    pair_tiles: frozenset[int] | None = None
    chow_suits: frozenset[int] = field(default=SUITED_SUITS)
    seven_pairs: bool = True
    thirteen_orphans: bool = False
    knitted: bool = False


class Shape(StrEnum):
    """The overall shape of a winning reading."""

    STANDARD = "standard"  # n melds + a pair
    SEVEN_PAIRS = "seven_pairs"  # 七对
    THIRTEEN_ORPHANS = "thirteen_orphans"  # 十三幺
    HONOURS_AND_KNITTED = "honours_and_knitted"  # 全不靠 / 七星不靠
    KNITTED_STRAIGHT = "knitted_straight"  # 组合龙 + 1 meld + a pair


class GroupKind(StrEnum):
    """One part of a reading."""

    CHOW = "chow"  # 顺子: tiles = (t, t+1, t+2)
    PUNG = "pung"  # 刻子: (t, t, t)
    PAIR = "pair"  # 对子/将: (t, t)
    KNITTED = "knitted"  # 组合龙: the 9 tiles 147/258/369 across three suits
    SINGLES = "singles"  # the lone tiles of 全不靠 / 七星不靠 / 十三幺


@dataclass(frozen=True, slots=True)
class Group:
    """A group of concrete tiles, wildcards already replaced by what they stand for."""

    kind: GroupKind
    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete concealed hand.

    ``groups`` hold concrete tiles (each wildcard replaced); ``wild_as`` lists, sorted, the
    tile each wildcard stood for. A reading is 硬 (hard) when every wildcard stands for its
    own face: ``all(t == wild_face for t in wild_as)``.
    """

    shape: Shape
    groups: tuple[Group, ...]
    wild_as: tuple[int, ...] = ()


rebuild_from_fields(WinRules, Group, Decomposition)  # copy and pickle, compiled too
