"""``laizi analyze``: win or not, shanten and waits of one hand (or one per stdin line).

    laizi analyze 123m456p789s1122z
    laizi analyze 123m456p789s1122z --wild 5p --pair 258 --json
    printf '123m456p789s1122z\\n19m19p19s1234567z\\n' | laizi analyze - --orphans

Batch mode (``-``) prints one JSON object per input line. A line that cannot be read gives
``{"hand": ..., "error": ...}`` and the run goes on; the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from laizi.analysis import WinRules, is_win, shanten, waits
from laizi.tiles import NUM_KINDS, NotationError, name, parse, parse_tile

__all__ = ["analyze_hand", "register", "run"]

_TWO_FIVE_EIGHT = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="is a hand complete, how far from ready, what does it wait on",
        description="Analyse a concealed hand in MPSZ notation (123m456p789s1122z): win or "
        "not, shanten (-1 = complete) and the waits with the copies still unseen.",
    )
    p.add_argument("hand", help="the hand in MPSZ notation, or - to read one hand per line")
    p.add_argument(
        "--wild",
        metavar="TILE",
        help="every copy of TILE in the hand is a wildcard (赖子), e.g. --wild 7z",
    )
    p.add_argument(
        "--pair",
        choices=["any", "258"],
        default="any",
        help="which tiles may be the pair: any (default) or 258 (the 2, 5, 8 of each suit)",
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


def analyze_hand(text: str, wild: int | None, rules: WinRules) -> dict[str, Any]:
    """The analysis of one hand as plain data; raises NotationError / ValueError."""
    tiles = parse(text, "mpsz")
    if any(t >= NUM_KINDS for t in tiles):
        bad = next(i for i, ch in enumerate(text) if ch == "f")
        raise NotationError("flowers are not part of an analysed hand", text, bad)
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    over = [t for t in range(NUM_KINDS) if counts[t] > 4]
    if over:
        raise ValueError(f"{text!r} holds {counts[over[0]]} copies of {name(over[0], 'mpsz')}")
    wilds = 0
    if wild is not None:
        wilds = counts[wild]
        counts[wild] = 0
    total = len(tiles)
    out: dict[str, Any] = {"hand": text, "tiles": total, "wilds": wilds}
    if total % 3 == 0:
        raise ValueError(f"{text!r} has {total} tiles; a hand has 3n+1 or 3n+2")
    win = total % 3 == 2 and is_win(counts, wilds, rules)
    out["win"] = win
    out["shanten"] = shanten(counts, wilds, rules)
    if total % 3 == 1:
        hand_counts = [0] * NUM_KINDS
        for t in tiles:
            hand_counts[t] += 1
        ws = waits(counts, wilds, rules)
        out["waits"] = [name(t, "mpsz") for t in ws]
        out["waits_chinese"] = [name(t, "chinese") for t in ws]
        out["unseen"] = {name(t, "mpsz"): 4 - hand_counts[t] for t in ws}
    else:
        out["waits"] = []
        out["waits_chinese"] = []
        out["unseen"] = {}
    return out


def _print_text(res: dict[str, Any]) -> None:
    wild = f" ({res['wilds']} wildcards)" if res["wilds"] else ""
    print(f"hand     {res['hand']}  {res['tiles']} tiles{wild}")
    if res["tiles"] % 3 == 2:
        print(f"win      {'yes' if res['win'] else 'no'}")
    sh = res["shanten"]
    label = "complete" if sh == -1 else "ready (听牌)" if sh == 0 else f"{sh} from ready"
    print(f"shanten  {sh}  {label}")
    if res["tiles"] % 3 == 1:
        if res["waits"]:
            parts = [
                f"{m} {c} ×{res['unseen'][m]}"
                for m, c in zip(res["waits"], res["waits_chinese"], strict=True)
            ]
            left = sum(res["unseen"].values())
            print(f"waits    {', '.join(parts)}  ({left} unseen)")
        else:
            print("waits    none")


def run(args: argparse.Namespace) -> int:
    rules = _rules(args)
    wild: int | None = None
    if args.wild is not None:
        try:
            wild = parse_tile(args.wild, "mpsz")
        except NotationError as e:
            print(f"laizi analyze: bad --wild: {e}", file=sys.stderr)
            return 2
        if wild >= NUM_KINDS:
            print(f"laizi analyze: --wild {args.wild}: a flower cannot be wild", file=sys.stderr)
            return 2
    if args.hand != "-":
        try:
            res = analyze_hand(args.hand, wild, rules)
        except (NotationError, ValueError) as e:
            print(f"laizi analyze: {e}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(res, ensure_ascii=False))
        else:
            _print_text(res)
        return 0
    status = 0
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        try:
            res = analyze_hand(text, wild, rules)
        except (NotationError, ValueError) as e:
            res = {"hand": text, "error": str(e)}
            status = 2
        print(json.dumps(res, ensure_ascii=False), flush=False)
    return status
