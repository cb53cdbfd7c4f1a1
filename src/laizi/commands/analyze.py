"""``laizi analyze``: win or not, shanten, waits, and (for a hand of 14) which discard is best.

A hand of 3n+1 concealed tiles (13, or fewer beside exposed melds) gets its shanten and its
waits with the copies still unseen; a hand of 3n+2 (14: just drawn) also gets every
discard ranked: the shanten it leaves and the unseen tiles that would improve it (the
waits, when it leaves the hand ready), best first. Batch mode (``-``) prints one JSON
object per input line; a line that cannot be read gives ``{"hand": ..., "error": ...}``
and the run goes on (the exit status is then 2).
"""

from __future__ import annotations

import argparse
import sys
from typing import TypedDict

from laizi.analysis import WinRules, is_win, shanten, waits
from laizi.commands import Subparsers
from laizi.tiles import DIALECTS, NUM_KINDS, Dialect, NotationError, format, name, parse

__all__ = ["Analysis", "DiscardAdvice", "analyze_hand", "register", "run"]

EXAMPLES = """examples:
  laizi analyze 123m456p789s1122z
  laizi analyze 123m456p789s1122z --wild 5p --pair 258 --json
  laizi analyze 1112455667789m --wild 5p
  laizi analyze 123m456p789s11222z
  laizi analyze 一万二万三万四筒五筒六筒七条八条九条东东南南 --notation chinese
  laizi analyze 123m4567p --melds 2
  laizi analyze 11223344556677889m  # exits 2: 17 tiles are a hand only with --hand-size 16
  laizi analyze 1122334455667788s --hand-size 16
  printf '123m456p789s1122z\\n19m19p19s1234567z\\n' | laizi analyze - --orphans
"""

_TWO_FIVE_EIGHT = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))


class DiscardAdvice(TypedDict):
    """One discard of a 3n+2 hand and what it leaves."""

    discard: str
    discard_chinese: str
    shanten: int
    useful: list[str]
    """Tiles (MPSZ) that would lower the shanten (the waits when ``shanten`` is 0), with
    at least one copy unseen."""
    unseen: int
    """Their copies not in the hand (the discarded one counts as seen)."""


class Analysis(TypedDict):
    """What ``laizi analyze --json`` prints for one hand."""

    hand: str
    mpsz: str
    tiles: int
    wilds: int
    win: bool
    shanten: int
    waits: list[str]
    waits_chinese: list[str]
    unseen: dict[str, int]
    outs: int
    discards: list[DiscardAdvice]


class _Failed(TypedDict):
    hand: str
    error: str


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="is a hand complete, how far from ready, what does it wait on",
        description="Analyse a concealed hand (MPSZ by default: 123m456p789s1122z): win or "
        "not, shanten (-1 = complete, 0 = ready), the waits with their copies still "
        "unseen, and for a hand of 3n+2 tiles (14) every discard ranked by the shanten it "
        "leaves and the unseen tiles that improve it.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hand", help="the concealed tiles, or - to read one hand per line")
    p.add_argument(
        "--notation",
        choices=DIALECTS,
        default="mpsz",
        help="how HAND and --wild are written: mpsz (default, 123m5p7z), chinese "
        "(一万 五筒 中), unicode (🀇🀝🀄) or gb (W1 B5 J1); see docs/notation.md",
    )
    p.add_argument(
        "--wild",
        metavar="TILE",
        help="every copy of TILE is a wildcard (赖子), e.g. --wild 7z",
    )
    p.add_argument(
        "--pair",
        choices=["any", "258"],
        default="any",
        help="which tiles may be the pair: any (default) or 258 (the 2, 5, 8 of each suit)",
    )
    p.add_argument(
        "--hand-size",
        type=int,
        choices=[13, 16],
        default=13,
        help="13 (default) or 16 (Taiwan): a hand holds at most this many tiles + 1",
    )
    p.add_argument(
        "--melds",
        type=int,
        default=None,
        metavar="K",
        help="K sets are exposed beside HAND, which must then hold hand-size - 3K tiles "
        "(+1 just after a draw); without it any 3n+1 / 3n+2 count up to the hand size is "
        "read",
    )
    p.add_argument("--no-seven-pairs", action="store_true", help="七对 is not a winning shape")
    p.add_argument("--orphans", action="store_true", help="十三幺 is a winning shape")
    p.add_argument("--knitted", action="store_true", help="全不靠 / 组合龙 are winning shapes")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _rules(args: argparse.Namespace) -> WinRules:
    return WinRules(
        pair_tiles=_TWO_FIVE_EIGHT if args.pair == "258" else None,
        seven_pairs=not args.no_seven_pairs,
        thirteen_orphans=args.orphans,
        knitted=args.knitted,
    )


