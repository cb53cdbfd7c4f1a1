"""Shanten / is_win / waits time by hand size and wildcards (looks for slow cliffs).

    .venv/bin/python benchmarks/bench_shanten_totals.py [--hands 300] [--seed 5] [--runs 3]

For each number of real tiles (13, 14, 16, 17) and of wildcards (0-4) it draws ``--hands``
random hands from a shuffled wall and reports the fastest of ``--runs`` timed passes (µs per
call, after one untimed warm-up pass, so lazily built tables are excluded; the machine is
shared, so the fastest pass is the least disturbed one). Columns: shanten under the default
rules and under MCR's five forms (standard, 七对, 十三幺, 全不靠, 组合龙); ``waits`` for 3n+1
totals; ``is_win`` for 3n+2 totals. Where a peer exists (13 real tiles, no wildcard:
PyMahjongGB's ``MahjongShanten``, its tile names built before timing), the last column is
the median over at least 5 interleaved rounds of the per-round ratio laizi's MCR shanten ÷
PyMahjongGB's (CPU time; below 1: laizi faster).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from laizi import tiles as T
from laizi.analysis import WinRules, is_win, shanten, waits

MCR = WinRules(thirteen_orphans=True, knitted=True)


def hands(real: int, count: int, rng: random.Random) -> list[list[int]]:
    wall = [t for t in range(34) for _ in range(4)]
    out = []
    for _ in range(count):
        c = [0] * 34
        for t in rng.sample(wall, real):
            c[t] += 1
        out.append(c)
    return out


def fastest_us(
    f: Callable[[list[int], int], object], hs: list[list[int]], w: int, runs: int
) -> float:
    for c in hs:
        f(c, w)
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        for c in hs:
            f(c, w)
        best = min(best, time.perf_counter() - t0)
    return best / len(hs) * 1e6


def gb_ratio(hs: list[list[int]], runs: int) -> float | None:
    """Median of per-round ratios laizi MCR shanten ÷ PyMahjongGB (None without it)."""
    try:
        from MahjongGB import MahjongShanten
    except ImportError:
        return None
    names = [tuple(T.name(t, "gb") for t in range(34) for _ in range(c[t])) for c in hs]
    ratios = []
    for rnd in range(runs):
        times = {}
        for side in (("gb", "laizi") if rnd % 2 else ("laizi", "gb")):
            t0 = time.process_time()
            if side == "gb":
                for h in names:
                    MahjongShanten(hand=h, pack=())
            else:
                for c in hs:
                    shanten(c, 0, MCR)
            times[side] = time.process_time() - t0
        ratios.append(times["laizi"] / times["gb"])
    return statistics.median(ratios)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    print(
        f"{'real':>4} {'wild':>4} {'total':>5} {'shanten us':>11} {'mcr us':>7} {'waits us':>9}"
        f" {'is_win us':>10} {'mcr/gb':>7}"
    )
    for real in (13, 14, 16, 17):
        hs = hands(real, args.hands, rng)
        for w in range(5):
            total = real + w
            if total % 3 == 0:
                continue
            sh = fastest_us(shanten, hs, w, args.runs)
            mcr = fastest_us(lambda c, k: shanten(c, k, MCR), hs, w, args.runs)
            wt = fastest_us(waits, hs, w, args.runs) if total % 3 == 1 else None
            iw = fastest_us(is_win, hs, w, args.runs) if total % 3 == 2 else None
            gb = gb_ratio(hs, max(args.runs, 5)) if w == 0 and real == 13 else None
            wts = f"{wt:9.1f}" if wt is not None else f"{'-':>9}"
            iws = f"{iw:10.2f}" if iw is not None else f"{'-':>10}"
            gbs = f"{gb:7.2f}" if gb is not None else f"{'-':>7}"
            print(f"{real:4} {w:4} {total:5} {sh:11.1f} {mcr:7.1f} {wts} {iws} {gbs}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
