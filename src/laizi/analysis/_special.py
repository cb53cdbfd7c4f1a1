"""The non-standard winning shapes: 七对, 十三幺 and the MCR knitted family.

Each shape has a win test or a necessary condition of one, a shanten term and (in
:mod:`.readings`) an enumeration of its readings; ``core`` answers the knitted shapes from
the group tables. All take a 34-count vector ``c`` of real tiles and ``w`` wildcards; a wildcard
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
KNITTED_CLASSES: tuple[tuple[int, ...], ...] = tuple(permutations(range(3)))
"""``KNITTED[i]`` takes the ranks of residue class ``KNITTED_CLASSES[i][s]`` (0: 147,
1: 258, 2: 369) in suit ``s``."""
KNITTED_MASKS: tuple[int, ...] = tuple(sum(1 << t for t in ks) for ks in KNITTED)
"""The tiles of each knitted straight as a 34-bit mask."""
HONOUR_MASK = sum(1 << t for t in HONOUR_IDS)
ORPHAN_MASK = sum(1 << t for t in ORPHANS)


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


_orphan_counts = itemgetter(*ORPHANS)
_MIDDLE = bytes(7)


def orphans_only(c: bytes | bytearray) -> bool:
    """No tile but the 幺九 (the 2-8 of every suit absent): three C-level slice compares,
    a necessary condition of 十三幺 that rejects almost every other hand at once."""
    return c[1:8] == _MIDDLE and c[10:17] == _MIDDLE and c[19:26] == _MIDDLE


def orphans_waits(c: bytes | bytearray, w: int) -> int:
    """The tiles completing 十三幺 (a 34-bit mask) for a 13-tile hand (wildcards included).

    A 十三幺 holds only 幺九 tiles, none three times, at most one pair, and its wildcards
    take the missing orphans (+ the pair when none is held): ``missing + (1 - pairs) ==
    w``. Adding a missing orphan lowers ``missing``; adding a held single makes the pair.
    So with the pair held the missing orphans are the waits (when ``missing - 1 == w``),
    without it every orphan (when ``missing == w``).
    """
    if not orphans_only(c):
        return 0
    got: tuple[int, ...] = _orphan_counts(c)
    if max(got) >= 3:
        return 0
    pairs = got.count(2)
    missing = got.count(0)
    if pairs == 0:
        return ORPHAN_MASK if missing == w else 0
    if pairs > 1 or missing - 1 != w:
        return 0
    mask = 0
    for t, x in zip(ORPHANS, got, strict=True):
        if not x:
            mask |= 1 << t
    return mask


def orphans_overlap(c: Sequence[int]) -> int:
    got: tuple[int, ...] = _orphan_counts(c)
    return 13 - got.count(0) + (1 if max(got) >= 2 else 0)


# ---------------------------------------------------------------- knitted (全不靠 / 七星不靠)


def knitted_singles_overlap(c: Sequence[int]) -> int:
    best = 0
    honours = sum(1 for t in HONOUR_IDS if c[t])
    for ks in KNITTED:
        got = honours + sum(1 for t in ks if c[t])
        if got > best:
            best = got
    return min(best, 14)
