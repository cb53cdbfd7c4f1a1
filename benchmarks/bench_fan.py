"""µs per hand (median, 95th percentile, worst): laizi's MCR calculator vs PyMahjongGB,
and with golden tiles.

    .venv/bin/python benchmarks/bench_fan.py [--hands 2000]

Same seeded hands, same process. Times are this process's CPU time
(``time.process_time``), so other jobs on a shared machine do not inflate them.
Golden rows: a random winning hand whose tiles of one face become 1, 2 or 3 golden tiles.
The per-hand caches (readings, waits) are cleared before every hand so every hand is
cold; the constant tables built once on first use (``shapes.suit_table``) are warmed up
before timing, as PyMahjongGB's are compiled in. The tables of set-combination fans and
of per-group readings fill up over a session; the "session tables cleared" rows clear
them before every hand too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from laizi.scoring.mcr import calculator, score_hand, shapes
from mcr_random import Case, gb_fans, random_case


def _clear(memo: bool = False) -> None:
    """Clear the per-hand caches; with ``memo`` also the tables that fill up over a
    session (set-combination fans, per-group readings), for the fully cold rows."""
    for f in (shapes.readings, shapes.basic_waits):
        f.cache_clear()
    if memo:
        for table in calculator._COMBO_TABLES.values():
            table.clear()
        shapes.GROUP_READINGS.clear()


Row = tuple[str, float, float, float]


def _stats(name: str, samples: list[float]) -> Row:
    """Median, 95th percentile and worst of ``samples`` (µs)."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (name, statistics.median(ordered), p95, ordered[-1])


def _time(fn: object, cases: list[Case], cold: bool, memo: bool = False) -> list[float]:
    samples = []
    for c in cases:
        if cold:
            _clear(memo)
        t = time.process_time()
        fn(c)  # type: ignore[operator]
        samples.append((time.process_time() - t) * 1e6)
    return samples


def _golden_cases(rng: random.Random, g: int, n: int) -> list[tuple[Case, int]]:
    out: list[tuple[Case, int]] = []
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

    shapes.suit_table(9)
    shapes.suit_table(7)
    rows = [_stats("PyMahjongGB MahjongFanCalculator", _time(gb_fans, cases, cold=False)),
            _stats("laizi score_hand (no golden)", _time(ours, cases, cold=True)),
            _stats("  same, session tables cleared", _time(ours, cases, True, True))]
    for g in (1, 2, 3):
        gcases = _golden_cases(random.Random(g), g, max(50, args.hands // 20))
        for memo in (False, True) if g == 3 else (False,):
            samples = []
            for c, face in gcases:
                _clear(memo)
                t = time.process_time()
                score_hand(c.concealed, c.melds, c.win, c.ctx, golden=g, golden_face=face)
                samples.append((time.process_time() - t) * 1e6)
            name = (f"laizi score_hand, {g} golden tile(s)" if not memo
                    else "  same, session tables cleared")
            rows.append(_stats(name, samples))
    gb = rows[0][1]
    print(f"{'calculator':<40} {'median µs':>10} {'p95 µs':>9} {'max µs':>9} "
          f"{'median × PyMahjongGB':>21}")
    for name, med, p95, worst in rows:
        print(f"{name:<40} {med:>10.1f} {p95:>9.1f} {worst:>9.1f} {med / gb:>21.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
