"""Build the analysis automata in full (and optionally fill keys) and report the cost.

    .venv/bin/python scripts/gen_tables.py [--bound 18] [--max-tiles N] [--waits] [--memory]

``laizi.analysis`` builds its per-group automata lazily, one transition the first time a
hand takes it, and fills its per-key tables from them (see docs/analysis.md). This script
takes *every* transition of the default rules' suit and honour tables that a group of at
most ``--bound`` tiles can take (counts 0-5 for ``need``, 0-4 for ``cover``; 18 = a
17-tile hand in one suit plus the tile ``waits`` adds), which bounds what a process can
ever pay for them, then
optionally fills the per-key tables for every vector of at most ``--max-tiles`` tiles, and
prints states, transitions, time and (``--memory``, tracemalloc) the memory held, so the
figures in docs/analysis.md can be reproduced.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
import tracemalloc

from laizi.analysis import DEFAULT_RULES
from laizi.analysis._tables import GroupTable
from laizi.analysis.compiled_rules import compiled


def build_all(table: GroupTable, max_tiles: int) -> tuple[int, int]:
    """Take every transition that a group of at most ``max_tiles`` tiles can take, in both
    automata; returns (need states, cover states) reached."""
    for steps, step, top in (
        (table._n_trans, table._need_step, 5),
        (table._c_trans, table._cover_step, 4),
    ):
        layer = {(0, 0)}  # (state id, tiles so far)
        for _rank in range(table.size):
            nxt = set()
            for sid, tiles in layer:
                for x in range(min(top, max_tiles - tiles) + 1):
                    got = steps.get(sid * 8 + x)
                    if got is None:
                        got = step(sid, x)
                    if got >= 0:
                        nxt.add((got >> 8, tiles + x))
            layer = nxt
    return table.automaton_states()


def vectors(size: int, max_tiles: int) -> list[bytes]:
    return [bytes(v) for v in itertools.product(range(5), repeat=size) if sum(v) <= max_tiles]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bound", type=int, default=18, help="tiles of one group (automata)")
    ap.add_argument("--max-tiles", type=int, default=0, help="also fill keys up to N tiles")
    ap.add_argument("--waits", action="store_true", help="also fill the wait masks")
    ap.add_argument("--memory", action="store_true", help="trace memory (runs slower)")
    args = ap.parse_args()
    if args.memory:
        tracemalloc.start()
    comp = compiled(DEFAULT_RULES)
    suit, honours = comp.groups[0], comp.groups[3]
    t0 = time.perf_counter()
    for name, table in (("suit", suit), ("honours", honours)):
        need, cover = build_all(table, args.bound)
        trans = len(table._n_trans) + len(table._c_trans)
        print(f"{name}: need states {need}, cover states {cover}, transitions {trans}")
    took = time.perf_counter() - t0
    line = f"automata for groups of <= {args.bound} tiles: {took:.2f} s"
    if args.memory:
        current, _peak = tracemalloc.get_traced_memory()
        line += f", {current / 2**20:.1f} MiB held"
    print(line)
    if args.max_tiles:
        t0 = time.perf_counter()
        count = 0
        for table, size in ((suit, 9), (honours, 7)):
            for key in vectors(size, args.max_tiles):
                table.get_need(key)
                table.get_shape(key)
                if args.waits:
                    table.get_wait(key)
                count += 1
        took = time.perf_counter() - t0
        line = f"keys <= {args.max_tiles} tiles: {count} keys, {took:.1f} s, "
        line += f"{took / count * 1e6:.1f} us/key"
        if args.memory:
            current, _peak = tracemalloc.get_traced_memory()
            line += f", {current / 2**20:.1f} MiB held in all"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
