"""``laizi play golden`` / ``laizi play mcr``: the display hooks of the 81-fan games.

Before the first hand it prints what a player of 黄金麻将 / 国标麻将 needs (the golden tile
rule, flowers, the 8-fan minimum, the winds and the match schedule); each hand's rule
names its 圈 and dealer. The panel marks the golden tile with ``*`` (the seed also calls
it 赖子牌) and shows everyone's flowers; after each win the variant's ``describe`` prints
the winner's 门风 / 圈风, the golden tile and the fan table. The hands themselves are
played by the one table loop (:mod:`laizi.ui.player`).
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType

from laizi.table.table import Entry, Table
from laizi.ui.player import Display
from laizi.variants._gb_common import MATCH_HANDS, WIND_LETTERS

__all__ = ["GBDisplay", "header"]

_WIND_ZH = dict(zip(WIND_LETTERS, "东南西北", strict=True))


def header(variant_id: str, minimum: int, hands: int, dealer: int) -> list[str]:
    """The lines shown before the first hand."""
    golden = variant_id == "golden"
    lines = ["144 tiles with 8 flowers (补花: set aside and replaced from the tail, 1 fan "
             "each, never toward the minimum)."]
    if golden:
        lines.append("黄金牌: the tile after the indicator (n → n+1, 9 → 1; 东南西北 → 发 → 白 "
                     "→ 东; 中 → 发) is wild for winning, marked *; it can never be discarded.")
    lines.append(f"A win needs {minimum} fan without flowers. The dealer sits 东; the deal "
                 "passes every hand.")
    rounds = []
    for k in range(min(hands, MATCH_HANDS)):
        d = (dealer + k) % 4
        rounds.append(f"{k + 1}:{_WIND_ZH[WIND_LETTERS[k // 4]]}圈/庄{d}")
    lines.append("hands: " + "  ".join(rounds))
    return lines


class GBDisplay(Display):
    """Golden / MCR: the rules and the schedule first, the 圈 in every hand's rule."""

    def header(self, table: Table, me: str, hands: int | None) -> list[RenderableType]:
        minimum: Any = getattr(table.options, "minimum", 8)
        count = MATCH_HANDS if hands is None else hands
        return [*super().header(table, me, hands),
                *header(table.variant.id, int(minimum), count, table.dealer)]

    def hand_title(self, hand: Entry) -> str:
        wind = _WIND_ZH.get(str(hand["options"].get("prevalent_wind", "E")), "东")
        return f"{super().hand_title(hand)} · {wind}圈"


DISPLAY = GBDisplay()
