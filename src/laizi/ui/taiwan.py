"""``laizi play taiwan``: the display hooks of a Taiwan 将 (four 圈) at the terminal.

Shows the 圈 and seat winds, the dealer and 连N, everyone's flowers and declarations,
offers 天听/地听, 八仙过海 and 七抢一 when they arise, and itemises the 台 of every win.
The 将 itself — 连庄, the deal passing on, four 圈 — is the table's session
(:class:`laizi.table.session.TaiwanSession`) played by the one loop (:mod:`laizi.ui.player`);
without ``--hands`` the whole 将 is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType

from laizi import tiles as T
from laizi.engine.actions import Action
from laizi.records import HandRecord
from laizi.table.table import Entry, Table
from laizi.ui.player import Display
from laizi.ui.terminal import action_label, settlement_table, tile_label, view_panel
from laizi.variants.taiwan_records import result_of
from laizi.variants.taiwan_rules import WIND_NAMES

__all__ = ["DISPLAY", "TaiwanDisplay", "table_line", "tai_lines", "taiwan_action_label"]

_LABELS = {
    "declare": "宣告听牌 declare ready (天听/地听: the hand is locked)",
    "flower_win": "八仙过海 flower win (all eight flowers)",
}
_SHOUTED = ("declare", "flower_win", "rob_flower")


def taiwan_action_label(a: Action) -> str:
    if a.type in _LABELS:
        return _LABELS[a.type]
    if a.type == "rob_flower" and a.tile is not None:
        return f"七抢一 rob the eighth flower {tile_label(a.tile)} and win"
    return action_label(a)


def table_line(view: dict[str, Any], names: Sequence[str]) -> str:
    """圈, dealer, 连N, and per seat: wind, flowers, declaration."""
    x = view.get("extra", {})
    parts = [f"{WIND_NAMES[x.get('prevalent_wind', 0)]}圈 · dealer {names[view['dealer']]}"
             f" · 连{x.get('dealer_streak', 0)}"]
    for s in range(view["seats"]):
        wind = WIND_NAMES[x["seat_winds"][s]] if "seat_winds" in x else "?"
        flowers = T.format(view["flowers"][s], "chinese") if view["flowers"][s] else "-"
        declared = {"heavenly": " 天听", "earthly": " 地听"}.get(
            (x.get("declared") or [None] * 4)[s] or "", "")
        parts.append(f"{names[s]} {wind} 花:{flowers}{declared}")
    return " | ".join(parts)


def tai_lines(record: HandRecord, names: Sequence[str]) -> list[str]:
    """The 台 breakdown of a win: every item with its 台 and why, then the dealer items."""
    if record.outcome != "win":
        return ["流局 — drawn hand: no payments; the dealer keeps the deal (连庄)."]
    result = result_of(record)
    w = record.winners[0]
    how = {"self_draw": "自摸 self-draw", "discard": f"on {names[record.source or 0]}'s discard",
           "robbed_kong": f"抢杠 robbing {names[record.source or 0]}'s kong"}[record.how or ""]
    out = [f"{names[w]} wins ({how}) on {tile_label(record.win_tile or 0)}"]
    for i in (*result.flower_items, *result.items):
        out.append(f"  {i.zh:<10} {i.tai:>3} 台  {i.why}")
    out.append(f"  {'total':<10} {result.flower_tai + result.tai:>3} 台")
    for i in result.dealer_items:
        out.append(f"  {i.zh:<10} {i.tai:>3} 台  only in payments of the dealer "
                   f"({names[record.dealer]})")
    return out


class TaiwanDisplay(Display):
    """Taiwan: the 圈 / 连N in every hand's rule, winds, flowers and declarations next to
    the board, the special actions spelled out, the 台 of every hand after it."""

    help = ("Type the number of an action and press Enter. A declared hand (天听/地听) is "
            "locked: it discards what it draws unless it wins. q leaves the table.")
    width = 120
    default_hands = None

    def count(self, hands: int | None) -> str:
        return "one 将 (four 圈)" if hands is None else f"{hands} hand(s) of a 将"

    def hand_title(self, hand: Entry) -> str:
        ctx = hand.get("context") or {}
        return (f"hand {hand['number'] + 1} · {WIND_NAMES[ctx.get('prevalent_wind', 0)]}圈 · "
                f"dealer {hand['seats'][hand['dealer']]} · 连{ctx.get('dealer_streak', 0)}")

    def board(self, view: dict[str, Any], names: Sequence[str]) -> list[RenderableType]:
        return [view_panel(view, names), table_line(view, names)]

    def notes(self, view: dict[str, Any], legal: Sequence[Action],
              names: Sequence[str]) -> list[str]:
        out = []
        if view["phase"] == "decide":
            if any(a.type == "rob_flower" for a in legal):
                out.append("The eighth flower is out and you hold seven: rob it (七抢一)?")
            else:
                out.append("Your dealt hand is ready: declare 天听 (8 台; the hand is "
                           "locked)?")
        return [*out, *super().notes(view, legal, names)]

    def action_label(self, action: Action, wildcard: int | None) -> str:
        return taiwan_action_label(action)

    def event(self, event: Entry, names: Sequence[str], me: int | None,
              wildcard: int | None) -> tuple[str, str] | None:
        if event.get("type") == "action" and event["action"]["type"] in _SHOUTED:
            a = Action.from_json(event["action"])
            return f"{names[a.seat]}: {taiwan_action_label(a)}", "bold"
        return super().event(event, names, me, None)

    def settlement(self, table: Table, end: Entry, names: Sequence[str]
                   ) -> list[RenderableType]:
        game = table.game
        out: list[RenderableType] = []
        if game is not None and game.record is not None:
            out.extend(tai_lines(game.record, names))
        # The table's own settlement, without describe (the 台 lines say it all).
        if game is not None and game.log and game.log[-1].get("type") == "end":
            out.append(settlement_table(game.log[-1], names))
        return out

    def farewell(self, table: Table) -> list[str]:
        return ["The 将 is over." if table.over else "Stopped."]


DISPLAY = TaiwanDisplay()
