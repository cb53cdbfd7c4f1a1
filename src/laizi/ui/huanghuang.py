"""``laizi play huanghuang --people N``: the display hooks of a 晃晃 room at the terminal.

You are one of N people (4-8) at the table, with bots for the others. Four sit, the rest
wait; after each hand 下桌 sends people to the back of the queue and brings waiting people
in. Each person may buy a horse (买马) every hand: you are asked before each deal, the bots
always buy. While you wait, the bots play the hand and you see its result: the table's
payments, the horses, who leaves and who enters, and everyone's running score. The room
itself is the table's session (:class:`laizi.table.session.HuanghuangSession`) played by
the one loop (:mod:`laizi.ui.player`). See ``docs/rooms.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.table import Table as RichTable

from laizi import tiles as T
from laizi.core.records import WIN
from laizi.table.horses import PersonPayment, horse_seat, horse_value
from laizi.table.table import Entry, Table
from laizi.ui.player import Display, deal_text, hands_played
from laizi.ui.words import name_seats, plural, possessive, says
from laizi.variants.rule_options import HuanghuangOptions
from laizi.vocab import TableEventType

__all__ = ["DISPLAY", "HuanghuangDisplay", "hand_report", "room_table"]


def room_table(table: Table) -> RichTable:
    """Seats, the queue and everyone's running score."""
    out = RichTable(title=f"Room after {plural(hands_played(table), 'hand')}")
    out.add_column("place", no_wrap=True)
    out.add_column("person", no_wrap=True)
    out.add_column("score", justify="right", no_wrap=True)
    for s, p in enumerate(table.seats):
        name = p or "(empty)"
        score = f"{table.ledger[p]:+d}" if p is not None else ""
        out.add_row(f"seat {s}" + (" (dealer)" if s == table.dealer else ""), name, score)
    for i, p in enumerate(table.waiting):
        out.add_row(f"waiting {i + 1}", p, f"{table.ledger[p]:+d}")
    for p, v in table.ledger.items():
        if p not in table.people:
            out.add_row("left the room", p, f"{v:+d}")
    return out


def hand_report(hand: Entry, end: Entry) -> list[str]:
    """Plain lines from the table's ``hand`` and ``hand_end`` entries: the horses, the
    horse payments, who left and who entered."""
    seats, dealer = hand["seats"], hand["dealer"]
    lines = []
    buyers = {h["person"] for h in end["horses"]}
    for h in end["horses"]:
        tile = T.parse_tile(h["tile"])
        s = horse_seat(tile, dealer)
        lines.append(f"{possessive(h['person'])} horse: {T.name(tile)} = {horse_value(tile)} "
                     f"→ seat {s} ({seats[s]})")
    people = [*seats, *hand["waiting"]]
    if end["record"].get("outcome") == WIN:
        without = [p for p in people if p not in buyers]
        if without:
            lines.append("no horse: " + ", ".join(without))
    payments = [PersonPayment.from_json(p) for p in end["payments"]]
    horse = [p for p in payments if p.reasons and p.reasons[0].code == "horse"]
    if not horse and end["record"].get("outcome") == WIN:
        lines.append("no horse settles")
    for p in horse:
        lines.append(f"  {says(p.payer, 'pay')} {p.payee} {p.amount} "
                     f"({name_seats(p.reasons[0].text(), seats)})")
    lines.append("hand result: " + "  ".join(f"{p} {v:+d}" for p, v in end["net"].items()
                                            if v))
    if end["left"]:
        lines.append("下桌 leaves: " + ", ".join(f"{p} (seat {s})" for s, p in end["left"]))
        lines.append("enters: " + ", ".join(f"{p} (seat {s})" for s, p in end["entered"]))
    else:
        lines.append("nobody leaves the table")
    return lines


class HuanghuangDisplay(Display):
    """晃晃: the room (seats, queue, scores) instead of a ledger, the horses and 下桌
    after every hand, a note when the person waits, the horse asked before each hand."""

    rules = ("荆州晃晃 (huanghuang, 4 seated, up to 8 in the room; 120 tiles: 万 筒 条 中发白, "
             "no winds, no flowers). The tile after the indicator (癞子皮) is the 癞子 laizi, "
             "marked *: wild in a winning hand; it may be discarded, but a discarded laizi "
             "is dead (nobody claims or wins on it) and doubles every payment of the hand. "
             "A win is four melds and any pair, or 七对; with two or more laizi only as 大刀. "
             "大刀 (门清 self-draw, 碰碰胡 or 七对) pays ×2, 硬胡 (no laizi standing for another "
             "tile) ×2. 放胡: the discarder pays B; 自摸: all three pay 2B; 杠上开花: all pay "
             "4B; 抢杠: the robbed player pays 2B. 下桌: after a hand the losers leave for "
             "the back of the queue (the discarder; on a 自摸 one to three of them) and the "
             "waiting take their seats. 买马: before each hand everyone may buy a horse; its "
             "tile (1-9, 中发白 = 2 3 4) names a seat from the dealer, and the horse is paid "
             "and pays as that seat does. docs/rules/huanghuang.md has it all.")
    draw_text = "荒庄 — a drawn hand: no payments, no horse settles, nobody leaves the table"
    buys_horses = True
    room = True
    leaving = "You leave the room."

    def check_options(self, options: object) -> str | None:
        if isinstance(options, HuanghuangOptions) and options.horses:
            return "option horses is set by the room (each person buys a horse or not)"
        return None

    def header(self, table: Table, me: str, hands: int | None) -> list[RenderableType]:
        v = table.variant
        deal = deal_text(table)
        return [f"[bold]{v.name}[/bold] (huanghuang) · {deal} · {len(table.people)} people "
                f"· {self.count(hands)}", room_table(table)]

    def hand_note(self, hand: Entry, me: str) -> str | None:
        if me in hand["waiting"]:
            return (f"You are waiting (place {hand['waiting'].index(me) + 1} in the queue); "
                    "the bots play this hand.")
        return None

    def settlement(self, table: Table, end: Entry, names: Sequence[str]
                   ) -> list[RenderableType]:
        hand = next(e for e in reversed(table.log) if e["type"] == TableEventType.HAND)
        return [*super().settlement(table, end, names), *hand_report(hand, end)]

    def standing(self, table: Table) -> list[RenderableType]:
        return [room_table(table)]


DISPLAY = HuanghuangDisplay()
