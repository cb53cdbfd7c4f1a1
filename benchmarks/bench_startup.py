"""Start-up of ``laizi analyze HAND`` (issue 25, item 4): wall time of the whole command.

    .venv/bin/python benchmarks/bench_startup.py [--runs 21] [--hand 123m456p789s11z22z]

Runs the installed ``laizi`` console script ``--runs`` times and prints the median and the
minimum wall time in ms, with the bytecode caches (``__pycache__``) written, as on any
installed copy (``pip install`` compiles them; an editable install writes them on its first
run; one untimed run here fills them). A machine that sets ``PYTHONDONTWRITEBYTECODE=1``
(this workplace does) compiles laizi's modules from source on every run instead, about
20-25 ms more.

The analysis itself takes about 2 ms; the rest is the interpreter starting and importing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _laizi() -> Path:
    return Path(sys.executable).with_name("laizi")


def _times(hand: str, runs: int, env: dict[str, str]) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([str(_laizi()), "analyze", hand], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        out.append(1000 * (time.perf_counter() - t0))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=21)
    p.add_argument("--hand", default="123m456p789s11z22z")
    args = p.parse_args()
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    _times(args.hand, 1, cached)  # writes the bytecode caches
    ts = _times(args.hand, args.runs, cached)
    print(f"laizi analyze {args.hand}: median {statistics.median(ts):.1f} ms, "
          f"min {min(ts):.1f} ms over {args.runs} runs (bytecode cached)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
