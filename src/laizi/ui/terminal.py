"""Rendering for the terminal game: tiles in Chinese + MPSZ, views, actions, settlements.

Works from plain data only (views, actions, hand records, payments), so it is shared by
every variant; variant names for special kongs are looked up in :data:`MELD_NAMES`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from laizi import tiles as T
from laizi.engine.actions import Action
from laizi.reasons import Lang
from laizi.settlement import Payment, net

__all__ = [
    "MELD_NAMES",
    "action_label",
    "event_line",
    "ledger_table",
    "settlement_table",
    "tile_label",
    "tiles_text",
    "view_panel",
]

MELD_NAMES = {
    "chow": "吃", "pung": "碰", "kong": "明杠", "added_kong": "补杠",
    "concealed_kong": "暗杠", "red_dragon_kong": "红中杠", "laizi_kong": "赖子杠",
}
"""Chinese names of meld kinds; variants with other special kongs add theirs here."""

_ACTION_NAMES = {
    "discard": "打 discard", "win": "胡 win", "concealed_kong": "暗杠 concealed kong",
    "added_kong": "补杠 added kong", "special_kong": "杠 special kong", "chow": "吃 chow",
    "pung": "碰 pung", "kong": "杠 kong", "pass": "过 pass",
}

_SUIT_STYLE = {0: "red", 1: "cyan", 2: "green", 3: "magenta", 4: "yellow"}


def tile_label(t: int) -> str:
    """``五筒 5p``."""
    return f"{T.name(t, 'chinese')} {T.name(t, 'mpsz')}"


def tiles_text(ts: Sequence[int | None], wildcard: int | None = None) -> Text:
    """Tiles side by side, coloured by suit; the wildcard is marked with ``*``."""
    out = Text()
    for i, t in enumerate(ts):
        if i:
            out.append(" ")
        if t is None:
            out.append("🀫", style="dim")
            continue
        label = T.name(t, "chinese") + "·" + T.name(t, "mpsz")
        if t == wildcard:
            out.append(label + "*", style="bold yellow")
        else:
            out.append(label, style=_SUIT_STYLE[T.suit(t)])
    return out


def action_label(a: Action, wildcard: int | None = None) -> str:
    name = _ACTION_NAMES.get(a.type, a.type)
    if a.type == "special_kong" and a.tile is not None:
        name = ("赖子杠 laizi kong" if a.tile == wildcard else
                "红中杠 red-dragon kong" if a.tile == T.RED else name)
    if a.tiles:
        return f"{name} {T.format(a.tiles, 'chinese')} ({T.format(a.tiles)})"
    if a.tile is not None:
        return f"{name} {tile_label(a.tile)}"
    return name


def _meld_text(m: dict[str, Any], wildcard: int | None) -> Text:
    kind = MELD_NAMES.get(m["kind"], m["kind"])
    tiles = m["tiles"]
    if m["kind"] == "concealed_kong":
        shown: list[int | None] = [None, tiles[1], tiles[2], None]
    else:
        shown = list(tiles)
    out = Text(f"[{kind}] ")
    out.append_text(tiles_text(shown, wildcard))
    if "from" in m:
        out.append(f" ←{m['from']}", style="dim")
    return out


_LAIZI = ("赖子皮 indicator", "赖子 laizi")
_WILDCARD_NAMES = {
    # Each seed's own word for the wild tile: 晃晃 writes 癞子, 黄金麻将 黄金牌.
    "huanghuang": ("癞子皮 indicator", "癞子 laizi"),
    "golden": ("翻牌 indicator", "黄金牌 golden tile"),
}
"""Per variant: (the indicator's name, the wildcard's name) in the table's title."""


