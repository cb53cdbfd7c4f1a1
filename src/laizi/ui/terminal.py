"""Rendering for the terminal game: tiles in Chinese + MPSZ, views, actions, settlements.

Works from plain data only (views, actions, hand records, payments), so it is shared by
every variant; variant names for special kongs are looked up in :data:`MELD_NAMES`.

Everything is laid out for the width of the terminal at the moment it is drawn
(:class:`Flow`): a hand, a list of discards or a payment's reasons is broken into lines
*between* tiles and reasons, never inside one, and nothing is cut with "…". The board is
one block per seat rather than a table, so an 80-column screen holds it as well as a wide
one (where a hand fits on one line).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text

from laizi import tiles as T
from laizi.bots.view_types import MeldJSON, SeatView
from laizi.core.records import DRAW, WRONG_WIN
from laizi.engine.actions import CLAIM_TYPES, LOGGED_TYPES, Action
from laizi.reasons import Lang
from laizi.settlement import Payment, net
from laizi.table.table import Entry
from laizi.ui.words import ME, name_seats, plural, says
from laizi.vocab import ActionType, GameEventType, MeldKind, Phase, WinHow

__all__ = [
    "MELD_NAMES",
    "WIND_NAMES",
    "Flow",
    "Reveal",
    "action_label",
    "board",
    "board_title",
    "event_line",
    "ledger_table",
    "payments_lines",
    "settlement_lines",
    "settlement_table",
    "tile_label",
    "tile_token",
    "tiles_text",
    "view_panel",
]

MELD_NAMES = {
    "chow": "吃", "pung": "碰", "kong": "明杠", "added_kong": "补杠",
    "concealed_kong": "暗杠", "red_dragon_kong": "红中杠", "laizi_kong": "赖子杠",
}
"""Chinese names of meld kinds; variants with other special kongs add theirs here."""

WIND_NAMES = "东南西北"
"""Seat and prevalent winds by number (0 东 … 3 北)."""

_ACTION_NAMES = {
    "discard": "打 discard", "win": "胡 win", "concealed_kong": "暗杠 concealed kong",
    "added_kong": "补杠 added kong", "special_kong": "杠 special kong", "chow": "吃 chow",
    "pung": "碰 pung", "kong": "杠 kong", "pass": "过 pass",
    "wrong_win": "错和 wrong win",
}

_SUIT_STYLE = {0: "red", 1: "cyan", 2: "green", 3: "magenta", 4: "yellow"}


def tile_label(t: int) -> str:
    """``五筒 5p``."""
    return f"{T.name(t, 'chinese')} {T.name(t, 'mpsz')}"


def tile_token(t: int | None, wildcard: int | None = None) -> Text:
    """One tile as it is drawn on the board (``五筒·5p``; the wildcard with ``*``; a
    face-down tile ``🀫``): never broken across lines."""
    if t is None:
        return Text("🀫", style="dim")
    label = T.name(t, "chinese") + "·" + T.name(t, "mpsz")
    if t == wildcard:
        return Text(label + "*", style="bold yellow")
    return Text(label, style=_SUIT_STYLE[T.suit(t)])


def tiles_text(ts: Sequence[int | None], wildcard: int | None = None) -> Text:
    """Tiles side by side, coloured by suit; the wildcard is marked with ``*``."""
    return Text(" ").join(tile_token(t, wildcard) for t in ts)


# ---------------------------------------------------------------------------- layout


class Flow:
    """Pieces of text (tiles, melds, reasons) laid out in lines no wider than the
    console: ``head`` starts the first line, the pieces follow separated by ``sep``, and
    a line is broken only between two pieces; the lines after the first are indented
    under the first piece (or by ``indent`` when the head is long). A piece wider than a
    whole line — only on a very narrow screen — is broken at its spaces, and only a word
    wider than the line is folded."""

    def __init__(self, pieces: Iterable[Text | str], head: Text | str = "", *,
                 sep: str = " ", indent: int | None = None, style: str = "") -> None:
        self.pieces = [p if isinstance(p, Text) else Text(p) for p in pieces]
        self.head = head if isinstance(head, Text) else Text(head)
        self.sep = sep
        self.indent = indent
        self.style = style

    def lines(self, width: int) -> list[Text]:
        width = max(width, 8)
        head_len = self.head.cell_len
        indent = self.indent if self.indent is not None else (
            head_len if head_len <= width // 2 else 4)
        indent = min(indent, width // 2)
        room = width - indent
        pieces: list[Text] = []
        for p in self.pieces:
            pieces.extend(_fit(p, room))
        out: list[Text] = []
        line = self.head.copy()
        used = head_len
        empty = True  # no piece on the line yet
        for p in pieces:
            sep = 0 if empty else cell_len(self.sep)
            if used + sep + p.cell_len > width and (not empty or used > indent):
                # A new line; also when a long head leaves no room for the first piece.
                out.append(line)
                line, used, empty, sep = Text(" " * indent), indent, True, 0
            if not empty:
                line.append(self.sep)
            line.append_text(p)
            used += sep + p.cell_len
            empty = False
        out.append(line)
        for text in out:
            text.rstrip()
            if self.style:
                text.stylize(self.style)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(options.max_width):
            line.no_wrap = True
            line.overflow = "ignore"
            yield line


def _fit(piece: Text, room: int) -> list[Text]:
    """``piece`` as one piece if it fits in ``room`` cells, else its words (folded only
    if a single word is wider than ``room``)."""
    if piece.cell_len <= room:
        return [piece]
    words = [w for w in piece.split(" ") if w.plain]
    out: list[Text] = []
    for w in words:
        while w.cell_len > room:
            cut, used = 0, 0
            for ch in w.plain:
                if used + cell_len(ch) > room:
                    break
                used += cell_len(ch)
                cut += 1
            head, w = w.divide([max(cut, 1)])
            out.append(head)
        out.append(w)
    return out


# ---------------------------------------------------------------------------- actions


def action_label(a: Action, wildcard: int | None = None) -> str:
    name = _ACTION_NAMES.get(a.type, a.type)
    if a.type == ActionType.SPECIAL_KONG and a.tile is not None:
        name = ("赖子杠 laizi kong" if a.tile == wildcard else
                "红中杠 red-dragon kong" if a.tile == T.RED else name)
    if a.tiles:
        return f"{name} {T.format(a.tiles, 'chinese')} ({T.format(a.tiles)})"
    if a.tile is not None:
        return f"{name} {tile_label(a.tile)}"
    return name


def _meld_text(m: MeldJSON, wildcard: int | None,
               names: Sequence[str] | None = None) -> Text:
    kind = MELD_NAMES.get(m["kind"], m["kind"])
    tiles = m["tiles"]
    if m["kind"] == MeldKind.CONCEALED_KONG:
        shown: list[int | None] = [None, tiles[1], tiles[2], None]
    else:
        shown = list(tiles)
    out = Text(f"[{kind}] ")
    out.append_text(tiles_text(shown, wildcard))
    if "from" in m:
        src = m["from"]
        who = names[src] if names is not None and 0 <= src < len(names) else f"seat {src}"
        out.append(f" ←{who}", style="dim")
    return out


# ---------------------------------------------------------------------------- the board

_LAIZI = ("赖子皮 indicator", "赖子 laizi")
_WILDCARD_NAMES = {
    # Each seed's own word for the wild tile: 晃晃 writes 癞子, 黄金麻将 黄金牌.
    "huanghuang": ("癞子皮 indicator", "癞子 laizi"),
    "golden": ("翻牌 indicator", "黄金牌 golden tile"),
}
"""Per variant: (the indicator's name, the wildcard's name) in the table's title."""


