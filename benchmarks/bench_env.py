"""The PettingZoo environment's speed: agent steps and hands per second per variant.

    PYTHONPATH=src .venv/bin/python benchmarks/bench_env.py                  # every variant
    PYTHONPATH=src .venv/bin/python benchmarks/bench_env.py --variant mcr --hands 200

Random masked agents play whole episodes (one hand each) through the wrapped environment
(``laizi.env.make``), the usual loop: ``env.last()`` (the observation is encoded) and
``env.step``. Each seat draws from its own random generator, and only when it has a
choice: a mask with one legal action is played without drawing. So the hands played do
not depend on whether the environment asks for forced passes, and the checksum of the
rewards printed beside the figures must be the same before and after such a change.
Times are the process's CPU time (``time.process_time``): other load on a shared machine
does not count.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

import laizi.env
from laizi.variants import BUILTIN


def run(variant: str, hands: int, version: int) -> tuple[int, float, str]:
    """(agent steps, CPU seconds, checksum of every hand's rewards) over ``hands``
    episodes, seeds 0 … hands-1."""
    env = laizi.env.make(variant, dealer=None, version=version)
    digest = hashlib.sha256()
    steps = 0
    start = time.process_time()
    for seed in range(hands):
        env.reset(seed=seed)
        rngs = {a: np.random.default_rng([seed, i]) for i, a in enumerate(env.possible_agents)}
        rewards: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                rewards[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[0] if legal.size == 1 else rngs[agent].choice(legal)))
            steps += 1
        digest.update(f"{seed}:{sorted(rewards.items())};".encode())
    return steps, time.process_time() - start, digest.hexdigest()[:12]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", help="a variant id (repeatable); "
                    "default: every built-in variant")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--version", type=int, default=0, help="observation version (0 or 1)")
    args = ap.parse_args()
    print(f"{'variant':<11} {'hands/s':>8} {'steps/s':>8} {'steps/hand':>10}  checksum")
    for variant in args.variant or list(BUILTIN):
        steps, seconds, check = run(variant, args.hands, args.version)
        print(f"{variant:<11} {args.hands / seconds:8.1f} {steps / seconds:8.0f} "
              f"{steps / args.hands:10.1f}  {check}")


if __name__ == "__main__":
    main()
