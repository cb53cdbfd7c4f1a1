"""Speed of laizi.analysis against the `mahjong` package (extra ``bench``).

    .venv/bin/python benchmarks/bench_analysis.py [--hands N] [--seed S] [--runs 5] [--batch 1000]

Hands are seeded: half are winning by construction (4 random melds + a pair, at most 4
copies of a tile), half are 14 random tiles from a shuffled wall. The same wild-free count
vectors go to ``mahjong``'s ``Agari.is_agari`` and (minus one tile, 13 tiles)
``Shanten.calculate_shanten``; for ``is_win`` with k wildcards, k tiles of each hand are
turned into wildcards. Every input is built before timing (``mahjong`` takes the same
34-count lists, so nothing is converted). Each of ``--runs`` rounds times every function
over all hands, in batches of ``--batch`` calls (1000 by default) taken in turn, so load
changes hit all alike; the garbage collector is off while timing, as in :mod:`timeit`.
The figures are the median µs per call over rounds and the median of the per-round ratio
laizi ÷ ``mahjong`` (below 1: laizi faster). A first untimed pass fills the lazily built
tables; its wall and CPU time, the same pass again and the resident memory it added are
printed too. The compiled peers (PyMahjongGB's MCR shanten, riichienv's waits and win
check) are compared in ``benchmarks/bench_win.py``.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from laizi.analysis import WinRules, is_win, shanten, waits
from laizi.analysis._group import COVERS
from laizi.analysis.compiled_rules import TABLES

BATCH = 1000
"""Calls per timed batch. Smaller batches switch functions more often, which evicts each
function's tables from the CPU caches between batches (100 costs is_win ~0.2 us a call)."""


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


def _rss_mib() -> float:
    """Resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError):
        return 0.0


def round_us(
    suites: dict[str, tuple[Callable[[Any], None], Sequence[Any]]], runs: int, batch: int = BATCH
) -> dict[str, list[float]]:
    """Mean microseconds per call of every suite, one figure per round.

    Each round times the suites' batches in turn (round robin), so a change in the
    machine's load hits all of them alike and a ratio taken within one round compares like
    with like. As in :mod:`timeit`, the garbage collector is off while timing (and the
    setup's objects are frozen out of it), for both sides alike.
    """
    total: dict[str, list[float]] = {name: [0.0] * runs for name in suites}
    size = min(len(data) for _run, data in suites.values())
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        for run in range(runs):
            for i in range(0, size, batch):
                for name, (runner, data) in suites.items():
                    chunk = data[i : i + batch]
                    t0 = time.perf_counter()
                    runner(chunk)
                    total[name][run] += time.perf_counter() - t0
    finally:
        gc.enable()
        gc.unfreeze()
    return {name: [x / size * 1e6 for x in v] for name, v in total.items()}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--runs", type=int, default=5, help="timed rounds (medians are quoted)")
    ap.add_argument("--batch", type=int, default=BATCH, help="calls per timed batch")
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

    def one_pass() -> None:
        for k in (0, 1, 2, 4):
            for c, w in wild_sets[k]:
                is_win(c, w)
        for d in hands13:
            shanten(d, 0, mcr_like)
            waits(d)

    gc.collect()
    rss0 = _rss_mib()
    t0, c0 = time.perf_counter(), time.process_time()
    one_pass()
    cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    gc.collect()
    rss1 = _rss_mib()
    t0, c0 = time.perf_counter(), time.process_time()
    one_pass()
    warm, warm_cpu = time.perf_counter() - t0, time.process_time() - c0

    agari = Agari()
    sh = Shanten()

    # Each runner is the loop a user writes: a count vector (and wildcards) in per call.
    def run_agari(chunk: Sequence[list[int]]) -> None:
        for c in chunk:
            agari.is_agari(c)

    def run_mj_shanten(chunk: Sequence[list[int]]) -> None:
        for d in chunk:
            sh.calculate_shanten(d)

    def run_shanten(chunk: Sequence[list[int]]) -> None:
        for d in chunk:
            shanten(d, 0, mcr_like)

    def run_waits(chunk: Sequence[list[int]]) -> None:
        for d in chunk:
            waits(d)

    def run_is_win(chunk: Sequence[tuple[list[int], int]]) -> None:
        for c, w in chunk:
            is_win(c, w)

    suites: dict[str, tuple[Callable[[Any], None], Sequence[Any]]] = {
        "mahjong Agari.is_agari": (run_agari, hands),
        "mahjong Shanten.calculate_shanten": (run_mj_shanten, hands13),
        "shanten (13 tiles)": (run_shanten, hands13),
        "waits (13 tiles)": (run_waits, hands13),
    }
    for k in (0, 1, 2, 4):
        suites[f"is_win, {k} wildcards"] = (run_is_win, wild_sets[k])
    per_round = round_us(suites, args.runs, args.batch)
    med = {name: statistics.median(v) for name, v in per_round.items()}

    def ratio(name: str, peer: str) -> float:
        return statistics.median(
            a / b for a, b in zip(per_round[name], per_round[peer], strict=True))

    rows: list[tuple[str, float, float | None]] = []
    for k in (0, 1, 2, 4):
        name = f"is_win, {k} wildcards"
        rows.append((name, med[name], ratio(name, "mahjong Agari.is_agari")))
    rows.append(("mahjong Agari.is_agari", med["mahjong Agari.is_agari"], None))
    rows.append(("shanten (13 tiles)", med["shanten (13 tiles)"],
                 ratio("shanten (13 tiles)", "mahjong Shanten.calculate_shanten")))
    rows.append(("mahjong Shanten.calculate_shanten", med["mahjong Shanten.calculate_shanten"],
                 None))
    rows.append(("waits (13 tiles)", med["waits (13 tiles)"], None))

    wins = sum(agari.is_agari(c) == is_win(c) for c in hands)
    same_sh = sum(sh.calculate_shanten(d) == shanten(d, 0, mcr_like) for d in hands13)

    print(f"{args.hands} hands, seed {args.seed}, Python {sys.version.split()[0]}")
    print(f"{args.runs} rounds, batches of {args.batch} (wall clock, GC off while timing); "
          "medians over rounds")
    print(f"{'function':36} {'us/call':>15} {'ratio laizi/mahjong':>20}")
    for name, us, r in rows:
        cell = f"{r:.2f}" if r is not None else ""
        print(f"{name:36} {us:15.2f} {cell:>20}")
    print(f"agreement with mahjong: is_win {wins}/{len(hands)}, shanten {same_sh}/{len(hands13)}")
    keys = sum(len(t.need) for t in TABLES.values())
    print(
        f"first pass (fills tables): {cold:.1f} s wall / {cold_cpu:.1f} s CPU; same pass again: "
        f"{warm:.1f} s / {warm_cpu:.1f} s; RSS growth over the first pass: {rss1 - rss0:.0f} MiB"
    )
    line = f"table keys {keys}"
    line += f", cover vectors {len(COVERS)}"
    if all(hasattr(t, "automaton_states") for t in TABLES.values()):  # absent before 2026-11
        got = [t.automaton_states() for t in TABLES.values()]
        line += f", automaton states need {sum(x[0] for x in got)} cover {sum(x[1] for x in got)}"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