def check_size(total: int, hand_size: int = 13, melds: int | None = None) -> str | None:
    """Why ``total`` concealed tiles are not a hand (``None`` when they are): 3n+1 (waiting)
    or 3n+2 (just drawn), at most ``hand_size + 1``, and with ``melds`` exposed sets exactly
    ``hand_size - 3 * melds`` (+1)."""
    if melds is not None:
        if not 0 <= melds <= hand_size // 3:
            return f"--melds must be 0-{hand_size // 3} for a {hand_size}-tile hand"
        size = hand_size - 3 * melds
        if total not in (size, size + 1):
            return (f"{total} tiles beside {melds} exposed melds; a {hand_size}-tile hand "
                    f"holds {size} (or {size + 1} just after a draw)")
        return None
    if total % 3 == 0 or total > hand_size + 1:
        return (f"{total} tiles; a concealed hand has 3n+1 or 3n+2 tiles, at most "
                f"{hand_size + 1}" + (" (--hand-size 16 for Taiwan's 17)"
                                      if hand_size == 13 and total in (16, 17) else ""))
    return None


def _improving(counts: list[int], wilds: int, wild: int | None, rules: WinRules,
               held: list[int]) -> tuple[int, list[int]]:
    """The shanten of a 3n+1 hand and the tiles (with a copy unseen) that lower it.

    Drawing the wildcard's face adds a wildcard, not that tile: the analysis vectors hold
    the wildcards apart from the real tiles."""
    now = shanten(counts, wilds, rules)
    if now == 0:
        return now, [t for t in _waits(counts, wilds, wild, rules) if held[t] < 4]
    out = []
    for t in range(NUM_KINDS):
        if held[t] >= 4:
            continue
        if t == wild:
            better = shanten(counts, wilds + 1, rules) < now
        else:
            counts[t] += 1
            better = shanten(counts, wilds, rules) < now
            counts[t] -= 1
        if better:
            out.append(t)
    return now, out


def _waits(counts: list[int], wilds: int, wild: int | None, rules: WinRules) -> list[int]:
    """The tiles that complete a 3n+1 hand (a tile held four times included: 空听); the
    wildcard's face is one when one more wildcard completes it (``wild_tile``)."""
    return waits(counts, wilds, rules, wild_tile=wild)


def _discards(counts: list[int], wilds: int, wild: int | None, rules: WinRules,
              held: list[int]) -> list[DiscardAdvice]:
    out: list[tuple[tuple[int, int, int], DiscardAdvice]] = []
    for d in range(NUM_KINDS):
        if held[d] == 0:
            continue
        if d == wild:
            sh, useful = _improving(counts, wilds - 1, wild, rules, held)
        else:
            counts[d] -= 1
            sh, useful = _improving(counts, wilds, wild, rules, held)
            counts[d] += 1
        left = sum(4 - held[t] for t in useful)
        advice = DiscardAdvice(discard=name(d, "mpsz"), discard_chinese=name(d, "chinese"),
                               shanten=sh, useful=[name(t, "mpsz") for t in useful],
                               unseen=left)
        out.append(((sh, -left, d), advice))
    out.sort(key=lambda item: item[0])
    return [a for _, a in out]


