"""Fill the analysis tables in bulk and report their cost.

    .venv/bin/python scripts/gen_tables.py [--max-tiles 8] [--waits]

``laizi.analysis`` fills its per-group tables lazily, one count vector at a time, the first
time a hand needs it (see docs/analysis.md). This script fills them for *every* suit and
honour vector of at most ``--max-tiles`` tiles under the default rules, which is what a
long simulation converges to, and prints the number of keys, the time taken and the memory
held (tracemalloc), so the figures in docs/analysis.md can be reproduced.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
import tracemalloc

from laizi.analysis import DEFAULT_RULES
from laizi.analysis.core import compiled


def vectors(size: int, max_tiles: int) -> list[bytes]:
    out = []
    for v in itertools.product(range(5), repeat=size):
        if sum(v) <= max_tiles:
            out.append(bytes(v))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-tiles", type=int, default=8)
    ap.add_argument("--waits", action="store_true", help="also fill the wait masks")
    ap.add_argument("--memory", action="store_true", help="trace memory (runs ~5x slower)")
    args = ap.parse_args()
    if args.memory:
        tracemalloc.start()
    comp = compiled(DEFAULT_RULES)
    suit, honours = comp.groups[0], comp.groups[3]
    t0 = time.perf_counter()
    count = 0
    for table, size in ((suit, 9), (honours, 7)):
        for key in vectors(size, args.max_tiles):
            table.get_need(key)
            table.get_cover_id(key)
            if args.waits:
                table.get_wait(key)
            count += 1
    took = time.perf_counter() - t0
    line = f"vectors <= {args.max_tiles} tiles: {count} keys, {took:.1f} s, "
    line += f"{took / count * 1e3:.2f} ms/key"
    if args.memory:
        current, _peak = tracemalloc.get_traced_memory()
        line += f", {current / 2**20:.1f} MiB held"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
