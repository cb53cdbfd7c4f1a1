"""How well the search bot's samples pair its candidates, with and without coupled draws.

The search values each candidate on the same samples and keeps greedy's choice unless a
rival wins on the paired differences by ``margin`` standard errors. The smaller those
differences' spread, the fewer samples a real difference needs. This plays ``--seeds``
deals with the search bot in seat 0 among greedy bots (budget 0, ``--samples`` samples a
decision: no clock, so both settings see exactly the same samples) and, at every decision
the search weighs, asks it twice: with ``coupled`` draws (every seat draws from its own
stream of the wall, :meth:`laizi.engine.Game.split_wall`) and without (one shared
wall). The hand goes on with the uncoupled bot's choice. It prints, per setting, the share
of samples whose paired difference is zero, the root mean square difference, the median
ratio of the per-decision standard errors, and how the decisions' ``z`` (the best rival's
mean gain over its standard error) are spread.

With ``--split N`` it also tells what a rival that won on the first ``N`` samples is
worth: decisions are binned by ``z`` over those samples (what a search of ``N`` samples
would have seen) and each bin's held-out gain is the rival's mean paired difference
over the remaining samples, which the binning never saw (so no winner's curse). It is a
gain in the playout world, not at the table, but it shows which margins pick rivals
that are really better. With both settings it also compares, per margin, the deviations
each setting would make, valued on the coupled setting's held-out samples.
``--settings coupled`` asks only the coupled bot (and plays its choices), which halves
the time.

    .venv/bin/python benchmarks/search_pairing.py mcr --seeds 12 --samples 32
    .venv/bin/python benchmarks/search_pairing.py mcr --seeds 12 --first 100
    .venv/bin/python benchmarks/search_pairing.py mcr --seeds 40 --samples 64 \
        --settings coupled --split 16
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

from laizi.bots import make_bot
from laizi.bots.search import SearchBot
from laizi.engine import Game


def paired(values: list[tuple[float, ...]]) -> tuple[int, list[float], float, float]:
    """The best rival (the largest mean): its index, its paired differences to greedy's
    choice, their mean and standard error."""
    best: tuple[int, list[float], float, float] | None = None
    for i in range(1, len(values[0])):
        ds = [v[i] - v[0] for v in values]
        n = len(ds)
        m = sum(ds) / n
        se = math.sqrt(sum((d - m) ** 2 for d in ds) / n / n)
        if best is None or m > best[2]:
            best = (i, ds, m, se)
    assert best is not None
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant")
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--first", type=int, default=0, help="first seed")
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--settings", choices=("both", "coupled"), default="both")
    ap.add_argument("--split", type=int, default=0,
                    help="bin decisions by z over this many first samples and value "
                         "them on the rest (0: off)")
    args = ap.parse_args()
    if args.split and not 2 <= args.split < args.samples:
        ap.error("--split needs 2 <= N < --samples")
    settings = (False, True) if args.settings == "both" else (True,)

    stats: dict[bool, dict[str, list[float]]] = {
        c: {"diffs": [], "se": [], "z": []} for c in settings}
    held: dict[str, list[float]] = {}
    records: list[dict[bool, list[tuple[float, ...]]]] = []
    decisions = 0
    t0 = time.perf_counter()
    for seed in range(args.first, args.first + args.seeds):
        g = Game(args.variant, seed=seed, dealer=seed % 4)
        bots = {c: SearchBot(seed, budget_ms=0, rollouts=args.samples, coupled=c)
                for c in settings}
        others = [make_bot("greedy", seed * 10 + s) for s in range(g.n)]
        while not g.over:
            s = g.to_act()[0]
            view, legal = g.view(s), g.legal_actions(s)
            if s != 0:
                g.apply(others[s].choose(view, legal))
                continue
            chosen = {c: bots[c].choose(view, legal) for c in settings}
            got = {c: bots[c].last_stats.get("values") for c in settings}
            lengths = {len(v) if isinstance(v, list) else 0 for v in got.values()}
            if len(lengths) == 1 and min(lengths) >= max(2, args.split + 1):
                decisions += 1
                if args.split:
                    records.append({c: list(v) for c, v in got.items()
                                    if isinstance(v, list)})
                for c in settings:
                    values = got[c]
                    assert isinstance(values, list)
                    _i, ds, m, se = paired(values)
                    stats[c]["diffs"].extend(ds)
                    stats[c]["se"].append(se)
                    stats[c]["z"].append(m / se if se > 0 else 0.0)
                    if args.split and c == settings[-1]:
                        first, rest = values[:args.split], values[args.split:]
                        best, _ds, m, se = paired(first)
                        z = m / se if se > 0 else (math.inf if m > 0 else -math.inf)
                        bin_ = next(name for name, top in _BINS if z < top)
                        held.setdefault(bin_, []).append(
                            sum(v[best] - v[0] for v in rest) / len(rest))
            g.apply(chosen[settings[0]])
    took = time.perf_counter() - t0
    print(f"{args.variant}: seeds {args.first}..{args.first + args.seeds - 1}, "
          f"{decisions} decisions weighed, {args.samples} samples each ({took:.0f} s)")
    for c in settings:
        d = stats[c]["diffs"]
        zero = sum(x == 0 for x in d) / len(d)
        rms = math.sqrt(sum(x * x for x in d) / len(d))
        bins = Counter(max(-4, min(4, math.floor(z))) for z in stats[c]["z"])
        spread = "  ".join(f"{b:+d}:{bins[b]}" for b in range(-4, 5))
        name = "coupled" if c else "shared wall"
        print(f"  {name:11s} zero differences {zero:6.1%}  rms difference {rms:6.2f}  "
              f"z>=3: {sum(z >= 3 for z in stats[c]['z'])}   z floor counts {spread}")
    ratios = ([b / a for a, b in zip(stats[False]["se"], stats[True]["se"], strict=True)
               if a > 0 and b > 0] if len(settings) == 2 else [])
    if ratios:
        print(f"  standard error, coupled / shared wall: median {statistics.median(ratios):.3f}"
              f", mean {statistics.mean(ratios):.3f} (over {len(ratios)} decisions)")

    if args.split:
        name = "coupled" if settings[-1] else "shared wall"
        print(f"  held out ({name}): z over the first {args.split} samples, the rival's "
              f"mean gain over the other {args.samples - args.split}")
        for bin_, _top in _BINS:
            gains = held.get(bin_, [])
            if not gains:
                continue
            m = sum(gains) / len(gains)
            sd = math.sqrt(sum((x - m) ** 2 for x in gains) / max(1, len(gains) - 1))
            print(f"    z {bin_:>8s}: {len(gains):5d} decisions, held-out gain {m:+7.2f} "
                  f"± {1.96 * sd / math.sqrt(len(gains)):.2f}")
        if len(settings) == 2:
            margins_table(records, args.split)


def margins_table(records: list[dict[bool, list[tuple[float, ...]]]], split: int) -> None:
    """Per margin and setting: the deviations a search of ``split`` samples would make
    (the best rival's ``z`` over them above the margin), valued on the coupled setting's
    held-out samples (the same quantity, measured with less noise, and never seen by
    either selection), and their summed gain over the square root of their number, which
    is what the arena's ``z`` goes as (each deviation adds about the same spread)."""
    print(f"  margins: deviations chosen on the first {split} samples, valued held out "
          "(coupled samples)")
    for margin in (1.0, 1.5, 2.0, 2.5, 3.0):
        for c in (False, True):
            gains = []
            for rec in records:
                first = rec[c][:split]
                best, _ds, m, se = paired(first)
                z = m / se if se > 0 else (math.inf if m > 0 else -math.inf)
                if z <= margin:
                    continue
                rest = rec[True][split:]
                gains.append(sum(v[best] - v[0] for v in rest) / len(rest))
            n, total = len(gains), sum(gains)
            name = "coupled" if c else "shared wall"
            print(f"    margin {margin:.1f} {name:11s}: {n:4d} deviations, held-out gain "
                  f"{total:+8.1f} ({total / max(1, n):+7.2f} each), "
                  f"sum / sqrt(n) {total / math.sqrt(max(1, n)):+6.1f}")


_BINS = (("< 1", 1.0), ("1 to 2", 2.0), ("2 to 3", 3.0), (">= 3", math.inf))
"""Bins of ``z`` for ``--split`` (name, upper bound)."""


if __name__ == "__main__":
    main()
