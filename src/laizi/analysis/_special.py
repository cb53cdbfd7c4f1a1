"""The non-standard winning shapes: 七对, 十三幺 and the MCR knitted family.

Each shape has a win test, a shanten term and (in :mod:`._readings`) an enumeration of its
readings. All take a 34-count vector ``c`` of real tiles and ``w`` wildcards; a wildcard
may stand for a tile only while the reading holds at most 4 copies of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from operator import itemgetter

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""幺九牌: the 1 and 9 of each suit and the seven honours."""

HONOUR_IDS: tuple[int, ...] = tuple(range(27, 34))


def _knitted_sets() -> tuple[tuple[int, ...], ...]:
    """The six knitted straights (组合龙): each suit takes one of 147 / 258 / 369."""
    out = []
    for offsets in permutations(range(3)):
        out.append(tuple(sorted(s * 9 + o + d for s, o in enumerate(offsets) for d in (0, 3, 6))))
    return tuple(out)


KNITTED: tuple[tuple[int, ...], ...] = _knitted_sets()


# ---------------------------------------------------------------- seven pairs (七对)


def seven_pairs_win(c: Sequence[int], w: int) -> bool:
    """Seven pairs; two identical pairs (four copies) are allowed."""
    odd = 0
    for x in c:
        if x & 1:
            if x > 3:  # the wildcard would be a fifth copy
                return False
            odd += 1
    return odd <= w and (w - odd) % 2 == 0


def seven_pairs_overlap(c: Sequence[int]) -> int:
    """Most tiles of ``c`` inside some seven-pairs target (each tile at most 4 copies)."""
    pairs = 0
    singles = 0
    for x in c:
        if x:
            x4 = min(x, 4)
            pairs += x4 >> 1
            if x4 & 1:
                singles += 1
    pairs = min(pairs, 7)
    return 2 * pairs + min(7 - pairs, singles)


# ---------------------------------------------------------------- thirteen orphans (十三幺)


def orphans_win(c: Sequence[int], w: int) -> bool:
    pairs = 0
    for t in range(34):
        x = c[t]
        if x and t not in ORPHANS:
            return False
        if x >= 3:
            return False
        if x == 2:
            pairs += 1
    missing = sum(1 for t in ORPHANS if c[t] == 0)
    return pairs <= 1 and missing + (1 - pairs) == w


_orphan_counts = itemgetter(*ORPHANS)


def orphans_overlap(c: Sequence[int]) -> int:
    got: tuple[int, ...] = _orphan_counts(c)
    return 13 - got.count(0) + (1 if max(got) >= 2 else 0)


# ---------------------------------------------------------------- knitted (全不靠 / 七星不靠)


def knitted_singles_win(c: Sequence[int], w: int) -> bool:
    """全不靠 (and 七星不靠, its special case): 14 different tiles, all from one knitted
    straight plus the honours. Wildcards take missing tiles of that set."""
    held = [t for t in range(34) if c[t]]
    if any(c[t] > 1 for t in held):
        return False
    if len(held) + w != 14:
        return False
    for ks in KNITTED:
        allowed = set(ks) | set(HONOUR_IDS)
        if all(t in allowed for t in held):
            return True
    return False


def knitted_singles_overlap(c: Sequence[int]) -> int:
    best = 0
    honours = sum(1 for t in HONOUR_IDS if c[t])
    for ks in KNITTED:
        got = honours + sum(1 for t in ks if c[t])
        if got > best:
            best = got
    return min(best, 14)