def analyze_hand(text: str, wild: int | None, rules: WinRules, *,
                 notation: Dialect = "mpsz", hand_size: int = 13,
                 melds: int | None = None) -> Analysis:
    """The analysis of one hand as plain data; raises NotationError / ValueError."""
    tiles = parse(text, notation)
    flowers = [t for t in tiles if t >= NUM_KINDS]
    if flowers:
        raise ValueError(f"{text!r}: flowers ({format(flowers, notation)}) are not part of "
                         "an analysed hand")
    held = [0] * NUM_KINDS
    for t in tiles:
        held[t] += 1
    over = [t for t in range(NUM_KINDS) if held[t] > 4]
    if over:
        raise ValueError(f"{text!r} holds {held[over[0]]} copies of {name(over[0], 'mpsz')}")
    total = len(tiles)
    why = check_size(total, hand_size, melds)
    if why is not None:
        raise ValueError(f"{text!r} has {why}")
    counts = list(held)
    wilds = 0
    if wild is not None:
        wilds = counts[wild]
        counts[wild] = 0
    res = Analysis(hand=text, mpsz=format(tiles, "mpsz", sort=True), tiles=total,
                   wilds=wilds, win=total % 3 == 2 and is_win(counts, wilds, rules),
                   shanten=shanten(counts, wilds, rules), waits=[], waits_chinese=[],
                   unseen={}, outs=0, discards=[])
    if total % 3 == 1:
        ws = _waits(counts, wilds, wild, rules)
        res["waits"] = [name(t, "mpsz") for t in ws]
        res["waits_chinese"] = [name(t, "chinese") for t in ws]
        res["unseen"] = {name(t, "mpsz"): 4 - held[t] for t in ws}
        res["outs"] = sum(res["unseen"].values())
    else:
        res["discards"] = _discards(counts, wilds, wild, rules, held)
    return res


def _shanten_label(sh: int) -> str:
    return "complete" if sh == -1 else "ready (听牌)" if sh == 0 else f"{sh} from ready"


def _print_text(res: Analysis) -> None:
    wild = f" ({res['wilds']} wildcards)" if res["wilds"] else ""
    shown = res["hand"] if res["hand"] == res["mpsz"] else f"{res['hand']} = {res['mpsz']}"
    print(f"hand     {shown}  {res['tiles']} tiles{wild}")
    if res["tiles"] % 3 == 2:
        print(f"win      {'yes' if res['win'] else 'no'}")
    sh = res["shanten"]
    print(f"shanten  {sh}  {_shanten_label(sh)}")
    if res["tiles"] % 3 == 1:
        if res["waits"]:
            parts = [
                f"{m} {c} ×{res['unseen'][m]}"
                for m, c in zip(res["waits"], res["waits_chinese"], strict=True)
            ]
            print(f"waits    {', '.join(parts)}  ({res['outs']} unseen)")
        else:
            print("waits    none")
        return
    print("discards (best first: the shanten left, then the unseen tiles that improve it)")
    for a in res["discards"]:
        what = "waits" if a["shanten"] == 0 else "useful"
        tiles = " ".join(a["useful"]) or "none"
        print(f"  {a['discard']} {a['discard_chinese']:<3} shanten {a['shanten']:>2}  "
              f"{a['unseen']:>3} unseen  {what}: {tiles}")


def _dumps(res: Analysis | _Failed) -> str:
    import json

    return json.dumps(res, ensure_ascii=False)


def run(args: argparse.Namespace) -> int:
    rules = _rules(args)
    notation: Dialect = args.notation
    wild: int | None = None
    if args.wild is not None:
        try:
            wild_tiles = parse(args.wild, notation)
        except NotationError as e:
            print(f"laizi analyze: bad --wild: {e}", file=sys.stderr)
            return 2
        if len(wild_tiles) != 1:
            print(f"laizi analyze: --wild {args.wild}: expected one tile, got "
                  f"{len(wild_tiles)}", file=sys.stderr)
            return 2
        wild = wild_tiles[0]
        if wild >= NUM_KINDS:
            print(f"laizi analyze: --wild {args.wild}: a flower cannot be wild", file=sys.stderr)
            return 2

    def analyze(text: str) -> Analysis:
        return analyze_hand(text, wild, rules, notation=notation, hand_size=args.hand_size,
                            melds=args.melds)

    if args.hand != "-":
        try:
            res = analyze(args.hand)
        except (NotationError, ValueError) as e:
            print(f"laizi analyze: {e}", file=sys.stderr)
            return 2
        if args.json:
            print(_dumps(res))
        else:
            _print_text(res)
        return 0
    status = 0
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        out: Analysis | _Failed
        try:
            out = analyze(text)
        except (NotationError, ValueError) as e:
            out = _Failed(hand=text, error=str(e))
            status = 2
        print(_dumps(out))
    return status
