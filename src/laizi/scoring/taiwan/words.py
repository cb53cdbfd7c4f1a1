"""The Taiwan scoring's own words, as string enums: a member *is* its string, so results,
records and JSON keep their bytes (as :mod:`laizi.vocab` for the game's words).

Left interpreted in the compiled build (:mod:`laizi.buildinfo`), as the vocabulary is.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["FlowerWin", "ItemKind", "PartKind", "ReadingShape"]


class PartKind(StrEnum):
    """A group of a reading (:class:`~laizi.scoring.taiwan.facts.Part`)."""

    CHOW = "chow"  # 顺子
    PUNG = "pung"  # 坎子 / 刻子
    KONG = "kong"  # 杠 (明杠 or 暗杠)
    PAIR = "pair"  # 将 / 眼


class ReadingShape(StrEnum):
    """How a reading splits the hand."""

    STANDARD = "standard"  # five melds and a pair
    EIGHT_PAIRS = "eight_pairs"  # 八对半 / 呖咕呖咕: seven pairs and a pung (item 36)


class ItemKind(StrEnum):
    """When a 台 item is looked at (:class:`~laizi.scoring.taiwan.items.ItemDef`)."""

    HAND = "hand"  # judged on a reading of the winning hand
    DEALER = "dealer"  # 作庄 / 连N拉N: the deal only
    FLOWER_WIN = "flower_win"  # 花胡: scored by score_flower_win, never by a reading


class FlowerWin(StrEnum):
    """The two 花胡 (seed 27-30)."""

    EIGHT_IMMORTALS = "eight_immortals"  # 八仙过海: the winner drew all eight flowers
    SEVEN_ROBS_ONE = "seven_robs_one"  # 七抢一: seven flowers rob the eighth
