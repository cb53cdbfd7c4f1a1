"""What 听牌提示 cost the hall a turn (laizi.engine.hints), per variant.

    python benchmarks/bench_hints.py                 # 20 hands a variant
    python benchmarks/bench_hints.py --hands 50 golden --json
    python benchmarks/bench_hints.py --budget all    # every discard's waits with the turn

Greedy bots play ``--hands`` hands of each variant (they head for 听牌, so many states are
ready). At every decision of a seat — its turn with 3n+2 tiles, or a claim window with
3n+1 — the seat's hints are worked out once and timed, in the order play reaches them, as
a hall does (its caches carry over from turn to turn as they would there), within the
hall's budget (``--budget``, :data:`~laizi.engine.hints.EAGER_WAITS`; ``all``: none); then
each ready discard whose waits the budget left out is asked for, as a player choosing it
would (:meth:`~laizi.engine.hints.HintWork.waits_of`), each ask timed on its own
(``asks``, their median and worst). The fan
calculator's tables are built first and the collector is set up as the hall does when it
starts (:func:`laizi.scoring.mcr.prepare_tables`, ``gc.freeze``, a young generation of
20,000 allocations); the first ``--warm`` states of each variant
fill the process's analysis tables, which grow with play, and are not counted
(``first``: the cost of the very first one). Times are the thread's CPU time
(``time.thread_time``): on a machine shared with other work, wall time also counts the
moments the process waited for a core; the wall-clock median is printed beside. Printed
per variant: the states, the median, p99 and worst per turn, the worst among states where
the seat holds two or more wildcards (赖子 / 金), the longest single step (``step``:
one discard's waits, :class:`~laizi.engine.hints.HintWork`; the hall lets its event loop
run between the steps, so no other work waits longer than that), the worst less the
garbage collections that ran inside it (``no gc``: a full collection walks every object
of the process, some 30 ms here, and falls into whichever turn allocates at that moment),
and beside them the peer: the bare waits of the same hands from ``laizi.analysis``
(``waits`` per discard with the widest shape rules, no win check by the variant, no
settlement), with the ratio of the medians. The
goal (issue 40): the worst turn under 20 ms on the pure build.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time

from laizi import tiles as T
from laizi.analysis import WinRules, waits
from laizi.engine import Game
from laizi.engine.hints import EAGER_WAITS, HintWork
from laizi.scoring.mcr import prepare_tables
from laizi.sim.decisions import greedy_decisions
from laizi.variants import BUILTIN, get

WIDEST = WinRules(pair_tiles=None, seven_pairs=True, thirteen_orphans=True, knitted=True)


def bare_waits(g: Game, seat: int) -> int:
    """The peer: waits of each discard (or of the hand) from the analysis alone."""
    hand = list(g.hands[seat][:T.NUM_KINDS])
    wild = g.wildcard
    wilds = hand[wild] if wild is not None else 0
    if wild is not None:
        hand[wild] = 0
    found = 0
    if (sum(hand) + wilds) % 3 == 2:
        for d in range(T.NUM_KINDS):
            if hand[d]:
                hand[d] -= 1
                found += len(waits(hand, wilds, WIDEST, wild_tile=wild))
                hand[d] += 1
    elif (sum(hand) + wilds) % 3 == 1:
        found += len(waits(hand, wilds, WIDEST, wild_tile=wild))
    return found


_GC = [0.0, 0.0]
"""CPU time spent collecting garbage (ms, so far) and when the running collection began."""


def _gc_timer(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _GC[1] = time.thread_time()
    else:
        _GC[0] += (time.thread_time() - _GC[1]) * 1000


def measure(variant: str, hands: int, warm: int, budget: int | None) -> dict[str, object]:
    v = get(variant)
    no_gc: list[float] = []
    times: list[float] = []
    wall: list[float] = []
    peer: list[float] = []
    two_wild: list[float] = []
    steps: list[float] = []
    asks: list[float] = []
    first: float | None = None
    seen = 0
    for seed in range(hands):
        for g, s in greedy_decisions(variant, seed):
            view = g.view(s)
            gc0 = _GC[0]
            w0, t0 = time.perf_counter(), time.thread_time()
            work = HintWork(g, v, s, view, eager=budget)  # a step (discard) at a time
            longest = 0.0
            while not work.done:
                s0 = time.thread_time()
                work.step()
                longest = max(longest, time.thread_time() - s0)
            found = work.result()
            ms = (time.thread_time() - t0) * 1000
            for d in found.discards:
                if d.waits is None:
                    a0 = time.thread_time()
                    work.waits_of(d.tile)
                    if seen >= warm:
                        asks.append((time.thread_time() - a0) * 1000)
            seen += 1
            if first is None:
                first = ms
            if seen <= warm:
                continue
            wall.append((time.perf_counter() - w0) * 1000)
            times.append(ms)
            no_gc.append(ms - (_GC[0] - gc0))
            steps.append(longest * 1000)
            t0 = time.thread_time()
            bare_waits(g, s)
            peer.append((time.thread_time() - t0) * 1000)
            if g.wildcard is not None and g.hands[s][g.wildcard] >= 2:
                two_wild.append(ms)
    times.sort()
    med, pmed = statistics.median(times), statistics.median(peer)
    return {"variant": variant, "states": len(times), "median_ms": round(med, 3),
            "p99_ms": round(times[int(len(times) * 0.99)], 3), "worst_ms": round(times[-1], 3),
            "worst_step_ms": round(max(steps), 3), "worst_without_gc_ms": round(max(no_gc), 3),
            "first_ms": round(first or 0.0, 3), "two_wildcards": len(two_wild),
            "worst_two_wildcards_ms": round(max(two_wild), 3) if two_wild else None,
            "wall_median_ms": round(statistics.median(wall), 3),
            "peer_median_ms": round(pmed, 3), "ratio": round(med / pmed, 1) if pmed else None,
            "asks": len(asks), "ask_median_ms": round(statistics.median(asks), 3) if asks else None,
            "ask_worst_ms": round(max(asks), 3) if asks else None}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("variants", nargs="*", default=list(BUILTIN))
    p.add_argument("--hands", type=int, default=20)
    p.add_argument("--warm", type=int, default=10, help="states not counted, at the start")
    p.add_argument("--json", action="store_true")
    p.add_argument("--budget", default=str(EAGER_WAITS),
                   help=f"waits a turn works out (the hall's: {EAGER_WAITS}; all: no limit)")
    args = p.parse_args()
    budget = None if args.budget == "all" else int(args.budget)
    prepare_tables()
    # As the hall does once started (laizi.server.app's _lifespan): what was loaded is
    # frozen out of the collector, and the young generation collected every 20,000
    # allocations, not 700.
    gc.freeze()
    gc.set_threshold(20_000, 50, 1000)
    gc.callbacks.append(_gc_timer)
    rows = [measure(v, args.hands, args.warm, budget) for v in args.variants]
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{'variant':<11}{'states':>7}{'median':>9}{'p99':>9}{'worst':>9}"
          f"{'2 wild':>8}{'worst 2w':>10}{'step':>8}{'no gc':>8}{'wall med':>10}{'peer med':>10}"
          f"{'ratio':>7}"
          f"{'first':>9}{'asks':>6}{'ask med':>9}{'ask max':>9}"
          "   (ms of CPU a turn, an ask)")
    for r in rows:
        w2 = r["worst_two_wildcards_ms"]
        print(f"{r['variant']:<11}{r['states']:>7}{r['median_ms']:>9}{r['p99_ms']:>9}"
              f"{r['worst_ms']:>9}{r['two_wildcards']:>8}{'-' if w2 is None else w2:>10}"
              f"{r['worst_step_ms']:>8}{r['worst_without_gc_ms']:>8}{r['wall_median_ms']:>10}"
              f"{r['peer_median_ms']:>10}{r['ratio']:>7}{r['first_ms']:>9}{r['asks']:>6}"
              f"{_or_dash(r['ask_median_ms']):>9}{_or_dash(r['ask_worst_ms']):>9}")


def _or_dash(x: object) -> str:
    return "-" if x is None else str(x)


if __name__ == "__main__":
    main()
