"""The set-combination fans of :mod:`.combos`, faster: the same answers for every input
(``tests/test_fan_fast.py`` checks all of them), with the fans of two and of three
sets read from tables over the sets' tiles instead of worked out each time.

The calculator keeps each answer by its sets (a table over a bounded domain); these
functions are what a set tuple met for the first time costs, which in a stream of
random hands is every third or fourth hand.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .combos import (
    _PAIRS4,
    _SUITED_EXTRA_ORDER,
    _TRIPLES,
    Combo,
    _trim,
    four_chows_fan,
    four_pungs_fan,
    three_chows_fan,
    three_pungs_fan,
    two_chows_fan,
    two_pungs_fan,
)

__all__ = ["chow_fans", "pung_fans"]

_MIDS: Final = tuple(t for t in range(27) if 0 < t % 9 < 8)  # a chow by its middle tile


@cache
def _two_chows() -> dict[tuple[int, int], str | None]:
    return {(a, b): two_chows_fan(a, b) for a in _MIDS for b in _MIDS}


@cache
def _three_chows() -> dict[tuple[int, int, int], str | None]:
    return {(a, b, c): three_chows_fan(a, b, c) for a in _MIDS for b in _MIDS for c in _MIDS}


def _extra_chow(three: tuple[int, int, int], t: list[int], extra: int,
                two: dict[tuple[int, int], str | None]) -> Combo:
    found: dict[str | None, int] = {}
    for i in reversed(three):
        found[two[t[i], t[extra]]] = i
    for key in _SUITED_EXTRA_ORDER:
        if key in found:
            return [(key, (found[key], extra))]
    return []


def chow_fans(t: list[int]) -> Combo:
    """:func:`.combos.chow_fans`: fans among 2-4 chows (middle tiles, search order)."""
    two = _two_chows()
    n = len(t)
    if n == 4:
        fan = four_chows_fan(t)
        if fan:
            return [(fan, (0, 1, 2, 3))]
        three = _three_chows()
        for a, b, c, d in _TRIPLES:
            fan = three[t[a], t[b], t[c]]
            if fan:
                return [(fan, (a, b, c)), *_extra_chow((a, b, c), t, d, two)]
        pairs: tuple[tuple[int, int], ...] = _PAIRS4
    elif n == 3:
        fan = _three_chows()[t[0], t[1], t[2]]
        if fan:
            return [(fan, (0, 1, 2))]
        pairs = ((0, 1), (0, 2), (1, 2))
    elif n == 2:
        fan = two[t[0], t[1]]
        return [(fan, (0, 1))] if fan else []
    else:
        return []
    fans = [two[t[i], t[j]] for i, j in pairs]
    if not any(fans):
        return []
    if n == 4:
        related = 0
        for k in range(4):
            for (i, j), f in zip(pairs, fans, strict=True):
                if f and k in (i, j):
                    related += 1
                    break
        max_cnt = 3 - (4 - related)
        if max_cnt <= 0:
            return []
    else:
        max_cnt = 2
    kept = _trim(fans, max_cnt)
    out: Combo = []
    for key, count in kept.items():
        members = [p for p, f in zip(pairs, fans, strict=True) if f == key]
        out.extend((key, members[i]) for i in range(count))
    return out


_THREE_PUNGS: Final[dict[tuple[int, int, int], str | None]] = {}
"""three_pungs_fan by its tiles, filled on first use (at most 34^3 entries)."""


def _three_pungs(a: int, b: int, c: int) -> str | None:
    key = (a, b, c)
    try:
        return _THREE_PUNGS[key]
    except KeyError:
        got = _THREE_PUNGS[key] = three_pungs_fan(a, b, c)
        return got


def _no_pung_fan(t: list[int]) -> bool:
    """Whether pungs of ``t`` surely earn no fan: no two suited pungs of one number
    (双同刻, 三同刻), fewer than two dragons (双箭刻, 大三元) and three winds (三风刻,
    大四喜), no three suited numbers in a row (一色 / 三色三节高, 一色四节高)."""
    ranks = dragons = winds = 0
    for x in t:
        if x < 27:
            bit = 1 << x % 9
            if ranks & bit:
                return False
            ranks |= bit
        elif x >= 31:
            dragons += 1
        else:
            winds += 1
    return dragons < 2 and winds < 3 and not ranks & ranks >> 1 & ranks >> 2


def pung_fans(t: list[int]) -> Combo:
    """:func:`.combos.pung_fans`: fans among 2-4 pungs/kongs (tiles, search order)."""
    n = len(t)
    if _no_pung_fan(t):
        return []
    if n == 4:
        fan = four_pungs_fan(t)
        if fan:
            return [(fan, (0, 1, 2, 3))]
        for a, b, c, free in _TRIPLES:
            fan = _three_pungs(t[a], t[b], t[c])
            if fan:
                out: Combo = [(fan, (a, b, c))]
                for i in range(4):
                    if i == free:
                        continue
                    extra = two_pungs_fan(t[i], t[free])
                    if extra:
                        out.append((extra, (i, free)))
                        break
                return out
        pairs: tuple[tuple[int, int], ...] = _PAIRS4
    elif n == 3:
        fan = _three_pungs(t[0], t[1], t[2])
        if fan:
            return [(fan, (0, 1, 2))]
        pairs = ((0, 1), (0, 2), (1, 2))
    elif n == 2:
        pairs = ((0, 1),)
    else:
        return []
    res: Combo = []
    for i, j in pairs:
        f = two_pungs_fan(t[i], t[j])
        if f:
            res.append((f, (i, j)))
    return res
