"""``laizi play taiwan``: the display hooks of Taiwan hands at the terminal.

Shows the 圈 and seat winds, the dealer and 连N, everyone's flowers and declarations,
offers 天听/地听, 八仙过海 and 七抢一 when they arise, and itemises the 台 of every win.
The 将 itself — 连庄, the deal passing on, four 圈 — is the table's session
(:class:`laizi.table.session.TaiwanSession`) played by the one loop (:mod:`laizi.ui.player`);
``--hands N`` plays N hands of it (one by default), ``--hands all`` the whole 将.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import RenderableType

from laizi.analysis import WinRules
from laizi.bots.view_types import SeatView
from laizi.core.records import WIN, HandRecord
from laizi.engine.actions import Action
from laizi.table.table import Entry, Table
from laizi.ui.player import Display
from laizi.ui.terminal import action_label, settlement_lines, tile_label
from laizi.variants.taiwan_records import result_of
from laizi.variants.taiwan_rules import WIND_NAMES
from laizi.vocab import ActionType, GameEventType, Phase

__all__ = ["DISPLAY", "TaiwanDisplay", "tai_lines", "taiwan_action_label"]

_LABELS = {
    "declare": "宣告听牌 declare ready (天听/地听: the hand is locked)",
    "flower_win": "八仙过海 flower win (all eight flowers)",
}
_SHOUTED = (ActionType.DECLARE, ActionType.FLOWER_WIN, ActionType.ROB_FLOWER)
_DECLARED = {"heavenly": "天听", "earthly": "地听"}


def taiwan_action_label(a: Action) -> str:
    if a.type in _LABELS:
        return _LABELS[a.type]
    if a.type == ActionType.ROB_FLOWER and a.tile is not None:
        return f"七抢一 rob the eighth flower {tile_label(a.tile)} and win"
    return action_label(a)


def tai_lines(record: HandRecord, names: Sequence[str]) -> list[str]:
    """The 台 of a win item by item (each with its 台 and why), the total, then the
    dealer's items; nothing for a drawn hand (the settlement announces it)."""
    if record.outcome != WIN:
        return []
    result = result_of(record)
    width = max([cell_len(i.zh) for i in (*result.flower_items, *result.items,
                                           *result.dealer_items)] + [6])

    def item(zh: str, tai: int) -> str:
        # Padded by screen cells: a Chinese character is two of them.
        return f"  {zh}{' ' * (width - cell_len(zh))} {tai:>3} 台"

    out = [f"{item(i.zh, i.tai)}  {i.why}" for i in (*result.flower_items, *result.items)]
    out.append(item("total", result.flower_tai + result.tai))
    for i in result.dealer_items:
        out.append(f"{item(i.zh, i.tai)}  only in payments of the dealer "
                   f"({names[record.dealer]})")
    return out


class TaiwanDisplay(Display):
    """Taiwan: the 圈 / 连N in every hand's rule, winds and declarations beside every
    name, the special actions spelled out, the 台 of every win after it."""

    rules = ("台湾十六张 (Taiwan, 4 players, 144 tiles with 8 flowers). 16 tiles each, the "
             "dealer 17; a win is five melds and a pair (17 tiles), no seven pairs. Flowers "
             "are set aside and replaced from the tail at once; each of your own flowers "
             "is 台. 天听 / 地听: declare your dealt hand (or first discard) ready — it is "
             "then locked and discards what it draws unless it wins. 八仙过海: all eight "
             "flowers win at once; 七抢一: with seven, rob the eighth from whoever draws it. "
             "过水: after passing a win you cannot win on a discard before your next draw. "
             "Payment = 底 100 + 台 × 20: the discarder alone, or all three on a 自摸; 作庄 "
             "and 连N拉N count between the dealer and the others. The dealer keeps the deal "
             "(连庄) on a win or a drawn hand (流局, 16 tiles left); four 圈 make a 将. "
             "docs/rules/taiwan.md has every 台 item.")
    draw_text = "流局 — drawn hand: no payments; the dealer keeps the deal (连庄)"
    winds = True
    shape_rules = WinRules(seven_pairs=False)
    session_name = "one 将 (four 圈)"

    def count(self, hands: int | None) -> str:
        return self.session_name if hands is None else f"{super().count(hands)} of a 将"

    def hand_title(self, hand: Entry) -> str:
        ctx = hand.get("context") or {}
        return (f"hand {hand['number'] + 1} · {WIND_NAMES[ctx.get('prevalent_wind', 0)]}圈 · "
                f"dealer {hand['seats'][hand['dealer']]} · 连{ctx.get('dealer_streak', 0)}")

    def wind_tags(self, view: SeatView) -> tuple[list[str] | None, str]:
        x = view.get("extra", {})
        declared = x.get("declared") or [None] * view["seats"]
        winds = x.get("seat_winds") or [(s - view["dealer"]) % 4 for s in range(view["seats"])]
        tags = [f"{WIND_NAMES[winds[s]]}家" + (f" {_DECLARED[d]}" if (d := declared[s]) in
                                                _DECLARED else "")
                for s in range(view["seats"])]
        return tags, (f" · {WIND_NAMES[x.get('prevalent_wind', 0)]}圈 · "
                      f"连{x.get('dealer_streak', 0)}")

    def notes(self, view: SeatView, legal: Sequence[Action],
              names: Sequence[str]) -> list[str]:
        out = []
        if view["phase"] == Phase.DECIDE:
            if any(a.type == ActionType.ROB_FLOWER for a in legal):
                out.append("The eighth flower is out and you hold seven: rob it (七抢一)?")
            else:
                out.append("Your dealt hand is ready: declare 天听 (8 台; the hand is "
                           "locked)?")
        return [*out, *super().notes(view, legal, names)]

    def action_label(self, action: Action, wildcard: int | None) -> str:
        return taiwan_action_label(action)

    def event(self, event: Entry, names: Sequence[str], me: int | None,
              wildcard: int | None) -> tuple[str, str] | None:
        if event.get("type") == GameEventType.ACTION and event["action"]["type"] in _SHOUTED:
            a = Action.from_json(event["action"])
            return f"{names[a.seat]}: {taiwan_action_label(a)}", "bold"
        return super().event(event, names, me, None)

    def settlement(self, table: Table, end: Entry, names: Sequence[str]
                   ) -> list[RenderableType]:
        # Who won, the 台 item by item, then the payments; describe would say it twice.
        game = table.game
        out: list[RenderableType] = []
        if game is None or not game.log or game.log[-1].get("type") != GameEventType.END:
            return out
        lines = settlement_lines(game.log[-1], names, draw=self.draw_text)
        out.append(lines[0])
        if game.record is not None:
            out.extend(tai_lines(game.record, names))
        out.extend(lines[1:])
        return out

    def farewell(self, table: Table) -> list[str]:
        return ["The 将 is over."] if table.over else []


DISPLAY = TaiwanDisplay()
