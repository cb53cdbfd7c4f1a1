"""Speed of laizi.analysis against the `mahjong` package (extra ``bench``).

    .venv/bin/python benchmarks/bench_analysis.py [--hands 100000] [--seed 2024]

Hands are seeded: half are winning by construction (4 random melds + a pair, at most 4
copies of a tile), half are 14 random tiles from a shuffled wall. The same wild-free count
vectors go to ``mahjong``'s ``Agari.is_agari`` and (minus one tile, 13 tiles)
``Shanten.calculate_shanten``; for ``is_win`` with k wildcards, k tiles of each hand are
turned into wildcards. Each figure is the median over batches of the mean time per call
(batches of 100 calls, so the timer's own cost is negligible; the functions' batches are
timed in turn so that load changes hit all alike). A first untimed pass fills
the lazily built tables; its duration is printed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from laizi.analysis import WinRules, is_win, shanten, waits
from laizi.analysis._group import COVERS
from laizi.analysis.core import _TABLES

BATCH = 100


def make_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands: list[list[int]] = []
    wall = [t for t in range(34) for _ in range(4)]
    while len(hands) < n:
        c = [0] * 34
        if len(hands) % 2 == 0:
            ok = True
            for _ in range(4):
                if rng.random() < 0.5:
                    s = rng.randrange(3)
                    r = rng.randrange(7)
                    tiles = [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
                else:
                    t = rng.randrange(34)
                    tiles = [t, t, t]
                for t in tiles:
                    c[t] += 1
            p = rng.randrange(34)
            c[p] += 2
            ok = max(c) <= 4
            if not ok:
                continue
        else:
            for t in rng.sample(wall, 14):
                c[t] += 1
        hands.append(c)
    return hands


def with_wilds(hands: Sequence[list[int]], k: int, seed: int) -> list[tuple[list[int], int]]:
    rng = random.Random(seed + k)
    out = []
    for c in hands:
        d = list(c)
        tiles = [t for t in range(34) for _ in range(d[t])]
        for t in rng.sample(tiles, k):
            d[t] -= 1
        out.append((d, k))
    return out


def median_us(suites: dict[str, list[Callable[[], object]]]) -> dict[str, float]:
    """Median over batches of the mean microseconds per call, for every suite."""
    per_call: dict[str, list[float]] = {name: [] for name in suites}
    size = min(len(calls) for calls in suites.values())
    for i in range(0, size, BATCH):
        for name, calls in suites.items():
            chunk = calls[i : i + BATCH]
            t0 = time.perf_counter()
            for f in chunk:
                f()
            per_call[name].append((time.perf_counter() - t0) / len(chunk) * 1e6)
    return {name: statistics.median(v) for name, v in per_call.items()}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)

    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        print("needs the bench extra: pip install -e '.[bench]'", file=sys.stderr)
        return 2

    hands = make_hands(args.hands, args.seed)
    rng = random.Random(args.seed + 99)
    hands13 = []
    for c in hands:
        d = list(c)
        d[rng.choice([t for t in range(34) if d[t]])] -= 1
        hands13.append(d)
    wild_sets = {k: with_wilds(hands, k, args.seed) for k in (0, 1, 2, 4)}
    mcr_like = WinRules(thirteen_orphans=True)  # the same shapes mahjong's Shanten tries

    t0 = time.perf_counter()
    for k in (0, 1, 2, 4):
        for c, w in wild_sets[k]:
            is_win(c, w)
    for d in hands13:
        shanten(d, 0, mcr_like)
        waits(d)
    cold = time.perf_counter() - t0

    agari = Agari()
    sh = Shanten()
    # Batches of every function are timed in turn (round robin), so a change in the
    # machine's load hits all of them alike and the ratios stay fair.
    suites: dict[str, list[Callable[[], object]]] = {
        "mahjong Agari.is_agari": [(lambda c=c: agari.is_agari(c)) for c in hands],
        "mahjong Shanten.calculate_shanten": [
            (lambda d=d: sh.calculate_shanten(d)) for d in hands13
        ],
        "shanten (13 tiles)": [(lambda d=d: shanten(d, 0, mcr_like)) for d in hands13],
        "waits (13 tiles)": [(lambda d=d: waits(d)) for d in hands13],
    }
    for k in (0, 1, 2, 4):
        suites[f"is_win, {k} wildcards"] = [
            (lambda c=c, w=w: is_win(c, w)) for c, w in wild_sets[k]
        ]
    med = median_us(suites)
    ref_win = med["mahjong Agari.is_agari"]
    ref_sh = med["mahjong Shanten.calculate_shanten"]
    rows: list[tuple[str, float, float | None]] = []
    for k in (0, 1, 2, 4):
        rows.append((f"is_win, {k} wildcards", med[f"is_win, {k} wildcards"], ref_win))
    rows.append(("mahjong Agari.is_agari", ref_win, None))
    rows.append(("shanten (13 tiles)", med["shanten (13 tiles)"], ref_sh))
    rows.append(("mahjong Shanten.calculate_shanten", ref_sh, None))
    rows.append(("waits (13 tiles)", med["waits (13 tiles)"], None))

    wins = sum(agari.is_agari(c) == is_win(c) for c in hands)
    same_sh = sum(sh.calculate_shanten(d) == shanten(d, 0, mcr_like) for d in hands13)

    print(f"{args.hands} hands, seed {args.seed}, Python {sys.version.split()[0]}")
    print(f"{'function':36} {'median us/call':>15} {'speed-up vs mahjong':>20}")
    for name, us, ref in rows:
        ratio = f"{ref / us:.1f}x" if ref else ""
        print(f"{name:36} {us:15.2f} {ratio:>20}")
    print(f"agreement with mahjong: is_win {wins}/{len(hands)}, shanten {same_sh}/{len(hands13)}")
    keys = sum(len(t.need) for t in _TABLES.values())
    print(
        f"first pass (fills tables): {cold:.1f} s; table keys {keys}, cover vectors {len(COVERS)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
