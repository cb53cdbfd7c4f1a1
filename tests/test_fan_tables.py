"""prepare_tables builds every table the fan calculator would build on first use, so a
hall that calls it at start has no turn that pays for one (docs/fan.md)."""

from __future__ import annotations

import subprocess
import sys

# Run in a fresh interpreter: this test process has built the tables long ago.
_PROBE = """
from laizi.scoring.mcr import WinContext, prepare_tables, score_hand
from laizi.scoring.mcr.combos_fast import _three_chows, _two_chows
from laizi.scoring.mcr.groups import complete_groups
from laizi.scoring.mcr.shapes import suit_table

tables = (suit_table, complete_groups, _two_chows, _three_chows)
{prepare}
before = [f.cache_info().misses for f in tables]
ctx = WinContext(self_drawn=True, seat_wind=29, prevalent_wind=27)
# A golden hand with two golden tiles (19 stands for two faces), chows, pungs and honours.
hands = ([3, 4, 5, 6, 8, 12, 13, 19, 24, 25, 26, 31, 31, 7],
         [0, 1, 2, 9, 10, 19, 19, 27, 27, 27, 32, 32, 20, 21])
for h in hands:
    score_hand(h, [], h[-1], ctx, golden=h.count(19), golden_face=19)
    score_hand(h, [], h[-1], ctx)
print([f.cache_info().misses for f in tables] == before)
"""


def _run(prepare: bool) -> str:
    code = _PROBE.format(prepare="prepare_tables()" if prepare else "")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_prepared_tables_leave_nothing_to_build() -> None:
    assert _run(prepare=True) == "True"


def test_without_preparing_the_first_hand_builds_tables() -> None:
    # The probe can tell: without prepare_tables, scoring builds a table.
    assert _run(prepare=False) == "False"