@dataclass(frozen=True)
class Reveal:
    """A seat's concealed tiles shown at the end of a hand (from the hand record); a
    winner's ``win_tile`` is shown apart and marked."""

    concealed: tuple[int, ...]
    win_tile: int | None = None


def board_title(view: SeatView, names: Sequence[str], extra: str = ""
                ) -> list[str]:
    """The parts of the board's title line (each kept whole when the line breaks)."""
    wildcard = view.get("wildcard")
    parts = [view["variant"], f"· dealer {names[view['dealer']]}{extra}",
             f"· wall {view['wall']} (draw at {view['reserve']})"]
    indicator_name, wildcard_name = _WILDCARD_NAMES.get(view["variant"], _LAIZI)
    if view.get("indicators"):
        parts.append(f"· {indicator_name} " + ", ".join(tile_label(t)
                                                       for t in view["indicators"]))
    if wildcard is not None:
        parts.append(f"· {wildcard_name} {tile_label(wildcard)}")
    return parts


def board(view: SeatView, names: Sequence[str] | None = None, *,
          reveal: Mapping[int, Reveal] | None = None,
          tags: Sequence[str] | None = None, title_extra: str = "") -> Group:
    """The table as one seat sees it (``view['seat']``; ``None``: a spectator), one block
    per seat: who (▶ on the move, 庄 the dealer, ``tags`` such as a seat wind), the score,
    the hand (the tile after ``+`` just drawn), melds, flowers and discards. ``reveal``
    shows concealed tiles the view does not (the end of a hand)."""
    n = view["seats"]
    me = view.get("seat")
    wildcard = view.get("wildcard")
    names = names or [f"seat {s}" for s in range(n)]
    blocks: list[Flow] = [Flow(board_title(view, names, title_extra), style="bold")]
    moving = view["phase"] in (Phase.TURN, Phase.CLAIM, Phase.ROB)
    for s in range(n):
        who = Text("▶ " if moving and s == view["turn"] else "  ")
        who.append(names[s], style="bold" if names[s] == ME else "")
        if s == view["dealer"]:
            who.append(" (庄)")
        if tags is not None and tags[s]:
            who.append(f" {tags[s]}")
        who.append(f" · score {view['scores'][s]}", style="dim")
        shown = reveal.get(s) if reveal is not None else None
        if shown is not None:
            pieces = [tile_token(t, wildcard) for t in shown.concealed]
            if shown.win_tile is not None:
                win = tile_token(shown.win_tile, wildcard)
                win.stylize("reverse")
                pieces.append(Text("胡 ", style="bold") + win)
            blocks.append(Flow(pieces, who + Text("  ")))
        elif s == me:
            hand = list(view["hand"])
            drawn = view.get("drawn")
            pieces = []
            if drawn is not None and drawn in hand:
                hand.remove(drawn)
                pieces = [tile_token(t, wildcard) for t in hand]
                pieces += [Text("+"), tile_token(drawn, wildcard)]
            else:
                pieces = [tile_token(t, wildcard) for t in hand]
            blocks.append(Flow(pieces, who + Text("  ")))
        else:
            blocks.append(Flow([Text(plural(view["hand_sizes"][s], "concealed tile"),
                                     style="dim")], who + Text("  ")))
        melds = view["melds"][s]
        if melds:
            blocks.append(Flow([_meld_text(m, wildcard, names) for m in melds],
                               "    melds ", sep="  "))
        if view["flowers"][s]:
            blocks.append(Flow([tile_token(t) for t in view["flowers"][s]], "    flowers "))
        if view["discards"][s]:
            blocks.append(Flow([tile_token(t, wildcard) for t in view["discards"][s]],
                               "    discards "))
    return Group(*blocks)


