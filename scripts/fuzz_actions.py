"""Fuzz the strict boundary: malformed, out-of-turn and illegal actions at hands in play.

    .venv/bin/python scripts/fuzz_actions.py                  # 100,000 per variant
    .venv/bin/python scripts/fuzz_actions.py --per-variant 20000 --variants mcr,taiwan

The same fuzz as tests/test_boundary_fuzz.py (laizi.engine.fuzz), bigger. Prints per
variant: probes thrown, refused by the typed family, state changes, foreign exceptions
(anything outside laizi.errors.LaiziError), probes accepted and refusals with a wrong code
(all four must be 0), and the seconds it took; then the first failures, if any. Exit
status 1 if anything was wrong. Single process on purpose (the machine is shared).
"""

from __future__ import annotations

import argparse
import sys

from laizi.engine.fuzz import VARIANTS, fuzz_variant


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-variant", type=int, default=100_000)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-position", type=int, default=8)
    args = ap.parse_args()
    bad = False
    total = 0
    seconds = 0.0
    for variant in args.variants.split(","):
        rep = fuzz_variant(variant, args.per_variant, seed=args.seed,
                           per_position=args.per_position)
        print(rep.line(), flush=True)
        total += rep.thrown
        seconds += rep.seconds
        if not rep.ok:
            bad = True
            for f in rep.failures:
                print(f"    {f}")
    print(f"total       thrown {total:>7}  in {seconds:.1f} s: "
          + ("FAILURES" if bad else "0 state changes, 0 foreign exceptions"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
