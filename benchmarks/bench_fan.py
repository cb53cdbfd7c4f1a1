"""Median µs per hand: laizi's MCR calculator vs PyMahjongGB, and with golden tiles.

    .venv/bin/python benchmarks/bench_fan.py [--hands 2000]

Same seeded hands, same process. Golden rows: a random winning hand whose tiles of one
face become 1, 2 or 3 golden tiles (caches cleared per hand so every hand is cold).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from laizi.scoring.mcr import (
    score_hand,
    shapes,
)
from mcr_random import Case, gb_fans, random_case


def _clear() -> None:
    for f in (shapes.readings, shapes.basic_waits):
        f.cache_clear()


def _time(fn: object, cases: list[Case], cold: bool) -> float:
    samples = []
    for c in cases:
        if cold:
            _clear()
        t = time.perf_counter()
        fn(c)  # type: ignore[operator]
        samples.append((time.perf_counter() - t) * 1e6)
    return statistics.median(samples)


def _golden_cases(rng: random.Random, g: int, n: int) -> list[tuple[Case, int]]:
    out = []
    while len(out) < n:
        c = random_case(rng)
        face = rng.choice(c.concealed)
        if c.concealed.count(face) >= g:
            out.append((c, face))
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2000)
    args = ap.parse_args()
    rng = random.Random(7)
    cases = [random_case(rng) for _ in range(args.hands)]

    def ours(c: Case) -> None:
        score_hand(c.concealed, c.melds, c.win, c.ctx)

    gb = _time(gb_fans, cases, cold=False)
    mine = _time(ours, cases, cold=True)
    rows = [("PyMahjongGB MahjongFanCalculator", gb, 1.0),
            ("laizi score_hand (no golden)", mine, mine / gb)]
    for g in (1, 2, 3):
        gcases = _golden_cases(random.Random(g), g, max(50, args.hands // 20))
        samples = []
        for c, face in gcases:
            _clear()
            t = time.perf_counter()
            score_hand(c.concealed, c.melds, c.win, c.ctx, golden=g, golden_face=face)
            samples.append((time.perf_counter() - t) * 1e6)
        med = statistics.median(samples)
        rows.append((f"laizi score_hand, {g} golden tile(s)", med, med / gb))
    print(f"{'calculator':<40} {'median µs/hand':>15} {'× PyMahjongGB':>14}")
    for name, us, ratio in rows:
        print(f"{name:<40} {us:>15.1f} {ratio:>14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