def view_panel(view: dict[str, Any], names: Sequence[str] | None = None) -> Table:
    """The table as one seat sees it."""
    n = view["seats"]
    me = view["seat"]
    wildcard = view.get("wildcard")
    names = names or [f"seat {s}" for s in range(n)]
    title = (f"{view['variant']} · dealer {names[view['dealer']]} · wall {view['wall']} "
             f"(draw at {view['reserve']})")
    indicator_name, wildcard_name = _WILDCARD_NAMES.get(view["variant"], _LAIZI)
    if view.get("indicators"):
        title += f" · {indicator_name} " + ", ".join(tile_label(t) for t in view["indicators"])
    if wildcard is not None:
        title += f" · {wildcard_name} {tile_label(wildcard)}"
    table = Table(title=title, show_lines=True, expand=False)
    table.add_column("seat")
    table.add_column("score", justify="right")
    table.add_column("hand / melds")
    table.add_column("discards")
    for s in range(n):
        who = names[s] + (" (庄)" if s == view["dealer"] else "")
        if s == view["turn"] and view["phase"] in ("turn", "claim", "rob"):
            who = "▶ " + who
        body = Text()
        if s == me:
            hand = list(view["hand"])
            drawn = view.get("drawn")
            if drawn is not None and drawn in hand:
                hand.remove(drawn)
                body.append_text(tiles_text(hand, wildcard))
                body.append("  + ")
                body.append_text(tiles_text([drawn], wildcard))
            else:
                body.append_text(tiles_text(hand, wildcard))
        else:
            body.append(f"{view['hand_sizes'][s]} concealed tiles", style="dim")
        for m in view["melds"][s]:
            body.append("\n")
            body.append_text(_meld_text(m, wildcard))
        if view["flowers"][s]:
            body.append("\nflowers ")
            body.append_text(tiles_text(view["flowers"][s]))
        table.add_row(who, str(view["scores"][s]), body,
                      tiles_text(view["discards"][s], wildcard))
    return table


def event_line(
    event: dict[str, Any], names: Sequence[str], me: int, wildcard: int | None = None
) -> str | None:
    """One line for a (redacted) log event, or ``None`` for events not worth a line."""
    kind = event.get("type")
    if kind == "action":
        a = event["action"]
        who = names[a["seat"]]
        act = Action.from_json(a)
        if act.type == "pass":
            return None
        return f"{who}: {action_label(act, wildcard)}"
    if kind == "draw" and event["seat"] == me and event["tile"] is not None:
        return f"{names[me]} draw{' (replacement)' if event['replacement'] else ''}: " \
               f"{tile_label(event['tile'])}"
    if kind == "claim":
        m = event["meld"]
        return f"{names[event['seat']]} takes {MELD_NAMES.get(m['kind'], m['kind'])} " \
               f"{T.format(m['tiles'], 'chinese')}"
    if kind == "flower":
        return f"{names[event['seat']]} flower {tile_label(event['tile'])}"
    return None


def settlement_table(end: dict[str, Any], names: Sequence[str], lang: Lang = "zh") -> Table:
    """The settlement of a hand (the engine's ``end`` event); the reasons in ``lang``
    (their JSON form carries the text in every language)."""
    record = end["record"]
    if record["outcome"] == "draw":
        title = "黄庄 — the wall ran down to the reserve: no winner, no payments"
    else:
        w = ", ".join(names[s] for s in record["winners"])
        how = {"self_draw": "自摸 self-drawn", "discard": "点炮 on a discard",
               "robbed_kong": "抢杠 robbing a kong"}[record["how"]]
        title = f"{w} wins on {record['tile']} ({how})"
        if record.get("after_kong"):
            title += " after a kong (杠开)"
    table = Table(title=title, show_lines=True)
    table.add_column("payer")
    table.add_column("payee")
    table.add_column("amount", justify="right")
    table.add_column("reasons")
    for p in end["payments"]:
        table.add_row(names[p["from"]], names[p["to"]], str(p["amount"]),
                      "\n".join(r[lang] for r in p["reasons"]))
    nets = end["net"]
    table.add_row("net", "", "", "  ".join(f"{names[s]} {v:+d}" for s, v in enumerate(nets)))
    return table


def ledger_table(ledger: Sequence[int], names: Sequence[str], hands: int) -> Table:
    table = Table()
    table.add_column("Running ledger")
    for s in range(len(ledger)):
        table.add_column(names[s], justify="right")
    table.add_row(f"after {hands} hand(s)", *(f"{v:+d}" for v in ledger))
    return table


def payments_lines(payments: Sequence[Payment], parties: int, lang: Lang = "zh") -> list[str]:
    """Plain-text settlement: one line per payment with its reasons (in ``lang``), then
    the nets."""
    lines = []
    for p in payments:
        lines.append(f"seat {p.payer} pays seat {p.payee} {p.amount}")
        lines.extend(f"    {r.text(lang)}" for r in p.reasons)
    lines.append("net: " + "  ".join(f"seat {s} {v:+d}" for s, v in
                                     enumerate(net(payments, parties))))
    return lines
