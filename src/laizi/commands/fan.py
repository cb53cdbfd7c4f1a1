"""``laizi fan``: the MCR (国标) fan calculator for one hand, in Chinese and English.

HAND is the concealed tiles, the winning tile included; with --melds the hand holds
14 - 3 tiles per meld (a kong counts as 3). Exit status 0 for a win, 1 for a hand that
is not a win, 2 for bad input.

examples:
  laizi fan "123m456p789s22z" --win-tile 2z --melds "pung:555z" --self-drawn
  laizi fan 19m19p19s1234567z1m --json
  laizi fan "123m 456789p 55z" --melds "kong:1111s" --kong-replacement --self-drawn
  laizi fan 123m456p789s111z2z5z --golden 5z
  laizi fan 123m456p789s1z2z3z4z5z  # exits 1: not a win
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from laizi import tiles as T
from laizi.commands import Subparsers
from laizi.scoring.mcr import FanResult, HandError, Meld, WinContext, score_hand

if TYPE_CHECKING:
    from rich.console import JustifyMethod

__all__ = ["parse_melds", "register", "run"]

_KINDS = {"chow": "chow", "pung": "pung", "kong": "kong", "ckong": "concealed_kong",
          "concealed_kong": "concealed_kong"}
_WINDS = {"e": T.EAST, "s": T.SOUTH, "w": T.WEST, "n": T.NORTH, "东": T.EAST,
          "南": T.SOUTH, "西": T.WEST, "北": T.NORTH}


def parse_melds(text: str) -> list[Meld]:
    """``"chow:123m,pung:5z,kong:1p,ckong:9s"`` → melds (a pung/kong may give one tile)."""
    melds: list[Meld] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        kind, sep, tiles_text = part.partition(":")
        if not sep or kind.strip().lower() not in _KINDS:
            raise HandError(f"meld {part!r}: expected KIND:TILES with KIND one of "
                            f"chow, pung, kong, ckong")
        k = _KINDS[kind.strip().lower()]
        ts = sorted(T.parse(tiles_text.strip(), "mpsz"))
        if k == "chow":
            if len(ts) != 3 or ts != [ts[0], ts[0] + 1, ts[0] + 2] or not T.is_suited(ts[0]) \
                    or T.suit(ts[0]) != T.suit(ts[2]):
                raise HandError(f"meld {part!r}: a chow is three consecutive tiles of a suit")
        else:
            size = 3 if k == "pung" else 4
            if len(set(ts)) != 1 or len(ts) not in (1, size):
                raise HandError(f"meld {part!r}: a {kind} is one tile or {size} equal tiles")
        melds.append(Meld(k, ts[0]))
    return melds


def _wind(text: str) -> int:
    w = _WINDS.get(text.strip().lower())
    if w is None:
        try:
            w = T.parse_tile(text.strip(), "mpsz")
        except T.NotationError:
            w = -1
    if w not in (T.EAST, T.SOUTH, T.WEST, T.NORTH):
        raise HandError(f"not a wind: {text!r} (use E S W N, 东南西北 or 1z-4z)")
    return w


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("fan", help="count the MCR fans (国标番) of a hand",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("hand", help="concealed tiles incl. the winning tile, MPSZ (e.g. 123m55z)")
    p.add_argument("--melds", default="", help='e.g. "chow:123m,pung:5z,kong:1p,ckong:9s"')
    p.add_argument("--win-tile", help="the winning tile (default: the last tile of HAND)")
    p.add_argument("--self-drawn", action="store_true", help="自摸")
    p.add_argument("--last-tile", action="store_true",
                   help="won on the last tile: 妙手回春 if self-drawn, else 海底捞月")
    p.add_argument("--kong-replacement", action="store_true", help="杠上开花")
    p.add_argument("--robbed-kong", action="store_true", help="抢杠和")
    p.add_argument("--last-copy", action="store_true", help="和绝张")
    p.add_argument("--seat-wind", default="E", help="门风 (E S W N), default E")
    p.add_argument("--prevalent-wind", default="E", help="圈风 (E S W N), default E")
    p.add_argument("--flowers", type=int, default=0, help="number of flowers (花牌)")
    p.add_argument("--golden", help="the golden tile (黄金牌): its copies in HAND are wild")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _score(args: argparse.Namespace) -> FanResult:
    concealed = T.parse(args.hand, "mpsz")
    if not concealed:
        raise HandError("no tiles in HAND")
    win = T.parse_tile(args.win_tile, "mpsz") if args.win_tile else concealed[-1]
    ctx = WinContext(
        self_drawn=args.self_drawn,
        last_tile_of_wall=args.last_tile and args.self_drawn,
        last_discard=args.last_tile and not args.self_drawn,
        kong_replacement=args.kong_replacement,
        robbed_kong=args.robbed_kong,
        last_copy=args.last_copy,
        seat_wind=_wind(args.seat_wind),
        prevalent_wind=_wind(args.prevalent_wind),
        flowers=args.flowers,
    )
    melds = parse_melds(args.melds)
    golden = golden_face = None
    if args.golden:
        golden_face = T.parse_tile(args.golden, "mpsz")
        golden = concealed.count(golden_face)
    return score_hand(concealed, melds, win, ctx, golden=golden or 0, golden_face=golden_face)


def _print_table(res: FanResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not res.is_win:
        console.print(f"not a win: {res.why_not}")
        return
    table = Table(title="MCR fans · 国标番种")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("番种", "left"), ("Fan", "left"), ("value", "right"), ("×", "right"),
        ("points", "right"), ("sets / tiles", "left"))
    for col, just in columns:
        table.add_column(col, justify=just)
    for f in res.fans:
        table.add_row(f.zh, f.en, str(f.value), str(f.count), str(f.points),
                      " ".join(T.format(g) for g in f.groups))
    table.add_row("合计", "Total", "", "", str(res.total), "", style="bold")
    console.print(table)
    console.print("reading: " + " ".join(T.format(g) for g in res.reading)
                  + f"   shape: {res.shape}   fan without flowers: {res.fan_without_flowers}"
                  + ("" if res.qualifies() else "  (below the 8-fan minimum 起和)"))
    if res.golden_as:
        console.print("golden tiles stood for: " + " ".join(T.format([t]) for t in res.golden_as))
    for note in res.notes:
        console.print(f"note: {note}")


def run(args: argparse.Namespace) -> int:
    try:
        res = _score(args)
    except (HandError, T.NotationError, ValueError) as exc:
        print(f"laizi fan: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(res.to_json(), ensure_ascii=False, indent=2))
    else:
        _print_table(res)
    return 0 if res.is_win else 1
