"""``laizi play taiwan``: a whole 将 (four 圈) against three Taiwan bots at the terminal.

Shows the 圈 and seat winds, the dealer and 连N, everyone's flowers and declarations,
offers 天听/地听, 八仙过海 and 七抢一 when they arise, and itemises the 台 of every win.
``--hands N`` (N > 1) stops after N hands; otherwise the 将 is played to its end.
"""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Sequence
from typing import IO, Any

from rich.console import Console

from laizi import tiles as T
from laizi.commands.play import play_hand
from laizi.engine.actions import Action
from laizi.engine.game import Game
from laizi.engine.log import redact
from laizi.records import HandRecord
from laizi.table.taiwan_match import TaiwanMatch
from laizi.ui.terminal import (
    action_label,
    event_line,
    ledger_table,
    settlement_table,
    tile_label,
    view_panel,
)
from laizi.variants import get
from laizi.variants.taiwan_bot import TaiwanBot
from laizi.variants.taiwan_records import result_of
from laizi.variants.taiwan_rules import WIND_NAMES

__all__ = ["play_jiang", "table_line", "tai_lines", "taiwan_action_label"]

_LABELS = {
    "declare": "宣告听牌 declare ready (天听/地听: the hand is locked)",
    "flower_win": "八仙过海 flower win (all eight flowers)",
}
_HELP = ("Type the number of an action and press Enter. A declared hand (天听/地听) is "
         "locked: it discards what it draws unless it wins. q leaves the table.")


class _Quit(Exception):
    pass


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


def play_jiang(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    from laizi.commands.play import _parse_options

    variant = get("taiwan")
    try:
        options = variant.options_from_json(_parse_options(args.option))
    except (TypeError, ValueError) as exc:
        print(f"laizi play: {exc}", file=sys.stderr)
        return 2
    for name in ("seat", "dealer"):
        if not 0 <= getattr(args, name) < 4:
            print(f"laizi play: --{name} must be 0-3 for taiwan", file=sys.stderr)
            return 2
    if args.hands < 1:
        print("laizi play: --hands must be at least 1", file=sys.stderr)
        return 2
    limit = args.hands if args.hands > 1 else None
    seed = args.seed if args.seed is not None else secrets.randbelow(10**6)
    console = Console(file=stdout, width=120, highlight=False,
                      force_terminal=stdout.isatty() if hasattr(stdout, "isatty") else False)
    me = args.seat
    names = ["you" if s == me and not args.auto else f"bot {s}" for s in range(4)]
    bots = [TaiwanBot() for _ in range(4)]
    match = TaiwanMatch(options, seed=seed, first_dealer=args.dealer)
    console.print(f"[bold]{variant.name}[/bold] (taiwan) · seed {seed} · one 将 (four 圈) · "
                  f"you are seat {me}")
    try:
        while not match.over and (limit is None or len(match.hands) < limit):
            game = match.new_hand()
            console.rule(f"hand {len(match.hands) + 1} · {WIND_NAMES[match.prevalent_wind]}圈 · "
                         f"dealer {names[match.dealer]} · 连{match.dealer_streak} · "
                         f"seed {game.seed}")
            play_hand(game, me, bots, names, console, stdin, auto=args.auto,
                      show=_show_events, ask=_ask)
            match.finish_hand(game)
            assert game.record is not None
            for line in tai_lines(game.record, names):
                console.print(line)
            console.print(settlement_table(game.log[-1], names))
            console.print(ledger_table(match.ledger, names, len(match.hands)))
        console.print("The 将 is over." if match.over else "Stopped.")
    except _Quit:
        console.print("\nYou leave the table.")
        if match.hands:
            console.print(ledger_table(match.ledger, names, len(match.hands)))
        return 0
    except KeyboardInterrupt:
        console.print("\nInterrupted: you leave the table.")
        return 130
    return 0


def _show_events(game: Game, me: int, names: list[str], console: Console, start: int) -> int:
    for event in game.log[start:]:
        seen = redact(event, me)
        if seen is None:
            continue
        if seen.get("type") == "action" and seen["action"]["type"] in ("declare",
                                                                         "flower_win",
                                                                         "rob_flower"):
            a = Action.from_json(seen["action"])
            console.print(f"{names[a.seat]}: {taiwan_action_label(a)}", style="bold")
            continue
        line = event_line(seen, names, me, None)
        if line:
            console.print(line, style="dim")
    return len(game.log)


def _ask(game: Game, me: int, names: list[str], console: Console, stdin: IO[str]) -> Action:
    view = game.view(me)
    acts = game.legal_actions(me)
    console.print(view_panel(view, names))
    console.print(table_line(view, names))
    if view["phase"] == "decide":
        if any(a.type == "rob_flower" for a in acts):
            console.print("The eighth flower is out and you hold seven: rob it (七抢一)?")
        else:
            console.print("Your dealt hand is ready: declare 天听 (8 台; the hand is locked)?")
    if view["last_discard"]:
        d = view["last_discard"]
        console.print(f"{names[d['seat']]} discarded {tile_label(d['tile'])}")
    if view["robbing"]:
        r = view["robbing"]
        console.print(f"{names[r['seat']]} adds a kong of {tile_label(r['tile'])}: rob it (抢杠)?")
    for i, a in enumerate(acts, 1):
        console.print(f"  {i:>2}) {taiwan_action_label(a)}")
    while True:
        console.print("your choice: ", end="")
        line = stdin.readline()
        if not line:
            raise _Quit
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise _Quit
        if text in ("?", "h", "help"):
            console.print(_HELP)
            continue
        if text.isdigit() and 1 <= int(text) <= len(acts):
            return acts[int(text) - 1]
        console.print(f"Please type a number from 1 to {len(acts)} (? for help, q to leave).")


def _register() -> None:
    from laizi.commands.play import register_player

    register_player("taiwan", play_jiang)


_register()