def view_panel(view: SeatView, names: Sequence[str] | None = None) -> Group:
    """The board (:func:`board`) as one seat sees it; its first line is the title."""
    return board(view, names)


def _words(text: str) -> list[Text]:
    return [Text(w) for w in text.split(" ") if w]


# ---------------------------------------------------------------------------- events


def event_line(
    event: Entry, names: Sequence[str], me: int, wildcard: int | None = None
) -> str | None:
    """One line for a (redacted) log event, or ``None`` for events not worth a line.

    A claim is announced once, by the engine's ``claim`` event (who took what from
    whom): the claim *actions* that precede it are answers of the window, and one of
    them may have lost to a higher claim."""
    kind = event.get("type")
    if kind == GameEventType.ACTION:
        a = event["action"]
        if a["type"] == ActionType.PASS or a["type"] in CLAIM_TYPES:
            return None
        # A log's event may be a 错和 (LOGGED_TYPES: MCR profile=botzone's programs).
        shown = action_label(Action.from_json(a, types=LOGGED_TYPES), wildcard)
        return f"{names[a['seat']]}: {shown}"
    if kind == GameEventType.DRAW and event["seat"] == me and event["tile"] is not None:
        what = "draw a replacement" if event["replacement"] else "draw"
        return f"{says(names[me], what)}: {tile_label(event['tile'])}"
    if kind == GameEventType.CLAIM:
        m = event["meld"]
        tiles = " ".join(tile_label(t).replace(" ", "·") for t in m["tiles"])
        source = f" from {names[m['from']]}" if "from" in m else ""
        return (f"{says(names[event['seat']], 'take')} "
                f"{MELD_NAMES.get(m['kind'], m['kind'])} {tiles}{source}")
    if kind == GameEventType.FLOWER:
        return f"{says(names[event['seat']], 'set aside')} a flower " \
               f"{tile_label(event['tile'])} (补花)"
    return None


