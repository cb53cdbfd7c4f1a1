"""Win rules compiled into group tables, and the checks of the analysis functions' input.

:func:`compiled` gives the four :class:`~laizi.analysis._tables.GroupTable` s (万, 筒, 条,
honours) a :class:`~laizi.analysis.types.WinRules` needs, cached by identity; equal rules
share their tables. The small helpers on a hand's 34-byte key that :mod:`.core`,
:mod:`.waiting` and :mod:`.knitted` share live here too.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from laizi.analysis._tables import GroupTable
from laizi.analysis.types import WinRules

__all__ = [
    "COMPILED",
    "DEFAULT",
    "DEFAULT_HONOURS",
    "DEFAULT_RULES",
    "DEFAULT_SUIT",
    "FAST_WILDS",
    "PRESENCE_BITS",
    "PRESENT",
    "SLICES",
    "TABLES",
    "Compiled",
    "check_wilds",
    "combine_covers",
    "compiled",
    "counts_key",
    "plus",
    "presence_mask",
    "split_key",
]

DEFAULT_RULES = WinRules()
"""Any pair, chows in all three suits, seven pairs allowed, no 十三幺, no knitted shapes."""

FAST_WILDS = 20
"""Above this many wildcards the table sums could reach :data:`INF`; use plain search."""

SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))

TABLES: dict[tuple[int, bool, tuple[bool, ...]], GroupTable] = {}


def _table(size: int, chows: bool, pair_ok: tuple[bool, ...]) -> GroupTable:
    key = (size, chows, pair_ok)
    got = TABLES.get(key)
    if got is None:
        got = TABLES[key] = GroupTable(size, chows, pair_ok)
    return got


class Compiled:
    """The four group tables (万, 筒, 条, honours) a :class:`WinRules` needs."""

    __slots__ = ("groups", "needs", "rules", "seven_only", "special")

    def __init__(self, rules: WinRules) -> None:
        self.rules = rules
        groups = []
        for g, (lo, hi) in enumerate(SLICES):
            size = hi - lo
            pair_ok = tuple(
                rules.pair_tiles is None or (lo + i) in rules.pair_tiles for i in range(size)
            )
            groups.append(_table(size, g < 3 and g in rules.chow_suits, pair_ok))
        self.groups: tuple[GroupTable, GroupTable, GroupTable, GroupTable] = (
            groups[0],
            groups[1],
            groups[2],
            groups[3],
        )
        self.needs = tuple(g.need for g in self.groups)
        self.special = rules.seven_pairs or rules.thirteen_orphans or rules.knitted
        self.seven_only = rules.seven_pairs and not (rules.thirteen_orphans or rules.knitted)


COMPILED: dict[int, Compiled] = {}

split_key = struct.Struct("9s9s9s7s").unpack
"""Cuts a 34-byte key into the 万, 筒, 条 and honour keys in one C call (length-checked)."""


def compiled(rules: WinRules) -> Compiled:
    """The cached :class:`Compiled` for ``rules`` (by identity, then by value)."""
    got = COMPILED.get(id(rules))
    if got is not None and got.rules is rules:
        return got
    got = Compiled(rules)  # equal rules share their GroupTables through _table()
    if len(COMPILED) > 256:
        COMPILED.clear()
    COMPILED[id(rules)] = got
    return got


DEFAULT = compiled(DEFAULT_RULES)

DEFAULT_SUIT = DEFAULT.groups[0].need

DEFAULT_HONOURS = DEFAULT.groups[3].need

assert DEFAULT.groups[1].need is DEFAULT_SUIT and DEFAULT.groups[2].need is DEFAULT_SUIT


def counts_key(counts: Sequence[int]) -> bytes:
    try:
        b = bytes(counts)
    except (TypeError, ValueError):
        raise ValueError(
            "counts must be 34 non-negative tile counts (ints); got " + repr(list(counts))
        ) from None
    if len(b) != 34:
        raise ValueError(f"counts must have length 34 (tile ids 0-33), got {len(b)}")
    return b


def check_wilds(wilds: int) -> None:
    if wilds < 0:
        raise ValueError(f"wilds must be >= 0, got {wilds}")


PRESENT = bytes([0] + [1] * 255)
"""``bytes.translate`` table: a count vector → 0/1 presence."""

PRESENCE_BITS: dict[bytes, int] = {
    bytes((m >> i) & 1 for i in range(size)): m for size in (7, 9) for m in range(1 << size)
}
"""A 0/1 presence key (9 ranks or 7 honours) → its bit mask."""


def presence_mask(k0: bytes, k1: bytes, k2: bytes, k3: bytes) -> int:
    """The tiles held (34-bit mask) of the four group keys."""
    pm = PRESENCE_BITS
    return (pm[k0.translate(PRESENT)] | pm[k1.translate(PRESENT)] << 9
            | pm[k2.translate(PRESENT)] << 18 | pm[k3.translate(PRESENT)] << 27)


def plus(b: bytes | bytearray, t: int) -> bytes:
    ba = bytearray(b)
    ba[t] += 1
    return bytes(ba)


def combine_covers(covers: list[tuple[tuple[int, ...], tuple[int, ...]]], n: int) -> int:
    """Best total cover over the groups with at most ``n`` melds and exactly one pair."""
    b0 = list(covers[0][0][: n + 1])
    b1 = list(covers[0][1][: n + 1])
    for h0, h1 in covers[1:]:
        nb0 = [max(b0[i] + h0[m - i] for i in range(m + 1)) for m in range(n + 1)]
        nb1 = [
            max(max(b1[i] + h0[m - i], b0[i] + h1[m - i]) for i in range(m + 1))
            for m in range(n + 1)
        ]
        b0, b1 = nb0, nb1
    return b1[n]
