"""``laizi play huanghuang --people N``: the display hooks of a 晃晃 room at the terminal.

You are one of N people (4-8) at the table, with bots for the others. Four sit, the rest
wait; after each hand 下桌 sends people to the back of the queue and brings waiting people
in. Everyone buys a horse (买马) every hand. While you wait, the bots play the hand and you
see its result: the table's payments, the horses, who leaves and who enters, and
everyone's running score. The room itself is the table's session
(:class:`laizi.table.session.HuanghuangSession`) played by the one loop
(:mod:`laizi.ui.player`). See ``docs/rooms.md``.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.table import Table as RichTable

from laizi import tiles as T
from laizi.table.horses import PersonPayment, horse_seat, horse_value
from laizi.table.table import Entry, Table
from laizi.ui.player import Display, deal_text, hands_played

__all__ = ["DISPLAY", "HuanghuangDisplay", "hand_report", "room_table"]


def room_table(table: Table) -> RichTable:
    """Seats, the queue and everyone's running score."""
    out = RichTable(title=f"Room after {hands_played(table)} hand(s)")
    out.add_column("place")
    out.add_column("person")
    out.add_column("score", justify="right")
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
    for h in end["horses"]:
        tile = T.parse_tile(h["tile"])
        s = horse_seat(tile, dealer)
        lines.append(f"horse of {h['person']}: {T.name(tile)} = {horse_value(tile)} → "
                     f"seat {s} ({seats[s]})")
    payments = [PersonPayment.from_json(p) for p in end["payments"]]
    horse = [p for p in payments if p.reasons and p.reasons[0].code == "horse"]
    if not horse:
        drawn = end["record"].get("outcome") != "win"
        lines.append("no horse settles" + (" (drawn hand)" if drawn else ""))
    for p in horse:
        lines.append(f"  {p.payer} pays {p.payee} {p.amount}  ({p.reasons[0].text()})")
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
    after every hand, a note when the person waits."""

    room = True
    leaving = "You leave the room."

    def check_options(self, options: Any) -> str | None:
        if options.horses:
            return "option horses is set by the room (everyone buys a horse)"
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

    def settlement(self, table: Table, end: Entry, names: Any) -> list[RenderableType]:
        hand = next(e for e in reversed(table.log) if e["type"] == "hand")
        return [*super().settlement(table, end, names), *hand_report(hand, end)]

    def standing(self, table: Table) -> list[RenderableType]:
        return [room_table(table)]


DISPLAY = HuanghuangDisplay()