# ---------------------------------------------------------------------------- settlements

_HOW = {"self_draw": "自摸 self-drawn", "discard": "点炮 on a discard",
        "robbed_kong": "抢杠 robbing a kong"}


def settlement_lines(end: Entry, names: Sequence[str], lang: Lang = "zh", *,
                     draw: str | None = "黄庄 — the wall ran down: no winner, no payments",
                     ) -> list[Flow]:
    """The settlement of a hand (the engine's ``end`` event): who won how (or ``draw``
    for a drawn hand; ``None`` leaves that line to the variant), then every payment with
    its reasons in ``lang`` (the seats in them named) and the nets."""
    record = end["record"]
    out: list[Flow] = []
    if record["outcome"] == DRAW:
        if draw is not None:
            out.append(Flow(_words(draw), style="bold"))
    elif record["outcome"] == WRONG_WIN:  # MCR profile=botzone: a 胡 that was no win
        out.append(Flow(_words(f"{names[record['from']]} 错和 — a wrong win: declared 胡 "
                               "without a winning hand"), style="bold"))
    else:
        winners = [names[s] for s in record["winners"]]
        tile = T.parse_tile(record["tile"]) if isinstance(record["tile"], str) \
            else int(record["tile"])
        who = " and ".join(winners)
        parts = [says(who, "win") if len(winners) == 1 else f"{who} win",
                 f"on {T.name(tile, 'chinese')}·{T.name(tile, 'mpsz')}",
                 f"({_HOW[record['how']]}"]
        if record.get("from") is not None and record["how"] != WinHow.SELF_DRAW:
            parts.append(f"by {names[record['from']]}")
        parts[-1] += ")"
        if record.get("after_kong"):
            parts.append("after a kong (杠开)")
        out.append(Flow(parts, style="bold"))
    for p in end["payments"]:
        head = f"  {says(names[p['from']], 'pay')} {names[p['to']]} {p['amount']}: "
        reasons = [Text(name_seats(r[lang], names)) for r in p["reasons"]]
        out.append(Flow(reasons, head, sep=" · ", indent=6))
    if end["payments"]:
        nets = end["net"]
        out.append(Flow([Text(f"{names[s]} {v:+d}") for s, v in enumerate(nets)], "  net: ",
                        sep=" · "))
    return out


def settlement_table(end: Entry, names: Sequence[str], lang: Lang = "zh"
                     ) -> Group:
    """:func:`settlement_lines` as one renderable."""
    return Group(*settlement_lines(end, names, lang))


def ledger_table(ledger: Sequence[int], names: Sequence[str], hands: int) -> Table:
    table = Table()
    table.add_column("Running ledger", no_wrap=True)
    for s in range(len(ledger)):
        table.add_column(names[s], justify="right", no_wrap=True)
    table.add_row(f"after {plural(hands, 'hand')}", *(f"{v:+d}" for v in ledger))
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

