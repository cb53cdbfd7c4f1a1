"""µs per hand (median, 95th percentile, worst): laizi's MCR calculator vs PyMahjongGB,
and with golden tiles.

    .venv/bin/python benchmarks/bench_fan.py [--hands 2000] [--repeat 3]

Same seeded hands, same process. Each hand is timed ``--repeat`` times (perf_counter)
and its fastest run kept, so other jobs on a shared machine do not inflate the figures.
Golden rows: a random winning hand whose tiles of one face become 1, 2 or 3 golden tiles.
"cold" rows clear every cache and session table before each run; only the constant
tables built once on first use (``shapes.suit_table``) are warmed up before timing, as
PyMahjongGB's are compiled in. "session tables warm" rows keep the tables that fill up
over a session (set-combination fans, per-group readings) as earlier runs left them.
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


def _session_tables() -> list[dict]:  # type: ignore[type-arg]
    """The tables that fill up over a session (set-combination fans, group readings)."""
    return [*calculator._COMBO_TABLES.values(), shapes.GROUP_READINGS]


def _clear(memo: bool = False) -> None:
    """Clear the per-hand caches; with ``memo`` also the session tables, for the fully
    cold rows."""
    for f in (shapes.readings, shapes.basic_waits):
        f.cache_clear()
    if memo:
        for table in _session_tables():
            table.clear()


Row = tuple[str, float, float, float]


def _stats(name: str, samples: list[float]) -> Row:
    """Median, 95th percentile and worst of ``samples`` (µs)."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (name, statistics.median(ordered), p95, ordered[-1])


REPEAT = 3


def _time(fn: object, cases: list, memo: bool | None) -> list[float]:  # type: ignore[type-arg]
    """µs per case, the fastest of REPEAT runs. ``memo`` None: nothing cleared (the peer
    library); False: the per-hand caches cleared before each run, the session tables kept
    (warm: they also hold what earlier runs of the same hand added); True: everything
    cleared before each run (cold)."""
    samples = []
    for c in cases:
        fastest = float("inf")
        for _ in range(REPEAT):
            if memo is not None:
                _clear(memo)
            t = time.perf_counter()
            fn(c)  # type: ignore[operator]
            fastest = min(fastest, time.perf_counter() - t)
        samples.append(fastest * 1e6)
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
    ap.add_argument("--repeat", type=int, default=3, help="runs per hand, fastest kept")
    args = ap.parse_args()
    global REPEAT
    REPEAT = args.repeat
    rng = random.Random(7)
    cases = [random_case(rng) for _ in range(args.hands)]

    def ours(c: Case) -> None:
        score_hand(c.concealed, c.melds, c.win, c.ctx)

    shapes.suit_table(9)
    shapes.suit_table(7)
    rows = [_stats("PyMahjongGB MahjongFanCalculator", _time(gb_fans, cases, None)),
            _stats("laizi score_hand (no golden), cold", _time(ours, cases, True)),
            _stats("  same, session tables warm", _time(ours, cases, False))]
    for g in (1, 2, 3):
        gcases = _golden_cases(random.Random(g), g, max(50, args.hands // 20))

        def golden(case: tuple[Case, int], g: int = g) -> None:
            c, face = case
            score_hand(c.concealed, c.melds, c.win, c.ctx, golden=g, golden_face=face)

        rows.append(_stats(f"laizi score_hand, {g} golden tile(s), cold",
                           _time(golden, gcases, True)))
        if g == 3:
            rows.append(_stats("  same, session tables warm", _time(golden, gcases, False)))
    gb = rows[0][1]
    print(f"{'calculator':<40} {'median µs':>10} {'p95 µs':>9} {'max µs':>9} "
          f"{'median × PyMahjongGB':>21}")
    for name, med, p95, worst in rows:
        print(f"{name:<40} {med:>10.1f} {p95:>9.1f} {worst:>9.1f} {med / gb:>21.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
