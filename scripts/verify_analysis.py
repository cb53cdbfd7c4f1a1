"""Hold laizi.analysis.is_win to the slow reference on many random hands.

    nice .venv/bin/python scripts/verify_analysis.py [--hands 1000000] [--seed 7]

Hands: 2-17 total tiles with 0-4 wildcards, every WinRules combination the tests use;
half are built to be winning (melds + pair, some tiles turned into wildcards), half are
random draws from a wall. Prints the number of disagreements (expected 0).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from laizi.analysis import WinRules, is_win, shanten
from reference import is_win as ref_is_win
from reference import shanten as ref_shanten

RULES = [
    WinRules(),
    WinRules(seven_pairs=False),
    WinRules(pair_tiles=frozenset(t for t in range(27) if t % 9 in (1, 4, 7))),
    WinRules(chow_suits=frozenset({0, 2})),
    WinRules(chow_suits=frozenset()),
    WinRules(thirteen_orphans=True, knitted=True),
]


def random_hand(rng: random.Random) -> tuple[list[int], int]:
    w = rng.choice((0, 0, 1, 2, 3, 4))
    n = rng.choice((0, 1, 2, 3, 4, 4, 4, 5))
    c = [0] * 34
    if rng.random() < 0.5:
        tiles: list[int] = []
        for _ in range(n):
            if rng.random() < 0.5:
                s, r = rng.randrange(3), rng.randrange(7)
                tiles += [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
            else:
                tiles += [rng.randrange(34)] * 3
        tiles += [rng.randrange(34)] * 2
        rng.shuffle(tiles)
        tiles = tiles[w:]
        for t in tiles:
            c[t] += 1
        if max(c) > 4:
            return random_hand(rng)
    else:
        wall = [t for t in range(34) for _ in range(4)]
        for t in rng.sample(wall, max(0, 3 * n + 2 - w)):
            c[t] += 1
    return c, w


def verify_shanten(rng: random.Random, count: int) -> int:
    bad = 0
    t0 = time.time()
    for i in range(count):
        w = rng.choice((0, 0, 1, 2))
        size = rng.choice((13, 14)) - w
        wall = [t for t in range(34) for _ in range(4)]
        c = [0] * 34
        for t in rng.sample(wall, size):
            c[t] += 1
        rules = RULES[i % len(RULES)]
        got, want = shanten(c, w, rules), ref_shanten(c, w, rules)
        if got != want:
            bad += 1
            print("DISAGREE", c, w, rules, got, want, flush=True)
    print(f"done: shanten of {count} hands, {bad} disagreements, {time.time() - t0:.0f} s")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--shanten",
        type=int,
        default=0,
        metavar="N",
        help="instead: shanten of N random 13/14-tile hands (the reference takes seconds each)",
    )
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.shanten:
        return verify_shanten(rng, args.shanten)
    bad = wins = 0
    t0 = time.time()
    for i in range(args.hands):
        c, w = random_hand(rng)
        rules = RULES[i % len(RULES)]
        got = is_win(c, w, rules)
        wins += got
        if got != ref_is_win(c, w, rules):
            bad += 1
            if bad <= 20:
                print("DISAGREE", c, w, rules, got, flush=True)
        if (i + 1) % 100_000 == 0:
            print(f"{i + 1} hands, {bad} disagreements, {time.time() - t0:.0f} s", flush=True)
    print(
        f"done: {args.hands} hands ({wins} winning), {bad} disagreements, {time.time() - t0:.0f} s"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
