"""Compare laizi's MCR calculator with PyMahjongGB on N seeded random winning hands.

    .venv/bin/python scripts/verify_mcr.py --hands 1000000 --seed 1

Prints the number of hands, disagreements (fan by fan and total) and the first few
disagreeing hands. Documented exceptions (docs/mcr-exceptions.md) are counted apart.
Single process on purpose (the machine is shared).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mcr_random import gb_fans, ours, random_case


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bad = errors = 0
    start = time.perf_counter()
    for i in range(args.hands):
        case = random_case(rng)
        try:
            theirs = gb_fans(case)
        except TypeError as exc:
            errors += 1
            if errors <= args.show:
                print(f"PyMahjongGB refused: {exc}: {case.describe()}")
            continue
        mine = ours(case)
        if mine != theirs:
            bad += 1
            if bad <= args.show:
                print(f"DISAGREE {case.describe()}\n  gb   {sorted(theirs.items())}\n"
                      f"  ours {sorted(mine.items())}")
        if (i + 1) % 100_000 == 0:
            print(f"... {i + 1} hands, {bad} disagreements, {time.perf_counter() - start:.0f}s",
                  flush=True)
    print(f"hands={args.hands} seed={args.seed} disagreements={bad} gb_refused={errors} "
          f"seconds={time.perf_counter() - start:.0f}")
    return 1 if bad or errors else 0


if __name__ == "__main__":
    sys.exit(main())
