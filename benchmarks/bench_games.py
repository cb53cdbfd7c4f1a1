"""Full seeded hands on one core: laizi's engine vs RLCard's ``mahjong`` environment.

    .venv/bin/python benchmarks/bench_games.py                 # jingzhou, defaults
    .venv/bin/python benchmarks/bench_games.py --variant jingzhou --hands 2000
    .venv/bin/python benchmarks/bench_games.py --variant huanghuang --variant taiwan

For each variant: random legal-action agents and the simple bot play full hands (full
scoring included: every hand ends in the variant's settlement), reporting hands/s and µs
per applied action (the agent's choice included). RLCard's ``mahjong`` (4 players, 136
tiles) runs with random agents in the same process, reporting hands/s and µs per
decision. Hand-analysis tables fill on first use, so ``--warmup`` hands (other seeds) are
played first and the cold figure is printed too. Times are the process's CPU time
(``time.process_time``), so other load on a shared machine does not count.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from laizi.bots.simple import SimpleBot
from laizi.engine import Game
from laizi.variants import get


@dataclass
class Result:
    label: str
    hands: int
    steps: int
    seconds: float

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds

    @property
    def us_per_step(self) -> float:
        return self.seconds / self.steps * 1e6


def random_hand(variant: str, seed: int) -> int:
    g = Game(variant, seed=seed, dealer=seed % get(variant).seats)
    rng = random.Random(seed)
    steps = 0
    while not g.over:
        for s in g.to_act():
            acts = g.legal_actions(s)
            g.apply(acts[rng.randrange(len(acts))])
            steps += 1
    return steps


def simple_hand(variant: str, seed: int) -> int:
    g = Game(variant, seed=seed, dealer=seed % get(variant).seats)
    bot = SimpleBot()
    steps = 0
    while not g.over:
        for s in g.to_act():
            g.apply(bot.choose(g.view(s), g.legal_actions(s)))
            steps += 1
    return steps


def timed(label: str, play: Callable[[int], int], seeds: range) -> Result:
    t = time.process_time()
    steps = sum(play(seed) for seed in seeds)
    return Result(label, len(seeds), steps, time.process_time() - t)


def rlcard_random(hands: int) -> Result | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    np_random = __import__("numpy").random
    np_random.seed(0)
    t = time.process_time()
    steps = 0
    for _ in range(hands):
        state, player = env.reset()
        while not env.is_over():
            state, player = env.step(agents[player].step(state))
            steps += 1
    return Result("rlcard mahjong, random agents", hands, steps, time.process_time() - t)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", help="variant id (repeatable)")
    ap.add_argument("--hands", type=int, default=1000, help="timed hands, random agents")
    ap.add_argument("--bot-hands", type=int, default=200, help="timed hands, simple bot")
    ap.add_argument("--warmup", type=int, default=300, help="untimed hands first")
    ap.add_argument("--rlcard-hands", type=int, default=300)
    args = ap.parse_args(argv)
    variants = args.variant or ["jingzhou"]
    rows: list[Result] = []
    for v in variants:
        get(v)
        base = 10_000_000
        cold = timed(f"{v}, random agents, cold tables ({args.warmup} hands)",
                     lambda s, v=v: random_hand(v, s), range(base, base + args.warmup))
        timed("", lambda s, v=v: simple_hand(v, s), range(base, base + args.warmup // 4))
        rows.append(cold)
        rows.append(timed(f"{v}, random agents", lambda s, v=v: random_hand(v, s),
                          range(args.hands)))
        if args.bot_hands:
            rows.append(timed(f"{v}, simple bot", lambda s, v=v: simple_hand(v, s),
                              range(args.bot_hands)))
    rl = rlcard_random(args.rlcard_hands)
    print(f"python {sys.version.split()[0]}, one core, CPU time")
    print(f"| {'run':<52} | {'hands':>6} | {'hands/s':>9} | {'µs/action':>9} | "
          f"{'vs rlcard (µs/action)':>21} |")
    print(f"| {'-' * 52} | {'-' * 6}:| {'-' * 9}:| {'-' * 9}:| {'-' * 21}:|")
    for r in [*rows, *([rl] if rl else [])]:
        ratio = f"{rl.us_per_step / r.us_per_step:.2f}× faster" if rl and r is not rl else ""
        if rl and r is not rl and r.us_per_step > rl.us_per_step:
            ratio = f"{r.us_per_step / rl.us_per_step:.2f}× slower"
        print(f"| {r.label:<52} | {r.hands:>6} | {r.hands_per_s:>9.1f} | "
              f"{r.us_per_step:>9.1f} | {ratio:>21} |")
    if rl is None:
        print("(rlcard is not installed: pip install -e '.[bench]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
