"""laizi's MCR fan calculator against PyMahjongGB (C++), side by side, and with golden tiles.

    .venv/bin/python benchmarks/bench_fan.py [--hands 1000] [--rounds 21] [--golden]
                                             [--fresh [--warmup 2000]]

Three seeded hand sets, as in issue 25:

* ``concealed``: four sets and a pair, nothing melded, only the winds and 自摸 as context;
* ``melds+flags``: at least one meld (chows, pungs, concealed and melded kongs) and every
  situational flag drawn at random (和绝张, 妙手回春 / 海底捞月, 杠上开花 / 抢杠和, flowers);
* ``mixed``: the test suite's random winning hands (``tests/mcr_random.py``): the above,
  special shapes (七对, 十三幺, 全不靠, 组合龙), rare templates (九莲宝灯, 双龙会, …).

Method: every input is converted before timing, for both calculators (PyMahjongGB's
tuples of tile names, packs and flags; laizi's tile ids, ``Meld`` and ``WinContext``), so
a timed call is the calculator and nothing else. Each round times, for each set, one pass
of PyMahjongGB and one of laizi over its ``--hands`` hands (CPU time,
``time.process_time``, the garbage collector off as in timeit; the order of the two
alternates between rounds), so load on the shared machine hits both alike; the figure
quoted is the median over rounds of the per-round ratio laizi ÷ PyMahjongGB, with the
median µs per hand of each. A first round is untimed (it builds the constant tables both
sides have: PyMahjongGB's are compiled in). Caches keyed by a whole hand are cleared
before every laizi pass; tables over parts of a hand (one group's readings, set
combinations, a seat's melds), whose domain is bounded, are kept as earlier passes left
them, as over a session.

``--fresh``: new hands every round instead (after ``--warmup`` untimed hands per set),
so that those part tables also pay for what they meet for the first time: the stricter
figure, for hands never seen in the process.

``--golden``: also µs per hand with 1, 2, 3 golden tiles (no peer to compare with).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from MahjongGB import MahjongFanCalculator

from laizi import tiles as T
from laizi.scoring.mcr import WinContext, score_hand
from laizi.scoring.mcr.cache import clear_hand_caches
from mcr_random import Case, random_case


def gb_input(case: Case) -> dict[str, Any]:
    """PyMahjongGB's keyword arguments for ``case`` (converted once, before timing)."""
    hand = list(case.concealed)
    hand.remove(case.win)
    packs = []
    for m, offer in zip(case.melds, case.offers, strict=True):
        kind = {"chow": "CHI", "pung": "PENG"}.get(m.kind, "GANG")
        tile = m.tile + 1 if m.kind == "chow" else m.tile
        packs.append((kind, T.name(tile, "gb"), offer))
    ctx = case.ctx
    return dict(
        pack=tuple(packs), hand=tuple(T.name(t, "gb") for t in hand),
        winTile=T.name(case.win, "gb"), flowerCount=ctx.flowers,
        isSelfDrawn=ctx.self_drawn, is4thTile=ctx.last_copy,
        isAboutKong=ctx.kong_replacement or ctx.robbed_kong,
        isWallLast=ctx.last_tile_of_wall or ctx.last_discard,
        seatWind=ctx.seat_wind - T.EAST, prevalentWind=ctx.prevalent_wind - T.EAST,
        verbose=True)


def _concealed(rng: random.Random) -> Case:
    while True:
        c = random_case(rng)
        if c.melds:
            continue
        # Only four sets and a pair: no special shape is a set reading's 7 pairs etc.
        res = score_hand(c.concealed, (), c.win, c.ctx)
        if res.shape != "standard":
            continue
        ctx = WinContext(self_drawn=c.ctx.self_drawn, seat_wind=c.ctx.seat_wind,
                         prevalent_wind=c.ctx.prevalent_wind)
        return Case(c.concealed, (), c.win, ctx, ())


def _melds_flags(rng: random.Random) -> Case:
    while True:
        c = random_case(rng)
        if c.melds:
            return c


SETS: dict[str, Callable[[random.Random], Case]] = {
    "concealed": _concealed,
    "melds+flags": _melds_flags,
    "mixed": random_case,
}


Batch = tuple[list[dict[str, Any]], list[Case]]


