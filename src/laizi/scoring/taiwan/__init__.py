"""Taiwan 16-tile mahjong scoring (台湾十六张 · 计台): the 36 台 items, payments, penalties.

>>> from laizi.scoring.taiwan import WinContext, parse_hand, score_hand
>>> hand = parse_hand("123m456m789m234p 55z 66z6z", "6z")
>>> r = score_hand(hand, WinContext(self_drawn=True, seat_wind=1))
>>> r.tai, [i.zh for i in r.items]
(4, ['箭字坎', '门清', '不求自摸'])

See ``docs/rules/taiwan.md`` for the rules and every reading made.
"""

from laizi.scoring.taiwan.calculator import (
    FlowerWinKind,
    NotAWinError,
    ScoredItem,
    TaiResult,
    dealer_items,
    readings,
    score_flower_win,
    score_hand,
)
from laizi.scoring.taiwan.hand import (
    Declaration,
    HandError,
    MeldKind,
    TaiwanHand,
    TaiwanMeld,
    WinContext,
    parse_hand,
)
from laizi.scoring.taiwan.items import ITEMS, ItemDef
from laizi.scoring.taiwan.options import COMMON_TABLE, PRESETS, SEED, TaiwanOptions
from laizi.scoring.taiwan.payments import settle_flower_win, settle_win
from laizi.scoring.taiwan.penalties import (
    DEAD_HAND_DRAWS,
    settle_dead_hand_self_draw,
    settle_false_win,
    shown_hand_result,
)

__all__ = [
    "COMMON_TABLE",
    "DEAD_HAND_DRAWS",
    "ITEMS",
    "PRESETS",
    "SEED",
    "Declaration",
    "FlowerWinKind",
    "HandError",
    "ItemDef",
    "MeldKind",
    "NotAWinError",
    "ScoredItem",
    "TaiResult",
    "TaiwanHand",
    "TaiwanMeld",
    "TaiwanOptions",
    "WinContext",
    "dealer_items",
    "parse_hand",
    "readings",
    "score_flower_win",
    "score_hand",
    "settle_dead_hand_self_draw",
    "settle_false_win",
    "settle_flower_win",
    "settle_win",
    "shown_hand_result",
]
