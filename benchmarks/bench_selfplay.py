"""Self-play hands per second, per variant, as ``laizi simulate`` plays them, beside riichienv
and RLCard.

    .venv/bin/python benchmarks/bench_selfplay.py                       # every variant
    .venv/bin/python benchmarks/bench_selfplay.py --variant jingzhou --hands 100
    .venv/bin/python benchmarks/bench_selfplay.py --json > after.json   # for a comparison
    .venv/bin/python benchmarks/bench_selfplay.py --before b1.json b2.json --after a1.json a2.json

Each laizi hand is :func:`laizi.sim.hands.play_hand` of one task — the simulator's and
the arena's unit of work: the first hand of its own table, bots built per hand, forced
passes played by the driver — with four (three, two) ``greedy`` bots (``laizi
simulate``'s default) and with ``random`` bots. Hand-analysis tables fill lazily, so
``--warmup`` hands of other seeds are played first; the tables stay warm after that, as in
a long simulation. The peers play one hand (one kyoku) with their own random agents:
riichienv (``RiichiEnv(game_mode=0)``, Rust core; Japanese riichi) and RLCard's
``mahjong`` (pure Python, 136 tiles, no scoring). A peer that is not installed is
skipped with a notice (``pip install -e '.[bench]'``).

Times are the process's CPU time (``time.process_time``), so other load on a shared
machine counts less; still, compare two builds by running them in turn several times
(``--before`` / ``--after`` take the median of each side's runs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from laizi.buildinfo import build
from laizi.sim.hands import HandTask, play_hand
from laizi.variants import get

VARIANTS = ("jingzhou", "huanghuang", "golden", "taiwan", "mcr")


def timed(play: Callable[[int], object], seeds: range) -> float:
    """Hands per second of CPU time over ``seeds``."""
    t = time.process_time()
    for seed in seeds:
        play(seed)
    return len(seeds) / (time.process_time() - t)


def laizi_rate(variant: str, bot: str, hands: int, warmup: int) -> float:
    bots = (bot,) * get(variant).seats

    def one(seed: int) -> object:
        return play_hand(HandTask(variant, seed, bots, dealer=seed % len(bots)))

    timed(one, range(1_000_000, 1_000_000 + warmup))
    return timed(one, range(hands))


def riichienv_rate(hands: int) -> float | None:
    try:
        from riichienv import RiichiEnv  # type: ignore[import-untyped]
        from riichienv.agents import RandomAgent  # type: ignore[import-untyped]
    except ImportError:
        return None
    env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=1)  # 0: one kyoku, 4 players
    agent = RandomAgent(seed=0)

    def one(seed: int) -> None:
        obs = env.reset(seed=seed)
        while not env.done():
            obs = env.step({p: agent.act(o) for p, o in obs.items()})

    return timed(one, range(hands))


def rlcard_rate(hands: int) -> float | None:
    try:
        import numpy as np
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    np.random.seed(0)

    def one(seed: int) -> None:
        state, player = env.reset()
        while not env.is_over():
            state, player = env.step(agents[player].step(state))

    return timed(one, range(hands))


def measure(args: argparse.Namespace) -> dict[str, dict[str, float | None]]:
    rates: dict[str, dict[str, float | None]] = {}
    for v in args.variant or VARIANTS:
        rates[v] = {"greedy": laizi_rate(v, "greedy", args.hands, args.warmup),
                    "random": laizi_rate(v, "random", args.random_hands, args.warmup)}
        print(f"{v}: greedy {rates[v]['greedy']:.1f}, random {rates[v]['random']:.1f} "
              "hands/s", file=sys.stderr, flush=True)
    if args.peer_hands:
        rates["riichienv"] = {"random": riichienv_rate(args.peer_hands)}
        rates["rlcard"] = {"random": rlcard_rate(args.peer_hands)}
    return rates


def show(rates: dict[str, dict[str, float | None]]) -> None:
    peers = {p: rates.get(p, {}).get("random") for p in ("riichienv", "rlcard")}
    print(f"python {sys.version.split()[0]}, {build()} build, one core, CPU time")
    print("| variant | greedy hands/s | random hands/s | random vs riichienv | random vs rlcard |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for v, r in rates.items():
        if v in peers:
            continue
        ratios = [f"{(r['random'] or 0) / p:.2f}×" if p else "—" for p in peers.values()]
        print(f"| {v} | {r['greedy']:.1f} | {r['random']:.1f} | {ratios[0]} | {ratios[1]} |")
    for name, rate in peers.items():
        if name not in rates:
            continue
        if rate is None:
            print(f"({name} is not installed: pip install -e '.[bench]')")
        else:
            print(f"| {name} (random agents) | — | {rate:.1f} | | |")


def compare(before_files: list[str], after_files: list[str]) -> None:
    """Median hands/s of each side's runs (JSON from ``--json``), and after / before."""
    def medians(files: list[str]) -> dict[tuple[str, str], float]:
        runs = [json.loads(Path(f).read_text(encoding="utf-8")) for f in files]
        out: dict[tuple[str, str], float] = {}
        for v, kinds in runs[0].items():
            for k in kinds:
                got = [r[v][k] for r in runs if r.get(v, {}).get(k) is not None]
                if got:
                    out[(v, k)] = statistics.median(got)
        return out
    before, after = medians(before_files), medians(after_files)
    print("| variant | bots | hands/s before | after | after / before |")
    print("| --- | --- | ---: | ---: | ---: |")
    for key, b in before.items():
        a = after.get(key)
        if a is not None:
            print(f"| {key[0]} | {key[1]} | {b:.1f} | {a:.1f} | {a / b:.2f}× |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", help="variant id (repeatable; default all)")
    ap.add_argument("--hands", type=int, default=60, help="timed greedy hands (default 60)")
    ap.add_argument("--random-hands", type=int, default=300,
                    help="timed random-bot hands (default 300)")
    ap.add_argument("--warmup", type=int, default=150,
                    help="untimed greedy hands of other seeds first (default 150)")
    ap.add_argument("--peer-hands", type=int, default=300,
                    help="hands of each peer (0: no peers)")
    ap.add_argument("--json", action="store_true", help="print the rates as JSON")
    ap.add_argument("--before", nargs="+", metavar="FILE", help="JSON runs of one build")
    ap.add_argument("--after", nargs="+", metavar="FILE",
                    help="JSON runs of another: print medians and ratios, play nothing")
    args = ap.parse_args(argv)
    if args.before or args.after:
        if not (args.before and args.after):
            ap.error("--before and --after go together")
        compare(args.before, args.after)
        return 0
    rates = measure(args)
    if args.json:
        print(json.dumps(rates))
    else:
        show(rates)
    return 0


if __name__ == "__main__":
    sys.exit(main())