def _batch(make: Callable[[random.Random], Case], rng: random.Random, n: int) -> Batch:
    cases = [make(rng) for _ in range(n)]
    return [gb_input(c) for c in cases], cases


def _time_gb(inputs: list[dict[str, Any]]) -> float:
    calc = MahjongFanCalculator
    t = time.process_time()
    for kw in inputs:
        calc(**kw)
    return time.process_time() - t


def _time_ours(cases: list[Case]) -> float:
    clear_hand_caches()
    args = [(c.concealed, c.melds, c.win, c.ctx) for c in cases]
    t = time.process_time()
    for a in args:
        score_hand(*a)
    return time.process_time() - t


def compare(hands: int, rounds: int, seed: int, fresh: bool = False, warmup: int = 0
            ) -> dict[str, tuple[float, float, float]]:
    """Per set: (median µs laizi, median µs PyMahjongGB, median of per-round ratios)."""
    out: dict[str, tuple[float, float, float]] = {}
    ratios: dict[str, list[float]] = {k: [] for k in SETS}
    ours_us: dict[str, list[float]] = {k: [] for k in SETS}
    gb_us: dict[str, list[float]] = {k: [] for k in SETS}
    rngs = {k: random.Random(seed * 1000 + i) for i, k in enumerate(SETS)}
    fixed = {k: _batch(make, rngs[k], hands) for k, make in SETS.items()}
    if fresh:
        for name, make in SETS.items():
            for c in _batch(make, random.Random(seed * 1000 + 500 + len(name)), warmup)[1]:
                score_hand(c.concealed, c.melds, c.win, c.ctx)
    for r in range(rounds + 1):
        for name, make in SETS.items():
            inputs, cases = _batch(make, rngs[name], hands) if fresh else fixed[name]
            gc.collect()
            gc.disable()
            try:
                if r % 2:
                    ours = _time_ours(cases)
                    theirs = _time_gb(inputs)
                else:
                    theirs = _time_gb(inputs)
                    ours = _time_ours(cases)
            finally:
                gc.enable()
            if r == 0:
                continue  # warm-up round: constant tables built on first use
            ratios[name].append(ours / theirs)
            ours_us[name].append(ours / hands * 1e6)
            gb_us[name].append(theirs / hands * 1e6)
    for name in SETS:
        out[name] = (statistics.median(ours_us[name]), statistics.median(gb_us[name]),
                     statistics.median(ratios[name]))
    return out


def _golden_cases(rng: random.Random, g: int, n: int) -> list[tuple[Case, int]]:
    out: list[tuple[Case, int]] = []
    while len(out) < n:
        c = random_case(rng)
        face = rng.choice(c.concealed)
        if c.concealed.count(face) >= g:
            out.append((c, face))
    return out


def golden_rows(hands: int) -> list[tuple[str, float]]:
    rows = []
    for g in (1, 2, 3):
        cases = _golden_cases(random.Random(g), g, hands)
        samples = []
        for c, face in cases:
            clear_hand_caches()
            t = time.process_time()
            score_hand(c.concealed, c.melds, c.win, c.ctx, golden=g, golden_face=face)
            samples.append((time.process_time() - t) * 1e6)
        rows.append((f"{g} golden tile(s)", statistics.median(samples)))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1000, help="hands per set")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--fresh", action="store_true", help="new hands every round")
    ap.add_argument("--warmup", type=int, default=2000,
                    help="with --fresh: untimed hands per set first")
    ap.add_argument("--golden", action="store_true", help="also time golden hands")
    args = ap.parse_args()
    res = compare(args.hands, args.rounds, args.seed, args.fresh, args.warmup)
    how = (f"{args.hands} new hands per set and round, after {args.warmup}" if args.fresh
           else f"the same {args.hands} hands per set every round")
    print(f"{args.rounds} rounds, {how}; CPU time; ratio = median of per-round "
          "(laizi / PyMahjongGB)")
    print(f"{'set':<12} {'laizi µs':>9} {'PyMahjongGB µs':>15} {'ratio':>6}")
    for name, (ours, theirs, ratio) in res.items():
        print(f"{name:<12} {ours:>9.1f} {theirs:>15.2f} {ratio:>6.2f}")
    if args.golden:
        for name, us in golden_rows(max(50, args.hands // 3)):
            print(f"laizi, {name:<18} median {us:>8.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
