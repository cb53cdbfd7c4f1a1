"""laizi.analysis against its compiled peers, side by side in one run (issue 25 rows).

    .venv/bin/python benchmarks/bench_win.py [--hands 2000] [--rounds 15] [--seed 7]
    .venv/bin/python benchmarks/bench_win.py --jingzhou-memo 150 --rounds 11

Rows (ratio = laizi ÷ peer; below 1 means laizi is faster):

* ``shanten, MCR five forms``: ``shanten`` under standard + 七对 + 十三幺 + 全不靠 + 组合龙
  against PyMahjongGB's ``MahjongShanten`` (C++, the same five forms), 13-tile hands;
* ``waits, +13 orphans``: ``waits`` with 七对 and 十三幺 allowed against riichienv's
  ``HandEvaluator(tiles).get_waits()`` (Rust; riichi rules: standard, 七対子, 国士無双);
  the standard-form ``waits`` and the five MCR forms are printed beside it;
* ``win check``: ``is_win`` standard only / + 七对 / + 十三幺 (and the five MCR forms)
  against riichienv's ``calculate_shanten(tiles) == -1`` (its cheapest complete-hand test;
  it always tries the three riichi forms), 14-tile hands.

Hand sets: ``near`` = four random sets and a pair (at most 4 copies of a tile; minus one
random tile for 13-tile rows), ``random`` = tiles drawn from a shuffled wall, ``orphans``
= 13-14 tiles drawn mostly from the 幺九 tiles (the hands the special-shape pre-checks
must not wave through). Method: every input is converted before timing (count vectors for
laizi, tile-name tuples for PyMahjongGB, 136-tile id lists for riichienv), so a timed
call is the library and nothing else. Each round times one pass of each side over the
``--hands`` hands of a row (CPU time, ``time.process_time``; the order of the two sides
alternates between rounds) so load on the shared machine hits both alike; the figures are
the median µs per call of each side and the median over rounds of the per-round ratio.
A first round is untimed (it fills laizi's lazily built tables; the peers' are compiled
in). Agreement with each peer is printed (riichi rules differ from ours on 七对 with four
of a kind, which we count as two pairs, and riichienv leaves out a wait on a tile the hand
holds four of, which we list; see ``docs/analysis.md``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from laizi import tiles as T
from laizi.analysis import WinRules, is_win, shanten, waits

STANDARD = WinRules(seven_pairs=False)
SEVEN = WinRules()
ORPHANS = WinRules(thirteen_orphans=True)
MCR = WinRules(thirteen_orphans=True, knitted=True)
_YAOJIU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def near_hand(rng: random.Random) -> list[int]:
    """Four random sets and a pair, at most 4 copies of any tile."""
    while True:
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                t = rng.randrange(3) * 9 + rng.randrange(7)
                for x in (t, t + 1, t + 2):
                    c[x] += 1
            else:
                c[rng.randrange(34)] += 3
        c[rng.randrange(34)] += 2
        if max(c) <= 4:
            return c


def wall_hand(rng: random.Random, size: int) -> list[int]:
    c = [0] * 34
    for t in rng.sample([t for t in range(34) for _ in range(4)], size):
        c[t] += 1
    return c


def orphans_hand(rng: random.Random, size: int) -> list[int]:
    """Mostly 幺九 tiles: the 13 orphans, each tile once, a random one twice, then up to
    two of them swapped for random tiles."""
    tiles = [*_YAOJIU, rng.choice(_YAOJIU)][:size]
    for _ in range(rng.randrange(3)):
        tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    if max(c) > 4:
        return orphans_hand(rng, size)
    return c


def drop_one(c: list[int], rng: random.Random) -> list[int]:
    d = list(c)
    d[rng.choice([t for t in range(34) if d[t]])] -= 1
    return d


def make_set(name: str, size: int, n: int, rng: random.Random) -> list[list[int]]:
    out = []
    for _ in range(n):
        if name == "near":
            c = near_hand(rng)
            out.append(c if size == 14 else drop_one(c, rng))
        elif name == "random":
            out.append(wall_hand(rng, size))
        else:
            out.append(orphans_hand(rng, size))
    return out


def gb_tiles(c: Sequence[int]) -> tuple[str, ...]:
    return tuple(T.name(t, "gb") for t in range(34) for _ in range(c[t]))


def tiles136(c: Sequence[int]) -> list[int]:
    return [4 * t + k for t in range(34) for k in range(c[t])]


Runner = Callable[[], None]


def timed(run: Runner) -> float:
    t0 = time.process_time()
    run()
    return time.process_time() - t0


def compare(
    rows: Sequence[tuple[str, Runner, Runner]], n: int, rounds: int
) -> list[tuple[str, float, float, float]]:
    """Per row: (name, median µs laizi, median µs peer, median of per-round ratios)."""
    for _name, ours, peer in rows:  # untimed: fills laizi's tables
        ours()
        peer()
    us_o: dict[str, list[float]] = {r[0]: [] for r in rows}
    us_p: dict[str, list[float]] = {r[0]: [] for r in rows}
    ratio: dict[str, list[float]] = {r[0]: [] for r in rows}
    for rnd in range(rounds):
        for name, ours, peer in rows:
            if rnd % 2:
                tp = timed(peer)
                to = timed(ours)
            else:
                to = timed(ours)
                tp = timed(peer)
            us_o[name].append(to / n * 1e6)
            us_p[name].append(tp / n * 1e6)
            ratio[name].append(to / tp)
    return [
        (r[0], statistics.median(us_o[r[0]]), statistics.median(us_p[r[0]]),
         statistics.median(ratio[r[0]]))
        for r in rows
    ]


def _loop(f: Callable[..., Any], args: Sequence[tuple[Any, ...]]) -> Runner:
    def run() -> None:
        for a in args:
            f(*a)
    return run


def jingzhou_memo(rounds: int, hands: int) -> None:
    """Jingzhou random-agent play with the win-check memo issue 25 found (re-created here,
    as it was) against ``is_win`` called directly, which the rules module now does:
    interleaved rounds of fresh seeds, CPU µs per applied action, median of ratios."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import laizi.variants.jingzhou_rules as jr
    from bench_games import random_hand

    caches: dict[WinRules, dict[tuple[tuple[int, ...], int], bool]] = {}

    def memo_win(counts: tuple[int, ...], wilds: int, rules: WinRules) -> bool:
        cache = caches.setdefault(rules, {})
        key = (counts, wilds)
        got = cache.get(key)
        if got is None:
            if len(cache) >= 1 << 18:
                cache.clear()
            got = cache[key] = is_win(counts, wilds, rules)
        return got

    direct = jr._win
    for seed in range(hands):  # warm-up: the analysis tables
        random_hand("jingzhou", 10_000 + seed)
    per: dict[str, list[float]] = {"memo": [], "direct": []}
    ratios = []
    try:
        for rnd in range(rounds):
            seeds = range(rnd * hands, (rnd + 1) * hands)
            got: dict[str, float] = {}
            for side in (("memo", "direct") if rnd % 2 == 0 else ("direct", "memo")):
                jr._win = memo_win if side == "memo" else direct  # type: ignore[assignment]
                t0 = time.process_time()
                steps = sum(random_hand("jingzhou", s) for s in seeds)
                got[side] = (time.process_time() - t0) / steps * 1e6
                per[side].append(got[side])
            ratios.append(got["memo"] / got["direct"])
    finally:
        jr._win = direct
    entries = sum(len(c) for c in caches.values())
    print(f"jingzhou, random agents, {rounds} rounds of {hands} hands: memo "
          f"{statistics.median(per['memo']):.2f} us/action, is_win directly "
          f"{statistics.median(per['direct']):.2f}; memo / direct "
          f"{statistics.median(ratios):.3f}; memo entries after the run {entries}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="hands per row and round")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--sets", default="near,random,orphans")
    ap.add_argument("--jingzhou-memo", type=int, metavar="HANDS", default=0,
                    help="instead: Jingzhou play with the removed win-check memo vs without, "
                         "HANDS hands a round")
    args = ap.parse_args(argv)
    if args.jingzhou_memo:
        jingzhou_memo(args.rounds, args.jingzhou_memo)
        return 0
    try:
        from MahjongGB import MahjongShanten
    except ImportError:
        print("needs PyMahjongGB: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    try:
        from riichienv import _riichienv as rc  # type: ignore[import-untyped]  # compiled core
    except ImportError:
        print("needs riichienv: pip install riichienv", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    n = args.hands
    rows: list[tuple[str, Runner, Runner]] = []
    agree: list[str] = []
    evaluator = rc.HandEvaluator
    rshanten = rc.calculate_shanten
    for set_name in args.sets.split(","):
        h13 = make_set(set_name, 13, n, rng)
        h14 = make_set(set_name, 14, n, rng)
        g13 = [(gb_tiles(c),) for c in h13]
        r13: list[tuple[list[int], list[Any]]] = [(tiles136(c), []) for c in h13]
        r14 = [(tiles136(c),) for c in h14]

        def gb_sh(hand: tuple[str, ...]) -> int:
            return int(MahjongShanten(hand=hand, pack=()))

        rows.append((f"{set_name}: shanten, MCR five forms vs PyMahjongGB",
                     _loop(shanten, [(c, 0, MCR) for c in h13]), _loop(gb_sh, g13)))

        def rw(tl: list[int], melds: list[Any]) -> list[int]:
            return list(evaluator(tl, melds).get_waits())

        peer_waits = _loop(rw, r13)
        for label, rules in (("+13 orphans", ORPHANS), ("standard", STANDARD),
                             ("MCR five forms", MCR)):
            rows.append((f"{set_name}: waits, {label} vs riichienv",
                         _loop(waits, [(c, 0, rules) for c in h13]), peer_waits))

        def rwin(tl: list[int]) -> bool:
            return bool(rshanten(tl) == -1)

        peer_win = _loop(rwin, r14)
        for label, rules in (("standard", STANDARD), ("+7 pairs", SEVEN),
                             ("+13 orphans", ORPHANS), ("MCR five forms", MCR)):
            rows.append((f"{set_name}: is_win, {label} vs riichienv",
                         _loop(is_win, [(c, 0, rules) for c in h14]), peer_win))
        same_sh = sum(shanten(c, 0, MCR) == gb_sh(g[0]) for c, g in zip(h13, g13, strict=True))
        same_w = sum(waits(c, 0, ORPHANS) == sorted(rw(*r)) for c, r in zip(h13, r13, strict=True))
        same_win = sum(is_win(c, 0, ORPHANS) == rwin(*r) for c, r in zip(h14, r14, strict=True))
        agree.append(f"{set_name}: shanten = PyMahjongGB {same_sh}/{n}, waits (+13 orphans) = "
                     f"riichienv {same_w}/{n}, is_win (+13 orphans) = riichienv {same_win}/{n}")
    res = compare(rows, n, args.rounds)
    print(f"{n} hands per row, {args.rounds} rounds, seed {args.seed}, "
          f"Python {sys.version.split()[0]}; CPU time, medians; ratio = laizi / peer")
    print(f"{'row':58} {'laizi us':>9} {'peer us':>8} {'ratio':>6}")
    for name, uo, up, r in res:
        print(f"{name:58} {uo:9.2f} {up:8.2f} {r:6.2f}")
    for line in agree:
        print("agreement " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
