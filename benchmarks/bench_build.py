"""The compiled build (mypyc, docs/build.md) against the pure-Python package, side by side.

    LAIZI_COMPILE=1 bash scripts/test.sh tests/test_build.py   # makes .venv-compiled
    .venv/bin/python benchmarks/bench_build.py                   # 3 rounds, every variant
    .venv/bin/python benchmarks/bench_build.py --rounds 5 --variant golden --variant mcr

Each round runs, once with the pure package's interpreter and once with the compiled
build's (alternating which goes first, so both see the same machine), per variant:
random agents on the engine alone (``bench_games.random_hand``: µs per applied action),
``benchmarks/bench_bots.py --json --skip-bots`` (random agents through the table and its
driver loop, µs per applied action), and the search bot on fixed decisions (seat 0's
decisions in hands of greedy bots; its 85 ms budget, helper processes as configured),
counting its samples per searched decision. It prints the medians over rounds and the
ratio (above 1: the compiled build is faster, or samples more). Each interpreter
first says which build it imports (``laizi.buildinfo.build()``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
METRICS = [  # (key, label, higher is better)
    ("engine_us_per_action", "engine, random µs/action", False),
    ("random_us_per_action", "driver, random µs/action", False),
    ("search_samples", "search samples/decision", True),
]


def engine_worker(variant: str, hands: int) -> dict[str, float]:
    """Random agents on the engine alone (``bench_games.random_hand``: a ``Game``, its
    legal actions, no table or driver), µs per applied action, CPU time, after a warm-up
    of other seeds."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_games import random_hand

    for seed in range(10_000, 10_000 + hands // 4):
        random_hand(variant, seed)
    t = time.process_time()
    steps = sum(random_hand(variant, seed) for seed in range(hands))
    return {"engine_us_per_action": (time.process_time() - t) / steps * 1e6}


def samples_worker(variant: str, hands: int, limit: int) -> dict[str, float]:
    """The search bot's samples on fixed decisions: seat 0's decisions (more than one
    legal action) of ``hands`` hands played by greedy bots, the first ``limit``; each
    given to one search bot (its default 85 ms budget), the first third uncounted. The
    decisions are the same whichever build plays them (greedy has no clock)."""
    from laizi.bots import make_bot
    from laizi.table.driver import BotController, Decision, play_hand
    from laizi.table.table import Table
    from laizi.variants import get

    states: list[tuple[Any, Any]] = []

    class Recorder(BotController):
        def decide(self, decision: Decision) -> Any:
            if len(decision.legal) > 1 and len(states) < limit:
                states.append((decision.view(), decision.legal))
            return super().decide(decision)

    n = get(variant).seats
    for seed in range(hands):
        table = Table(variant, seed=seed)
        seats = [Recorder(make_bot("greedy", seed * 10))]
        seats += [BotController(make_bot("greedy", seed * 10 + s)) for s in range(1, n)]
        table.start_hand()
        play_hand(table, seats)
    bot = make_bot("search", 1)
    got = []
    # The hand-analysis tables fill on first use, in this process and in the search's
    # helper processes: the first third of the decisions warms them up, uncounted.
    warm = len(states) // 3
    for i, (view, legal) in enumerate(states):
        bot.choose(view, legal)
        stats = getattr(bot, "last_stats", {})
        if stats and i >= warm:
            got.append(int(stats["rollouts"]))
    return {"search_samples": statistics.mean(got) if got else 0.0, "searched": len(got)}


def which_build(python: str) -> str:
    return subprocess.run(
        [python, "-c", "import laizi.buildinfo as b; print(b.build())"],
        capture_output=True, text=True, check=True, cwd="/").stdout.strip()


def run(python: str, args: list[str], variants: list[str], hands: int, hands_engine: int
        ) -> list[dict[str, Any]]:
    # cwd outside the source tree: the pure interpreter's editable install finds src/,
    # the compiled one its site-packages, whatever the current directory.
    out = subprocess.run([python, str(ROOT / "benchmarks" / "bench_bots.py"), "--json",
                          "--skip-bots", *args], capture_output=True, text=True, check=True,
                         cwd="/").stdout
    rows: list[dict[str, Any]] = json.loads(out[out.index("["):out.rindex("]") + 1])
    for row in rows:
        if not variants or row["variant"] in variants:
            out = subprocess.run([python, __file__, "--samples-of", row["variant"],
                                  "--search-hands", str(hands)],
                                 capture_output=True, text=True, check=True, cwd="/").stdout
            row.update(json.loads(out))
            out = subprocess.run([python, __file__, "--engine-of", row["variant"],
                                  "--hands", str(hands_engine)],
                                 capture_output=True, text=True, check=True, cwd="/").stdout
            row.update(json.loads(out))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pure", default=str(ROOT / ".venv" / "bin" / "python"))
    ap.add_argument("--compiled", default=str(ROOT / ".venv-compiled" / "bin" / "python"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--search-hands", type=int, default=8,
                    help="greedy hands whose decisions the search bot is given")
    ap.add_argument("--samples-of", metavar="VARIANT", help=argparse.SUPPRESS)  # worker
    ap.add_argument("--engine-of", metavar="VARIANT", help=argparse.SUPPRESS)  # worker
    args = ap.parse_args()
    if args.samples_of:
        print(json.dumps(samples_worker(args.samples_of, args.search_hands, 90)))
        return 0
    if args.engine_of:
        print(json.dumps(engine_worker(args.engine_of, args.hands)))
        return 0
    builds = {"pure": args.pure, "compiled": args.compiled}
    for name, py in builds.items():
        got = which_build(py)
        print(f"{name}: {py} imports the {got} build")
        if got != name:
            print(f"error: {py} should import the {name} build", file=sys.stderr)
            return 1
    bench = ["--hands", str(args.hands), "--warmup", "200"]
    for v in args.variant:
        bench += ["--variant", v]
    got: dict[str, list[list[dict[str, Any]]]] = {"pure": [], "compiled": []}
    for r in range(args.rounds):
        order = ["pure", "compiled"] if r % 2 == 0 else ["compiled", "pure"]
        for name in order:
            got[name].append(run(builds[name], bench, args.variant, args.search_hands,
                                 args.hands))
        print(f"round {r + 1} of {args.rounds} done", flush=True)
    variants = [row["variant"] for row in got["pure"][0]]
    print(f"\nmedians of {args.rounds} rounds; ratio = pure ÷ compiled (samples: compiled ÷ "
          "pure)")
    print(f"| {'variant':<10} | {'measure':<24} | {'pure':>9} | {'compiled':>9} | "
          f"{'ratio':>6} |")
    print(f"| {'-' * 10} | {'-' * 24} | {'-' * 9}:| {'-' * 9}:| {'-' * 6}:|")
    for i, v in enumerate(variants):
        for key, label, higher in METRICS:
            p = statistics.median(rows[i][key] for rows in got["pure"])
            c = statistics.median(rows[i][key] for rows in got["compiled"])
            ratio = (c / p if higher else p / c) if p and c else float("nan")
            print(f"| {v:<10} | {label:<24} | {p:>9.1f} | {c:>9.1f} | {ratio:>5.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
